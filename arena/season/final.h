// A season's final (docs/SEASON.md, "Deadline and final"): the format `[season] final` declares, played over
// exactly the revisions DIR/freeze.json names (freeze.h), into DIR/results/final as a tournament like any other:
// the one flow of `arena run` (`arena season final` resumes it from its journal), its reports, and a folder that
// `arena verify` and `arena archive` take.
#pragma once

#include "arena/config/config.h"
#include "arena/season/freeze.h"
#include "arena/season/season_config.h"
#include "referee/rules/expected.h"

namespace kalah::season {

// The final's folder under the season's results folder.
inline constexpr const char* kFinalName = "final";

// What the final plays: the season's contest (its sandbox, limits, variant, clock, openings and seed) with the
// frozen revisions as its only entrants, built as the contest built them (entries.json, each checked against the
// digest the freeze recorded), the sparring partners only with final_sparring, as a round robin (the contest's
// rounds), a progressive cutoff (adaptive, final_boundaries, final_budget_games) or stages (final_stages, played by
// arena/formats/staged; no analysis). Errors: fewer than two
// engines, a frozen revision the contest no longer has as it was built, a final declared otherwise than at the
// freeze, a boundary not below the number of finalists (at final_boundaries' place).
Expected<arena::Config> final_config(const SeasonConfig& season, const FreezeRecord& frozen);

// The same from the season's freeze record, which must exist.
Expected<arena::Config> final_config(const SeasonConfig& season);

}  // namespace kalah::season
