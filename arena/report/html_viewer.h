// The game viewer of report.html (html_report.cpp): its script, and the games it embeds, each with the
// board after every ply computed here by the rules library, so that the page needs no Kalah rules of its own
// and always shows exactly what the referee played.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/analysis/quality.h"
#include "referee/record/record.h"

namespace kalah::report {

// The style sheet of report.html, the viewer's included (the game page of `arena serve` uses it too).
std::string_view html_style();

// The viewer's markup: the game list and its filter, the board, its controls and the graph, the elements the
// viewer's script works on. `analysis`: with the line that names the move that lost the game.
std::string viewer_html(bool analysis);

// The viewer's script. `analysis`: with what it adds for a page with an analysis (each ply's loss, the move
// that lost the game).
std::string viewer_script(bool analysis);

// The `games-data` element's text (JSON, safe inside HTML): per game its replay, and with a judgement (one
// per game where it has one, or none) each ply's value and loss and the move that lost.
std::string viewer_games_json(const std::vector<GameRecord>& games,
                              const std::vector<std::optional<analysis::GameJudgement>>& judgements);

}  // namespace kalah::report
