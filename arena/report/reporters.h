// One reporter per output format (docs/FORMATS.md). Each turns the standings
// and/or the game records into the text of one file; none of them does I/O.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "arena/rating/standings.h"
#include "arena/report/context.h"
#include "arena/report/elo_history.h"
#include "arena/report/move_quality.h"
#include "referee/record/record.h"

namespace kalah::report {

// The reports render the standings that arena/rating computes.
using rating::CrossCell;
using rating::EngineStanding;
using rating::FirstMover;
using rating::Standings;

// What a report says besides the standings: where its games came from when that is not simply
// one finished journal (a merge with incomplete shards, ...), one sentence each, and where a note has one, a
// page or file that says more, relative to the report (a contest's submission page): report.html and
// standings.md link to it; standings.json and the terminal have the sentence.
struct Note {
  std::string text;
  std::string link;
  Note(std::string text_, std::string link_ = {}) : text(std::move(text_)), link(std::move(link_)) {}  // NOLINT
  Note(const char* text_) : text(text_) {}                                                             // NOLINT
  friend bool operator==(const Note&, const Note&) = default;
};
using Notes = std::vector<Note>;

// `quality`: every reporter of the standings shows each engine's move quality when the results have an
// analysis (move_quality.h); without one (nullptr) the reports are exactly what they were before it existed.
//
// `form`: a Swiss or knockout tournament's own standings (form_json: {"swiss": ...} or {"knockout": ...}),
// added to the top-level object.
std::string standings_json(const Standings& standings, const std::string& event, const Notes& notes = {},
                           const std::string& form = {}, const MoveQuality* quality = nullptr);  // standings.json
// `form`: the section of a form with standings of its own (form_report.h), shown before the rating list.
std::string standings_markdown(const Standings& standings, const std::string& event, const Notes& notes = {},
                               const Context& context = {}, const std::string& form = {},
                               const MoveQuality* quality = nullptr);                         // standings.md
std::string standings_csv(const Standings& standings, const MoveQuality* quality = nullptr);  // standings.csv
// games.pgn is the games one after the other.
// `time_control`: the PGN TimeControl tag ("10+0.1", "-"; "?" when unknown). With time odds, `white` and
// `black` are the two engines' own: TimeControl is then "?" and WhiteTimeControl/BlackTimeControl follow.
std::string pgn_game(const GameRecord& game, const std::string& event, const std::string& time_control = "?",
                     const std::string& white = "", const std::string& black = "");
std::string games_pgn(const std::vector<GameRecord>& games, const std::string& event,
                      const std::string& time_control = "?");
// report.html. `shown` are the games its viewer embeds: all of them, or the last ones of a big run
// (`total_games` says how many there are in all; 0 means all are shown). `bot_pages`: each engine's name in
// the standings links to its page, bots/<name>.html (bot_pages.h), written beside it. `judgements`: empty, or
// one per shown game, its analysis where it has one (the viewer shows each ply's loss and the move that lost).
std::string report_html(const Standings& standings, const std::vector<GameRecord>& shown, const std::string& event,
                        const Notes& notes = {}, std::size_t total_games = 0, const Context& context = {},
                        const EloHistory& history = {}, const std::string& form = {}, bool bot_pages = false,
                        const MoveQuality* quality = nullptr,
                        const std::vector<std::optional<analysis::GameJudgement>>& judgements = {});

// The standings as a plain-text table for the terminal (printed live during a run).
std::string format_standings_table(const Standings& standings, const MoveQuality* quality = nullptr);

}  // namespace kalah::report
