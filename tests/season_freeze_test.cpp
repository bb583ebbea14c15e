// A season's end (docs/SEASON.md, "Deadline and final"): the freeze record written once and read back, what it
// fixes (each author's last entered revision, those with none, revisions not yet processed), its refusals (a season
// in use, a second freeze of another final, a damaged record), the [season] keys of the final at their positions,
// and the final's config: exactly the frozen revisions, as the contest built them.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "arena/contest/entries.h"
#include "arena/season/final.h"
#include "arena/season/freeze.h"
#include "arena/season/init.h"
#include "arena/season/season_config.h"
#include "arena/season/store.h"
#include "referee/system/directory_lock.h"
#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/files.h"

namespace kalah::season {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::write_file;

// A season of alice, bob and carol: alice's revision 1 superseded by 2 (entered) and 3 still queued, bob's
// revision 1 entered, nothing of carol's. Unsandboxed, with the bundled bots by their paths.
class SeasonFreeze : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(temp_.path() / "AUTHORS.txt", "alice\nbob\ncarol\n");
    ASSERT_TRUE(init_season(dir(), temp_.path() / "AUTHORS.txt"));
    edit("sandbox = \"bwrap\"", "sandbox = \"none\"");
    for (const char* bot : {"kalah-random", "kalah-greedy"}) {
      const std::string path = "\"" + (fs::path(KALAH_BINARY_DIR) / "bots" / bot).string() + "\"";
      edit(std::string("cmd = \"") + bot + "\"", "cmd = " + path);
      if (std::string(bot) == "kalah-random") edit("opponent = \"kalah-random\"", "opponent = " + path);
    }
    Expected<RevisionStore> opened = RevisionStore::open(dir() / kRevisionsFolder);
    ASSERT_TRUE(opened) << opened.error();
    RevisionStore store = std::move(opened).value();
    const UploadSummary summary{UploadKind::Source, 1, 9};
    for (const char* author : {"alice", "alice", "alice", "bob"})
      ASSERT_TRUE(store.add(author, "bot.py", std::string("print('") + author + "')", summary));
    status(store, "alice", 1, "superseded");
    status(store, "alice", 2, "entered");
    status(store, "bob", 1, "entered");
    entries_.submissions = {submission("alice-r1", 1, arena::SubmissionStatus::Withdrawn),
                            submission("alice-r2", 3, arena::SubmissionStatus::Entered),
                            submission("bob-r1", 2, arena::SubmissionStatus::Entered)};
    write_entries();
  }

  fs::path dir() const { return temp_.path() / "term"; }
  void edit(const std::string& from, const std::string& to) {
    std::string text = read_file(dir() / kSeasonFile);
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    write_file(dir() / kSeasonFile, text);
  }
  SeasonConfig season() const {
    Expected<SeasonConfig> loaded = load_season(dir() / kSeasonFile);
    EXPECT_TRUE(loaded) << loaded.error();
    return loaded ? std::move(loaded).value() : SeasonConfig{};
  }
  static void status(const RevisionStore& store, const std::string& author, int number, const std::string& status) {
    ASSERT_EQ(store.record_status(author, number, {status, "", author + "-r" + std::to_string(number), "now"}),
              std::nullopt);
  }
  arena::Submission submission(const std::string& name, int order, arena::SubmissionStatus status) const {
    arena::Submission s;
    s.folder = s.name = name;
    s.status = status;
    s.order = order;
    s.cmd = dir() / "results" / "season" / "entries" / name / "bot";
    s.source_digest = "digest-of-" + name;
    return s;
  }
  void write_entries() {
    const fs::path file = dir() / "results" / "season" / "entries.json";
    fs::create_directories(file.parent_path());
    ASSERT_EQ(arena::write_entries(file, entries_), std::nullopt);
  }

  system::TempFolder temp_{"season-freeze"};
  arena::Entries entries_;
};

TEST_F(SeasonFreeze, RecordsEachAuthorsLastEnteredRevisionOnceAndReadsBack) {
  const Expected<Freeze> done = freeze_season(season());
  ASSERT_TRUE(done) << done.error();
  EXPECT_TRUE(done->written);
  const FreezeRecord& r = done->record;
  EXPECT_EQ(r.final, "round-robin");
  EXPECT_TRUE(r.deadline.empty());
  EXPECT_FALSE(r.before_deadline);
  ASSERT_EQ(r.authors.size(), 3u);
  const FrozenAuthor& alice = r.authors[0];
  EXPECT_EQ(alice.author, "alice");
  EXPECT_EQ(alice.revision, 2);
  EXPECT_EQ(alice.engine, "alice-r2");
  EXPECT_EQ(alice.sha256.size(), 64u);
  EXPECT_NE(read_file(dir() / "revisions" / "alice" / "2" / kRevisionFile).find(alice.sha256), std::string::npos);
  EXPECT_EQ(alice.source_digest, "digest-of-alice-r2");
  EXPECT_EQ(alice.unprocessed, std::vector<int>{3});
  EXPECT_EQ(r.authors[1].engine, "bob-r1");
  EXPECT_FALSE(r.authors[2].in_final());
  EXPECT_EQ(r.authors[2].reason, "no upload");
  ASSERT_EQ(r.finalists().size(), 2u);

  // On the disk as returned, one author a line; read back the same.
  const std::string text = read_file(dir() / kFreezeFile);
  EXPECT_EQ(text, freeze_to_text(r));
  EXPECT_NE(text.find("\n{\"author\":\"carol\",\"revision\":null,\"reason\":\"no upload\",\"unprocessed\":[]}\n"),
            std::string::npos)
      << text;
  const Expected<std::optional<FreezeRecord>> read = read_freeze(dir());
  ASSERT_TRUE(read && *read) << (read ? "absent" : read.error());
  EXPECT_TRUE((*read)->same_final(r));
  EXPECT_EQ((*read)->frozen_at, r.frozen_at);
  EXPECT_EQ(freeze_to_text(**read), text);
}

TEST_F(SeasonFreeze, SaysWhetherItCameBeforeTheDeadline) {
  edit("# deadline = 2027-02-15T23:59:00Z", "deadline = 2199-01-01T00:00:00Z");
  const Expected<Freeze> early = freeze_season(season());
  ASSERT_TRUE(early) << early.error();
  EXPECT_EQ(early->record.deadline, "2199-01-01T00:00:00Z");
  EXPECT_TRUE(early->record.before_deadline);
  fs::remove(dir() / kFreezeFile);
  edit("deadline = 2199-01-01T00:00:00Z", "deadline = 2020-01-01T00:00:00Z");
  const Expected<Freeze> late = freeze_season(season());
  ASSERT_TRUE(late) << late.error();
  EXPECT_EQ(late->record.deadline, "2020-01-01T00:00:00Z");
  EXPECT_FALSE(late->record.before_deadline);
  EXPECT_NE(read_file(dir() / kFreezeFile).find("\"deadline\":\"2020-01-01T00:00:00Z\",\"before_deadline\":false"),
            std::string::npos);
  // A year the clock cannot hold would wrap round into the past: refused at its place.
  edit("deadline = 2020-01-01T00:00:00Z", "deadline = 2999-01-01T00:00:00Z");
  const Expected<SeasonConfig> far = load_season(dir() / kSeasonFile);
  ASSERT_FALSE(far);
  EXPECT_NE(far.error().find("season.toml:7:12: season.deadline must be a date between the years 1970 and 2200, not "
                             "in 2999"),
            std::string::npos)
      << far.error();
}

TEST_F(SeasonFreeze, ASecondFreezeKeepsTheRecordOfTheSameFinalAndRefusesAnother) {
  ASSERT_TRUE(freeze_season(season()));
  const std::string first = read_file(dir() / kFreezeFile);
  const Expected<Freeze> again = freeze_season(season());
  ASSERT_TRUE(again) << again.error();
  EXPECT_FALSE(again->written);
  EXPECT_EQ(read_file(dir() / kFreezeFile), first);
  // Revision 3 was processed after the freeze and entered: another final.
  status(*RevisionStore::open(dir() / kRevisionsFolder), "alice", 3, "entered");
  entries_.submissions.push_back(submission("alice-r3", 4, arena::SubmissionStatus::Entered));
  write_entries();
  const Expected<Freeze> other = freeze_season(season());
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().find("with another final: alice: alice-r2 then, alice-r3 now; a season is frozen once"),
            std::string::npos)
      << other.error();
  // So is another declaration of the final.
  edit("final = \"round-robin\"", "final = \"round-robin\"\nfinal_sparring = true");
  const Expected<Freeze> sparring = freeze_season(season());
  ASSERT_FALSE(sparring);
  EXPECT_NE(sparring.error().find("the final was declared \"round-robin\", now \"round-robin sparring\""),
            std::string::npos)
      << sparring.error();
  EXPECT_EQ(read_file(dir() / kFreezeFile), first);
}

TEST_F(SeasonFreeze, IsRefusedWhileAServerHoldsTheSeason) {
  Expected<system::DirectoryLock> held = system::DirectoryLock::acquire(dir());
  ASSERT_TRUE(held) << held.error();
  const Expected<Freeze> refused = freeze_season(season());
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("the season " + dir().string() + " is in use by pid " + std::to_string(::getpid())),
            std::string::npos)
      << refused.error();
  EXPECT_NE(refused.error().find("stop its server first"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir() / kFreezeFile));
}

TEST_F(SeasonFreeze, ADamagedRecordIsNamedNotTrusted) {
  for (const char* text : {"", "{}", "{\"format\":1}", "[1,2]", "{\"format\":1,\"frozen_at\":\"x\"}"}) {
    write_file(dir() / kFreezeFile, text);
    const Expected<std::optional<FreezeRecord>> read = read_freeze(dir());
    ASSERT_FALSE(read) << text;
    EXPECT_EQ(read.error(), (dir() / kFreezeFile).string() +
                                ": not a season's freeze record (arena season freeze "
                                "writes it)");
  }
  write_file(dir() / kFreezeFile, "{\"format\":2}");
  EXPECT_NE(read_freeze(dir()).error().find("a freeze record of format 2, not 1"), std::string::npos);
  fs::remove(dir() / kFreezeFile);
  fs::create_symlink("/etc/passwd", dir() / kFreezeFile);
  EXPECT_FALSE(read_freeze(dir()));
}

TEST_F(SeasonFreeze, TheFinalPlaysExactlyTheFrozenRevisionsAsTheContestBuiltThem) {
  const Expected<arena::Config> unfrozen = final_config(season());
  ASSERT_FALSE(unfrozen);
  EXPECT_NE(unfrozen.error().find("is not frozen: `arena season freeze"), std::string::npos) << unfrozen.error();
  ASSERT_TRUE(freeze_season(season()));
  // alice-r2 superseded on the ladder after the freeze: the final still plays it.
  entries_.submissions[1].status = arena::SubmissionStatus::Withdrawn;
  write_entries();
  const Expected<arena::Config> config = final_config(season());
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->engines.size(), 2u);
  EXPECT_EQ(config->engines[0].name, "bob-r1");  // in the order they entered
  EXPECT_EQ(config->engines[1].name, "alice-r2");
  EXPECT_EQ(config->engines[1].dir, dir() / "results" / "season" / "entries" / "alice-r2");
  EXPECT_TRUE(config->plays(0) && config->plays(1));
  EXPECT_EQ(config->house_engines, 0);
  EXPECT_EQ(config->results_dir(), dir() / "results" / kFinalName);
  EXPECT_EQ(config->tournament.type, arena::TournamentType::RoundRobin);
  EXPECT_EQ(config->tournament.rounds, season().contest.tournament.rounds);
  EXPECT_EQ(config->time, season().contest.time);
  // A revision rebuilt from other files since the freeze is not the frozen one.
  entries_.submissions[2].source_digest = "another";
  write_entries();
  const Expected<arena::Config> rebuilt = final_config(season());
  ASSERT_FALSE(rebuilt);
  EXPECT_NE(rebuilt.error().find("bob: bob-r1 in "), std::string::npos) << rebuilt.error();
  EXPECT_NE(rebuilt.error().find("not the revision the season froze"), std::string::npos);
}

TEST_F(SeasonFreeze, TheFinalIsTheOneDeclaredAtTheFreeze) {
  ASSERT_TRUE(freeze_season(season()));
  edit("final = \"round-robin\"", "final = \"round-robin\"\nfinal_sparring = true");
  const Expected<arena::Config> changed = final_config(season());
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().find("the final is declared \"round-robin sparring\", but the season was frozen with "
                                 "\"round-robin\""),
            std::string::npos)
      << changed.error();
}

TEST_F(SeasonFreeze, AProgressiveCutoffFinalWithTheSparringPartners) {
  edit("final = \"round-robin\"",
       "final = \"adaptive\"\nfinal_boundaries = [1, 3]\nfinal_budget_games = 40\nfinal_sparring = true");
  const Expected<Freeze> done = freeze_season(season());
  ASSERT_TRUE(done) << done.error();
  EXPECT_EQ(done->record.final, "adaptive boundaries=1,3 budget_games=40 sparring");
  const Expected<arena::Config> config = final_config(season());
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->engines.size(), 4u);  // the sparring partners, then the frozen revisions
  EXPECT_EQ(config->house_engines, 2);
  EXPECT_EQ(config->engines[3].name, "alice-r2");
  EXPECT_EQ(config->tournament.type, arena::TournamentType::Adaptive);
  EXPECT_EQ(config->tournament.boundaries, (std::vector<int>{1, 3}));
  EXPECT_EQ(config->tournament.budget_games, 40);
  EXPECT_EQ(config->ranking.cuts, (std::vector<int>{1, 3}));
}

TEST_F(SeasonFreeze, ABoundaryBeyondTheFinalistsIsNamedAtItsPlace) {
  edit("final = \"round-robin\"", "final = \"adaptive\"\nfinal_boundaries = [1, 2]\nfinal_budget_games = 40");
  ASSERT_TRUE(freeze_season(season()));
  const Expected<arena::Config> config = final_config(season());
  ASSERT_FALSE(config);
  EXPECT_NE(config.error().find("season.toml:13:20: season.final_boundaries: the boundary 2 lies between two places, "
                                "so it is less than the number of engines in the final (2)"),
            std::string::npos)
      << config.error();
}

TEST_F(SeasonFreeze, TheFinalsKeysAreCheckedAtTheirPositions) {
  struct Case {
    const char* to;
    const char* message;
  };
  for (const Case& c : {
           Case{"final = \"round-robin\"\nfinal_boundaries = [1]",
                "season.toml:13:20: season.final_boundaries only applies to final = \"adaptive\""},
           Case{"final = \"adaptive\"\nfinal_boundaries = [1]",
                "season.toml:12:9: final = \"adaptive\" (a progressive cutoff) needs season.final_budget_games"},
           Case{"final = \"adaptive\"\nfinal_boundaries = [3, 1]\nfinal_budget_games = 40",
                "season.toml:13:24: season.final_boundaries[1] = 1: the boundaries must be listed in ascending order"},
           Case{"final = \"adaptive\"\nfinal_boundaries = [1]\nfinal_budget_games = 41",
                "season.toml:14:22: season.final_budget_games must be even"},
           Case{"final = \"swiss\"", "season.toml:12:9: season.final must be "},
           Case{"final = \"round-robin\"\nfinal_sparring = 1", "season.toml:13:18: season.final_sparring must be"},
       }) {
    std::string text = season_toml(dir());
    text.replace(text.find("final = \"round-robin\""), std::string("final = \"round-robin\"").size(), c.to);
    fs::create_directories(dir() / kSubmissionsFolder);
    const Expected<SeasonConfig> parsed = parse_season(text, "season.toml", dir());
    ASSERT_FALSE(parsed) << c.to;
    EXPECT_TRUE(parsed.error().starts_with(c.message)) << parsed.error();
  }
}

}  // namespace
}  // namespace kalah::season
