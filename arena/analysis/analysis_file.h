// analysis.jsonl: what perfect play says about each ply of each game of a results folder (`arena
// analyse`, docs/ANALYSIS.md, docs/FORMATS.md). One line per game, in the order the analysis finished
// them:
//   {"id":"r1-g3","value":[4,4,-2,null,...],"loss":[0,6,0,null,...]}
// with one entry per ply of the game's `moves` (the opening's plies included):
//   value[i]: the final store difference (the mover's store minus the other's, the seeds already in
//             the stores included) that the player making ply i gets with perfect play from the
//             position before it;
//   loss[i]:  value[i] minus the same figure for the position after ply i (perfect play from then
//             on), from the same player's view: 0 for a perfect move, never negative;
//   null:     not proved within the budget.
// It is not a journal (no game is in it) and reading it never changes one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::analysis {

inline constexpr const char* kAnalysisFile = "analysis.jsonl";

struct GameAnalysis {
  std::string id;
  std::vector<std::optional<int>> value;  // one per ply
  std::vector<std::optional<int>> loss;   // one per ply

  friend bool operator==(const GameAnalysis&, const GameAnalysis&) = default;
};

// One line of analysis.jsonl, with its '\n'.
std::string to_line(const GameAnalysis& g);
// Parses one line (without its '\n'). Errors say what is wrong: not JSON, a missing or extra key, an
// entry that is not an integer or null, value and loss of different lengths, a negative loss, a
// value or loss outside what any board could hold (|x| > 2 * 16 * 32 seeds), a loss without its value.
Expected<GameAnalysis> from_line(std::string_view line);

// A whole file, read as untrusted bytes: never through a symbolic link, a regular file only, each
// line at most kMaxLineBytes, streamed: one line in memory at a time.
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// What reading the lines saw besides the lines it handed out.
struct AnalysisLines {
  std::size_t lines = 0;  // whole lines parsed and handed out
  // The byte offset where an unparsable or unfinished last line starts (a run killed mid-write):
  // the analysis resumes by cutting the file there. None when every line is whole.
  std::optional<std::uintmax_t> torn_at;
  std::string torn_reason;
};
// Hands each whole line, parsed, to `line` with its 1-based number, in file order, and keeps none: what to
// keep is the caller's (a line for a game that no journal holds is not worth a byte). `line` returns an
// error text to stop the reading with it. A missing file has no lines. Errors: not a regular file, a
// link, unreadable, a bad line before the last ("analysis.jsonl:LINE: message"), a line longer than
// kMaxLineBytes, `line`'s own.
using AnalysisLineVisitor = std::function<std::optional<std::string>(GameAnalysis&&, int line)>;
Expected<AnalysisLines> read_analysis_lines(const std::filesystem::path& file, const AnalysisLineVisitor& line);

// The games an analysis is read against: each game of the journals by id, with its number of plies. A line is
// kept only for one of these and with one entry per ply; so what is kept is bounded by the journals (16
// bytes a ply of a game analysed), whatever the file holds.
using JournalPlies = std::unordered_map<std::string, std::size_t>;

// An analysis read against the journals' games (`arena report`): the first line of each game that fits it.
struct AnalysisFile {
  std::map<std::string, GameAnalysis> games;  // by id: games of the journals, one entry per ply
  // Lines of games of the journals with another number of plies than the game: id -> the line's plies.
  std::map<std::string, std::size_t> misfits;
  std::size_t duplicates = 0;  // later lines for a game of the journals seen before (the first counts)
  // Lines for games that no journal holds: how many, and the smallest ids among them (at most kNamedUnknown),
  // for the warnings that name them.
  std::size_t unknown = 0;
  std::set<std::string> unknown_named;
  static constexpr std::size_t kNamedUnknown = 20;
  std::optional<std::uintmax_t> torn_at;  // as AnalysisLines
  std::string torn_reason;
};
// A missing file is an empty analysis. Errors: as read_analysis_lines.
Expected<AnalysisFile> read_analysis(const std::filesystem::path& file, const JournalPlies& journal);

}  // namespace kalah::analysis
