// play_rounds: a Swiss, knockout or adaptive tournament, paired round by round from its results.
#include <algorithm>
#include <optional>
#include <tuple>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/flow/progress.h"
#include "arena/flow/tournament_meta.h"
#include "arena/flow/tournaments.h"
#include "arena/rating/standings.h"
#include "arena/report/form_report.h"
#include "arena/report/rank_interval_report.h"
#include "arena/report/reporters.h"
#include "arena/runner/round_source.h"

namespace kalah::arena {
namespace {

std::string places_text(const std::vector<int>& places) { return fmt::format("{}", fmt::join(places, ", ")); }

std::string interval_text(const FinalEntrant& e) {
  return e.low == e.high ? report::ordinal(e.low) : report::ordinal(e.low) + "–" + report::ordinal(e.high);
}

// Each boundary's decision: the entrants whose interval lies wholly above it, or "open" while one straddles it.
std::string decisions_text(const Config& config, const AdaptiveProgress& p) {
  std::vector<std::string> parts;
  for (int k : config.tournament.boundaries) {
    std::vector<std::tuple<int, int, std::string>> above;  // best place first
    int straddling = 0;
    for (std::size_t e = 0; e < p.entrants.size(); ++e) {
      const FinalEntrant& f = p.entrants[e];
      if (f.low <= k && k < f.high) ++straddling;
      if (f.high >= 1 && f.high <= k) above.emplace_back(f.low, f.high, config.engines[e].name);
    }
    std::sort(above.begin(), above.end());
    std::vector<std::string> top;
    for (const auto& [low, high, name] : above) top.push_back(name);
    parts.push_back(straddling > 0 ? fmt::format("top {}: open ({} straddle it)", k, straddling)
                                   : fmt::format("top {}: {}", k, fmt::join(top, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

// A final's last lines (docs/SCHEDULE.md, "Finals that stop themselves"): why it ended, which entrants stopped
// and when, and which are still open.
std::string final_text(const Config& config, const AdaptiveProgress& p) {
  const TournamentConfig& t = config.tournament;
  std::string out = fmt::format("final: {} rounds, {} of at most {} games; ended: {}", p.rounds.size(), p.games_paired,
                                t.budget_games, to_string(p.end));
  if (p.end == AdaptiveEnd::Decided)
    out += fmt::format(" (no rank interval straddles a boundary: {})", places_text(t.boundaries));
  else if (p.end == AdaptiveEnd::Budget)
    out += " (the budget is spent)";
  out += "\ndecisions: " + decisions_text(config, p);
  std::vector<int> stopped, open;
  for (std::size_t e = 0; e < p.entrants.size(); ++e)
    (p.entrants[e].clear_after > 0 ? stopped : open).push_back(static_cast<int>(e));
  std::stable_sort(stopped.begin(), stopped.end(), [&](int a, int b) {
    const FinalEntrant &x = p.entrants[static_cast<std::size_t>(a)], &y = p.entrants[static_cast<std::size_t>(b)];
    return std::tie(x.clear_after, x.low) < std::tie(y.clear_after, y.low);
  });
  auto name = [&](int e) { return config.engines[static_cast<std::size_t>(e)].name; };
  std::vector<std::string> lines;
  for (int e : stopped) {
    const FinalEntrant& f = p.entrants[static_cast<std::size_t>(e)];
    lines.push_back(fmt::format("{} after round {} ({} games, {})", name(e), f.clear_after, f.games, interval_text(f)));
  }
  out += fmt::format("\nstopped (interval clear of every boundary): {}",
                     lines.empty() ? "none" : fmt::format("{}", fmt::join(lines, "; ")));
  lines.clear();
  for (int e : open) {
    const FinalEntrant& f = p.entrants[static_cast<std::size_t>(e)];
    lines.push_back(f.low == 0 ? name(e) : fmt::format("{} ({})", name(e), interval_text(f)));
  }
  out += fmt::format("\nstill straddling a boundary: {}\n",
                     lines.empty() ? "none" : fmt::format("{}", fmt::join(lines, "; ")));
  return out;
}

class RoundsListener : public RunListener {
 public:
  RoundsListener(const Config& config, std::FILE* out) : config_(config), out_(out), source_(config) {}

  void resumed(const GameRecord& record) override { source_.add_journaled(record); }

  GameSource& start(const journal::Journal& journal, const TournamentDescription& description,
                    const rating::StandingsBuilder& done) override {
    all_ = &done;
    description_ = description;
    const TournamentConfig& t = config_.tournament;
    const std::string games =
        t.type == TournamentType::Swiss
            ? fmt::format("{} rounds of a game pair, {} games", t.rounds, least_games(config_))
        : t.type == TournamentType::Adaptive && !t.boundaries.empty()
            ? fmt::format(
                  "a final: game pairs among the engines whose rank interval straddles a boundary ({}), at "
                  "most {} games",
                  places_text(t.boundaries), t.budget_games)
        : t.type == TournamentType::Adaptive
            ? fmt::format("game pairs where the order is open, at most {} games{}", t.budget_games,
                          t.target_width > 0
                              ? fmt::format(" (until every rank interval spans at most {} more places)", t.target_width)
                              : "")
            : fmt::format("matches of {} game pair{} (+ up to {} tie-break), at least {} games", t.rounds,
                          t.rounds == 1 ? "" : "s", t.tiebreak_pairs, least_games(config_));
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

  // The Swiss table or the bracket as the results now stand; for an adaptive tournament, how far it went.
  std::string form_text() {
    if (config_.tournament.type == TournamentType::Adaptive) {
      const AdaptiveProgress& p = source_.adaptive_progress();
      if (!config_.tournament.boundaries.empty()) return final_text(config_, p);
      return fmt::format("adaptive pairing: {} rounds, {} of at most {} games; ended: {}\n", p.rounds.size(),
                         p.games_paired, config_.tournament.budget_games, to_string(p.end));
    }
    std::vector<std::string> names;
    for (const EngineSpec& e : config_.engines) names.push_back(e.name);
    std::optional<report::TournamentForm> form = report::tournament_form(description_, names, source_.results());
    return form ? report::form_text(*form) : "";
  }

 private:
  const Config& config_;
  std::FILE* out_;
  RoundSource source_;
  TournamentDescription description_;  // for the form: its type, rounds and tie-break pairs (from start)
  std::optional<Progress> progress_;
  const rating::StandingsBuilder* all_ = nullptr;
};

}  // namespace

Expected<int> play_rounds(const Config& config, const FlowOptions& options, std::FILE* out) {
  RoundsListener listener(config, out);
  Expected<FlowResult> played = run_tournament(config, listener, options);
  if (!played) return Error{played.error()};
  const FlowResult& r = *played;
  if (std::optional<int> code = report_interruption(r, out)) return *code;
  fmt::print(out, "{}\n{}\n", listener.form_text(), report::format_standings_table(r.standings));
  fmt::print(out, "results: {}/ ({})\n", r.dir.string(), fmt::join(r.reports, ", "));
  return 0;
}

}  // namespace kalah::arena
