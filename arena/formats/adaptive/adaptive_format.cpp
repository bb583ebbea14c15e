#include "arena/formats/adaptive/adaptive_format.h"

#include <algorithm>
#include <tuple>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/report/rank_interval_report.h"
#include "arena/schedule/rounds.h"

namespace kalah::formats::adaptive {
namespace {

using arena::AdaptiveEnd;
using arena::AdaptiveProgress;
using arena::Config;
using arena::FinalEntrant;
using arena::TournamentConfig;

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

// Each round from the Elo fit of the results so far, its rounds kept between calls (arena/schedule/adaptive.h), so
// that asking at the end of a run costs no replay of the journal.
class AdaptivePairing : public arena::RoundPairing {
 public:
  explicit AdaptivePairing(const Config& config) : config_(config), replay_(arena::adaptive_plan(config)) {}
  std::vector<arena::GameSpec> due(const arena::GameResults& results) override {
    return arena::adaptive_games_due(config_, replay_, results);
  }
  // Its budget, the most it plays (fewer when its order settles or its target width is reached first).
  int least_games() const override { return config_.tournament.budget_games; }
  bool open_ended() const override { return false; }
  // Its rounds as far as `results` go.
  const AdaptiveProgress& progress(const arena::GameResults& results) { return replay_.update(results); }

 private:
  const Config& config_;
  arena::AdaptiveReplay replay_;
};

class Adaptive : public RoundsFormat {
 public:
  Adaptive() : RoundsFormat(kType) {}
  std::unique_ptr<arena::RoundPairing> pairing(const Config& config) const override {
    return std::make_unique<AdaptivePairing>(config);
  }

 protected:
  std::string games_text(const Config& config) const override {
    const TournamentConfig& t = config.tournament;
    if (!t.boundaries.empty())
      return fmt::format(
          "a final: game pairs among the engines whose rank interval straddles a boundary ({}), at most {} games",
          places_text(t.boundaries), t.budget_games);
    return fmt::format("game pairs where the order is open, at most {} games{}", t.budget_games,
                       t.target_width > 0
                           ? fmt::format(" (until every rank interval spans at most {} more places)", t.target_width)
                           : "");
  }
  // How far it went: its rounds and games, why it ended; a final's decisions.
  std::string end_text(const Config& config, const arena::TournamentDescription&,
                       arena::RoundSource& source) const override {
    // The source's pairing is this format's own.
    const AdaptiveProgress& p = static_cast<AdaptivePairing&>(source.pairing()).progress(source.results());
    if (!config.tournament.boundaries.empty()) return final_text(config, p);
    return fmt::format("adaptive pairing: {} rounds, {} of at most {} games; ended: {}\n", p.rounds.size(),
                       p.games_paired, config.tournament.budget_games, to_string(p.end));
  }
  void plan_head(const Config& config, const std::vector<arena::GameSpec>& first) const override {
    const TournamentConfig& t = config.tournament;
    if (!t.boundaries.empty()) {
      fmt::print(
          "{}: adaptive final {} engines, boundaries {}, at most {} games, paired round by round (not shardable)\n",
          t.name, config.engines.size(), fmt::join(t.boundaries, ", "), t.budget_games);
      fmt::print(
          "round 1 has {} games (below: the first of each pair; --ids: both), every later round pairs the engines "
          "whose 95% rank interval straddles a boundary, from the results of the rounds before it "
          "(docs/SCHEDULE.md)\n",
          first.size());
    } else {
      fmt::print("{}: adaptive {} engines, at most {} games, paired round by round (not shardable)\n", t.name,
                 config.engines.size(), t.budget_games);
      fmt::print(
          "round 1 has {} games (below: the first of each pair; --ids: both), every later round pairs engines "
          "adjacent in the Elo order whose order is still open, from the results of the rounds before it "
          "(docs/SCHEDULE.md)\n",
          first.size());
    }
  }
};

}  // namespace

const Format& format() {
  static const Adaptive f;
  return f;
}

}  // namespace kalah::formats::adaptive
