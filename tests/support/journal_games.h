// What the end-to-end tests of the round-by-round kinds share (tests/adaptive_e2e_test.cpp,
// tests/final_e2e_test.cpp): a fixture that runs the real `arena` in a scratch folder, and the games of a
// results folder's journal as they compare them (each game's id, round, engines, and one line with its moves
// and result).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "tests/e2e_util.h"

namespace kalah::e2e {

// `arena` run in a scratch folder (its working directory), with configs written there.
class ArenaRunTest : public ::testing::Test {
 protected:
  RunResult arena(std::vector<std::string> args) {
    args.insert(args.begin(), kArena.string());
    return run(args, tmp_.path(), std::chrono::milliseconds(180000));
  }

  fs::path write_config(const std::string& text, const std::string& file) {
    const fs::path path = tmp_.path() / file;
    write_file(path, text);
    return path;
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

struct JournalGame {
  std::string id;
  int round = 0;
  std::string south, north, line;
};

inline std::vector<JournalGame> journal_of(const fs::path& dir) {
  std::vector<JournalGame> out;
  for (const std::string& line : read_lines(dir / "games.jsonl")) {
    const boost::json::object o = boost::json::parse(line).as_object();
    JournalGame g;
    g.id = std::string(o.at("id").as_string());
    g.round = static_cast<int>(o.at("round").as_int64());
    g.south = std::string(o.at("south").as_string());
    g.north = std::string(o.at("north").as_string());
    g.line = g.south + " " + g.north + " " + boost::json::serialize(o.at("moves")) + " " +
             boost::json::serialize(o.at("result"));
    out.push_back(std::move(g));
  }
  return out;
}

// Each game's line by its id.
inline std::map<std::string, std::string> games_by_id(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const JournalGame& g : journal_of(dir)) out[g.id] = g.line;
  return out;
}

// The standings as they decide a ranking: each engine's name, rank, rank interval, points and Elo, a line each.
inline std::string ranks_of(const fs::path& dir) {
  std::string out;
  const boost::json::value standings = boost::json::parse(read_file(dir / "standings.json"));
  for (const boost::json::value& e : standings.at("engines").as_array())
    for (const char* key : {"name", "rank", "rank_low", "rank_high", "points", "elo"})
      out += boost::json::serialize(e.at(key)) + (std::string(key) == "elo" ? "\n" : " ");
  return out;
}

// Keeps the first `games` lines of a journal, as a run killed after that game leaves it.
inline void cut_journal(const fs::path& dir, std::size_t games) {
  std::vector<std::string> lines = read_lines(dir / "games.jsonl");
  if (lines.size() > games) lines.resize(games);
  std::string kept;
  for (const std::string& l : lines) kept += l + "\n";
  write_file(dir / "games.jsonl", kept);
}

}  // namespace kalah::e2e
