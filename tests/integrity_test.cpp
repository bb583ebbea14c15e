// arena/integrity: SHA-256 against published vectors, every game of seeded random play accepted by
// the replay check and each kind of hand edit refused, the engine digests and what a resumed run
// compares, and the archive reader refusing entries that would write outside its folder.
#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "arena/integrity/archive.h"
#include "arena/integrity/engine_checksums.h"
#include "arena/integrity/replay.h"
#include "arena/integrity/sha256.h"
#include "referee/system/temp_folder.h"
#include "tests/game_records.h"

namespace kalah::integrity {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, AFileInChunksEqualsItsTextAtOnce) {
  system::TempFolder dir{"kalah-integrity"};
  std::string text;
  for (int i = 0; i < 100'000; ++i) text += static_cast<char>('a' + i % 26);  // more than one read
  write(dir.path() / "big", text);
  Expected<std::string> digest = sha256_file(dir.path() / "big");
  ASSERT_TRUE(digest.ok()) << digest.error();
  EXPECT_EQ(*digest, sha256_hex(text));
  EXPECT_FALSE(sha256_file(dir.path() / "missing").ok());
}

// A finished game of random legal moves, each the generator's next draw modulo the number of moves.
GameRecord random_game(const Variant& v, std::mt19937& rng) {
  return test::random_game(v, "g", "a", "b", [&](int n) { return rng() % static_cast<unsigned>(n); });
}

Variant pie_variant() {
  Expected<Variant> v = parse_variant(
      "pits=6 seeds=4 capture=standard ending=side-empty remainder=owner "
      "majority=off pie=on");
  EXPECT_TRUE(v.ok());
  return *v;
}

TEST(CheckGame, AcceptsEveryGameOfRandomPlay) {
  for (const Variant& v : {Variant{}, pie_variant()}) {
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
      const GameRecord g = random_game(v, rng);
      ASSERT_EQ(check_game(g), std::nullopt) << "seed 7, game " << i << ", variant " << to_string(v);
    }
  }
}

TEST(CheckGame, RefusesAnIllegalMoveNamingIt) {
  std::mt19937 rng(1);
  GameRecord g = random_game(Variant{}, rng);
  // Pit 1 is empty after South plays it first; North then moves, and South playing it again is illegal.
  g.moves.insert(g.moves.begin(), {Move::at(1), Move::at(1), Move::at(1)});
  const std::optional<std::string> problem = check_game(g);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("is illegal here"), std::string::npos) << *problem;
}

TEST(CheckGame, RefusesAResultTheStoresDoNotGive) {
  std::mt19937 rng(2);
  GameRecord g = random_game(Variant{}, rng);
  g.result = g.result == Outcome::FirstWins ? Outcome::SecondWins : Outcome::FirstWins;
  const std::optional<std::string> problem = check_game(g);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("the result is"), std::string::npos) << *problem;
}

TEST(CheckGame, RefusesStoresTheMovesDoNotGive) {
  std::mt19937 rng(3);
  GameRecord g = random_game(Variant{}, rng);
  g.store_south += 1;
  const std::optional<std::string> problem = check_game(g);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("the stores are recorded as"), std::string::npos) << *problem;
}

TEST(CheckGame, AForfeitLosesForTheEngineThatForfeited) {
  GameRecord g = test::record_of("f", "a", "b", {Move::at(3)});
  const Position p = after(g.variant, start_position(g.variant), Move::at(3));
  g.store_south = store(g.variant, p, Side::South);
  g.termination = Termination::Time;
  g.forfeit = Forfeit{"b", Termination::Time, "answered after 3000 ms"};
  g.result = Outcome::FirstWins;
  EXPECT_EQ(check_game(g), std::nullopt);
  g.result = Outcome::SecondWins;
  EXPECT_TRUE(check_game(g));
  g.result = Outcome::FirstWins;
  g.forfeit->engine = "c";
  EXPECT_TRUE(check_game(g));
  g.forfeit.reset();
  EXPECT_TRUE(check_game(g)) << "a forfeit termination needs its forfeit";
}

TEST(CheckGame, OnlyAForfeitEndsAGameInsideItsOpening) {
  // An engine that did not start, in a tournament with random 2-ply openings: no move was played.
  GameRecord g = test::record_of("r1-0v1-p1-g0", "a", "b", {});
  g.opening = {Move::at(3), Move::at(1)};
  g.termination = Termination::Startup;
  g.forfeit = Forfeit{"a", Termination::Startup, "eof before kepok: exited with code 1"};
  g.result = Outcome::SecondWins;
  EXPECT_EQ(check_game(g), std::nullopt);
  // Or failed after the first opening move (its newgame of the next game, say): a prefix of the opening.
  g.moves = {Move::at(3)};
  g.move_info = {{}};
  g.store_south = store(g.variant, after(g.variant, start_position(g.variant), Move::at(3)), Side::South);
  EXPECT_EQ(check_game(g), std::nullopt);
  g.moves = {Move::at(4)};
  g.store_south = store(g.variant, after(g.variant, start_position(g.variant), Move::at(4)), Side::South);
  ASSERT_TRUE(check_game(g));
  EXPECT_NE(check_game(g)->find("is not the opening's move 1"), std::string::npos) << *check_game(g);
  // A game the rules or an adjudication ended cannot stop inside its opening.
  g.moves.clear();
  g.move_info.clear();
  g.store_south = 0;
  g.forfeit.reset();
  g.termination = Termination::Normal;
  ASSERT_TRUE(check_game(g));
  EXPECT_NE(check_game(g)->find("the opening is longer than the moves"), std::string::npos) << *check_game(g);
}

TEST(CheckGame, AdjudicationsFollowTheirReason) {
  // Max plies after one move: 3 seeds in South's store... each side's seeds counted for its owner.
  // 4 seeds from pit 1: pits 2-5, no store; 24-24 with the seeds counted
  GameRecord g = test::record_of("m", "a", "b", {Move::at(1)});
  g.termination = Termination::Adjudicated;
  g.adjudication = Adjudication{AdjudicationReason::MaxPlies, {}};
  g.result = Outcome::Draw;
  EXPECT_EQ(check_game(g), std::nullopt);
  g.result = Outcome::FirstWins;
  EXPECT_TRUE(check_game(g));
  g.adjudication = Adjudication{AdjudicationReason::StoreMajority, {}};
  EXPECT_TRUE(check_game(g)) << "no store holds a majority at the start";
  g.adjudication = Adjudication{AdjudicationReason::Database, 2};
  g.result = Outcome::FirstWins;
  EXPECT_EQ(check_game(g), std::nullopt);
  g.adjudication = Adjudication{AdjudicationReason::Database, 3};
  EXPECT_TRUE(check_game(g)) << "48 seeds cannot end 3 apart";
  g.adjudication = Adjudication{AdjudicationReason::Draw, {}};
  EXPECT_TRUE(check_game(g));
  g.result = Outcome::Draw;
  EXPECT_EQ(check_game(g), std::nullopt);
}

using Digests = std::map<std::string, arena::EngineDigests>;

// A tournament's description that recorded `digests`.
arena::TournamentDescription recorded(const Digests& digests) {
  arena::TournamentDescription d;
  for (const auto& [name, e] : digests) d.engines[name].digests = e;
  return d;
}

TEST(EngineChecksums, AScriptAndAFolderAreDigestedWithoutCachesAndLogs) {
  system::TempFolder dir{"kalah-integrity"};
  const fs::path bot = dir.path() / "bot";
  write(bot / "bot.py", "print('hi')\n");
  write(bot / "data.txt", "weights\n");
  EngineSpec e;
  e.name = "py";
  e.cmd = "/bin/sh";
  write(bot / "engine.log", "old log\n");
  write(dir.path() / "results" / "moves.txt", "old moves\n");
  e.args = {"{dir}/bot.py", "bot.py", "--fast", "engine.log", (dir.path() / "results" / "moves.txt").string()};
  e.dir = bot;
  e.stderr_file = bot / "logs" / "{game}.err";
  const Digests first = engine_checksums({e}, dir.path() / "results");
  ASSERT_TRUE(first.at("py").sha256);
  EXPECT_EQ(first.at("py").files, "file " + (bot / "bot.py").string() + "\n");
  ASSERT_TRUE(first.at("py").dir_sha256);
  EXPECT_EQ(files_digest(*first.at("py").dir), first.at("py").dir_sha256);

  // What the engine writes as it plays, and Python's caches, change nothing.
  write(bot / "logs" / "g1.err", "stderr\n");
  write(bot / "__pycache__" / "bot.cpython-311.pyc", "code");
  write(bot / ".hidden", "x");
  const Digests again = engine_checksums({e}, dir.path() / "results");
  EXPECT_EQ(again, first);
  EngineChanges none = changed_engines({"py"}, recorded(first), again);
  EXPECT_TRUE(none.engines.empty() && none.folders.empty());

  // A data file in its folder: noted; the script itself: refused.
  write(bot / "data.txt", "other weights\n");
  EngineChanges folder = changed_engines({"py"}, recorded(first), engine_checksums({e}, dir.path() / "results"));
  EXPECT_TRUE(folder.engines.empty());
  ASSERT_EQ(folder.folders.size(), 1u);
  write(bot / "bot.py", "print('changed')\n");
  EngineChanges script = changed_engines({"py"}, recorded(first), engine_checksums({e}, dir.path() / "results"));
  ASSERT_EQ(script.engines.size(), 1u);
  EXPECT_NE(script.engines[0].find("engine 'py'"), std::string::npos) << script.engines[0];
  EXPECT_NE(script.engines[0].find(*first.at("py").files_sha256), std::string::npos) << script.engines[0];
}

TEST(EngineChecksums, TheResultsAreLeftOutOfAFolderHoldingThemButAnEntryInsideThemIsDigested) {
  system::TempFolder dir{"kalah-integrity"};
  write(dir.path() / "results" / "t" / "games.jsonl", "a game\n");
  write(dir.path() / "results" / "t" / "entries" / "x" / "bot.py", "print()\n");
  EngineSpec outer;
  outer.name = "outer";
  outer.cmd = "/bin/sh";
  outer.dir = dir.path();
  EngineSpec entry = outer;
  entry.name = "entry";
  entry.dir = dir.path() / "results" / "t" / "entries" / "x";
  const Digests before = engine_checksums({outer, entry}, dir.path() / "results" / "t");
  EXPECT_NE(before.at("outer").dir->find("skip " + (dir.path() / "results" / "t").string()), std::string::npos);
  EXPECT_EQ(before.at("entry").dir->find("skip"), std::string::npos) << *before.at("entry").dir;
  write(dir.path() / "results" / "t" / "games.jsonl", "two games\n");
  write(dir.path() / "results" / "t" / "entries" / "x" / "bot.py", "print('changed')\n");
  const Digests after = engine_checksums({outer, entry}, dir.path() / "results" / "t");
  EXPECT_EQ(after.at("outer").dir_sha256, before.at("outer").dir_sha256) << "the results are not the engine";
  EXPECT_NE(after.at("entry").dir_sha256, before.at("entry").dir_sha256) << "an entry's own files are";
}

TEST(EngineChecksums, AnOlderJournalWithoutDigestsIsNotAChange) {
  system::TempFolder dir{"kalah-integrity"};
  EngineSpec e;
  e.name = "sh";
  e.cmd = "/bin/sh";
  const EngineChanges changes = changed_engines({"sh"}, {}, engine_checksums({e}, dir.path()));
  EXPECT_TRUE(changes.engines.empty());
}

TEST(ArchivedFiles, TheResultsEntryManifestsAndLogsButNotLocksBackupsOrBuilds) {
  system::TempFolder dir{"kalah-integrity"};
  const fs::path r = dir.path() / "r";
  for (const char* file : {"games.jsonl",
                           "tournament.json",
                           "config.toml",
                           "standings.json",
                           "report.html",
                           "feedback/bot1.html",
                           "shards/1-of-2/games.jsonl",
                           "entries/bot1/bot.toml",
                           "entries/bot1/build.log",
                           "entries/bot1/src/main.c",
                           "entries/bot1/kalah-bot1",
                           "logs/bot1/build.log",
                           "logs/bot1/check.log",
                           "logs/bot1/other.txt",
                           "arena.lock",
                           "games.jsonl.bak",
                           "games.jsonl.bak2",
                           ".standings.json.tmp-h-1-1",
                           "slurm/run.sbatch",
                           "old.tar.gz",
                           "notes.backup"})
    write(r / file, "x");
  fs::create_symlink("/etc/hostname", r / "link");
  const std::vector<std::string> expected = {"config.toml",    "entries/bot1/bot.toml", "feedback/bot1.html",
                                             "games.jsonl",    "logs/bot1/build.log",   "logs/bot1/check.log",
                                             "notes.backup",   "report.html",           "shards/1-of-2/games.jsonl",
                                             "standings.json", "tournament.json"};
  EXPECT_EQ(archived_files(r), expected);
}

// A .tar.gz with these entries (path, type, content), written as a hostile archive would be.
void write_tar(const fs::path& file, const std::vector<std::tuple<std::string, mode_t, std::string>>& entries) {
  struct archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_add_filter_gzip(a);
  ASSERT_EQ(archive_write_open_filename(a, file.c_str()), ARCHIVE_OK);
  for (const auto& [path, type, content] : entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, path.c_str());
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, 0644);
    if (type == AE_IFLNK) archive_entry_set_symlink(e, content.c_str());
    archive_entry_set_size(e, type == AE_IFREG ? static_cast<la_int64_t>(content.size()) : 0);
    archive_write_header(a, e);
    if (type == AE_IFREG) archive_write_data(a, content.data(), content.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

TEST(ExtractArchive, RefusesEntriesThatWouldWriteOutsideItsFolder) {
  system::TempFolder dir{"kalah-integrity"};
  struct Case {
    std::string name;
    std::vector<std::tuple<std::string, mode_t, std::string>> entries;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"dotdot", {{"r/games.jsonl", AE_IFREG, "x"}, {"r/../../evil", AE_IFREG, "x"}}, "unsafe entry"},
      {"absolute", {{"/tmp/evil", AE_IFREG, "x"}}, "unsafe entry"},
      {"symlink", {{"r/link", AE_IFLNK, "/etc/passwd"}}, "not a regular file"},
      {"two tops", {{"r/a", AE_IFREG, "x"}, {"s/b", AE_IFREG, "x"}}, "more than one top folder"},
  };
  for (const Case& c : cases) {
    const fs::path tar = dir.path() / (c.name + ".tar.gz");
    write_tar(tar, c.entries);
    const fs::path into = dir.path() / ("into-" + c.name);
    fs::create_directories(into);
    Expected<fs::path> top = extract_archive(tar, into);
    ASSERT_FALSE(top.ok()) << c.name;
    EXPECT_NE(top.error().find(c.expected), std::string::npos) << c.name << ": " << top.error();
  }
  EXPECT_FALSE(fs::exists(dir.path().parent_path() / "evil"));
  EXPECT_FALSE(fs::exists("/tmp/evil"));

  const fs::path good = dir.path() / "good.tar.gz";
  write_tar(good, {{"r/games.jsonl", AE_IFREG, "line\n"}});
  fs::create_directories(dir.path() / "into-good");
  Expected<fs::path> top = extract_archive(good, dir.path() / "into-good");
  ASSERT_TRUE(top.ok()) << top.error();
  EXPECT_EQ(*top, dir.path() / "into-good" / "r");
  std::ifstream in(*top / "games.jsonl");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "line");
}

TEST(ExtractArchive, AGzipStreamCutShortIsAnErrorNotACrash) {
  // Found by fuzz_verify (tests/fuzz/corpus/verify/truncated-gzip-null-error): libarchive then has no
  // error text, and the message was built from a null pointer.
  system::TempFolder dir{"kalah-integrity"};
  const unsigned char bytes[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7b, 0x22, 0x73, 0x63, 0x68,
                                 0x65, 0x6d, 0x19, 0x00, 0x00, 0x00, 0x8b, 0x08, 0x16, 0xee, 0xb3, 0x7f};
  const fs::path tar = dir.path() / "cut.tar.gz";
  {
    std::ofstream out(tar, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
  }
  fs::create_directories(dir.path() / "into");
  const Expected<fs::path> top = extract_archive(tar, dir.path() / "into");
  ASSERT_FALSE(top.ok());
  EXPECT_FALSE(top.error().empty());
}

// The fuzz seeds of hostile archives (tools/make-verify-seeds.py writes them into tests/fuzz/corpus/verify/):
// a member that is a FIFO, a device, a hard link, a link pointing outside (also one a later member writes
// through) or a path with '..' is refused, and nothing but folders and regular files is left, all inside.
TEST(ExtractArchive, SpecialFilesHardLinksAndLinksOutOfTheFuzzSeedsAreRefused) {
  system::TempFolder dir{"kalah-integrity"};
  const fs::path corpus = fs::path(KALAH_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / "verify";
  const std::map<std::string, std::string> expected = {
      {"special-fifo", "not a regular file or a folder"},
      {"special-chardev", "not a regular file or a folder"},
      {"special-blockdev", "not a regular file or a folder"},
      {"special-hardlink", "not a regular file or a folder"},
      {"special-hardlink-outside", "not a regular file or a folder"},
      {"special-symlink-outside", "not a regular file or a folder"},
      {"special-symlink-then-write", "not a regular file or a folder"},
      {"special-dotdot", "unsafe entry 'r/../../evil'"},
  };
  for (const auto& [seed, message] : expected) {
    const fs::path into = dir.path() / "x" / seed;  // r/../../evil would be x/evil
    fs::create_directories(into);
    const Expected<fs::path> top = extract_archive(corpus / (seed + ".tar.gz"), into);
    ASSERT_FALSE(top.ok()) << seed << " was extracted";
    EXPECT_NE(top.error().find(message), std::string::npos) << seed << ": " << top.error();
    for (const auto& entry : fs::recursive_directory_iterator(into)) {
      const fs::file_type type = entry.symlink_status().type();
      EXPECT_TRUE(type == fs::file_type::regular || type == fs::file_type::directory)
          << seed << ": " << entry.path() << " is left";
      EXPECT_EQ(entry.symlink_status().type() == fs::file_type::regular ? fs::hard_link_count(entry.path()) : 1u, 1u)
          << seed << ": " << entry.path();
    }
  }
  EXPECT_FALSE(fs::exists(dir.path() / "x" / "evil"));
}

}  // namespace
}  // namespace kalah::integrity
