#include "arena/season/final.h"

#include <fmt/core.h>

#include "arena/contest/entries.h"
#include "arena/formats/adaptive/adaptive_format.h"
#include "arena/formats/round_robin/round_robin_format.h"
#include "arena/season/pseudonyms.h"

namespace kalah::season {

namespace {

// The contest's record of each frozen revision, as it was built when the freeze found it entered: entered here,
// whatever became of it since (a revision processed after the freeze may have superseded it on the ladder).
Expected<arena::Entries> frozen_entries(const arena::Config& contest, const FreezeRecord& frozen) {
  Expected<arena::Entries> read = arena::read_entries(contest.entries_file());
  if (!read) return Error{read.error()};
  arena::Entries all = std::move(read).value();
  arena::Entries out;
  for (const FrozenAuthor* a : frozen.finalists()) {
    const arena::Submission* s = all.by_name(a->engine);
    if (!s || !s->ever_entered())
      return Error{fmt::format("{}: the frozen revision {} is not among the contest's entrants", a->author, a->engine)};
    if (s->source_digest != a->source_digest)
      return Error{
          fmt::format("{}: {} in {} was built from {}, not from the frozen {}: it is not the revision the "
                      "season froze",
                      a->author, a->engine, contest.entries_file().string(), s->source_digest, a->source_digest)};
    arena::Submission entered = *s;
    entered.status = arena::SubmissionStatus::Entered;
    entered.reason.clear();
    out.submissions.push_back(std::move(entered));
  }
  return out;
}

// The final's kind: a round robin of the contest's rounds, or the adaptive kind with boundaries.
std::optional<std::string> set_format(const SeasonConfig& season, arena::Config& config) {
  arena::TournamentConfig& t = config.tournament;
  t.budget_games = 0;
  t.target_width = 0;
  t.boundaries.clear();
  t.seed_engines.clear();
  if (season.final_format == FinalFormat::RoundRobin) {
    t.type = formats::round_robin::kType;
    return std::nullopt;
  }
  if (season.final_format == FinalFormat::Staged) {
    // Round robins stage by stage (arena/formats/staged), on boards a perfect-play analysis may not reach.
    t.type = formats::round_robin::kType;
    t.stages = season.final_stages;
    config.analysis.reset();
    return std::nullopt;
  }
  t.type = formats::adaptive::kType;
  t.budget_games = season.final_budget_games;
  t.boundaries = season.final_boundaries;
  const int engines = static_cast<int>(config.engines.size());
  for (int k : t.boundaries)
    if (k >= engines)
      return fmt::format(
          "{}season.final_boundaries: the boundary {} lies between two places, so it is less than the "
          "number of engines in the final ({})",
          season.final_boundaries_at, k, engines);
  // Ranked by Elo as every adaptive tournament; the reports give each engine's chance of each declared place.
  config.ranking = {};
  config.ranking.cuts = t.boundaries;
  return std::nullopt;
}

}  // namespace

Expected<arena::Config> final_config(const SeasonConfig& season, const FreezeRecord& frozen) {
  if (frozen.final != describe_final(season))
    return Error{
        fmt::format("{}: the final is declared \"{}\", but the season was frozen with \"{}\" ({}): the final "
                    "is the one declared when the season was frozen",
                    (season.dir / kSeasonFile).string(), describe_final(season), frozen.final,
                    (season.dir / kFreezeFile).string())};
  if (std::optional<std::string> error = check_frozen_names(season, frozen)) return Error{*error};
  arena::Config config = season.contest;
  Expected<arena::Entries> entries = frozen_entries(config, frozen);
  if (!entries) return Error{entries.error()};
  if (!season.final_sparring) {
    config.engines.clear();
    config.house_engines = 0;
    config.rating = {};  // its anchor may be a sparring partner
  }
  const std::size_t engines = config.engines.size() + entries->submissions.size();
  if (engines < 2)
    return Error{fmt::format("the final needs at least two engines; {} names {} frozen revision{}{}",
                             (season.dir / kFreezeFile).string(), entries->submissions.size(),
                             entries->submissions.size() == 1 ? "" : "s",
                             season.final_sparring ? "" : " (and final_sparring is off)")};
  // The entrants first, under the contest's name: their built copies are in the contest's results folder.
  if (std::optional<std::string> error = arena::add_entrants(config, *entries)) return Error{*error};
  config.tournament.name = kFinalName;
  config.tournament.pgnout.clear();
  if (std::optional<std::string> error = set_format(season, config)) return Error{*error};
  return config;
}

Expected<arena::Config> final_config(const SeasonConfig& season) {
  Expected<std::optional<FreezeRecord>> frozen = read_freeze(season.dir);
  if (!frozen) return Error{frozen.error()};
  if (!*frozen)
    return Error{
        fmt::format("the season {} is not frozen: `arena season freeze {}` first fixes the revisions the "
                    "final plays",
                    season.dir.string(), (season.dir / kSeasonFile).string())};
  return final_config(season, **frozen);
}

}  // namespace kalah::season
