#include "arena/formats/staged/staged_format.h"

#include <fmt/core.h>

#include "arena/formats/staged/staged_play.h"

namespace kalah::formats::staged {
namespace {

class Staged : public Format {
 public:
  std::string_view name() const override { return "staged"; }
  bool plays(const arena::Config& config) const override { return config.tournament.staged(); }
  Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const override {
    return kalah::staged::play_staged(config, options, out);
  }
  // What is known before it starts: its stages; who plays each depends on the stage before.
  int plan(const arena::Config& config, int, bool) const override {
    const arena::TournamentConfig& t = config.tournament;
    fmt::print(
        "{}: staged {} engines, {} stages, each a round robin of the engines the stage before leaves in (not "
        "shardable)\n",
        t.name, config.engines.size(), t.stages.size());
    for (std::size_t k = 0; k < t.stages.size(); ++k)
      fmt::print("stage {}: {}, {} colour-swapped game pair{} per pairing\n", k + 1, to_string(t.stages[k].variant),
                 t.stages[k].rounds, t.stages[k].rounds == 1 ? "" : "s");
    return 0;
  }
};

}  // namespace

const Format& format() {
  static const Staged f;
  return f;
}

}  // namespace kalah::formats::staged
