// What a results folder's analysis (analysis.jsonl, arena/analysis) adds to its reports: per engine how far
// its moves were from perfect play, shown beside the standings of every format, and per game the loss of
// each ply, which report.html's viewer and the bot pages show. Without an analysis none of this exists and
// every report is what it was before (docs/FORMATS.md, "Move quality").
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arena/analysis/analysis_file.h"
#include "arena/analysis/quality.h"
#include "arena/rating/standings.h"
#include "referee/record/record.h"

namespace kalah::report {

// Per engine, by name. An engine's `moves` are all its moves in the games read (forced opening plies left
// out), analysed or not, so that `judged` / `moves` shows how much of its play the analysis covers; the
// other figures are over the judged moves.
struct MoveQuality {
  std::map<std::string, analysis::EngineQuality> engines;
  std::size_t games = 0;  // games read whose analysis line fits them
  const analysis::EngineQuality* find(const std::string& engine) const;
};

// "blunder: a move that loses ≥ 4 (store difference)": every report that counts blunders says it.
std::string blunder_rule();
// What the figures are, for the reports that explain their columns: a few sentences, the last ending with '.'.
std::string move_quality_explained(const MoveQuality& q);

std::string mean_loss_text(const analysis::EngineQuality& q);  // "1.23"; "–" when no move is judged
std::string perfect_text(const analysis::EngineQuality& q);    // "71%"; "–" when no move is judged
std::string analysed_text(const analysis::EngineQuality& q);   // "120/150": judged / moves

// One results folder's analysis.jsonl, read against its journals (report::write_reports does the reading):
// only the lines of their games are kept.
struct AnalysisSource {
  std::string label;  // the file as the warnings name it: "results/x/analysis.jsonl"
  std::map<std::string, analysis::GameAnalysis> games;
  // Lines of games of the journals with another number of plies (id -> the line's plies): a warning each.
  std::map<std::string, std::size_t> misfits = {};
  // Lines for games in no journal: how many, and the smallest ids (warnings name at most kMaxAnalysisWarnings).
  std::size_t unknown = 0;
  std::set<std::string> unknown_named = {};
};

// Joins the games of a report with their analysis lines, one game at a time, as write_reports streams
// them. Memory: the analysis lines not yet met.
class MoveQualityBuilder {
 public:
  // By tournament (ReportJournal::tournament: "" for one results folder).
  explicit MoveQualityBuilder(std::map<std::string, AnalysisSource> sources);
  // Counts the game's moves for their movers and, when its tournament's analysis has a line for it that fits
  // it, judges it: the judgement is returned. A line that does not fit its game (judge_game's error) is
  // ignored with a warning; the game's moves still count as not analysed.
  std::optional<analysis::GameJudgement> add(const GameRecord& game, const std::string& tournament);
  // After the last game. The lines that no game of the journals used are warnings too.
  MoveQuality finish(std::vector<std::string>& warnings);

 private:
  void warn(std::string text);
  std::map<std::string, AnalysisSource> sources_;
  MoveQuality quality_;
  std::vector<std::string> warnings_;
  std::size_t unshown_warnings_ = 0;
};

// At most this many warnings about single analysis lines; the rest are counted in one more.
inline constexpr std::size_t kMaxAnalysisWarnings = 20;

// The tables beside the standings, one row per engine, ranked by mean loss (the least first; a tie shares its
// rank, "2="; engines without a judged move last, unranked), not by the standings' rank; each says so.
std::string move_quality_order_text();                                            // that order in words, one sentence
std::string move_quality_text(const rating::Standings& s, const MoveQuality& q);  // terminal
std::string move_quality_markdown(const rating::Standings& s, const MoveQuality& q);  // a "## Move quality"
std::string move_quality_html(const rating::Standings& s, const MoveQuality& q);      // an <h2> section
// standings.csv's columns: ",mean_loss,perfect_pct,blunders_loss_ge_4,judged_moves,moves", and one row's cells.
std::string move_quality_csv_header();
std::string move_quality_csv_cells(const analysis::EngineQuality* q);

}  // namespace kalah::report
