// Golden files: the text people read, compared byte for byte with the files in tests/golden/.
//   help/    `arena --help`, `referee --help` and the --help of every subcommand, from the executables;
//   report/  the terminal table, standings.json/.md/.csv, games.pgn and the journal lines (games.jsonl)
//            of eight fixed games between three engines (eight_games/) and of one of them (one_game/).
// A difference fails with a diff. When the new text is what you meant, regenerate the files and
// review them with the change:
//   tools/update-golden.sh      (runs this test with KALAH_UPDATE_GOLDEN=1, which writes the files)
//
// The games are played in code with seeded random moves, so they are legal and their records are
// what the referee would write; every field that a real run fills from the clock (start time,
// durations, move times) is a fixed number here.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "referee/record/record.h"
#include "referee/record/record_json.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = KALAH_SOURCE_DIR "/tests/golden";
const char* const kUpdateVariable = "KALAH_UPDATE_GOLDEN";
const char* const kUpdateCommand = "tools/update-golden.sh";

bool updating() {
  const char* value = std::getenv(kUpdateVariable);
  return value != nullptr && std::string(value) == "1";
}

// ---------------------------------------------------------------------------------------------
// Comparing with a golden file

// The lines of a text, each with its '\n' (the last one may have none), so that a missing final
// newline is a difference like any other.
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size() - 1);
    lines.push_back(text.substr(begin, end + 1 - begin));
    begin = end + 1;
  }
  return lines;
}

// A unified diff (3 lines of context) from `expected` to `actual`, through a longest common
// subsequence of lines: the files are short, so the quadratic table is cheap.
std::string unified_diff(const std::string& expected, const std::string& actual) {
  const std::vector<std::string> a = split_lines(expected);
  const std::vector<std::string> b = split_lines(actual);
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);

  // The edit script: ' ' kept, '-' only in expected, '+' only in actual.
  struct Edit {
    char op;
    std::size_t i, j;  // line numbers (0-based) before this edit in expected and actual
  };
  std::vector<Edit> edits;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      edits.push_back({' ', i++, j++});
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      edits.push_back({'-', i++, j});
    } else {
      edits.push_back({'+', i, j++});
    }
  }

  constexpr std::size_t kContext = 3;
  std::string out;
  std::size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].op == ' ') {
      ++k;
      continue;
    }
    // A hunk: from kContext lines before this change to kContext lines after the last change
    // that is no more than 2 * kContext kept lines further on.
    const std::size_t first = k >= kContext ? k - kContext : 0;
    std::size_t last = k;  // one past the last change
    for (std::size_t p = k, kept = 0; p < edits.size() && kept <= 2 * kContext; ++p) {
      if (edits[p].op == ' ') {
        ++kept;
      } else {
        kept = 0;
        last = p + 1;
      }
    }
    const std::size_t end = std::min(edits.size(), last + kContext);
    std::size_t old_count = 0, new_count = 0;
    for (std::size_t p = first; p < end; ++p) {
      if (edits[p].op != '+') ++old_count;
      if (edits[p].op != '-') ++new_count;
    }
    // As diff -u: a range of no lines starts at the line before it.
    const std::size_t old_start = edits[first].i + (old_count > 0 ? 1 : 0);
    const std::size_t new_start = edits[first].j + (new_count > 0 ? 1 : 0);
    out += "@@ -" + std::to_string(old_start) + "," + std::to_string(old_count) + " +" + std::to_string(new_start) +
           "," + std::to_string(new_count) + " @@\n";
    for (std::size_t p = first; p < end; ++p) {
      const Edit& e = edits[p];
      const std::string& line = e.op == '+' ? b[e.j] : a[e.i];
      out += e.op + line;
      if (line.back() != '\n') out += "\n\\ No newline at end of file\n";
    }
    k = end;
  }
  return out;
}

// Compares `actual` with tests/golden/<name>, or writes it there when updating.
void expect_golden(const std::string& name, const std::string& actual) {
  const fs::path path = kGoldenDir / name;
  const std::string shown = "tests/golden/" + name;
  if (updating()) {
    fs::create_directories(path.parent_path());
    if (fs::exists(path) && e2e::read_file(path) == actual) return;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << actual;
    out.close();
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    std::printf("wrote %s\n", shown.c_str());
    return;
  }
  if (!fs::exists(path)) {
    ADD_FAILURE() << shown << " does not exist; create it with " << kUpdateCommand << "\nThe output:\n" << actual;
    return;
  }
  const std::string expected = e2e::read_file(path);
  if (expected == actual) return;
  ADD_FAILURE() << shown << " differs from the output:\n--- " << shown << "\n+++ output\n"
                << unified_diff(expected, actual) << "If the new output is right, regenerate the golden files with "
                << kUpdateCommand << " and review the change (git diff tests/golden).";
}

// ---------------------------------------------------------------------------------------------
// --help of the executables

struct HelpCase {
  std::string program;     // "arena" or "referee"
  std::string subcommand;  // empty for the program's own --help
};

// "referee_replay_transcript": a test name (and golden file name) has no '-'.
std::string case_name(const HelpCase& c) {
  std::string name = c.subcommand.empty() ? c.program : c.program + "_" + c.subcommand;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

void PrintTo(const HelpCase& c, std::ostream* out) { *out << case_name(c); }

class GoldenHelp : public testing::TestWithParam<HelpCase> {};

TEST_P(GoldenHelp, MatchesGoldenFile) {
  const HelpCase& c = GetParam();
  std::vector<std::string> argv = {std::string(KALAH_BINARY_DIR) + "/" + c.program};
  if (!c.subcommand.empty()) argv.push_back(c.subcommand);
  argv.push_back("--help");
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r = e2e::run(argv, scratch.path(), std::chrono::milliseconds(30000));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(r.err, "") << r.summary();
  // The same text on every machine: nothing that depends on where the tree or the build is.
  for (const std::string& local : {std::string(KALAH_BINARY_DIR), std::string(KALAH_SOURCE_DIR)})
    ASSERT_EQ(r.out.find(local), std::string::npos) << "the help text names the local path " << local << ":\n" << r.out;
  expect_golden("help/" + case_name(c) + ".txt", r.out);
}

INSTANTIATE_TEST_SUITE_P(Executables, GoldenHelp,
                         testing::Values(HelpCase{"arena", ""}, HelpCase{"arena", "run"}, HelpCase{"arena", "match"},
                                         HelpCase{"arena", "report"}, HelpCase{"arena", "sprt"},
                                         HelpCase{"arena", "stats"}, HelpCase{"arena", "plan"},
                                         HelpCase{"arena", "slurm"}, HelpCase{"arena", "verify"},
                                         HelpCase{"arena", "archive"}, HelpCase{"referee", ""},
                                         HelpCase{"referee", "match"}, HelpCase{"referee", "perft"},
                                         HelpCase{"referee", "replay"}, HelpCase{"referee", "check"},
                                         HelpCase{"referee", "replay-transcript"}, HelpCase{"referee", "kgp-client"},
                                         HelpCase{"referee", "kgp-server"}, HelpCase{"referee", "kgp-host"}),
                         [](const testing::TestParamInfo<HelpCase>& info) { return case_name(info.param); });

// ---------------------------------------------------------------------------------------------
// Reports of fixed games

Variant variant(const std::string& text) {
  Expected<Variant> v = parse_variant(text);
  EXPECT_TRUE(static_cast<bool>(v)) << text;
  return v ? *v : Variant{};
}

Position replay(const GameRecord& g) {
  Position p = start_position(g.variant);
  for (Move m : g.moves) apply(g.variant, p, m);
  return p;
}

// What an engine reported for move `k`: every fourth move reports nothing but its time.
MoveInfo info_for(std::size_t k) {
  MoveInfo info;
  const int n = static_cast<int>(k);
  info.time_ms = 2.5 + (n * 37 % 250) / 2.0;
  if (n % 4 != 3) {
    info.depth = 1 + n % 12;
    info.score = (n % 3 == 0 ? -1 : 1) * (n * 17 % 60);
    info.nodes = 1000 + 4321LL * n;
  }
  return info;
}

struct GameSpec {
  std::string id;
  int round = 1;
  std::string south, north;
  std::string variant = "pits=6 seeds=4";
  unsigned seed = 1;               // for the moves: std::mt19937's sequence is fixed by the standard
  std::size_t opening_plies = 0;   // the first moves, forced (no move info)
  std::size_t stop_after = 10000;  // plies; a forfeit ends the game there
};

// Plays the game with moves drawn from the seeded generator until the rules end it (or
// `stop_after` plies), and fills the record as the referee does.
GameRecord play(const GameSpec& spec, int minute) {
  GameRecord g;
  g.id = spec.id;
  g.round = spec.round;
  g.south = spec.south;
  g.north = spec.north;
  g.variant = variant(spec.variant);
  std::mt19937 rng(spec.seed);
  Position p = start_position(g.variant);
  while (!p.over && g.moves.size() < spec.stop_after) {
    const MoveList legal = legal_moves(g.variant, p);
    const Move m = legal.moves[rng() % static_cast<unsigned>(legal.size)];
    if (g.moves.size() < spec.opening_plies)
      g.opening.push_back(m);
    else
      g.move_info.push_back(info_for(g.moves.size()));
    g.moves.push_back(m);
    apply(g.variant, p, m);
  }
  g.result = outcome(g.variant, p);
  g.store_south = store(g.variant, p, Side::South);
  g.store_north = store(g.variant, p, Side::North);
  g.swapped = p.swapped;
  g.started_at = "2026-03-01T12:" + std::string(minute < 10 ? "0" : "") + std::to_string(minute) + ":00Z";
  g.duration_ms = 1000 + 125.5 * minute;
  return g;
}

// Ends the game where it stopped with a forfeit by the first player (the one that started as
// South) or by the other.
void forfeit(GameRecord& g, bool first_player, Termination reason, const std::string& detail) {
  g.termination = reason;
  g.forfeit = Forfeit{first_player ? g.south : g.north, reason, detail};
  g.result = first_player ? Outcome::SecondWins : Outcome::FirstWins;
}

const std::vector<std::string> kEngines = {"alpha", "beta", "gamma"};

// Eight games: wins on both sides, a draw, an illegal move, a time loss, a pie swap (after which
// the first player's seeds are in North's store) and a game with a forced opening.
std::vector<GameRecord> eight_games() {
  std::vector<GameRecord> games;
  games.push_back(play({.id = "r1-alpha-beta", .south = "alpha", .north = "beta", .seed = 5}, 1));
  games.push_back(play({.id = "r1-beta-alpha", .south = "beta", .north = "alpha", .seed = 17}, 2));
  games.push_back(play({.id = "r1-alpha-gamma", .south = "alpha", .north = "gamma", .seed = 11}, 3));
  games.push_back(play({.id = "r1-gamma-alpha", .south = "gamma", .north = "alpha", .seed = 3}, 4));

  GameRecord illegal = play({.id = "r1-beta-gamma", .south = "beta", .north = "gamma", .seed = 2, .stop_after = 10}, 5);
  const Position before_illegal = replay(illegal);
  EXPECT_EQ(before_illegal.to_move, Side::North) << "the illegal move is meant to be gamma's";
  std::string legal;
  for (Move m : legal_moves(illegal.variant, before_illegal)) legal += (legal.empty() ? "" : " ") + to_string(m);
  forfeit(illegal, false, Termination::Illegal, "bestmove 7 (legal: " + legal + ")");
  games.push_back(illegal);

  GameRecord late = play({.id = "r1-gamma-beta", .south = "gamma", .north = "beta", .seed = 6, .stop_after = 14}, 6);
  EXPECT_EQ(replay(late).to_move, Side::North) << "the late move is meant to be beta's";
  forfeit(late, false, Termination::Time, "answered after 1062 ms, allowed 1050 ms");
  games.push_back(late);

  GameSpec pie{.id = "r2-alpha-beta", .round = 2, .south = "alpha", .north = "beta", .seed = 1};
  pie.variant = "pits=4 seeds=3 pie=on";
  games.push_back(play(pie, 7));

  GameSpec opening{.id = "r2-beta-alpha", .round = 2, .south = "beta", .north = "alpha", .seed = 12};
  opening.opening_plies = 2;
  games.push_back(play(opening, 8));
  return games;
}

// What the fixture is meant to hold; if the rules change these games, pick other seeds.
TEST(GoldenGames, CoverWhatTheReportsShow) {
  const std::vector<GameRecord> games = eight_games();
  ASSERT_EQ(games.size(), 8u);
  EXPECT_EQ(games[0].result, Outcome::FirstWins);
  EXPECT_EQ(games[1].result, Outcome::Draw);
  EXPECT_EQ(games[2].result, Outcome::SecondWins);
  EXPECT_EQ(games[3].result, Outcome::FirstWins);
  EXPECT_TRUE(games[4].forfeit.has_value());
  EXPECT_TRUE(games[5].forfeit.has_value());
  EXPECT_TRUE(games[6].swapped);
  EXPECT_EQ(games[6].result, Outcome::FirstWins);
  EXPECT_LT(games[6].store_south, games[6].store_north) << "after the swap the first player sits North";
  EXPECT_EQ(games[7].opening.size(), 2u);
  for (const GameRecord& g : games) EXPECT_EQ(g.move_info.size(), g.moves.size() - g.opening.size()) << g.id;
}

// Every report of `games`, each against its golden file under report/<dir>/, with the rank intervals and
// fragility the written reports carry (docs/RANKING.md).
void expect_reports(const std::string& dir, const std::vector<GameRecord>& games) {
  const std::string event = "golden";
  const report::Standings standings = rating::compute_standings(games, kEngines, rating::Intervals::With);
  expect_golden("report/" + dir + "/standings.txt", report::format_standings_table(standings));
  expect_golden("report/" + dir + "/standings.json", report::standings_json(standings, event));
  expect_golden("report/" + dir + "/standings.md", report::standings_markdown(standings, event));
  expect_golden("report/" + dir + "/standings.csv", report::standings_csv(standings));
  expect_golden("report/" + dir + "/games.pgn", report::games_pgn(games, event));
  std::string journal;
  for (const GameRecord& g : games) journal += to_json_line(g) + "\n";
  expect_golden("report/" + dir + "/games.jsonl", journal);
}

TEST(GoldenReports, EightGames) { expect_reports("eight_games", eight_games()); }

TEST(GoldenReports, OneGame) { expect_reports("one_game", {eight_games()[6]}); }

// The diff that a mismatch prints.
TEST(GoldenDiff, ShowsChangedLinesWithContext) {
  EXPECT_EQ(unified_diff("a\nb\nc\nd\n", "a\nb\nX\nd\n"), "@@ -1,4 +1,4 @@\n a\n b\n-c\n+X\n d\n");
  EXPECT_EQ(unified_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"),
            "@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+11\n");
  EXPECT_EQ(unified_diff("a\n", "a"), "@@ -1,1 +1,1 @@\n-a\n+a\n\\ No newline at end of file\n");
  EXPECT_EQ(unified_diff("", "a\n"), "@@ -0,0 +1,1 @@\n+a\n");
}

}  // namespace
}  // namespace kalah
