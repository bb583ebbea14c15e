// `arena verify` and `arena archive` end to end: a real run of the bundled bots (marked copies in the
// test's own folder), its folder and its archive verified, and each hand edit a reader of published
// results might make caught and named; the archive byte for byte the same twice; a resumed run whose
// engine binary changed refused before any game.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = e2e::fs;
namespace json = boost::json;

class VerifyE2E : public testing::Test {
 protected:
  void SetUp() override {
    const std::string marker = e2e::unique_marker();
    random_ = e2e::copy_executable(e2e::kRandom, tmp_.path(), marker + "r");
    greedy_ = e2e::copy_executable(e2e::kGreedy, tmp_.path(), marker + "g");
    test::TestConfig("v")
        .set("rounds", 2)
        .set("concurrency", 2)
        .set("seed", 3)
        .set("output", (tmp_ / "results").string())
        .time("base_ms = 5000\ninc_ms = 50")
        .engine("random", random_)
        .engine("greedy", greedy_)
        .engine("random-2", random_)
        .write(config_);
  }

  e2e::RunResult arena(std::vector<std::string> args) {
    args.insert(args.begin(), e2e::kArena.string());
    return e2e::run(args, tmp_.path(), std::chrono::milliseconds(180000));
  }

  // Plays the tournament: 3 pairings x 2 pairs x 2 games.
  void play() {
    const e2e::RunResult r = arena({"run", config_.string()});
    ASSERT_EQ(r.status.code, 0) << r.summary();
  }

  // A copy of the results folder to edit by hand, under the same name in a folder of its own.
  fs::path edited_copy() {
    const fs::path copy = tmp_.path() / ("edit" + std::to_string(++copies_)) / "v";
    fs::create_directories(copy.parent_path());
    fs::copy(results_, copy, fs::copy_options::recursive);
    fs::remove(copy / "arena.lock");
    return copy;
  }

  // Line `index` (0-based) of a copy's games.jsonl changed by `edit`; returns the game's id.
  template <class Edit>
  std::string edit_game(const fs::path& dir, std::size_t index, Edit edit) {
    std::vector<std::string> lines = e2e::read_lines(dir / "games.jsonl");
    json::value game = json::parse(lines.at(index));
    edit(game.as_object());
    lines[index] = json::serialize(game);
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    e2e::write_file(dir / "games.jsonl", text);
    return std::string(game.as_object().at("id").as_string());
  }

  system::TempFolder tmp_{"kalah-e2e"};
  fs::path random_, greedy_;
  fs::path config_ = tmp_.path() / "v.toml";
  fs::path results_ = tmp_.path() / "results" / "v";
  int copies_ = 0;
};

TEST_F(VerifyE2E, AFreshRunsFolderAndItsArchivePass) {
  play();
  EXPECT_TRUE(fs::exists(results_ / "config.toml")) << "the run keeps a copy of its config";
  const e2e::RunResult folder = arena({"verify", results_.string()});
  EXPECT_EQ(folder.status.code, 0) << folder.summary();
  EXPECT_NE(folder.out.find("arena verify: OK — 12 games replayed, standings.md, standings.json, standings.csv, "
                            "games.pgn and report.html match the journal (not compared: bots/ (3 pages)), 3 engine "
                            "checksums recorded (schema 1)"),
            std::string::npos)
      << folder.out;

  const fs::path archive = tmp_.path() / "v.tar.gz";
  const e2e::RunResult written = arena({"archive", results_.string(), "-o", archive.string()});
  ASSERT_EQ(written.status.code, 0) << written.summary();
  const e2e::RunResult packed = arena({"verify", archive.string()});
  EXPECT_EQ(packed.status.code, 0) << packed.summary();
  EXPECT_NE(packed.out.find("arena verify: OK — 12 games replayed"), std::string::npos) << packed.out;
  EXPECT_NE(packed.out.find("archived files match SHA256SUMS"), std::string::npos) << packed.out;
  // The workers' live files (arena serve's plies in flight) are in the folder, never in the archive.
  EXPECT_TRUE(fs::exists(results_ / "live" / "all-worker-0.jsonl"));
  const e2e::RunResult listed = e2e::run({"/usr/bin/tar", "-tzf", archive.string()}, tmp_.path());
  ASSERT_EQ(listed.status.code, 0) << listed.summary();
  EXPECT_NE(listed.out.find("/games.jsonl"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("/live/"), std::string::npos) << listed.out;
}

TEST_F(VerifyE2E, ARunWithStartUpForfeitsAndRandomOpeningsPasses) {
  // Every game of the engine that cannot start ends before its opening was played. Two games: a third
  // start-up failure would stop the run (docs/PROTOCOL.md, "An engine that never starts").
  const fs::path bad = e2e::copy_executable(e2e::kBadEngine, tmp_.path(), e2e::unique_marker() + "b");
  test::TestConfig("v")
      .set("rounds", 1)
      .set("seed", 3)
      .set("output", (tmp_ / "results").string())
      .time("base_ms = 5000\ninc_ms = 50")
      .table("openings", "random_plies = 2")
      .engine("random", random_)
      .engine("dead", bad, "args = [\"--crash-at-start\"]")
      .write(config_);
  play();
  const std::vector<std::string> games = e2e::read_lines(results_ / "games.jsonl");
  ASSERT_EQ(games.size(), 2u);
  for (const std::string& line : games) EXPECT_NE(line.find("\"termination\":\"startup\""), std::string::npos) << line;
  const e2e::RunResult r = arena({"verify", results_.string()});
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("arena verify: OK — 2 games replayed"), std::string::npos) << r.out;
}

TEST_F(VerifyE2E, TheArchiveIsByteForByteTheSameTwice) {
  play();
  const fs::path first = tmp_.path() / "a.tar.gz", second = tmp_.path() / "b.tar.gz";
  ASSERT_EQ(arena({"archive", results_.string(), "-o", first.string()}).status.code, 0);
  // Other file times change nothing: the archive holds fixed ones.
  for (const auto& entry : fs::directory_iterator(results_))
    fs::last_write_time(entry.path(), fs::last_write_time(entry.path()) + std::chrono::hours(1));
  ASSERT_EQ(arena({"archive", results_.string(), "-o", second.string()}).status.code, 0);
  const std::string a = e2e::read_file(first), b = e2e::read_file(second);
  EXPECT_EQ(a, b);
  ASSERT_GT(a.size(), 10u);
  EXPECT_EQ(a.substr(4, 4), std::string(4, '\0')) << "no time in the gzip header";
}

TEST_F(VerifyE2E, AHandEditedResultFailsNamingTheGame) {
  play();
  const fs::path dir = edited_copy();
  const std::string id = edit_game(dir, 2, [](json::object& g) {
    const std::string result(g.at("result").as_string());
    g["result"] = result == "1-0" ? "0-1" : "1-0";
  });
  const e2e::RunResult r = arena({"verify", dir.string()});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("arena verify: FAILED — games.jsonl:3 (game " + id + "): the result is"), std::string::npos)
      << r.out;
}

TEST_F(VerifyE2E, AHandEditedMoveFailsNamingTheGame) {
  play();
  const fs::path dir = edited_copy();
  const std::string id = edit_game(dir, 4, [](json::object& g) {
    json::array& moves = g.at("moves").as_array();
    moves[3] = moves[3].as_int64() % 6 + 1;
  });
  const e2e::RunResult r = arena({"verify", dir.string()});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("arena verify: FAILED — games.jsonl:5 (game " + id + "): "), std::string::npos) << r.out;
}

TEST_F(VerifyE2E, HandEditedStandingsFail) {
  play();
  const fs::path dir = edited_copy();
  json::value standings = json::parse(e2e::read_file(dir / "standings.json"));
  json::object& top = standings.as_object()["engines"].as_array()[0].as_object();
  top["points"] = top["points"].to_number<double>() + 1;
  e2e::write_file(dir / "standings.json", json::serialize(standings));
  const e2e::RunResult r = arena({"verify", dir.string()});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("arena verify: FAILED — standings.json does not match the journal"), std::string::npos) << r.out;
}

// The human-readable reports crown the loser: the ranking people look at, changed with the journal and
// standings.json left alone. Before, verify compared standings.json and standings.csv only and said OK, "standings
// and ratings match"; now each of standings.md, report.html and games.pgn fails, named.
TEST_F(VerifyE2E, ATamperedStandingsMdReportHtmlOrGamesPgnFailsNamingTheFile) {
  play();
  // The names of the rows starting with `first` and `last` swapped, in those rows only.
  auto crown_the_last = [](std::string text, const std::string& first, const std::string& last,
                           const std::string& name_before, const std::string& name_after) {
    const std::size_t a = text.find(first), b = text.find(last, a);
    EXPECT_NE(a, std::string::npos) << first;
    EXPECT_NE(b, std::string::npos) << last;
    if (a == std::string::npos || b == std::string::npos) return text;
    auto name_at = [&](std::size_t row) {
      const std::size_t from = text.find(name_before, row) + name_before.size();
      return std::pair{from, text.find(name_after, from) - from};
    };
    const auto [winner_at, winner_size] = name_at(a);
    const auto [loser_at, loser_size] = name_at(b);
    const std::string winner = text.substr(winner_at, winner_size), loser = text.substr(loser_at, loser_size);
    text.replace(loser_at, loser_size, winner);
    text.replace(winner_at, winner_size, loser);
    return text;
  };
  struct Tampering {
    const char* file;
    std::function<std::string(std::string)> edit;
  };
  const Tampering tamperings[] = {
      {"standings.md", [&](std::string t) { return crown_the_last(t, "\n| 1 | ", "\n| 3 | ", "| ", " |"); }},
      {"report.html",
       [&](std::string t) {
         return crown_the_last(t, "<tr><td>1</td><td class=\"name\">", "<tr><td>3</td><td class=\"name\">", "html\">",
                               "</a>");
       }},
      {"games.pgn",
       [](std::string t) {
         const std::size_t at = t.find("[Result \"1-0\"]");
         EXPECT_NE(at, std::string::npos);
         return at == std::string::npos ? t : t.replace(at, 14, "[Result \"0-1\"]");
       }},
  };
  for (const Tampering& t : tamperings) {
    const fs::path dir = edited_copy();
    const std::string before = e2e::read_file(dir / t.file);
    const std::string after = t.edit(before);
    ASSERT_NE(after, before) << t.file;
    e2e::write_file(dir / t.file, after);
    const e2e::RunResult r = arena({"verify", dir.string()});
    EXPECT_EQ(r.status.code, 1) << t.file << "\n" << r.summary();
    EXPECT_NE(r.out.find(std::string("arena verify: FAILED — ") + t.file + " does not match the journal: line "),
              std::string::npos)
        << t.file << "\n"
        << r.out;
  }
  // Written again with --publish (no local paths in the "About" sections), the folder still verifies.
  const fs::path published = edited_copy();
  ASSERT_EQ(arena({"report", published.string(), "--publish"}).status.code, 0);
  const e2e::RunResult r = arena({"verify", published.string(), "--quiet"});
  EXPECT_EQ(r.status.code, 0) << r.summary();
}

TEST_F(VerifyE2E, UnknownSchemaVersionsFail) {
  play();
  const fs::path lines = edited_copy();
  edit_game(lines, 0, [](json::object& g) { g["schema"] = 9; });
  const e2e::RunResult line = arena({"verify", lines.string()});
  EXPECT_EQ(line.status.code, 1) << line.summary();
  EXPECT_NE(line.out.find("FAILED — games.jsonl:1: schema 9, but this arena knows schemas 1 to 4"), std::string::npos)
      << line.out;

  const fs::path meta = edited_copy();
  json::value tournament = json::parse(e2e::read_file(meta / "tournament.json"));
  tournament.as_object()["format"] = 2;
  e2e::write_file(meta / "tournament.json", json::serialize(tournament));
  const e2e::RunResult format = arena({"verify", meta.string()});
  EXPECT_EQ(format.status.code, 1) << format.summary();
  EXPECT_NE(format.out.find("FAILED — tournament.json: format 2, but this arena knows format 1 only"),
            std::string::npos)
      << format.out;
}

TEST_F(VerifyE2E, AChangedByteInAnArchivedFileFailsItsChecksumList) {
  play();
  const fs::path archive = tmp_.path() / "v.tar.gz";
  ASSERT_EQ(arena({"archive", results_.string(), "-o", archive.string()}).status.code, 0);
  // Unpacked, one byte of a report changed, packed again with the system's tar.
  const fs::path unpacked = tmp_.path() / "unpacked";
  fs::create_directories(unpacked);
  ASSERT_EQ(e2e::run({"/bin/tar", "-xzf", archive.string(), "-C", unpacked.string()}, tmp_.path()).status.code, 0);
  std::string html = e2e::read_file(unpacked / "v" / "report.html");
  html[html.size() / 2] = html[html.size() / 2] == 'x' ? 'y' : 'x';
  e2e::write_file(unpacked / "v" / "report.html", html);
  const fs::path tampered = tmp_.path() / "tampered.tar.gz";
  ASSERT_EQ(e2e::run({"/bin/tar", "-czf", tampered.string(), "-C", unpacked.string(), "v"}, tmp_.path()).status.code,
            0);
  const e2e::RunResult r = arena({"verify", tampered.string()});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("FAILED — SHA256SUMS:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("report.html was changed"), std::string::npos) << r.out;
}

TEST_F(VerifyE2E, AResumedRunWithAChangedEngineBinaryIsRefused) {
  play();
  const std::size_t games = e2e::read_lines(results_ / "games.jsonl").size();
  const std::string recorded = std::string(json::parse(e2e::read_file(results_ / "tournament.json"))
                                               .as_object()
                                               .at("settings")
                                               .as_object()
                                               .at("engine.greedy.sha256")
                                               .as_string());
  // A rebuild: the same program with one more byte.
  e2e::write_file(greedy_, e2e::read_file(greedy_) + "\n");
  const e2e::RunResult r = arena({"run", config_.string()});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'greedy': its executable " + greedy_.string() + " changed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("recorded " + recorded + ", now "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--fresh"), std::string::npos) << r.err;
  EXPECT_EQ(e2e::read_lines(results_ / "games.jsonl").size(), games) << "no game is played";

  // verify opens no engine the results name (docs/SECURITY.md): it says what was recorded, for a
  // `sha256sum -c ENGINES.sha256` where the engines live. --fresh starts over with the new build.
  const e2e::RunResult verify = arena({"verify", results_.string()});
  EXPECT_EQ(verify.status.code, 0) << verify.summary();
  EXPECT_NE(verify.out.find("engine 'greedy': the run recorded SHA-256 " + recorded + " for " + greedy_.string() +
                            " (not opened here)"),
            std::string::npos)
      << verify.out;
  const e2e::RunResult fresh = arena({"run", config_.string(), "--fresh"});
  EXPECT_EQ(fresh.status.code, 0) << fresh.summary();
  EXPECT_EQ(arena({"verify", results_.string()}).status.code, 0);
}

TEST_F(VerifyE2E, AShardedRunVerifiesOnceMergedAndItsArchiveHoldsTheShards) {
  for (const char* shard : {"1/2", "2/2"}) {
    const e2e::RunResult r = arena({"run", config_.string(), "--shard", shard});
    ASSERT_EQ(r.status.code, 0) << r.summary();
  }
  // Before the merge: the shards' journals and transcripts are what there is, and what is checked.
  const e2e::RunResult unmerged = arena({"verify", results_.string()});
  EXPECT_EQ(unmerged.status.code, 0) << unmerged.summary();
  EXPECT_NE(unmerged.out.find("arena verify: OK — 12 games replayed, 2 shard journals, not merged yet (no standings)"),
            std::string::npos)
      << unmerged.out;
  // One shard's folder on its own is one shard: its journal; the merge writes the standings.
  const e2e::RunResult shard = arena({"verify", (results_ / "shards" / "2-of-2").string()});
  EXPECT_EQ(shard.status.code, 0) << shard.summary();
  EXPECT_NE(shard.out.find("replayed, shard 2/2: no standings (its merge writes them)"), std::string::npos)
      << shard.out;
  ASSERT_EQ(arena({"report", results_.string()}).status.code, 0);
  const fs::path archive = tmp_.path() / "v.tar.gz";
  ASSERT_EQ(arena({"archive", results_.string(), "-o", archive.string()}).status.code, 0);
  const e2e::RunResult r = arena({"verify", archive.string()});
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("schema: 2 tournament.json files of format 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("arena verify: OK — 12 games replayed"), std::string::npos) << r.out;
  const e2e::RunResult listed = e2e::run({"/bin/tar", "-tzf", archive.string()}, tmp_.path());
  EXPECT_NE(listed.out.find("v/shards/2-of-2/games.jsonl"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("v/shards/1-of-2/config.toml"), std::string::npos) << listed.out;
}

TEST_F(VerifyE2E, NothingToCheckExitsWithTwo) {
  const e2e::RunResult r = arena({"verify", (tmp_.path() / "nothing").string()});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.out.find("no such results folder or archive"), std::string::npos) << r.out;
  e2e::write_file(tmp_.path() / "notes.txt", "not an archive\n");
  const e2e::RunResult text = arena({"verify", (tmp_.path() / "notes.txt").string()});
  EXPECT_EQ(text.status.code, 2) << text.summary();
  EXPECT_NE(text.out.find("not a .tar.gz"), std::string::npos) << text.out;
}

// An archive is untrusted input: one crafted to take long (4 GiB of zeros behind a 4 MB gzip, in concatenated
// members) is stopped at --time-limit, exit 2 with the reason, and what it had extracted is removed. Before,
// nothing bounded the time `arena verify` spent on an archive.
TEST_F(VerifyE2E, ACraftedArchiveIsStoppedAtTheTimeLimitAndLeavesNothingBehind) {
  const fs::path bomb = tmp_.path() / "bomb.tar.gz", work = tmp_.path() / "work";
  fs::create_directories(work);
  const std::string script = "cd '" + tmp_.path().string() +
                             "' && mkdir -p b/x && truncate -s 4G b/x/big && "
                             "{ tar -C b -cf - x 2>/dev/null | head -c 1536 | gzip -1 > bomb.tar.gz; } && "
                             "head -c 64M /dev/zero | gzip -9 > z.gz && "
                             "for i in $(seq 64); do cat z.gz >> bomb.tar.gz; done && rm -r b z.gz";
  const e2e::RunResult made = e2e::run({"/bin/sh", "-c", script}, tmp_.path());
  ASSERT_EQ(made.status.code, 0) << made.summary();
  ASSERT_LT(fs::file_size(bomb), 8u << 20);
  const e2e::RunResult r = e2e::run(
      {"/usr/bin/env", "TMPDIR=" + work.string(), e2e::kArena.string(), "verify", "--time-limit", "1", bomb.string()},
      tmp_.path(), std::chrono::milliseconds(60000));
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_LT(r.seconds, 20) << r.summary();
  EXPECT_NE(r.err.find("arena verify: stopped after 1 s (--time-limit 1)"), std::string::npos) << r.summary();
  EXPECT_TRUE(fs::is_empty(work)) << "the extracted files are removed";
}

// An SPRT's reports lead with its test (standings.json's "sprt"): verify writes it again with the code that
// wrote it, for the run's folder, after `arena report` merged it again, and for its archive. Before, every
// honest SPRT run failed: "standings.json does not match the journal: line 121: recorded `},`".
TEST_F(VerifyE2E, AnSprtRunThatReachedH1VerifiesAndSoDoesItsArchive) {
  const fs::path out = tmp_.path() / "sp";
  const e2e::RunResult played =
      arena({"sprt", "--base", random_.string(), "--test", greedy_.string(), "--depth", "1", "--elo0", "0", "--elo1",
             "50", "--openings-plies", "2", "--concurrency", "2", "--out", out.string()});
  ASSERT_NE(played.out.find("H1 accepted"), std::string::npos) << played.summary();
  const fs::path dir = out / "sprt";
  const fs::path archive = tmp_.path() / "sprt.tar.gz";
  for (const char* step : {"as played", "after arena report"}) {
    if (std::string(step) == "after arena report") arena({"report", dir.string()});
    const e2e::RunResult r = arena({"verify", dir.string()});
    EXPECT_EQ(r.status.code, 0) << step << "\n" << r.summary();
    EXPECT_NE(r.out.find("arena verify: OK — "), std::string::npos) << step << "\n" << r.out;
  }
  ASSERT_EQ(arena({"archive", dir.string(), "-o", archive.string()}).status.code, 0);
  const e2e::RunResult packed = arena({"verify", archive.string()});
  EXPECT_EQ(packed.status.code, 0) << packed.summary();
  EXPECT_NE(packed.out.find("archived files match SHA256SUMS"), std::string::npos) << packed.out;

  // The test's lead is checked too: a decision changed by hand fails.
  const fs::path edited = tmp_.path() / "sp-edit" / "sprt";
  fs::create_directories(edited.parent_path());
  fs::copy(dir, edited, fs::copy_options::recursive);
  fs::remove(edited / "arena.lock");
  std::string standings = e2e::read_file(edited / "standings.json");
  const std::size_t decision = standings.find("\"decision\": \"H1\"");
  ASSERT_NE(decision, std::string::npos) << standings;
  standings.replace(decision, 16, "\"decision\": \"H0\"");
  e2e::write_file(edited / "standings.json", standings);
  const e2e::RunResult changed = arena({"verify", edited.string()});
  EXPECT_EQ(changed.status.code, 1) << changed.summary();
  EXPECT_NE(changed.out.find("FAILED — standings.json does not match the journal"), std::string::npos) << changed.out;
}

// A rating list (`arena report A B --out L`) holds no journal: verify checks it from its tournaments' folders,
// which the operator names (verify opens no folder the checked data names); named none, it says so and how.
TEST_F(VerifyE2E, ARatingListVerifiesFromItsTournamentsFolders) {
  play();
  const fs::path second = tmp_.path() / "w.toml";
  std::string text = e2e::read_file(config_);
  text.replace(text.find("name = \"v\""), 10, "name = \"w\"");
  e2e::write_file(second, text);
  ASSERT_EQ(arena({"run", second.string()}).status.code, 0);
  const fs::path w = tmp_.path() / "results" / "w", list = tmp_.path() / "list";
  const e2e::RunResult made = arena({"report", results_.string(), w.string(), "--out", list.string()});
  ASSERT_EQ(made.status.code, 0) << made.summary();
  ASSERT_TRUE(fs::exists(list / "list.json"));

  const e2e::RunResult alone = arena({"verify", list.string()});
  EXPECT_EQ(alone.status.code, 2) << alone.summary();
  EXPECT_NE(alone.out.find("is a rating list over 2 tournaments (" + results_.string() + " " + w.string() +
                           "): it holds no journal of its own"),
            std::string::npos)
      << alone.out;
  EXPECT_NE(alone.out.find("arena verify " + list.string() + " " + results_.string() + " " + w.string()),
            std::string::npos)
      << alone.out;

  const e2e::RunResult checked = arena({"verify", list.string(), results_.string(), w.string()});
  EXPECT_EQ(checked.status.code, 0) << checked.summary();
  EXPECT_NE(checked.out.find("arena verify: OK — 24 games replayed, the rating list matches its tournaments"),
            std::string::npos)
      << checked.out;

  // A hand-edited list fails; so does one checked against a tournament it was not written from.
  json::value standings = json::parse(e2e::read_file(list / "standings.json"));
  json::object& top = standings.as_object()["engines"].as_array()[0].as_object();
  const std::string kept = e2e::read_file(list / "standings.json");
  top["points"] = top["points"].to_number<double>() + 1;
  e2e::write_file(list / "standings.json", json::serialize(standings));
  const e2e::RunResult edited = arena({"verify", list.string(), results_.string(), w.string()});
  EXPECT_EQ(edited.status.code, 1) << edited.summary();
  EXPECT_NE(edited.out.find("FAILED — standings.json does not match the tournaments' journals"), std::string::npos)
      << edited.out;
  e2e::write_file(list / "standings.json", kept);
  const e2e::RunResult swapped = arena({"verify", list.string(), results_.string(), results_.string()});
  EXPECT_EQ(swapped.status.code, 1) << swapped.summary();
  const e2e::RunResult one = arena({"verify", list.string(), results_.string()});
  EXPECT_EQ(one.status.code, 2) << one.summary();
  EXPECT_NE(one.out.find("but 1 folder is named after it"), std::string::npos) << one.out;
}

}  // namespace
}  // namespace kalah
