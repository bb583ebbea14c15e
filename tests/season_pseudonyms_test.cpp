// A season's pseudonyms on their own (docs/SEASON.md, "Pseudonyms"): the derivation (stable for a key, unlike under
// another, unique, never holding an author's name), DIR/pseudonyms.txt (its text, mode 0600), and the names the
// server opens a season with: made on first use, kept, and a key or a file changed mid-season refused.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>

#include "arena/season/init.h"
#include "arena/season/pipeline.h"
#include "arena/season/pseudonyms.h"
#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/files.h"

namespace kalah::season {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::write_file;

SeedSecret key_of(char digit) { return *SeedSecret::from_hex(std::string(64, digit)); }

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A roster of `n` authors, with some names that are words of the lists (so that a pseudonym would hold them).
std::vector<std::string> roster(int n) {
  std::vector<std::string> out = {"otter", "Swift", "fox", "amber", "zebra", "x"};
  for (int i = 0; static_cast<int>(out.size()) < n; ++i) out.push_back("student" + std::to_string(i));
  return out;
}

TEST(SeasonPseudonyms, TheWordListsHoldDistinctLowercaseWords) {
  for (const auto* list : {&pseudonym_adjectives(), &pseudonym_nouns()}) {
    EXPECT_EQ(list->size(), 64u);
    EXPECT_EQ(std::set<std::string_view>(list->begin(), list->end()).size(), list->size());
    for (std::string_view word : *list)
      EXPECT_TRUE(std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; })) << word;
  }
}

TEST(SeasonPseudonyms, AreStableForAKeyAndUnrelatedUnderAnother) {
  const std::regex form("[a-z]+-[a-z]+-[1-9][0-9]");
  int same_under_other_key = 0;
  for (const std::string& author : roster(200)) {
    const std::string p = derive_pseudonym(key_of('a'), author, 0);
    EXPECT_TRUE(std::regex_match(p, form)) << p;
    EXPECT_EQ(p, derive_pseudonym(key_of('a'), author, 0));
    EXPECT_NE(p, derive_pseudonym(key_of('a'), author, 1));
    same_under_other_key += p == derive_pseudonym(key_of('b'), author, 0);
  }
  EXPECT_LE(same_under_other_key, 1);  // 200 draws among 368,640 names
  // A fixed value: the derivation never changes under a season's feet (a newer arena names alike). The same from
  // Python: d = hmac.new(bytes(32), b"season pseudonym\nalice\n0", sha256).digest(); n = int.from_bytes(d[:8],
  // "big") & (2**63 - 1); the adjective n % 64, the animal n // 64 % 64, the number 10 + n // 4096 % 90.
  EXPECT_EQ(derive_pseudonym(key_of('0'), "alice", 0), "steady-plover-19");
}

TEST(SeasonPseudonyms, AreUniqueIgnoringCaseAndHoldNoAuthorsName) {
  const std::vector<std::string> authors = roster(500);
  const Expected<PseudonymList> names = assign_pseudonyms(key_of('c'), authors, {});
  ASSERT_TRUE(names) << names.error();
  ASSERT_EQ(names->size(), authors.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < authors.size(); ++i) {
    const auto& [author, pseudonym] = (*names)[i];
    EXPECT_EQ(author, authors[i]);
    EXPECT_TRUE(seen.insert(lower(pseudonym)).second) << pseudonym;
    for (const std::string& other : authors) {
      EXPECT_NE(lower(pseudonym), lower(other));
      if (other.size() >= 3) {
        EXPECT_EQ(lower(pseudonym).find(lower(other)), std::string::npos) << pseudonym;
      }
    }
  }
  // The same key and roster give the same names: nothing depends on the time or the machine.
  EXPECT_EQ(*assign_pseudonyms(key_of('c'), authors, {}), *names);
}

TEST(SeasonPseudonyms, ACollisionTakesTheNextTryAndGivenNamesAreKept) {
  const SeedSecret key = key_of('d');
  const std::string first = derive_pseudonym(key, "bob", 0);
  // carol already holds the name bob's first try gives: bob takes his second try (if free), every time.
  const Expected<PseudonymList> names = assign_pseudonyms(key, {"carol", "bob"}, {{"carol", first}});
  ASSERT_TRUE(names) << names.error();
  EXPECT_EQ(*names, (PseudonymList{{"carol", first}, {"bob", derive_pseudonym(key, "bob", 1)}}));
  EXPECT_EQ(*assign_pseudonyms(key, {"carol", "bob"}, {{"carol", first}}), *names);
  // An author whose name a try holds (here the adjective of bob's first try) makes bob take another.
  const std::string adjective = first.substr(0, first.find('-'));
  const Expected<PseudonymList> avoided = assign_pseudonyms(key, {"bob", adjective}, {});
  ASSERT_TRUE(avoided) << avoided.error();
  EXPECT_NE((*avoided)[0].second, first);
  EXPECT_EQ((*avoided)[0].second.find(adjective), std::string::npos);
}

TEST(SeasonPseudonyms, TheFileReadsBackIsTheOwnersOnlyAndABadLineIsNamed) {
  system::TempFolder temp("season-pseudonyms-file");
  const PseudonymTable table{key_of('e'), {{"alice", "swift-otter-42"}, {"bob", "calm-heron-17"}}};
  ASSERT_FALSE(write_pseudonyms(temp.path(), table));
  struct stat st {};
  ASSERT_EQ(::stat((temp.path() / kPseudonymsFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const Expected<std::optional<PseudonymTable>> read = read_pseudonyms(temp.path());
  ASSERT_TRUE(read && *read) << (read ? "none" : read.error());
  EXPECT_EQ((*read)->key, table.key);
  EXPECT_EQ((*read)->names, table.names);
  EXPECT_EQ((*read)->of("bob"), "calm-heron-17");
  EXPECT_FALSE((*read)->of("carol"));
  struct Case {
    std::string text, error;
  };
  const std::string key = "key " + std::string(64, 'e') + "\n";
  for (const Case& c : {Case{"# c\nalice swift-otter-42\n", "P:2: not `key HEX`"},
                        Case{key + "alice swift otter\n", "P:2: not `AUTHOR PSEUDONYM`"},
                        Case{key + "alice a-b-10\nalice c-d-11\n", "P:3: the author alice has a pseudonym already"},
                        Case{key + "alice a-b-10\nbob A-B-10\n", "P:3: the pseudonym A-B-10 is another author's"},
                        Case{"", "P: no `key HEX` line"}}) {
    const Expected<PseudonymTable> parsed = pseudonyms_from_text(c.text, "P");
    ASSERT_FALSE(parsed) << c.text;
    EXPECT_TRUE(parsed.error().starts_with(c.error)) << parsed.error();
  }
}

// A season folder with a revision store in which alice uploaded one revision.
struct Season {
  system::TempFolder temp{"season-pseudonyms"};
  SeasonConfig config;
  RevisionStore store = *RevisionStore::open(temp.path() / kRevisionsFolder);
  Season(bool pseudonyms) {
    config.dir = temp.path();
    config.pseudonyms = pseudonyms;
    config.pseudonyms_at = "season.toml:8:14: ";
    EXPECT_TRUE(store.add("alice", "bot.py", "print(1)", UploadSummary{UploadKind::Source, 1, 8}));
  }
  // The revision named as the pipeline names it when it starts building.
  void name_revision(const std::string& bot) const {
    EXPECT_FALSE(store.record_status("alice", 1, {"building", "", bot, "2026-12-07T00:00:00Z"}));
  }
};

TEST(SeasonPseudonyms, TheServerMakesTheFileOnFirstUseAndKeepsIt) {
  Season season(true);
  const Expected<std::map<std::string, std::string>> names =
      open_public_names(season.config, {"alice", "bob"}, season.store);
  ASSERT_TRUE(names) << names.error();
  ASSERT_EQ(names->size(), 2u);
  const std::string file = read_file(season.temp.path() / kPseudonymsFile);
  EXPECT_NE(file.find("alice " + names->at("alice") + "\n"), std::string::npos);
  season.config.pseudonym_of = *names;
  EXPECT_EQ(season.config.public_name("alice"), names->at("alice"));
  season.name_revision(revision_bot(names->at("alice"), 1));
  // The next start reads the same names; an author added to the roster since gets one, the others keep theirs.
  const Expected<std::map<std::string, std::string>> again =
      open_public_names(season.config, {"alice", "bob", "carol"}, season.store);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->at("alice"), names->at("alice"));
  EXPECT_EQ(again->at("bob"), names->at("bob"));
  EXPECT_EQ(again->size(), 3u);
  EXPECT_TRUE(read_file(season.temp.path() / kPseudonymsFile).starts_with(file));
}

TEST(SeasonPseudonyms, WithoutThemNothingIsMadeAndTheAuthorsNamesAreTheirOwn) {
  Season season(false);
  const Expected<std::map<std::string, std::string>> names = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_TRUE(names) << names.error();
  EXPECT_TRUE(names->empty());
  EXPECT_FALSE(fs::exists(season.temp.path() / kPseudonymsFile));
  EXPECT_EQ(season.config.public_name("alice"), "alice");
}

TEST(SeasonPseudonyms, TurningThemOnMidSeasonIsRefusedAtTheKey) {
  Season season(true);
  season.name_revision("alice-r1");
  const Expected<std::map<std::string, std::string>> names = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_FALSE(names);
  EXPECT_TRUE(
      names.error().starts_with("season.toml:8:14: season.pseudonyms = true, but this season named its "
                                "revisions by their authors before (alice's revision 1 is alice-r1)"))
      << names.error();
  EXPECT_FALSE(fs::exists(season.temp.path() / kPseudonymsFile));  // nothing made for a season that cannot start
}

TEST(SeasonPseudonyms, TurningThemOffMidSeasonIsRefusedAtTheKey) {
  Season season(true);
  const Expected<std::map<std::string, std::string>> names = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_TRUE(names) << names.error();
  season.name_revision(revision_bot(names->at("alice"), 1));
  season.config.pseudonyms = false;
  const Expected<std::map<std::string, std::string>> off = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_FALSE(off);
  EXPECT_TRUE(
      off.error().starts_with("season.toml:8:14: season.pseudonyms = false, but this season named its "
                              "revisions by pseudonyms before (alice's revision 1 is " +
                              names->at("alice") + "-r1, not alice-r1)"))
      << off.error();
}

TEST(SeasonPseudonyms, AFileMadeAnewOrLostMidSeasonIsRefused) {
  Season season(true);
  const Expected<std::map<std::string, std::string>> names = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_TRUE(names) << names.error();
  season.name_revision(revision_bot(names->at("alice"), 1));
  const fs::path file = season.temp.path() / kPseudonymsFile;
  ASSERT_FALSE(write_pseudonyms(season.temp.path(), {key_of('f'), {{"alice", "quiet-toad-33"}}}));
  Expected<std::map<std::string, std::string>> changed = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_FALSE(changed);
  EXPECT_TRUE(changed.error().starts_with(file.string() + ": alice's revision 1 is " + names->at("alice") +
                                          "-r1, but the file now names it quiet-toad-33-r1"))
      << changed.error();
  fs::remove(file);
  changed = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_FALSE(changed);
  EXPECT_TRUE(changed.error().starts_with(file.string() + ": alice's revision 1 is " + names->at("alice") +
                                          "-r1, but the file is missing"))
      << changed.error();
  EXPECT_FALSE(fs::exists(file));
}

TEST(SeasonPseudonyms, AFinalFrozenUnderOtherNamesIsRefused) {
  Season season(true);
  const Expected<std::map<std::string, std::string>> names = open_public_names(season.config, {"alice"}, season.store);
  ASSERT_TRUE(names) << names.error();
  FreezeRecord frozen;
  FrozenAuthor alice, bob;
  alice.author = "alice";
  alice.revision = 1;
  alice.engine = revision_bot(names->at("alice"), 1);
  bob.author = "bob";
  bob.reason = "no upload";
  frozen.authors = {alice, bob};
  EXPECT_FALSE(check_frozen_names(season.config, frozen));
  // Frozen while the season named its revisions by their authors, then turned on before the final.
  frozen.authors[0].engine = "alice-r1";
  const std::optional<std::string> error = check_frozen_names(season.config, frozen);
  ASSERT_TRUE(error);
  EXPECT_TRUE(
      error->starts_with("season.toml:8:14: season.pseudonyms = true, but this season named its revisions by "
                         "their authors before (alice's revision 1 is alice-r1)"))
      << *error;
  season.config.pseudonyms = false;
  EXPECT_FALSE(check_frozen_names(season.config, frozen));
}

TEST(SeasonPseudonyms, TheKeysPlaceIsTheOneSeasonTomlGives) {
  // season.toml's sparring partners are found on PATH, as an installed arena finds them.
  const char* path = std::getenv("PATH");
  ::setenv("PATH", (e2e::reachable(KALAH_BINARY_DIR "/bots").string() + ":" + (path ? path : "")).c_str(), 1);
  system::TempFolder temp("season-pseudonyms-at");
  fs::create_directory(temp.path() / "submissions");
  const Expected<SeasonConfig> parsed = parse_season(season_toml(temp.path()), "season.toml", temp.path());
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_EQ(parsed->pseudonyms_at, "season.toml:8:14: ");
}

}  // namespace
}  // namespace kalah::season
