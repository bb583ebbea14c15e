// play_rounds: a Swiss, knockout or adaptive tournament, paired round by round from its results.
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/flow/progress.h"
#include "arena/flow/tournament_meta.h"
#include "arena/flow/tournaments.h"
#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "arena/runner/round_source.h"

namespace kalah::arena {
namespace {

class RoundsListener : public RunListener {
 public:
  RoundsListener(const Config& config, std::unique_ptr<RoundPairing> pairing, const RoundsText& text, std::FILE* out)
      : config_(config), text_(text), out_(out), source_(config, std::move(pairing)) {}

  void resumed(const GameRecord& record) override { source_.add_journaled(record); }

  GameSource& start(const journal::Journal& journal, const TournamentDescription& description,
                    const rating::StandingsBuilder& done) override {
    all_ = &done;
    description_ = description;
    const TournamentConfig& t = config_.tournament;
    const std::string games = text_.games(config_);
    fmt::print(out_, "{}: {} {} engines, {} ({} done), {}, {}, concurrency {}\n", t.name, to_string(t.type),
               config_.engines.size(), games, journal.size(), to_string(config_.variant), config_.time.describe(),
               t.concurrency);
    std::fflush(out_);
    progress_.emplace(source_.total(), done, t.progress_interval, t.rating_interval, out_);
    return source_;
  }

  int planned_games() const override { return source_.total() > 0 ? source_.total() : 0; }

  void game_done(const GameRecord& record, const rating::StandingsBuilder& all) override {
    progress_->game_done(record, all);
  }

  void stopped(const RunResult&) override { progress_->finish(*all_); }

  // The format's end text: the Swiss table or the bracket as the results now stand, how far an adaptive run went.
  std::string form_text() { return text_.end(config_, description_, source_); }

 private:
  const Config& config_;
  const RoundsText& text_;
  std::FILE* out_;
  RoundSource source_;
  TournamentDescription description_;  // for the form: its type, rounds and tie-break pairs (from start)
  std::optional<Progress> progress_;
  const rating::StandingsBuilder* all_ = nullptr;
};

}  // namespace

Expected<int> play_rounds(const Config& config, std::unique_ptr<RoundPairing> pairing, const RoundsText& text,
                          const FlowOptions& options, std::FILE* out) {
  RoundsListener listener(config, std::move(pairing), text, out);
  Expected<FlowResult> played = run_tournament(config, listener, options);
  if (!played) return Error{played.error()};
  const FlowResult& r = *played;
  if (std::optional<int> code = report_interruption(r, out)) return *code;
  fmt::print(out, "{}\n{}\n", listener.form_text(), report::format_standings_table(r.standings));
  fmt::print(out, "results: {}/ ({})\n", r.dir.string(), fmt::join(r.reports, ", "));
  return 0;
}

}  // namespace kalah::arena
