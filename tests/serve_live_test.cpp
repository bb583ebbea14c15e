// The live stream's parts on their own (docs/SERVE.md, "The live stream"): the live file's lines as the arena
// writes them and as the server reads them (hostile ones refused), the SSE framing and event ids, and a feed
// over synthetic live files and a journal: new plies once each, a new client's replay of the games in flight,
// a client that resumes from Last-Event-ID missing and repeating nothing, finished games, links and special
// files passed over.
#include "arena/serve/live_feed.h"

#include <sys/stat.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <boost/json.hpp>

#include "arena/runner/live_file.h"
#include "referee/record/json_text.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"
#include "tests/game_records.h"

namespace kalah::serve {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace live = arena::live;
using test::read_file;
using test::write_file;

// The tests below read the files right after each line is published: written at once, without a batch.
constexpr std::chrono::milliseconds kAtOnce{0};

TEST(LiveFile, LinesReadBackAsWritten) {
  const live::Line header = live::parse_line(live::to_line(live::Header{"k1", "r1-g0", "alpha \"a\"", "beta"}));
  ASSERT_TRUE(std::holds_alternative<live::Header>(header));
  EXPECT_EQ(std::get<live::Header>(header).south, "alpha \"a\"");
  EXPECT_EQ(std::get<live::Header>(header).game, "r1-g0");
  live::Ply p{"k1", 3, 0, 1, {1234.5, std::nullopt}, 12.25};
  std::string text = live::to_line(p);
  ASSERT_EQ(text.back(), '\n');
  text.pop_back();
  const live::Line ply = live::parse_line(text);
  ASSERT_TRUE(std::holds_alternative<live::Ply>(ply)) << text;
  EXPECT_EQ(std::get<live::Ply>(ply).ply, 3);
  EXPECT_EQ(std::get<live::Ply>(ply).move, 0);
  EXPECT_EQ(std::get<live::Ply>(ply).mover, 1);
  EXPECT_EQ(std::get<live::Ply>(ply).clocks_ms[0], 1234.5);
  EXPECT_FALSE(std::get<live::Ply>(ply).clocks_ms[1]);
  EXPECT_EQ(std::get<live::Ply>(ply).elapsed_ms, 12.25);
  const live::Line end = live::parse_line(live::to_line(live::End{"k1", false}));
  ASSERT_TRUE(std::holds_alternative<live::End>(end));
  EXPECT_FALSE(std::get<live::End>(end).played);
  // A line whose values outgrow the parser's buffer on the stack (an unknown field of 1,900 numbers) is read too.
  std::string wide = R"({"key":"k1","ply":3,"move":2,"mover":0,"clocks_ms":[null,null],"elapsed_ms":null,"x":[0)";
  for (int i = 1; i < 1900; ++i) wide += ",0";
  wide += "]}";
  ASSERT_LE(wide.size(), live::kMaxLineBytes);
  const live::Line wide_ply = live::parse_line(wide);
  ASSERT_TRUE(std::holds_alternative<live::Ply>(wide_ply));
  EXPECT_EQ(std::get<live::Ply>(wide_ply).move, 2);
  EXPECT_EQ(live::file_name(std::nullopt, 2), "all-worker-2.jsonl");
  EXPECT_EQ(live::file_name(arena::Shard{2, 4}, 0), "2-of-4-worker-0.jsonl");
}

TEST(LiveFile, HostileLinesAreInvalid) {
  for (const std::string& bad :
       {std::string("not json"), std::string("[1,2]"), std::string(R"({"ply":0,"move":1,"mover":0})"),
        std::string(R"({"key":"k","ply":0,"move":17,"mover":0,"clocks_ms":[null,null],"elapsed_ms":null})"),
        std::string(R"({"key":"k","ply":-1,"move":1,"mover":0,"clocks_ms":[null,null],"elapsed_ms":null})"),
        std::string(R"({"key":"k","ply":0,"move":1,"mover":2,"clocks_ms":[null,null],"elapsed_ms":null})"),
        std::string(R"({"key":"k","ply":0,"move":1,"mover":0,"clocks_ms":[null],"elapsed_ms":null})"),
        std::string(R"({"key":"k","ply":0,"move":1,"mover":0,"clocks_ms":["1",null],"elapsed_ms":null})"),
        std::string(R"({"key":"k","ply":0,"move":1,"mover":0,"clocks_ms":[null,null],"elapsed_ms":-4})"),
        std::string(R"({"key":"k","end":"maybe"})"), std::string(R"({"live":1,"key":"k","game":"g","south":"a"})"),
        std::string(R"({"key":"k","ply":0,"move":1,"mover":0,"clocks_ms":[null,null],"elapsed_ms":null,"x":")") +
            std::string(live::kMaxLineBytes, 'x') + "\"}"})
    EXPECT_TRUE(std::holds_alternative<live::Invalid>(live::parse_line(bad))) << bad.substr(0, 100);
}

TEST(LiveSse, FramesAndEventIds) {
  EXPECT_EQ(sse_frame("00000000000000ff-7", "ply", R"({"a":1})"),
            "id: 00000000000000ff-7\nevent: ply\ndata: {\"a\":1}\n\n");
  EXPECT_EQ(event_id(255, 7), "00000000000000ff-7");
  EXPECT_EQ(resumed_seq("00000000000000ff-7", 255), 7u);
  EXPECT_EQ(resumed_seq("00000000000000ff-0", 255), 0u);
  for (const char* other : {"00000000000000fe-7", "00000000000000ff-", "00000000000000ff-7x", "00000000000000ff--7",
                            "ff-7", "", "00000000000000ff-99999999999999999999", "00000000000000ff-7\n"})
    EXPECT_FALSE(resumed_seq(other, 255)) << other;
  EXPECT_TRUE(is_live_file_name("all-worker-0.jsonl"));
  EXPECT_TRUE(is_live_file_name("12-of-16-worker-31.jsonl"));
  for (const char* other : {"games.jsonl", "../all-worker-0.jsonl", "all-worker-0.jsonl.tmp", "ALL-worker-0.jsonl"})
    EXPECT_FALSE(is_live_file_name(other)) << other;
}

// A results folder with live files written by the arena's own publisher.
class LiveFeedTest : public ::testing::Test {
 protected:
  LiveFeedTest() : temp_("serve-live") { fs::create_directories(dir()); }
  fs::path dir() const { return temp_.path() / "t"; }

  // Plays `count` more plies of `record` (moves 1, 2, 3, ...) into `publisher`.
  static void play(live::Publisher& publisher, GameRecord& record, int count) {
    for (int i = 0; i < count; ++i) {
      record.moves.push_back(Move::at(static_cast<int>(record.moves.size() % 6) + 1));
      record.move_info.push_back({});
      publisher.ply(record, static_cast<int>(record.moves.size() - 1) % 2, {1000.0, 900.0});
    }
  }
  static std::vector<std::pair<std::string, int>> plies_of(const std::vector<EventPtr>& events) {
    std::vector<std::pair<std::string, int>> plies;
    for (const EventPtr& e : events)
      if (e->kind == "ply") {
        const json::value data = json::parse(e->data);
        plies.emplace_back(std::string(data.at("game").as_string()), static_cast<int>(data.at("ply").as_int64()));
      }
    return plies;
  }

  system::TempFolder temp_;
};

TEST_F(LiveFeedTest, EachPlyOnceAndANewClientGetsTheGamesInFlight) {
  live::Publisher one(dir(), std::nullopt, 0, kAtOnce), two(dir(), std::nullopt, 1, kAtOnce);
  GameRecord a = test::record_of("r1-a", "alpha", "beta", {}), b = test::record_of("r1-b", "gamma", "delta", {});
  one.start(a.id, a.south, a.north);
  play(one, a, 3);
  LiveFeed feed(dir(), 42);
  feed.start();
  // Started mid-game: no event yet, but a new client gets the plies so far.
  EXPECT_EQ(plies_of(feed.replay(std::nullopt)),
            (std::vector<std::pair<std::string, int>>{{"r1-a", 0}, {"r1-a", 1}, {"r1-a", 2}}));
  two.start(b.id, b.south, b.north);
  play(two, b, 2);
  play(one, a, 1);
  std::vector<EventPtr> events = feed.look_live();
  EXPECT_EQ(plies_of(events), (std::vector<std::pair<std::string, int>>{{"r1-a", 3}, {"r1-b", 0}, {"r1-b", 1}}));
  EXPECT_TRUE(feed.look_live().empty()) << "nothing new: nothing sent again";
  EXPECT_TRUE(feed.look_live(std::string("all-worker-1.jsonl")).empty());
  const json::value data = json::parse(events[1]->data);
  EXPECT_EQ(data.at("mover").as_string(), "gamma");
  EXPECT_EQ(data.at("player").as_int64(), 0);
  EXPECT_EQ(data.at("move").as_int64(), 1);
  EXPECT_EQ(data.at("clocks_ms").as_array().size(), 2u);
  EXPECT_EQ(events[1]->frame, sse_frame(event_id(42, events[1]->seq), "ply", events[1]->data));
  // The ids go up by one.
  EXPECT_EQ(events[1]->seq, events[0]->seq + 1);
  EXPECT_EQ(plies_of(feed.replay(std::nullopt)).size(), 6u);
  // A game that ends leaves the games in flight; the worker's next game starts from ply 0 in the same file.
  one.end(true);
  EXPECT_TRUE(feed.look_live().empty());
  EXPECT_EQ(feed.games_in_flight(), std::vector<std::string>{"r1-b"});
  GameRecord c = test::record_of("r1-c", "alpha", "gamma", {});
  one.start(c.id, c.south, c.north);
  play(one, c, 2);
  EXPECT_EQ(plies_of(feed.look_live(std::string("all-worker-0.jsonl"))),
            (std::vector<std::pair<std::string, int>>{{"r1-c", 0}, {"r1-c", 1}}));
  EXPECT_EQ(plies_of(feed.replay(std::nullopt)),
            (std::vector<std::pair<std::string, int>>{{"r1-b", 0}, {"r1-b", 1}, {"r1-c", 0}, {"r1-c", 1}}));
}

// A ply's data is written by hand (a server writes one per ply it reads); these are the bytes json_text() writes
// for the object it was built as before, so browsers receive the same: names that need escapes, a swap, an
// opening move without a time, clocks without a Fischer control, times with many digits.
TEST_F(LiveFeedTest, APlysDataIsTheJsonTextOfItsObject) {
  live::Publisher one(dir(), std::nullopt, 0, kAtOnce);
  LiveFeed feed(dir(), 7);
  feed.start();
  const std::string south = "al\"pha\\ \x01\t </script> \xc3\xa9", north = "beta \xe2\x80\xa8";
  GameRecord r = test::record_of("r1-\"g\"/0", south, north, {});
  r.opening = {Move::at(3)};
  one.start(r.id, r.south, r.north);
  using Clocks = std::array<std::optional<double>, 2>;
  const std::vector<std::tuple<Move, int, double, Clocks>> plies = {{Move::at(3), 0, 0, Clocks{}},
                                                                    {Move::swap(), 1, 0.333333, Clocks{59999.5, 0.1}},
                                                                    {Move::at(6), 1, 12, Clocks{1e-7, 123456789.125}},
                                                                    {Move::at(16), 0, 1e14, Clocks{std::nullopt, 7}}};
  for (const auto& [move, mover, elapsed, clocks] : plies) {
    r.moves.push_back(move);
    if (r.moves.size() > r.opening.size()) {
      r.move_info.emplace_back();
      r.move_info.back().time_ms = elapsed;
    }
    one.ply(r, mover, clocks);
  }
  const std::vector<EventPtr> events = feed.look_live();
  ASSERT_EQ(events.size(), plies.size());
  const auto time = [](const std::optional<double>& ms) { return ms ? json::value(*ms) : json::value(nullptr); };
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const auto& [move, mover, elapsed, clocks] = plies[i];
    json::object o;
    o["game"] = r.id;
    o["ply"] = static_cast<int>(i);
    o["move"] = move.is_swap() ? json::value("swap") : json::value(move.pit);
    o["mover"] = mover == 0 ? south : north;
    o["player"] = mover;
    o["clocks_ms"] = json::array{time(clocks[0]), time(clocks[1])};
    o["elapsed_ms"] = i == 0 ? json::value(nullptr) : json::value(elapsed);
    EXPECT_EQ(events[i]->data, json_text(o)) << i;
  }
}

TEST_F(LiveFeedTest, TheLastPliesOfAGameArriveWhenTheWorkersNextGameStartsBeforeTheyAreRead) {
  live::Publisher one(dir(), std::nullopt, 0, kAtOnce);
  LiveFeed feed(dir(), 3);
  feed.start();
  GameRecord a = test::record_of("g-a", "alpha", "beta", {}), b = test::record_of("g-b", "beta", "alpha", {});
  one.start(a.id, a.south, a.north);
  play(one, a, 3);
  EXPECT_EQ(plies_of(feed.look_live()).size(), 3u);
  // The game's last plies, its end and the next game's first ply, all written before the server looks again.
  play(one, a, 2);
  one.end(true);
  one.start(b.id, b.south, b.north);
  play(one, b, 1);
  EXPECT_EQ(plies_of(feed.look_live()), (std::vector<std::pair<std::string, int>>{{"g-a", 3}, {"g-a", 4}, {"g-b", 0}}));
  EXPECT_EQ(feed.games_in_flight(), std::vector<std::string>{"g-b"});
  // A file that holds kRewriteBytes is written anew at the next game: read from its start.
  std::size_t plies = 1;
  while (fs::file_size(dir() / "live" / "all-worker-0.jsonl") < live::kRewriteBytes) {
    play(one, b, 100);
    plies += 100;
  }
  EXPECT_EQ(plies_of(feed.look_live()).size(), plies - 1);
  one.end(true);
  GameRecord c = test::record_of("g-c", "gamma", "alpha", {});
  one.start(c.id, c.south, c.north);
  play(one, c, 2);
  EXPECT_LT(fs::file_size(dir() / "live" / "all-worker-0.jsonl"), 1024u);
  EXPECT_EQ(plies_of(feed.look_live()), (std::vector<std::pair<std::string, int>>{{"g-c", 0}, {"g-c", 1}}));
}

TEST_F(LiveFeedTest, AClientThatResumesMissesAndRepeatsNothing) {
  live::Publisher one(dir(), std::nullopt, 0, kAtOnce), two(dir(), std::nullopt, 1, kAtOnce);
  LiveFeed feed(dir(), 7);
  feed.start();
  GameRecord a = test::record_of("g-a", "alpha", "beta", {}), b = test::record_of("g-b", "beta", "alpha", {});
  one.start(a.id, a.south, a.north);
  two.start(b.id, b.south, b.north);
  std::vector<EventPtr> seen;
  for (int round = 0; round < 5; ++round) {
    play(one, a, 2);
    play(two, b, 1);
    for (const EventPtr& e : feed.look_live()) seen.push_back(e);
  }
  // The client saw the events up to the 6th, then lost its connection; it comes back with that id.
  const std::uint64_t last = seen[5]->seq;
  const std::optional<std::uint64_t> after = resumed_seq(event_id(feed.epoch(), last), feed.epoch());
  ASSERT_EQ(after, last);
  std::vector<EventPtr> resumed = feed.replay(after);
  std::vector<EventPtr> whole(seen.begin(), seen.begin() + 6);
  whole.insert(whole.end(), resumed.begin(), resumed.end());
  EXPECT_EQ(plies_of(whole), plies_of(seen)) << "every ply once, in order";
  // Nothing happened since the last event: nothing to send.
  EXPECT_TRUE(feed.replay(seen.back()->seq).empty());
  // An id of another feed (another server, an earlier one): sent what a new client gets.
  EXPECT_EQ(plies_of(feed.replay(resumed_seq(event_id(8, last), feed.epoch()))), plies_of(feed.replay(std::nullopt)));
  // A finished game in the journal is a `game` event once, and its plies are no longer replayed.
  GameRecord done = test::record_of("g-a", "alpha", "beta", a.moves);
  done.result = Outcome::FirstWins;
  const std::string line = to_json_line(done);
  write_file(dir() / "games.jsonl", line + "\n" + line + "\n");
  const std::vector<EventPtr> games = feed.look_journals();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0]->kind, "game");
  EXPECT_EQ(json::parse(games[0]->data).at("id").as_string(), "g-a");
  EXPECT_EQ(games[0]->data.find('\n'), std::string::npos);
  EXPECT_TRUE(feed.look_journals().empty());
  EXPECT_EQ(feed.games_in_flight(), std::vector<std::string>{"g-b"});
  // The standings: an event when they change, compact.
  EXPECT_EQ(feed.standings("{\n  \"games\": 1\n}\n").size(), 1u);
  EXPECT_TRUE(feed.standings("{\"games\":1}").empty());
  const std::vector<EventPtr> fresh = feed.replay(std::nullopt);
  ASSERT_FALSE(fresh.empty());
  EXPECT_EQ(fresh.back()->kind, "standings");
  EXPECT_EQ(fresh.back()->data, "{\"games\":1}");
}

// As a worker of `arena run` publishes: lines gather for up to live::kBatch and are written by the publisher's
// own thread, in order, without a flush; a rewrite (the worker's first game) drops nothing it should keep; the
// destructor writes what is left. Every wait is bounded (10 s); nothing is timed.
TEST_F(LiveFeedTest, BatchedLinesReachTheFileInOrderWithoutAFlushAndTheLastAtTheEnd) {
  LiveFeed feed(dir(), 5);
  feed.start();
  std::vector<std::pair<std::string, int>> heard;
  const auto hear_until = [&](std::size_t count) {
    for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         heard.size() < count && std::chrono::steady_clock::now() < deadline;) {
      for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  };
  GameRecord a = test::record_of("g-a", "alpha", "beta", {}), b = test::record_of("g-b", "beta", "alpha", {});
  {
    live::Publisher one(dir(), std::nullopt, 0);
    one.start(a.id, a.south, a.north);
    play(one, a, 50);
    hear_until(50);
    ASSERT_EQ(heard.size(), 50u) << "the batch was not written by the publisher's thread";
    one.end(true);
    one.start(b.id, b.south, b.north);
    play(one, b, 3);
  }
  // The publisher is gone: its destructor wrote the last batch.
  for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
  std::vector<std::pair<std::string, int>> expected;
  for (int i = 0; i < 50; ++i) expected.emplace_back("g-a", i);
  for (int i = 0; i < 3; ++i) expected.emplace_back("g-b", i);
  EXPECT_EQ(heard, expected);
  const std::string text = read_file(dir() / "live" / "all-worker-0.jsonl");
  EXPECT_NE(text.find("\"end\":\"played\""), std::string::npos) << text;
  // A new publisher of the same worker (a resumed run) writes the file anew at its first game, however many
  // lines the last one left, and flush() writes at once.
  live::Publisher again(dir(), std::nullopt, 0);
  GameRecord c = test::record_of("g-c", "gamma", "alpha", {});
  again.start(c.id, c.south, c.north);
  play(again, c, 2);
  again.flush();
  const std::string fresh = read_file(dir() / "live" / "all-worker-0.jsonl");
  EXPECT_EQ(fresh.find("g-a"), std::string::npos) << fresh;
  EXPECT_EQ(std::count(fresh.begin(), fresh.end(), '\n'), 3) << fresh;
}

TEST_F(LiveFeedTest, LinksSpecialFilesAndOversizedFilesAreNotRead) {
  fs::create_directories(dir() / "live");
  const fs::path elsewhere = temp_.path() / "elsewhere.jsonl";
  write_file(elsewhere, live::to_line(live::Header{"k", "secret", "a", "b"}) +
                            live::to_line(live::Ply{"k", 0, 1, 0, {std::nullopt, std::nullopt}, 1.0}));
  fs::create_symlink(elsewhere, dir() / "live" / "all-worker-0.jsonl");
  ASSERT_EQ(::mkfifo((dir() / "live" / "all-worker-1.jsonl").c_str(), 0600), 0);
  std::string big = live::to_line(live::Header{"k", "big", "a", "b"});
  while (big.size() <= live::kMaxFileBytes + live::kMaxLineBytes)
    big += live::to_line(live::Ply{"k", 0, 1, 0, {std::nullopt, std::nullopt}, 1.0});
  write_file(dir() / "live" / "all-worker-2.jsonl", big);
  write_file(dir() / "live" / "all-worker-3.jsonl", std::string(live::kMaxLineBytes + 10, 'x') + "\n");
  LiveFeed feed(dir(), 1);
  feed.start();
  EXPECT_TRUE(feed.look_live().empty());
  EXPECT_TRUE(feed.replay(std::nullopt).empty());
  EXPECT_TRUE(feed.games_in_flight().empty());
  // The live folder itself as a link: not followed.
  fs::remove_all(dir() / "live");
  fs::create_directories(temp_.path() / "other-live");
  write_file(temp_.path() / "other-live" / "all-worker-0.jsonl", read_file(elsewhere));
  fs::create_directory_symlink(temp_.path() / "other-live", dir() / "live");
  EXPECT_TRUE(feed.look_live().empty());
}

// Issue 38: a worker's file starts over once it holds kRewriteBytes; the plies written since the server last read it
// must still reach it, once each, from the full file now at NAME.jsonl.1 (docs/SERVE.md, "The live files").
// Both ways of moving the full file: a second name (link(2)), and on a file system without hard links a rename.
TEST_F(LiveFeedTest, PliesWrittenJustBeforeTheFileStartsOverAreReadOnceFromTheRotatedFile) {
  // A batch that never comes due leaves the new file empty (its header in the buffer) until flush().
  constexpr std::chrono::milliseconds kNever{std::chrono::hours(1)};
  for (const bool by_rename : {false, true})
    for (const std::chrono::milliseconds batch : {kAtOnce, live::kBatch, kNever}) {
      fs::remove_all(dir() / "live");
      live::Publisher one(dir(), std::nullopt, 0, batch);
      if (by_rename) one.rotate_by_rename();
      LiveFeed feed(dir(), 9);
      feed.start();
      GameRecord a = test::record_of("g-a", "alpha", "beta", {}), b = test::record_of("g-b", "beta", "alpha", {});
      one.start(a.id, a.south, a.north);
      play(one, a, 3);
      one.flush();
      std::vector<std::pair<std::string, int>> heard = plies_of(feed.look_live());
      // Past the restart size, the game's end, the next game's start (a new file) and its first plies, unread.
      int plies = 3;
      const auto written = [&] {
        one.flush();
        return fs::file_size(dir() / "live" / "all-worker-0.jsonl");
      };
      for (; written() < live::kRewriteBytes; plies += 100) play(one, a, 100);
      one.end(true);
      one.start(b.id, b.south, b.north);
      EXPECT_TRUE(fs::is_regular_file(dir() / "live" / "all-worker-0.jsonl.1"));
      if (batch == kNever) {
        EXPECT_EQ(fs::file_size(dir() / "live" / "all-worker-0.jsonl"), 0u);
      }
      for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
      play(one, b, 2);
      one.flush();
      EXPECT_LT(fs::file_size(dir() / "live" / "all-worker-0.jsonl"), 1024u);
      for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
      for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
      std::vector<std::pair<std::string, int>> expected;
      for (int i = 0; i < plies; ++i) expected.emplace_back("g-a", i);
      expected.emplace_back("g-b", 0);
      expected.emplace_back("g-b", 1);
      EXPECT_EQ(heard, expected) << "batch " << batch.count() << " ms, by rename " << by_rename;
    }
}

// On a file system without hard links the full file is renamed to NAME.jsonl.1 and the new one to NAME.jsonl right
// after: a server that looks in between finds no NAME.jsonl, and reads the plies it had not read yet at NAME.jsonl.1,
// once, whether it looks at every file or at that one (as an inotify event names it). It fails with the rest lost
// when the server drops a game whose file it cannot find without looking there.
TEST_F(LiveFeedTest, AFileMovedAwayByRenameIsReadToItsEndAtItsNewName) {
  for (const bool every_file : {true, false}) {
    fs::remove_all(dir() / "live");
    live::Publisher one(dir(), std::nullopt, 0, kAtOnce);
    LiveFeed feed(dir(), 13);
    feed.start();
    GameRecord a = test::record_of("g-a", "alpha", "beta", {});
    one.start(a.id, a.south, a.north);
    play(one, a, 2);
    std::vector<std::pair<std::string, int>> heard = plies_of(feed.look_live());
    play(one, a, 3);
    const fs::path file = dir() / "live" / "all-worker-0.jsonl";
    fs::rename(file, dir() / "live" / "all-worker-0.jsonl.1");
    for (const auto& ply : plies_of(every_file ? feed.look_live() : feed.look_live("all-worker-0.jsonl")))
      heard.push_back(ply);
    for (const auto& ply : plies_of(feed.look_live())) heard.push_back(ply);
    EXPECT_EQ(heard,
              (std::vector<std::pair<std::string, int>>{{"g-a", 0}, {"g-a", 1}, {"g-a", 2}, {"g-a", 3}, {"g-a", 4}}))
        << "every file " << every_file;
    EXPECT_TRUE(feed.games_in_flight().empty());
  }
}

// The previous file of a worker as a link to the very file the server read (its inode), or a FIFO: not read, not
// waited on; the new file is read from its start.
TEST_F(LiveFeedTest, AHostileRotatedFileIsNotRead) {
  for (const bool fifo : {false, true}) {
    fs::remove_all(dir() / "live");
    fs::remove(temp_.path() / "kept.jsonl");
    live::Publisher one(dir(), std::nullopt, 0, kAtOnce);
    LiveFeed feed(dir(), 11);
    feed.start();
    GameRecord a = test::record_of("g-a", "alpha", "beta", {}), b = test::record_of("g-b", "beta", "alpha", {});
    one.start(a.id, a.south, a.north);
    play(one, a, 1);
    ASSERT_EQ(plies_of(feed.look_live()).size(), 1u);
    while (fs::file_size(dir() / "live" / "all-worker-0.jsonl") < live::kRewriteBytes) play(one, a, 100);
    one.end(true);
    one.start(b.id, b.south, b.north);
    play(one, b, 1);
    const fs::path rotated = dir() / "live" / "all-worker-0.jsonl.1";
    fs::create_hard_link(rotated, temp_.path() / "kept.jsonl");
    fs::remove(rotated);
    if (fifo)
      ASSERT_EQ(::mkfifo(rotated.c_str(), 0600), 0);
    else
      fs::create_symlink(temp_.path() / "kept.jsonl", rotated);
    EXPECT_EQ(plies_of(feed.look_live()), (std::vector<std::pair<std::string, int>>{{"g-b", 0}})) << fifo;
    EXPECT_EQ(feed.games_in_flight(), std::vector<std::string>{"g-b"});
  }
}

// A run's start removes its shard's live files of a previous run, the previous files and half-made ones too.
TEST_F(LiveFeedTest, StaleLiveFilesAreRemovedWithTheirPreviousFiles) {
  fs::create_directories(dir() / "live");
  for (const char* name :
       {"all-worker-0.jsonl", "all-worker-0.jsonl.1", "all-worker-7.jsonl.new", "2-of-4-worker-0.jsonl.1"})
    write_file(dir() / "live" / name, "x\n");
  live::remove_stale(dir(), std::nullopt);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir() / "live")) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"2-of-4-worker-0.jsonl.1"});
}

}  // namespace
}  // namespace kalah::serve
