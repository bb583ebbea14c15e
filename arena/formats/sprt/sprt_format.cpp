#include "arena/formats/sprt/sprt_format.h"

#include <fmt/core.h>

#include "arena/flow/tournaments.h"

namespace kalah::formats::sprt {
namespace {

class Sprt : public Format {
 public:
  std::string_view name() const override { return "sprt"; }
  bool plays(const arena::Config& config) const override { return config.sprt && !config.tournament.staged(); }
  Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const override {
    return arena::play_sprt(config, options, out);
  }
  // Which shard plays which game pairs.
  int plan(const arena::Config& config, int shards, bool) const override {
    fmt::print("{}: SPRT '{}' (test) vs '{}' (base), open-ended, as {} streams\n", config.tournament.name,
               config.engines[1].name, config.engines[0].name, shards);
    fmt::print(
        "game pair k (ids sprt-pK-g0, sprt-pK-g1) is played by shard k mod {} + 1; every shard reads the "
        "others' journals and all stop when the test decides\n",
        shards);
    for (int i = 1; i <= shards; ++i)
      fmt::print("shard {}/{}: pairs {}, {}, {}, ...\n", i, shards, i - 1, i - 1 + shards, i - 1 + 2 * shards);
    return 0;
  }
};

}  // namespace

const Format& format() {
  static const Sprt f;
  return f;
}

}  // namespace kalah::formats::sprt
