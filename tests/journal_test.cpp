// The journal line format (referee/record) and the append-only journal with
// resume support (arena/journal).
// Past 400 lines: the line format and the journal share the record fixtures, and each repair on resume
// (torn line, duplicates, fresh) is its own scenario.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <boost/json/parse.hpp>

#include "arena/journal/games_file.h"
#include "arena/journal/journal.h"
#include "referee/record/json_text.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/game_records.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

// A finished game played with random legal moves, so that every field holds
// what a real referee would write.
GameRecord random_game(const std::string& id, const std::string& south, const std::string& north, std::uint64_t seed,
                       Variant variant = {}) {
  std::mt19937_64 rng(seed);
  GameRecord r;
  r.id = id;
  r.round = 1;
  r.south = south;
  r.north = north;
  r.variant = variant;
  Position p = start_position(variant);
  while (!p.over) {
    const MoveList legal = legal_moves(variant, p);
    const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
    if (r.moves.size() < 2)
      r.opening.push_back(m);
    else
      r.move_info.push_back({.time_ms = 0.5 * static_cast<double>(rng() % 100),
                             .depth = 7,
                             .score = -2,
                             .nodes = static_cast<long long>(rng() % 100000),
                             .wall_ms = std::nullopt});
    r.moves.push_back(m);
    apply(variant, p, m);
  }
  r.result = outcome(variant, p);
  r.store_south = store(variant, p, Side::South);
  r.store_north = store(variant, p, Side::North);
  r.swapped = p.swapped;
  r.started_at = "2026-12-02T12:00:00Z";
  r.duration_ms = 1234.5;
  return r;
}

// GameRecord has no operator==; its journal line shows every field.
void expect_same(const GameRecord& a, const GameRecord& b) { EXPECT_EQ(to_json_line(a), to_json_line(b)); }

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_all(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// ---------------------------------------------------------------- record JSON

TEST(RecordJson, LineHasTheDocumentedFormat) {
  GameRecord r = test::record_of("r1-alpha-beta-1", "alpha", "beta", {Move::at(3), Move::at(1), Move::at(6)});
  r.round = 1;
  r.opening = {Move::at(3), Move::at(1)};
  r.move_info = {{.time_ms = 12.5, .depth = 10, .score = 3, .nodes = 12345, .wall_ms = std::nullopt}};
  r.result = Outcome::FirstWins;
  r.store_south = 30;
  r.store_north = 18;
  r.started_at = "2026-12-02T12:00:00Z";
  r.duration_ms = 1234.5;
  EXPECT_EQ(to_json_line(r),
            R"({"schema":1,"id":"r1-alpha-beta-1","round":1,"south":"alpha","north":"beta",)"
            R"("variant":{"pits":6,"seeds":4,"capture":"standard","ending":"side-empty","remainder":"owner",)"
            R"("majority":"off","pie":"off"},"opening":[3,1],"moves":[3,1,6],"result":"1-0","stores":[30,18],)"
            R"("termination":"normal","forfeit":null,"swapped":false,"times_ms":[12.5],)"
            R"("info":[{"depth":10,"score":3,"nodes":12345}],"started_at":"2026-12-02T12:00:00Z",)"
            R"("duration_ms":1234.5})");
}

TEST(RecordJson, ACpuClockGameKeepsItsWallTimesAsSchema3) {
  GameRecord r = random_game("g1", "a", "b", 5);
  for (MoveInfo& m : r.move_info) m.wall_ms = m.time_ms * 2 + 0.5;
  const std::string line = to_json_line(r);
  EXPECT_EQ(line.rfind(R"({"schema":3,)", 0), 0u) << line;
  EXPECT_NE(line.find(R"("wall_ms":[)"), std::string::npos) << line;
  EXPECT_LT(line.find(R"("times_ms":)"), line.find(R"("wall_ms":)")) << "wall_ms beside times_ms";
  Expected<GameRecord> back = record_from_json(line);
  ASSERT_TRUE(back.ok()) << back.error();
  expect_same(r, *back);
  ASSERT_EQ(back->move_info.size(), r.move_info.size());
  for (std::size_t i = 0; i < r.move_info.size(); ++i) EXPECT_EQ(back->move_info[i].wall_ms, r.move_info[i].wall_ms);

  // A wall-clock game (no wall_ms) is written as before: the lowest schema that holds it, read by older builds.
  for (MoveInfo& m : r.move_info) m.wall_ms.reset();
  const std::string old = to_json_line(r);
  EXPECT_EQ(old.rfind(R"({"schema":1,)", 0), 0u) << old;
  EXPECT_EQ(old.find("wall_ms"), std::string::npos) << old;
  Expected<GameRecord> old_back = record_from_json(old);
  ASSERT_TRUE(old_back.ok()) << old_back.error();
  for (const MoveInfo& m : old_back->move_info) EXPECT_FALSE(m.wall_ms.has_value());
  // Lines from before the schema key (version 1) read as they always did.
  std::string unversioned = old;
  unversioned.replace(0, std::string(R"({"schema":1,)").size(), "{");
  EXPECT_TRUE(record_from_json(unversioned).ok()) << unversioned;

  std::string bad = line;
  bad.replace(bad.find(R"("wall_ms":[)") + 11, 0, "1,");
  Expected<GameRecord> parsed = record_from_json(bad);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("fields 'wall_ms' and 'times_ms' must have the same length"), std::string::npos)
      << parsed.error();
}

TEST(RecordJson, RoundTripsEveryField) {
  Variant pie;
  pie.pie = true;
  pie.capture = Capture::Empty;
  pie.ending = Ending::NoMove;
  pie.remainder = Remainder::None;
  pie.majority = true;
  pie.seeds = 3;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    GameRecord r =
        random_game("g" + std::to_string(seed), "süd \"quoted\"", "north\\back", seed, seed % 2 ? pie : Variant{});
    r.move_info.push_back(MoveInfo{});  // no info reported at all: {}
    r.move_info.back().time_ms = 0.1;
    r.moves.push_back(Move::swap());
    if (seed % 3 == 0) {
      r.termination = Termination::Illegal;
      r.forfeit = Forfeit{"north\\back", Termination::Illegal, "bestmove 9 (legal: 1 2 4)\nnext line"};
    }
    const std::string line = to_json_line(r);
    ASSERT_EQ(line.find('\n'), std::string::npos);
    Expected<GameRecord> back = record_from_json(line);
    ASSERT_TRUE(back.ok()) << back.error() << "\n" << line;
    expect_same(r, *back);
    EXPECT_EQ(back->moves.back(), Move::swap());
    EXPECT_EQ(back->variant, r.variant);
    EXPECT_EQ(back->forfeit.has_value(), r.forfeit.has_value());
    EXPECT_FALSE(back->move_info.back().depth.has_value());
  }
}

TEST(RecordJson, SwapIsAStringAndPitsAreNumbers) {
  Variant v;
  v.pie = true;
  GameRecord r = random_game("x", "a", "b", 7, v);
  r.moves = {Move::at(3), Move::swap(), Move::at(1)};
  const boost::json::object o = to_json(r);
  EXPECT_EQ(o.at("moves").as_array()[0].as_int64(), 3);
  EXPECT_EQ(o.at("moves").as_array()[1].as_string(), "swap");
}

TEST(RecordJson, InvalidUtf8CannotBreakTheLine) {
  GameRecord r = random_game("x", "a", "b", 3);
  r.forfeit = Forfeit{"b", Termination::Protocol, std::string("garbage \xff\xfe end")};
  const std::string line = to_json_line(r);
  Expected<GameRecord> back = record_from_json(line);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->forfeit->detail, "garbage \xEF\xBF\xBD\xEF\xBF\xBD end");
}

TEST(RecordJson, NumbersAreWrittenPlainly) {
  EXPECT_EQ(json_text(boost::json::value(12.5)), "12.5");
  EXPECT_EQ(json_text(boost::json::value(3.0)), "3");
  EXPECT_EQ(json_text(boost::json::value(0.1)), "0.1");
  EXPECT_EQ(json_text(boost::json::value(std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(json_text(boost::json::value(std::nan(""))), "null");
}

// Replaces `from` (which must occur) by `to` in a good line.
std::string mutate(std::string line, const std::string& from, const std::string& to) {
  const std::size_t at = line.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? line : line.replace(at, from.size(), to);
}

TEST(RecordJson, RejectsBadLinesWithClearMessages) {
  GameRecord r = random_game("g1", "a", "b", 11);
  r.moves.resize(3);
  r.opening.resize(2);
  r.move_info.resize(1);
  r.move_info[0] = MoveInfo{};
  r.move_info[0].time_ms = 4;
  r.move_info[0].depth = 2;
  const std::string good = to_json_line(r);
  ASSERT_TRUE(record_from_json(good).ok());
  const std::string moves = json_text(to_json(r).at("moves"));
  const struct {
    std::string line;
    std::string message;
  } cases[] = {
      {"", "not valid JSON"},
      {"{\"id\":", "not valid JSON"},
      {"[1,2]", "the line must be a JSON object, got an array"},
      {mutate(good, "\"id\":\"g1\",", ""), "missing field 'id'"},
      {mutate(good, "\"schema\":1,", "\"schema\":5,"),
       "field 'schema': the line is schema 5, written by a newer version of the arena"},
      {mutate(good, "\"schema\":1,", "\"schema\":0,"), "field 'schema': 0 is out of range"},
      {mutate(good, "\"id\":\"g1\"", "\"id\":\"\""), "field 'id': must not be empty"},
      {mutate(good, "\"round\":1", "\"round\":\"1\""), "field 'round': expected a whole number, got a string"},
      {mutate(good, "\"round\":1", "\"round\":-1"), "field 'round': -1 is out of range"},
      {mutate(good, "\"south\":\"a\"", "\"south\":null"), "field 'south': expected a string, got null"},
      {mutate(good, "\"pits\":6", "\"pits\":17"), "field 'variant.pits': 17 is out of range 1..16"},
      {mutate(good, "\"capture\":\"standard\"", "\"capture\":\"greedy\""),
       "field 'variant': capture must be 'standard' or 'empty', not 'greedy'"},
      {mutate(good, ",\"pie\":\"off\"", ""), "missing field 'variant.pie'"},
      {mutate(good, "\"pie\":\"off\"", "\"pie\":\"off\",\"colour\":1"), "unknown field 'variant.colour'"},
      {mutate(good, "\"moves\":" + moves, "\"moves\":[3,\"x\"]"),
       "field 'moves'[1]: expected a pit number 1..6 or \"swap\", got \"x\""},
      {mutate(good, "\"moves\":" + moves, "\"moves\":[7]"),
       "field 'moves'[0]: expected a pit number 1..6 or \"swap\", got 7"},
      {mutate(good, "\"result\":\"" + std::string(to_string(r.result)) + "\"", "\"result\":\"*\""),
       "field 'result': expected \"1-0\", \"0-1\" or \"1/2-1/2\", got \"*\""},
      {mutate(good, "\"stores\":[", "\"stores\":[1,"), "field 'stores': expected [south, north], 2 numbers"},
      {mutate(good, "\"termination\":\"normal\"", "\"termination\":\"resigned\""),
       "field 'termination': expected one of normal"},
      {mutate(good, "\"forfeit\":null", "\"forfeit\":{\"engine\":\"a\",\"reason\":\"slow\",\"detail\":\"\"}"),
       "field 'forfeit.reason': expected one of time, crash, illegal, protocol, startup, got \"slow\""},
      {mutate(good, "\"forfeit\":null", "\"forfeit\":{\"engine\":\"a\",\"reason\":\"time\"}"),
       "missing field 'forfeit.detail'"},
      {mutate(good, "\"forfeit\":null", "\"forfeit\":null,\"adjudication\":{\"reason\":\"draw\"}"),
       "field 'adjudication': only an adjudicated game has one, this one is \"normal\""},
      {mutate(mutate(good, "\"termination\":\"normal\"", "\"termination\":\"adjudicated\""), "\"forfeit\":null",
              "\"forfeit\":null,\"adjudication\":{\"reason\":\"tired\"}"),
       "field 'adjudication.reason': expected one of max-plies, store-majority, database, resign, draw, got \"tired\""},
      {mutate(mutate(good, "\"termination\":\"normal\"", "\"termination\":\"adjudicated\""), "\"forfeit\":null",
              "\"forfeit\":null,\"adjudication\":{\"reason\":\"database\",\"margin\":\"4\"}"),
       "field 'adjudication.margin': expected a whole number, got a string"},
      {mutate(good, "\"swapped\":false", "\"swapped\":0"), "field 'swapped': expected true or false, got a number"},
      {mutate(good, "\"times_ms\":[4]", "\"times_ms\":[4,5]"),
       "fields 'times_ms' and 'info' must have the same length"},
      {mutate(good, "\"times_ms\":[4]", "\"times_ms\":[-4]"), "field 'times_ms[0]': must be a number >= 0"},
      {mutate(good, "{\"depth\":2}", "{\"depth\":2.5}"), "field 'info[0].depth': expected a whole number"},
      {mutate(good, "{\"depth\":2}", "{\"depth\":2,\"pv\":[1]}"), "unknown field 'info[0].pv'"},
      {mutate(good, "\"duration_ms\":1234.5", "\"duration_ms\":\"slow\""),
       "field 'duration_ms': expected a number, got a string"},
      {mutate(good, "\"duration_ms\":1234.5", "\"duration_ms\":1234.5,\"extra\":true"), "unknown field 'extra'"},
  };
  for (const auto& c : cases) {
    Expected<GameRecord> parsed = record_from_json(c.line);
    ASSERT_FALSE(parsed.ok()) << c.line;
    EXPECT_NE(parsed.error().find(c.message), std::string::npos)
        << "got: " << parsed.error() << "\nwanted: " << c.message << "\nline: " << c.line;
  }
}

// Journals written before the `schema` key existed are schema 1 and still read.
TEST(RecordJson, LinesWithoutASchemaAreVersionOne) {
  const GameRecord r = random_game("old", "a", "b", 5);
  const std::string line = to_json_line(r);
  ASSERT_EQ(line.rfind("{\"schema\":1,\"id\":", 0), 0u) << line;
  const std::string old = "{" + line.substr(std::string("{\"schema\":1,").size());
  Expected<GameRecord> parsed = record_from_json(old);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(to_json_line(*parsed), line);
}

// An adjudicated game carries its reason (and the database's proven margin); only such a line is
// written as schema 2, so that journals without one still read in builds that know schema 1 only.
TEST(RecordJson, AdjudicationsRoundTripAsSchemaTwo) {
  GameRecord r = random_game("adj", "a", "b", 7);
  EXPECT_EQ(to_json_line(r).rfind("{\"schema\":1,", 0), 0u);
  r.termination = Termination::Adjudicated;
  for (const Adjudication& a :
       {Adjudication{AdjudicationReason::Database, -6}, Adjudication{AdjudicationReason::Database, 0},
        Adjudication{AdjudicationReason::StoreMajority, {}}, Adjudication{AdjudicationReason::Resign, {}},
        Adjudication{AdjudicationReason::Draw, {}}, Adjudication{AdjudicationReason::MaxPlies, {}}}) {
    r.adjudication = a;
    const std::string line = to_json_line(r);
    EXPECT_EQ(line.rfind("{\"schema\":2,", 0), 0u) << line;
    EXPECT_NE(line.find(std::string("\"adjudication\":{\"reason\":\"") + to_string(a.reason) + "\""), std::string::npos)
        << line;
    Expected<GameRecord> back = record_from_json(line);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->adjudication, a);
    EXPECT_EQ(to_json_line(*back), line);
  }
  EXPECT_EQ(describe({AdjudicationReason::Database, -6}), "database: with perfect play North ends 6 seeds ahead");
  EXPECT_EQ(describe({AdjudicationReason::Database, 0}), "database: with perfect play the stores end level");
}

// An engine's fault is a typed event: the forfeit's kind (reason), the end of the engine's stderr and a time
// forfeit's overrun, written as schema 4 only when there is one of those, so that older lines and builds
// read as before.
TEST(RecordJson, AForfeitKeepsTheStderrTailAndTheOverrunAsSchemaFour) {
  GameRecord r = random_game("late", "a", "b", 9);
  r.termination = Termination::Time;
  r.forfeit = Forfeit{"b", Termination::Time, "answered after 2131 ms, allowed 2050 ms"};
  const std::string plain = to_json_line(r);
  EXPECT_EQ(plain.rfind("{\"schema\":1,", 0), 0u) << plain;
  EXPECT_EQ(plain.find("\"stderr\""), std::string::npos) << plain;
  r.forfeit->stderr_tail = "depth 12\nthinking...";
  r.forfeit->overrun_ms = 81.5;
  const std::string line = to_json_line(r);
  EXPECT_EQ(line.rfind("{\"schema\":4,", 0), 0u) << line;
  EXPECT_NE(line.find("\"forfeit\":{\"engine\":\"b\",\"reason\":\"time\",\"detail\":\"answered after 2131 ms, "
                      "allowed 2050 ms\",\"stderr\":\"depth 12\\nthinking...\",\"overrun_ms\":81.5}"),
            std::string::npos)
      << line;
  Expected<GameRecord> back = record_from_json(line);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->forfeit->stderr_tail, "depth 12\nthinking...");
  EXPECT_EQ(back->forfeit->overrun_ms, 81.5);
  EXPECT_EQ(to_json_line(*back), line);
  // A line of a schema-1 journal (no such keys) still reads, and a bad value is named.
  Expected<GameRecord> old = record_from_json(plain);
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_TRUE(old->forfeit->stderr_tail.empty());
  EXPECT_FALSE(old->forfeit->overrun_ms);
  std::string bad = line;
  bad.replace(bad.find("81.5"), 4, "\"x\"");
  Expected<GameRecord> refused = record_from_json(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("forfeit.overrun_ms"), std::string::npos) << refused.error();
}

TEST(RecordJson, TerminationWordsRoundTrip) {
  for (int t = 0; t < 8; ++t) {
    const auto term = static_cast<Termination>(t);
    EXPECT_EQ(parse_termination(to_string(term)), term);
  }
  EXPECT_FALSE(parse_termination("Normal").has_value());
}

// ---------------------------------------------------------------- journal

class JournalTest : public ::testing::Test {
 protected:
  static journal::TournamentMeta meta(std::string fingerprint = "fp-1") {
    journal::TournamentMeta m;
    m.fingerprint = std::move(fingerprint);
    m.engines = {"alpha", "beta", "gamma"};
    m.settings = {{"variant", "pits=4 seeds=3 capture=standard ending=side-empty remainder=owner majority=off pie=on"},
                  {"time", "2000+20 ms"}};
    return m;
  }

  // `loaded` (if given) receives the games the journal already holds.
  journal::Journal open(bool fresh = false, journal::TournamentMeta m = meta(),
                        std::vector<GameRecord>* loaded = nullptr) {
    Expected<journal::Journal> j = journal::Journal::open(dir_, std::move(m), fresh, [&](GameRecord&& g) {
      if (loaded) loaded->push_back(std::move(g));
    });
    EXPECT_TRUE(j.ok()) << j.error();
    return std::move(j).value();
  }

  fs::path games() const { return dir_ / "games.jsonl"; }
  system::TempFolder temp_{"kalah-journal-test"};
  fs::path dir_ = temp_ / "results";  // made by the journal
};

TEST_F(JournalTest, AppendWritesOneLinePerGameAndReopenLoadsThem) {
  std::vector<GameRecord> played;
  {
    journal::Journal j = open();
    EXPECT_TRUE(j.warnings().empty());
    EXPECT_TRUE(fs::exists(dir_ / "tournament.json"));
    for (int i = 0; i < 5; ++i) {
      played.push_back(random_game("g" + std::to_string(i), "alpha", "beta", 100 + i));
      Expected<std::size_t> n = j.append(played.back());
      ASSERT_TRUE(n.ok()) << n.error();
      EXPECT_EQ(*n, static_cast<std::size_t>(i + 1));
      // Durable on return: the file already holds the line.
      EXPECT_EQ(read_all(games()).size(), [&] {
        std::size_t size = 0;
        for (const GameRecord& g : played) size += to_json_line(g).size() + 1;
        return size;
      }());
    }
  }
  std::string expected;
  for (const GameRecord& g : played) expected += to_json_line(g) + "\n";
  EXPECT_EQ(read_all(games()), expected);

  std::vector<GameRecord> loaded;
  journal::Journal j = open(false, meta(), &loaded);
  EXPECT_TRUE(j.warnings().empty());
  EXPECT_EQ(j.size(), played.size());
  ASSERT_EQ(loaded.size(), played.size());
  for (std::size_t i = 0; i < played.size(); ++i) expect_same(loaded[i], played[i]);
}

TEST_F(JournalTest, CompletedIdsCoverLoadedAndAppendedGames) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("r1-a", "alpha", "beta", 1)).ok());
    ASSERT_TRUE(j.append(random_game("r1-b", "beta", "alpha", 2)).ok());
  }
  journal::Journal j = open();
  ASSERT_TRUE(j.append(random_game("r2-a", "alpha", "gamma", 3)).ok());
  for (const char* id : {"r1-a", "r1-b", "r2-a"}) EXPECT_TRUE(j.is_completed(id)) << id;
  EXPECT_TRUE(j.is_completed("r1-b"));
  EXPECT_FALSE(j.is_completed("r2-b"));
  EXPECT_EQ(j.size(), 3u);
}

TEST_F(JournalTest, AppendRefusesADuplicateIdAndAGameWithoutResult) {
  journal::Journal j = open();
  ASSERT_TRUE(j.append(random_game("g1", "alpha", "beta", 1)).ok());
  Expected<std::size_t> again = j.append(random_game("g1", "alpha", "beta", 2));
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().find("game 'g1' is already in"), std::string::npos) << again.error();
  GameRecord unfinished = random_game("g2", "alpha", "beta", 3);
  unfinished.result = Outcome::Ongoing;
  EXPECT_FALSE(j.append(unfinished).ok());
  EXPECT_EQ(j.size(), 1u);
  const std::string content = read_all(games());
  EXPECT_EQ(std::count(content.begin(), content.end(), '\n'), 1);
}

TEST_F(JournalTest, TornLastLineIsDroppedAndAppendsContinueCleanly) {
  std::string good;
  {
    journal::Journal j = open();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(j.append(random_game("g" + std::to_string(i), "alpha", "beta", i)).ok());
    good = read_all(games());
  }
  // A run killed in the middle of writing game g3.
  const std::string torn = to_json_line(random_game("g3", "beta", "alpha", 3)).substr(0, 57);
  write_all(games(), good + torn);

  {
    journal::Journal j = open();
    ASSERT_EQ(j.warnings().size(), 1u);
    EXPECT_NE(j.warnings()[0].find("games.jsonl:4: removed an incomplete last line"), std::string::npos)
        << j.warnings()[0];
    EXPECT_EQ(j.size(), 3u);
    EXPECT_FALSE(j.is_completed("g3"));
    EXPECT_EQ(read_all(games()), good);  // cut back to the last complete line
    ASSERT_TRUE(j.append(random_game("g3", "beta", "alpha", 3)).ok());
  }
  journal::Journal j = open();
  EXPECT_TRUE(j.warnings().empty());
  EXPECT_EQ(j.size(), 4u);
  EXPECT_TRUE(j.is_completed("g3"));
}

TEST_F(JournalTest, TornLineOfZerosAfterACrashIsDropped) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  const std::string good = read_all(games());
  write_all(games(), good + std::string(40, '\0') + "\n");
  journal::Journal j = open();
  EXPECT_EQ(j.warnings().size(), 1u);
  EXPECT_EQ(j.size(), 1u);
  EXPECT_EQ(read_all(games()), good);
}

TEST_F(JournalTest, CompleteLastLineWithoutNewlineIsKept) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  write_all(games(), read_all(games()) + to_json_line(random_game("g1", "beta", "alpha", 1)));
  {
    journal::Journal j = open();
    EXPECT_EQ(j.size(), 2u);
    ASSERT_EQ(j.warnings().size(), 1u);
    EXPECT_NE(j.warnings()[0].find("had no newline"), std::string::npos);
    ASSERT_TRUE(j.append(random_game("g2", "alpha", "gamma", 2)).ok());
  }
  journal::Journal j = open();
  EXPECT_TRUE(j.warnings().empty());
  EXPECT_EQ(j.size(), 3u);
}

TEST_F(JournalTest, GarbageInTheMiddleIsAnErrorNamingTheLine) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  const std::string first = read_all(games());
  const std::string last = to_json_line(random_game("g2", "alpha", "beta", 2)) + "\n";
  write_all(games(), first + "{\"id\":\"g1\",\"round\":oops}\n" + last);
  Expected<journal::Journal> j = journal::Journal::open(dir_, meta(), false);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.error().find("games.jsonl:2: not valid JSON"), std::string::npos) << j.error();
  // Nothing was repaired or truncated.
  EXPECT_EQ(read_all(games()), first + "{\"id\":\"g1\",\"round\":oops}\n" + last);

  write_all(games(), first + mutate(last, "\"south\":\"alpha\"", "\"south\":7"));
  j = journal::Journal::open(dir_, meta(), false);
  ASSERT_TRUE(j.ok());  // a bad *last* line is a torn write, not an error
  EXPECT_EQ(j->size(), 1u);
}

TEST_F(JournalTest, BlankLinesAreSkipped) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  write_all(games(), "\n" + read_all(games()) + "\n\n" + to_json_line(random_game("g1", "beta", "alpha", 1)) + "\n\n");
  journal::Journal j = open();
  EXPECT_TRUE(j.warnings().empty());
  EXPECT_EQ(j.size(), 2u);
}

TEST_F(JournalTest, DuplicateIdsKeepTheFirstAndWarn) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
    ASSERT_TRUE(j.append(random_game("g1", "alpha", "beta", 1)).ok());
  }
  GameRecord copy = random_game("g0", "beta", "gamma", 99);
  write_all(games(), read_all(games()) + to_json_line(copy) + "\n");
  std::vector<GameRecord> loaded;
  journal::Journal j = open(false, meta(), &loaded);
  ASSERT_EQ(j.warnings().size(), 1u);
  EXPECT_NE(j.warnings()[0].find("games.jsonl:3: game 'g0' is already on line 1; this copy is ignored"),
            std::string::npos)
      << j.warnings()[0];
  ASSERT_EQ(j.size(), 2u);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].south, "alpha");
}

TEST_F(JournalTest, DifferentConfigurationIsRefusedSayingWhatDiffers) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  journal::TournamentMeta changed = meta("fp-2");
  changed.engines = {"alpha", "beta", "delta"};
  changed.settings["time"] = "1000+10 ms";
  Expected<journal::Journal> j = journal::Journal::open(dir_, changed, false);
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.error(), dir_.string() +
                           " was written by a different configuration (engines: removed 'gamma', added 'delta'; "
                           "time: 2000+20 ms -> 1000+10 ms); use --fresh to start over (the old files are moved "
                           "aside, not deleted)");

  // Only the opaque fingerprint differs: say so.
  j = journal::Journal::open(dir_, meta("fp-3"), false);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.error().find("(the configuration fingerprint differs (fp-1 -> fp-3))"), std::string::npos) << j.error();
  // The journal is untouched and the same configuration still resumes.
  EXPECT_EQ(open().size(), 1u);
}

TEST_F(JournalTest, FreshMovesOldFilesAsideAndNeverOverwritesABackup) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
  }
  write_all(dir_ / "standings.md", "old standings\n");
  const std::string first_journal = read_all(games());
  {
    journal::Journal j = open(true, meta("fp-2"));
    EXPECT_EQ(j.size(), 0u);
    ASSERT_EQ(j.warnings().size(), 1u);
    EXPECT_NE(j.warnings()[0].find("games.jsonl -> games.jsonl.bak, tournament.json -> tournament.json.bak, "
                                   "standings.md -> standings.md.bak"),
              std::string::npos)
        << j.warnings()[0];
    ASSERT_TRUE(j.append(random_game("g9", "alpha", "gamma", 9)).ok());
  }
  EXPECT_EQ(read_all(dir_ / "games.jsonl.bak"), first_journal);
  EXPECT_EQ(read_all(dir_ / "standings.md.bak"), "old standings\n");
  EXPECT_FALSE(fs::exists(dir_ / "standings.md"));
  EXPECT_NE(read_all(dir_ / "tournament.json.bak").find("\"fp-1\""), std::string::npos);
  EXPECT_NE(read_all(dir_ / "tournament.json").find("\"fp-2\""), std::string::npos);

  const std::string second_journal = read_all(games());
  { journal::Journal j = open(true, meta("fp-3")); }
  EXPECT_EQ(read_all(dir_ / "games.jsonl.bak"), first_journal);
  EXPECT_EQ(read_all(dir_ / "games.jsonl.bak2"), second_journal);
  EXPECT_EQ(open(false, meta("fp-3")).size(), 0u);
}

TEST_F(JournalTest, JournalWithoutMetaFileIsRefused) {
  fs::create_directories(dir_);
  write_all(games(), to_json_line(random_game("g0", "alpha", "beta", 0)) + "\n");
  Expected<journal::Journal> j = journal::Journal::open(dir_, meta(), false);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.error().find("tournament.json does not, so the games cannot be checked"), std::string::npos) << j.error();
  EXPECT_TRUE(journal::Journal::open(dir_, meta(), true).ok());
}

TEST_F(JournalTest, MetaFileRoundTrips) {
  open();
  Expected<journal::TournamentMeta> stored = journal::read_meta(dir_ / "tournament.json");
  ASSERT_TRUE(stored.ok()) << stored.error();
  journal::TournamentMeta expected = meta();
  expected.created_at = stored->created_at;
  EXPECT_EQ(*stored, expected);
  EXPECT_EQ(stored->created_at.size(), 20u);  // 2026-12-02T12:00:00Z
  EXPECT_FALSE(journal::meta_from_text("{\"format\":1,\"fingerprint\":\"x\",\"engines\":[],\"extra\":1}").ok());
  // KALAH_REPORT_EXAMPLES=DIR keeps a copy for docs/FORMATS.md (report_test writes the other files).
  if (const char* examples = std::getenv("KALAH_REPORT_EXAMPLES"))
    fs::copy_file(dir_ / "tournament.json", fs::path(examples) / "tournament.json",
                  fs::copy_options::overwrite_existing);
}

TEST_F(JournalTest, ConcurrentAppendsWriteWholeLines) {
  journal::Journal j = open();
  constexpr int kThreads = 8, kGames = 40;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&j, t] {
      for (int i = 0; i < kGames; ++i) {
        const Expected<std::size_t> n =
            j.append(random_game("t" + std::to_string(t) + "-" + std::to_string(i), "alpha", "beta", t * 1000 + i));
        EXPECT_TRUE(n.ok());
      }
    });
  for (std::thread& t : threads) t.join();
  Expected<journal::GamesFile> file = journal::read_games(games());
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_FALSE(file->torn.has_value());
  EXPECT_TRUE(file->warnings.empty());
  EXPECT_EQ(file->games.size(), static_cast<std::size_t>(kThreads * kGames));
}

// Group commit: write() puts the line in the file at once, sync_through(n) returns once the first n games
// are on the disk, and threads that write and sync at the same time all get through (one sync may cover
// several of them), their games all in the file.
TEST_F(JournalTest, WrittenGamesAreInTheFileAndSyncThroughCoversThem) {
  journal::Journal j = open();
  const Expected<std::size_t> first = j.write(random_game("w0", "alpha", "beta", 0));
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(*first, 1u);
  EXPECT_TRUE(j.is_completed("w0"));
  EXPECT_NE(read_all(games()).find("\"id\":\"w0\""), std::string::npos) << "in the file before any sync";
  EXPECT_FALSE(j.write(random_game("w0", "alpha", "beta", 0)).ok()) << "an id is written once";
  EXPECT_EQ(j.sync_through(*first), std::nullopt);
  EXPECT_EQ(j.sync_through(0), std::nullopt) << "nothing to wait for";

  constexpr int kThreads = 4, kGames = 25;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&j, t] {
      for (int i = 0; i < kGames; ++i) {
        const Expected<std::size_t> n =
            j.write(random_game("s" + std::to_string(t) + "-" + std::to_string(i), "alpha", "beta", t * 100 + i));
        ASSERT_TRUE(n.ok()) << n.error();
        EXPECT_EQ(j.sync_through(*n), std::nullopt);
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(j.size(), static_cast<std::size_t>(1 + kThreads * kGames));
  Expected<journal::GamesFile> file = journal::read_games(games());
  ASSERT_TRUE(file.ok()) << file.error();
  EXPECT_EQ(file->games.size(), static_cast<std::size_t>(1 + kThreads * kGames));
}

TEST_F(JournalTest, ReadResultsChangesNothing) {
  {
    journal::Journal j = open();
    ASSERT_TRUE(j.append(random_game("g0", "alpha", "beta", 0)).ok());
    ASSERT_TRUE(j.append(random_game("g1", "gamma", "alpha", 1)).ok());
  }
  const std::string content = read_all(games()) + "{\"id\":\"g2\"";
  write_all(games(), content);
  Expected<journal::StoredResults> results = journal::read_results(dir_);
  ASSERT_TRUE(results.ok()) << results.error();
  EXPECT_TRUE(results->has_meta);
  EXPECT_EQ(results->meta.engines, meta().engines);
  ASSERT_EQ(results->journals.size(), 1u);
  EXPECT_EQ(results->journals[0].games, games());
  EXPECT_EQ(results->shard_count, 0);
  EXPECT_TRUE(results->warnings.empty());
  EXPECT_EQ(read_all(games()), content);

  // Without tournament.json the engine names come from the games.
  fs::remove(dir_ / "tournament.json");
  results = journal::read_results(dir_);
  ASSERT_TRUE(results.ok());
  EXPECT_FALSE(results->has_meta);
  EXPECT_TRUE(results->meta.engines.empty());
  EXPECT_FALSE(journal::read_results(dir_ / "nowhere").ok());
}

// ---- the shards of a results directory

class ShardedResultsTest : public JournalTest {
 protected:
  // Opens shards/I-of-N as a shard journal of `m` and appends `games` to it.
  void shard(int index, int count, const std::vector<GameRecord>& games, journal::TournamentMeta m = meta(),
             int planned = 4) {
    m.shard = journal::ShardMeta{index, count, planned};
    const fs::path dir = dir_ / "shards" / (std::to_string(index) + "-of-" + std::to_string(count));
    Expected<journal::Journal> j = journal::Journal::open(dir, std::move(m), false);
    ASSERT_TRUE(j.ok()) << j.error();
    journal::Journal journal = std::move(j).value();
    for (const GameRecord& g : games) ASSERT_TRUE(journal.append(g).ok());
  }
};

TEST_F(ShardedResultsTest, FindsEveryShardInIndexOrderAndNamesTheMissingOnes) {
  shard(3, 4, {random_game("c", "alpha", "beta", 3)});
  shard(1, 4, {random_game("a", "alpha", "beta", 1), random_game("b", "beta", "alpha", 2)});
  fs::create_directories(dir_ / "shards" / "2-of-4");  // a task that never got to open its journal
  Expected<journal::StoredResults> r = journal::read_results(dir_);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->has_meta);
  EXPECT_FALSE(r->meta.shard);
  EXPECT_EQ(r->meta.engines, meta().engines);
  EXPECT_EQ(r->shard_count, 4);
  ASSERT_EQ(r->journals.size(), 2u);
  EXPECT_EQ(r->journals[0].label, "shard 1/4");
  EXPECT_EQ(r->journals[1].label, "shard 3/4");
  EXPECT_EQ(r->journals[1].shard->games, 4);
  EXPECT_EQ(r->missing_shards, (std::vector<int>{2, 4}));
}

TEST_F(ShardedResultsTest, RefusesAShardOfAnotherConfiguration) {
  shard(1, 2, {random_game("a", "alpha", "beta", 1)});
  shard(2, 2, {random_game("b", "alpha", "beta", 2)}, meta("fp-2"));
  Expected<journal::StoredResults> r = journal::read_results(dir_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("2-of-2: a shard of a different configuration"), std::string::npos) << r.error();
}

TEST_F(ShardedResultsTest, RefusesShardsOfTwoSplits) {
  shard(1, 2, {random_game("a", "alpha", "beta", 1)});
  shard(1, 3, {random_game("b", "alpha", "beta", 2)});
  Expected<journal::StoredResults> r = journal::read_results(dir_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("shards of two splits (1-of-2 and 1-of-3)"), std::string::npos) << r.error();
}

TEST_F(ShardedResultsTest, RefusesAShardWithoutItsMetaFileAndAnEmptyDirectory) {
  fs::create_directories(dir_);
  EXPECT_NE(journal::read_results(dir_).error().find("no journal in this directory"), std::string::npos)
      << journal::read_results(dir_).error();
  fs::create_directories(dir_ / "shards" / "1-of-2");
  write_all(dir_ / "shards" / "1-of-2" / "games.jsonl", to_json_line(random_game("a", "alpha", "beta", 1)) + "\n");
  Expected<journal::StoredResults> r = journal::read_results(dir_);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("without its tournament.json"), std::string::npos) << r.error();
}

TEST_F(ShardedResultsTest, AShardJournalIsNotResumedAsAnotherShard) {
  shard(1, 2, {random_game("a", "alpha", "beta", 1)});
  journal::TournamentMeta other = meta();
  other.shard = journal::ShardMeta{2, 2, 4};
  Expected<journal::Journal> j = journal::Journal::open(dir_ / "shards" / "1-of-2", other, false);
  EXPECT_FALSE(j.ok());
}

TEST(MetaDifference, AFingerprintOfKeyValueLinesNamesAtMostThreeKeysClipped) {
  journal::TournamentMeta a, b;
  a.fingerprint = "kalah-arena-config 1\nrounds=2\nseed=1\nengine.0=name=\"x\" cmd=\"/a\"\nengine.1=y\nengine.2=z\n";
  b.fingerprint = "kalah-arena-config 1\nrounds=3\nseed=1\nengine.0=name=\"x\" cmd=\"/" + std::string(500, 'b') +
                  "\"\nengine.1=Y\nengine.2=Z\n";
  const std::string text = journal::describe_difference(a, b);
  EXPECT_EQ(text.find("kalah-arena-config"), std::string::npos) << "never both fingerprints: " << text;
  EXPECT_NE(text.find("engine.0: name=\"x\" cmd=\"/a\" -> name=\"x\" cmd=\"/bbb"), std::string::npos) << text;
  EXPECT_NE(text.find("...; engine.1: y -> Y; engine.2: z -> Z; and 1 more"), std::string::npos) << text;
  EXPECT_LT(text.size(), 400u) << text;
}

// A folder whose run recorded its engines (digests, a bench count, a git build's time) against a configuration
// about to run, which has recorded nothing yet: only the setting that differs is named, once (not its PGN form).
TEST(MetaDifference, WhatARunRecordedAndRestatementsAreNeverADifference) {
  journal::TournamentMeta a, b;
  a.fingerprint = "fp-1";
  b.fingerprint = "fp-2";
  a.settings = {{"time", "1+0.01"},
                {"time.pgn", "1+0.01"},
                {"engine.base.command", "./engine"},
                {"engine.base.executable", "/home/someone/.cache/kalah-arena/worktrees/0123/engine"},
                {"engine.base.sha256", std::string(64, 'a')},
                {"engine.base.dir", "tree /home/someone/.cache/kalah-arena/worktrees/0123\n"},
                {"engine.base.dir_sha256", std::string(64, 'b')},
                {"engine.base.file_sums", std::string(64, 'c') + "  /home/someone/engine\n"},
                {"engine.base.bench", "511"},
                {"git.base.build_seconds", "0.125"},
                {"run.machine", "x"}};
  b.settings = {
      {"time", "2+0.02"}, {"time.pgn", "2+0.02"}, {"engine.base.command", "./engine"}, {"git.base.build_seconds", "0"}};
  EXPECT_EQ(journal::describe_difference(a, b), "time: 1+0.01 -> 2+0.02");
  // The SPRT's test in words beside its keys.
  a.settings = {{"sprt", "elo0=0 elo1=5"}, {"sprt.elo1", "5"}};
  b.settings = {{"sprt", "elo0=0 elo1=10"}, {"sprt.elo1", "10"}};
  EXPECT_EQ(journal::describe_difference(a, b), "sprt.elo1: 5 -> 10");
}

TEST(MetaDifference, TheRankingRulesAreNeverADifference) {
  journal::TournamentMeta a, b;
  a.fingerprint = "fp-1";
  b.fingerprint = "fp-2";
  a.settings = {{"time", "1+0.01"}, {"ranking.by", "points"}, {"ranking.tiebreaks", "wins"}};
  b.settings = {{"time", "2+0.02"}, {"ranking.by", "elo"}};
  EXPECT_EQ(journal::describe_difference(a, b), "time: 1+0.01 -> 2+0.02");
}

}  // namespace
}  // namespace kalah
