// The standings of a tournament form that has its own: a Swiss tournament's points table with the
// Buchholz tie-break and its rounds, a knockout's bracket. They are replayed from the games' results
// exactly as the tournament paired them (arena/schedule/swiss.h, knockout.h), so `arena report DIR`
// draws them from the journal alone. Renderers do no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/description.h"
#include "arena/rating/standings.h"
#include "arena/schedule/knockout.h"
#include "arena/schedule/swiss.h"

namespace kalah::report {

struct TournamentForm {
  std::vector<std::string> names;  // engines in config order (the seeding)
  int rounds = 0;                  // Swiss rounds, or game pairs per knockout match
  int tiebreak_pairs = 0;          // knockout
  std::optional<arena::SwissProgress> swiss;
  std::optional<arena::KnockoutProgress> knockout;
  arena::GameResults results;  // for the scores of the Swiss boards
};

// From the tournament's description (its type, rounds and tie-break pairs), the engine names in config order
// and the finished games' results (arena::GameResults: by id, the South engine's score). nullopt for the
// forms whose standings are the rating list alone (round robin, gauntlet, SPRT) or a description without them.
std::optional<TournamentForm> tournament_form(const arena::TournamentDescription& description,
                                              const std::vector<std::string>& names, const arena::GameResults& results);

// The tournament's ranking, which every table of its standings follows (docs/SCHEDULE.md): a Swiss
// tournament's standings (points with the byes', Buchholz, seed), a knockout's round reached.
rating::FormOrder form_order(const TournamentForm& form);
// What rating::StandingsBuilder::set_form takes for a tournament of this description and engines (config
// order): form_order replayed from the results of the games added. Empty for the other forms.
rating::FormRanker form_ranker(const arena::TournamentDescription& description, const std::vector<std::string>& names);

std::string form_text(const TournamentForm& form);  // for the terminal
// A "## Swiss standings" or "## Knockout bracket" section, and the heading of the rating list after it.
std::string form_markdown(const TournamentForm& form);
std::string form_html(const TournamentForm& form);  // a <section> of report.html
// standings.json's member for the form (docs/schema/standings.schema.json) as the text of a JSON object
// with that one member: {"swiss": {...}} or {"knockout": {...}}.
std::string form_json(const TournamentForm& form);

}  // namespace kalah::report
