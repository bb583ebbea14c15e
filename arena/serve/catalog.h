// What `arena serve` serves (docs/SERVE.md): the tournaments found in the folders named at start, each under
// a name of its own, and the API's documents about them. A tournament's standings are the standings.json that
// the report service (arena/report/report_service.h) writes for its folder, written into a private folder of
// the server's, so that the served document and the file can never disagree; a game is its journal line.
// Both are cached per tournament by the sizes and times of the files they are computed from. Pure of Asio and
// Beast; one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/analysis/quality.h"
#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::serve {

// A response's status and JSON body.
struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::string policy = "default-src 'none'";  // its Content-Security-Policy
};

// A folder is rescanned at most this often; a tournament that appears is listed within it.
inline constexpr std::chrono::milliseconds kRescanInterval{1000};
// How many entries of a folder of tournaments are looked at, at most.
inline constexpr std::size_t kMaxFolderEntries = 10000;
// The largest standings.json served (it grows with the engines, not the games).
inline constexpr std::uintmax_t kMaxStandingsBytes = 64u << 20;

class Catalog {
 public:
  // `dirs`: the folders named on the command line, each a tournament's results folder or a folder of them;
  // each must be a folder, not a link (an error naming it otherwise). `cache`: an existing private folder
  // for the reports the standings are read from.
  static Expected<Catalog> open(const std::vector<std::filesystem::path>& dirs, std::filesystem::path cache);

  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;
  ~Catalog();

  // Looks at the folders again when the last look is kRescanInterval old or older (or `now` is true).
  void refresh(bool now = false);

  Reply tournaments();                       // GET /api/tournaments
  Reply standings(const std::string& name);  // GET /api/tournaments/NAME/standings
  // GET /api/tournaments/NAME/games?after=ID&limit=N: the finished games in journal order, from after the game
  // `after` (from the first without it), at most `limit`.
  Reply games(const std::string& name, const std::optional<std::string>& after, std::size_t limit);
  Reply game(const std::string& name, const std::string& id);  // the game's journal line
  // GET /api/tournaments/NAME/games/ID: the journal line, with `"analysis"` (the game's line of analysis.jsonl) added
  // when the tournament's analysis has one.
  Reply analysed_game(const std::string& name, const std::string& id);
  // The tournament's analysis of `game` (its folder's analysis.jsonl, read as `arena report` reads it: the first
  // line of the game's id with one entry per ply) joined with it; none without one, or when it does not fit.
  std::optional<analysis::GameJudgement> judgement(const std::string& name, const GameRecord& game);
  // The names listed now, with their folders, in the order of the list.
  std::vector<std::pair<std::string, std::filesystem::path>> names() const;

 private:
  // The game's line of the tournament's analysis.jsonl, if it has one that fits the game.
  std::optional<analysis::GameAnalysis> analysis_of(const std::string& name, const GameRecord& game);
  struct State;
  explicit Catalog(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The folders of a tournament that hold a journal: its own and each shards/I-of-N/ (never through a link).
std::vector<std::filesystem::path> journal_folders(const std::filesystem::path& dir);

// A small JSON error document: {"error": "..."}.
std::string error_json(std::string_view message);

}  // namespace kalah::serve
