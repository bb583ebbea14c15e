// A season's parts on their own (docs/SEASON.md): the roster's refusals, the tokens and their digests, the config
// `arena season init` writes (parsed as it is), the multipart parser's edge cases, what an upload may be, the
// revision store and the failed-token limiter.
#include <algorithm>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <random>
#include <set>

#include "arena/integrity/sha256.h"
#include "arena/season/init.h"
#include "arena/season/ladder.h"
#include "arena/season/ladder_slurm.h"
#include "arena/season/multipart.h"
#include "arena/season/rate_limit.h"
#include "arena/season/roster.h"
#include "arena/season/season_config.h"
#include "arena/season/store.h"
#include "arena/season/tokens.h"
#include "arena/season/upload.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/files.h"
#include "tests/season_archives.h"

namespace kalah::season {
namespace {

namespace fs = std::filesystem;
using test::ArchiveEntry;
using test::make_archive;
using test::read_file;
using test::read_lines;
using test::write_file;

// --- the roster ---

TEST(SeasonRoster, ReadsOneNameALineSkippingBlanksAndComments) {
  const Expected<std::vector<std::string>> names = parse_roster("# class of 2027\nalice\n\n  bob  \r\nc.d-e_9\n", "r");
  ASSERT_TRUE(names) << names.error();
  EXPECT_EQ(*names, (std::vector<std::string>{"alice", "bob", "c.d-e_9"}));
}

TEST(SeasonRoster, RefusesAnInvalidNameNamingFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"alice\nbob smith\n", "AUTHORS.txt:2: the author name \"bob smith\" is not"},
                        Case{"alice\n../etc\n", "AUTHORS.txt:2: the author name \"../etc\""},
                        Case{"-rf\n", "AUTHORS.txt:1: the author name \"-rf\""},
                        Case{"al\xc3\xaf"
                             "ce\n",
                             "AUTHORS.txt:1: the author name \"al\\xc3\\xafce\""},
                        Case{"a/b\n", "AUTHORS.txt:1: the author name \"a/b\""}}) {
    const Expected<std::vector<std::string>> names = parse_roster(c.text, "AUTHORS.txt");
    ASSERT_FALSE(names) << c.text;
    EXPECT_TRUE(names.error().starts_with(c.message)) << names.error();
  }
  EXPECT_FALSE(parse_roster(std::string(65, 'a'), "r"));
  EXPECT_TRUE(parse_roster(std::string(64, 'a'), "r"));
}

TEST(SeasonRoster, RefusesADuplicateIgnoringCase) {
  const Expected<std::vector<std::string>> names = parse_roster("alice\nbob\nAlice\n", "AUTHORS.txt");
  ASSERT_FALSE(names);
  EXPECT_EQ(names.error(),
            "AUTHORS.txt:3: the author \"Alice\" is already on line 1 (names are compared ignoring case)");
}

TEST(SeasonRoster, RefusesAnEmptyRoster) {
  for (const char* text : {"", "\n\n", "# nobody yet\n"}) {
    const Expected<std::vector<std::string>> names = parse_roster(text, "AUTHORS.txt");
    ASSERT_FALSE(names);
    EXPECT_EQ(names.error(), "AUTHORS.txt: no author names (one a line; '#' starts a comment)");
  }
}

// --- tokens ---

TEST(SeasonTokens, AreRandomHexAndKeptOnlyAsTheirSha256) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const Expected<std::string> token = new_token();
    ASSERT_TRUE(token) << token.error();
    EXPECT_EQ(token->size(), 2 * kTokenBytes);
    EXPECT_EQ(token->find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_TRUE(seen.insert(*token).second);
  }
  // The SHA-256 of "abc" (FIPS 180-2's first example).
  EXPECT_EQ(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(SeasonTokens, FindTheAuthorOfATokenAndNobodyForAnother) {
  const TokenTable table({{"alice", token_hash("token-of-alice-0123456789")}, {"bob", token_hash("token-of-bob")}});
  EXPECT_EQ(table.author_of("token-of-bob"), "bob");
  EXPECT_EQ(table.author_of("token-of-alice-0123456789"), "alice");
  EXPECT_EQ(table.author_of("token-of-alice-012345678"), std::nullopt);
  EXPECT_EQ(table.author_of(""), std::nullopt);
  // The digest itself is not a token.
  EXPECT_EQ(table.author_of(token_hash("token-of-bob")), std::nullopt);
}

TEST(SeasonTokens, TheDigestFileReadsBackAndABadLineIsNamed) {
  system::TempFolder temp("season-tokens");
  const fs::path file = temp.path() / "tokens.sha256";
  write_file(file, TokenTable::text({{"alice", token_hash("x")}, {"bob", token_hash("y")}}));
  const Expected<TokenTable> table = TokenTable::read(file);
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->author_of("y"), "bob");
  write_file(file, "alice " + token_hash("x") + "\nbob nothex\n");
  const Expected<TokenTable> bad = TokenTable::read(file);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), file.string() + ":2: not `AUTHOR SHA256` (64 lowercase hex digits)");
}

// --- init and season.toml ---

// The bundled bots are found on PATH, as an installed arena finds them: a copy that the sandbox's users can
// reach wherever the checkout lives (a clone under /root is mode 0700, and season.toml sandboxes every bot).
void bundled_bots_on_path() {
  const char* path = std::getenv("PATH");
  const std::string bots = e2e::reachable(KALAH_BINARY_DIR "/bots").string();
  if (!path || !std::string(path).starts_with(bots)) ::setenv("PATH", (bots + ":" + (path ? path : "")).c_str(), 1);
}

TEST(SeasonInit, MakesAFolderWhoseConfigPlaysAsItIs) {
  bundled_bots_on_path();
  system::TempFolder temp("season-init");
  write_file(temp.path() / "AUTHORS.txt", "alice\nbob\n");
  const Expected<InitSummary> made = init_season(temp.path() / "term", temp.path() / "AUTHORS.txt");
  ASSERT_TRUE(made) << made.error();
  EXPECT_EQ(made->authors, (std::vector<std::string>{"alice", "bob"}));
  const Expected<SeasonConfig> config = load_season(temp.path() / "term" / kSeasonFile);
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->contest.variant.pits, 6);
  EXPECT_EQ(config->contest.variant.seeds, 4);
  ASSERT_TRUE(config->contest.submissions);
  ASSERT_TRUE(config->contest.submissions->gate);
  EXPECT_EQ(config->contest.submissions->gate->opponent, "kalah-random");
  EXPECT_EQ(config->contest.submissions->gate->games, 20);
  EXPECT_DOUBLE_EQ(config->contest.submissions->gate->min_score, 0.6);
  EXPECT_EQ(config->contest.submissions->entrant_sandbox, SandboxMode::Bwrap);
  EXPECT_EQ(config->contest.engines.size(), 2u);
  EXPECT_EQ(config->contest.tournament.output, made->dir / kResultsFolder);
  EXPECT_FALSE(config->deadline);
  EXPECT_FALSE(config->pseudonyms);
  EXPECT_EQ(config->limits.max_upload_bytes, 1024u << 10);
  EXPECT_EQ(config->final_format, FinalFormat::RoundRobin);
  EXPECT_EQ(config->ladder_concurrency, 1);
  EXPECT_FALSE(config->ladder_slurm);  // its line is there, commented out
  // The ladder plays the season's contest in results/ladder, one game at a time, ranked by Elo.
  const Expected<arena::Config> ladder = ladder_config(*config);
  ASSERT_TRUE(ladder) << ladder.error();
  EXPECT_EQ(ladder->results_dir(), made->dir / kResultsFolder / kLadderName);
  EXPECT_EQ(ladder->tournament.type, arena::TournamentType::Adaptive);
  EXPECT_EQ(ladder->tournament.concurrency, 1);
  EXPECT_EQ(ladder->engines.size(), 2u);
  EXPECT_EQ(ladder->house_engines, 2);
  EXPECT_EQ(ladder->time, config->contest.time);

  // tokens.txt: each author and a token whose digest is what the season keeps; only its owner may read it.
  const std::vector<std::string> lines = read_lines(made->dir / kTokensFile);
  ASSERT_EQ(lines.size(), 3u);
  const Expected<TokenTable> table = TokenTable::read(made->dir / kTokenHashesFile);
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->author_of(lines[1].substr(lines[1].find(' ') + 1)), "alice");
  EXPECT_EQ(table->author_of(lines[2].substr(lines[2].find(' ') + 1)), "bob");
  EXPECT_EQ(read_file(made->dir / kTokenHashesFile).find(lines[1].substr(6)), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat((made->dir / kTokensFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(SeasonInit, RefusesABadRosterOrAnExistingFolderAndMakesNothing) {
  system::TempFolder temp("season-init");
  write_file(temp.path() / "AUTHORS.txt", "alice\nalice\n");
  const Expected<InitSummary> refused = init_season(temp.path() / "term", temp.path() / "AUTHORS.txt");
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().find("AUTHORS.txt:2:") != std::string::npos) << refused.error();
  EXPECT_FALSE(fs::exists(temp.path() / "term"));
  write_file(temp.path() / "AUTHORS.txt", "alice\n");
  fs::create_directory(temp.path() / "term");
  const Expected<InitSummary> exists = init_season(temp.path() / "term", temp.path() / "AUTHORS.txt");
  ASSERT_FALSE(exists);
  EXPECT_TRUE(exists.error().find("already exists") != std::string::npos) << exists.error();
  EXPECT_TRUE(fs::is_empty(temp.path() / "term"));
}

// final = "staged" (docs/SEASON.md, "Deadline and final"): final_stages over the file's [variant], each stage's rounds
// the contest's unless it says; declared in the freeze's line of the final; what is of one board refused.
TEST(SeasonConfigFile, AStagedFinalReadsItsStagesOverTheVariantAndRefusesWhatIsOfOneBoard) {
  bundled_bots_on_path();
  system::TempFolder temp("season-config");
  fs::create_directory(temp.path() / kSubmissionsFolder);
  const std::string base = season_toml(temp.path());
  auto with = [&](std::vector<std::pair<std::string, std::string>> edits) {
    std::string text = base;
    for (const auto& [from, to] : edits) text.replace(text.find(from), from.size(), to);
    return parse_season(text, "season.toml", temp.path());
  };
  const std::string staged =
      "final = \"staged\"\nfinal_stages = [{ variant = \"seeds=6\" }, { variant = \"pits=8 "
      "seeds=8\", rounds = 1 }]";
  const Expected<SeasonConfig> ok = with({{"final = \"round-robin\"", staged}});
  ASSERT_TRUE(ok) << ok.error();
  ASSERT_EQ(ok->final_stages.size(), 2u);
  EXPECT_EQ(ok->final_stages[0].variant.pits, 6) << "from [variant]";
  EXPECT_EQ(ok->final_stages[0].variant.seeds, 6);
  EXPECT_EQ(ok->final_stages[0].rounds, 2) << "the contest's [tournament] rounds";
  EXPECT_EQ(ok->final_stages[1].rounds, 1);
  // A stage's old `rounds` is read as its pairs, with a note naming the new key (docs/CONFIG.md).
  EXPECT_EQ(ok->contest.warnings,
            std::vector<std::string>{"season.toml:13:72: season.final_stages[1].rounds counts game pairs per pairing "
                                     "here: write pairs = 1 (rounds is read as before)"});
  EXPECT_TRUE(describe_final(*ok).starts_with("staged stages=[pits=6 seeds=6 capture=standard")) << describe_final(*ok);
  EXPECT_NE(describe_final(*ok).find("; pits=8 seeds=8 "), std::string::npos) << describe_final(*ok);

  const Expected<SeasonConfig> missing = with({{"final = \"round-robin\"", "final = \"staged\""}});
  ASSERT_FALSE(missing);
  EXPECT_TRUE(missing.error().starts_with("season.toml:12:9: final = \"staged\" needs season.final_stages"))
      << missing.error();
  const Expected<SeasonConfig> stray =
      with({{"final = \"round-robin\"", "final = \"round-robin\"\nfinal_stages = [{ variant = \"pits=4\" }]"}});
  ASSERT_FALSE(stray);
  EXPECT_TRUE(stray.error().starts_with("season.toml:13:16: season.final_stages only applies to final = \"staged\""))
      << stray.error();
  const Expected<SeasonConfig> bad =
      with({{"final = \"round-robin\"", "final = \"staged\"\nfinal_stages = [{ variant = \"pits=99\" }]"}});
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().starts_with(
      "season.toml:13:29: season.final_stages[0].variant: pits must be a whole number from 1 to 16"))
      << bad.error();
  const Expected<SeasonConfig> start = with(
      {{"final = \"round-robin\"", staged}, {"seeds = 4\n", "seeds = 4\nstart = \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 N\"\n"}});
  ASSERT_FALSE(start);
  EXPECT_NE(start.error().find(": variant.start does not apply to a staged tournament or final"), std::string::npos)
      << start.error();
}

TEST(SeasonConfigFile, RefusesAnUnknownKeyOrABadDeadlineAtItsPosition) {
  bundled_bots_on_path();
  system::TempFolder temp("season-config");
  fs::create_directory(temp.path() / kSubmissionsFolder);
  const std::string base = season_toml(temp.path());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = base;
    text.replace(text.find(from), from.size(), to);
    return parse_season(text, "season.toml", temp.path());
  };
  const Expected<SeasonConfig> misspelt = with("pseudonyms = false", "pseudonym = false");
  ASSERT_FALSE(misspelt);
  EXPECT_TRUE(misspelt.error().starts_with("season.toml:8:1: unknown key \"pseudonym\" in [season]"))
      << misspelt.error();
  const Expected<SeasonConfig> local = with("# deadline = 2027-02-15T23:59:00Z", "deadline = 2027-02-15T23:59:00");
  ASSERT_FALSE(local);
  EXPECT_TRUE(local.error().starts_with("season.toml:7:12: season.deadline must be a date and time with its offset"))
      << local.error();
  const Expected<SeasonConfig> dated =
      with("# deadline = 2027-02-15T23:59:00Z", "deadline = 2027-02-16T00:59:00+01:00");
  ASSERT_TRUE(dated) << dated.error();
  EXPECT_EQ(dated->deadline_text, "2027-02-15T23:59:00Z");
  const Expected<SeasonConfig> no_season = with("\n[season]\n", "\n[seasons]\n");
  ASSERT_FALSE(no_season);
  EXPECT_EQ(no_season.error(),
            "season.toml:1:1: no [season] table: a season's config is what `arena season init` writes");
  const Expected<SeasonConfig> wrong = with("max_files = 100", "max_files = \"100\"");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error(), "season.toml:10:13: season.max_files must be an integer, not a string");
  const Expected<SeasonConfig> none = with("ladder_concurrency = 1", "ladder_concurrency = 0");
  ASSERT_FALSE(none);
  EXPECT_TRUE(none.error().starts_with("season.toml:13:22: season.ladder_concurrency must be")) << none.error();
  const Expected<SeasonConfig> two = with("ladder_concurrency = 1", "ladder_concurrency = 2");
  ASSERT_TRUE(two) << two.error();
  EXPECT_EQ(two->ladder_concurrency, 2);
  EXPECT_TRUE(two->ladder_analysis);
  const Expected<SeasonConfig> off = with("ladder_analysis = true", "ladder_analysis = false");
  ASSERT_TRUE(off) << off.error();
  EXPECT_FALSE(off->ladder_analysis);
  const Expected<SeasonConfig> bad = with("ladder_analysis = true", "ladder_analysis = 1");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().starts_with("season.toml:14:19: season.ladder_analysis must be")) << bad.error();
}

// --- multipart/form-data ---

constexpr const char* kType = "multipart/form-data; boundary=XyZ";

std::string part(const std::string& disposition, const std::string& content) {
  return "--XyZ\r\nContent-Disposition: " + disposition + "\r\nContent-Type: application/octet-stream\r\n\r\n" +
         content + "\r\n";
}

// [season] ladder_runner (docs/CONFIG.md): "local" by default, "slurm" with its own keys, which nothing else takes.
TEST(SeasonConfigFile, TheLadderRunsLocallyOrOnSlurmAndItsSlurmKeysAreChecked) {
  bundled_bots_on_path();
  system::TempFolder temp("season-slurm-config");
  fs::create_directory(temp.path() / kSubmissionsFolder);
  const std::string base = season_toml(temp.path());
  auto with = [&](const std::string& to) {
    std::string text = base;
    const std::string from = "ladder_analysis = true";
    text.replace(text.find(from), from.size(), from + "\n" + to);
    return parse_season(text, "season.toml", temp.path());
  };
  const Expected<SeasonConfig> local = with("");
  ASSERT_TRUE(local) << local.error();
  EXPECT_FALSE(local->ladder_slurm);
  const Expected<SeasonConfig> slurm = with(
      "ladder_runner = \"slurm\"\nladder_slurm_partition = \"debug\"\nladder_slurm_time = \"0:10:00\"\n"
      "ladder_slurm_wait_minutes = 30");
  ASSERT_TRUE(slurm) << slurm.error();
  EXPECT_TRUE(slurm->ladder_slurm);
  EXPECT_EQ(slurm->ladder_slurm_partition, "debug");
  EXPECT_EQ(slurm->ladder_slurm_time, "0:10:00");
  EXPECT_EQ(slurm->ladder_slurm_wait_minutes, 30);
  const std::pair<std::string, std::string> refused[] = {
      {"ladder_runner = \"cloud\"",
       "season.toml:15:17: season.ladder_runner must be \"local\" or \"slurm\", not \"cloud\""},
      {"ladder_slurm_partition = \"debug\"",
       "season.toml:15:26: season.ladder_slurm_partition only applies to ladder_runner = \"slurm\""},
      {"ladder_runner = \"slurm\"\nladder_slurm_time = \"1; rm -rf /\"",
       "season.toml:16:21: season.ladder_slurm_time must be a non-empty word"},
      {"ladder_runner = \"slurm\"\nladder_slurm_wait_minutes = 0",
       "season.toml:16:29: season.ladder_slurm_wait_minutes must be"},
  };
  for (const auto& [text, message] : refused) {
    const Expected<SeasonConfig> bad = with(text);
    ASSERT_FALSE(bad) << text;
    EXPECT_TRUE(bad.error().starts_with(message)) << bad.error();
  }
  // The job's command line: srun's options (the time limit the server's wait when none is given), then the game.
  arena::Config ladder = slurm->contest;
  arena::GameSpec spec;
  spec.id = "l3-0v1-g1";
  spec.round = 3;
  spec.pair = 2;
  spec.game_in_pair = 1;
  spec.south = 0;
  spec.north = 1;
  const std::vector<std::string> args = ladder_srun_args(*slurm, ladder, spec, "/opt/arena");
  const std::vector<std::string> game(args.end() - 12, args.end());
  EXPECT_EQ(game, (std::vector<std::string>{"/opt/arena", "season", "ladder-game", (temp.path() / kSeasonFile).string(),
                                            "--pair", "2", "--game-in-pair", "1", "--south", ladder.engines[0].name,
                                            "--north", ladder.engines[1].name}));
  EXPECT_NE(std::find(args.begin(), args.end(), "--partition=debug"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--time=0:10:00"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--job-name=" + ladder_job_name(*slurm)), args.end());
  // What the server takes from a job: the record of the game it asked for, nothing else.
  GameRecord played;
  played.id = spec.id;
  played.round = spec.round;
  played.south = ladder.engines[0].name;
  played.north = ladder.engines[1].name;
  played.result = Outcome::Draw;
  const Expected<GameRecord> back = ladder_job_record(ladder, spec, "\n" + to_json_line(played) + "\n");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->id, spec.id);
  played.north = played.south;
  const Expected<GameRecord> other = ladder_job_record(ladder, spec, to_json_line(played));
  ASSERT_FALSE(other);
  EXPECT_TRUE(other.error().starts_with("the job played game l3-0v1-g1")) << other.error();
  EXPECT_EQ(ladder_job_record(ladder, spec, "").error(), "the job printed no game record");
  EXPECT_TRUE(ladder_job_record(ladder, spec, "{\"id\": [").error().starts_with("the job's game record is unreadable"));
}

TEST(SeasonMultipart, ReadsTheFileFieldAsCurlSendsIt) {
  const std::string body = part("form-data; name=\"file\"; filename=\"bot.py\"", "print(1)\r\n--X\r\n") + "--XyZ--\r\n";
  const Expected<FormFile> file = parse_form_file(kType, body);
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->filename, "bot.py");
  EXPECT_EQ(file->content, "print(1)\r\n--X\r\n");
  // A quoted boundary, a preamble, a folder before the name, an epilogue.
  const std::string quoted =
      "preamble\r\n" + part("form-data; name=file; filename=\"C:\\\\me\\\\bot.c\"", "x") + "--XyZ--\r\nepilogue";
  const Expected<FormFile> other = parse_form_file("Multipart/Form-Data; boundary=\"XyZ\"", quoted);
  ASSERT_TRUE(other) << other.error();
  EXPECT_EQ(other->filename, "bot.c");
  EXPECT_EQ(other->content, "x");
}

TEST(SeasonMultipart, RefusesABadBoundary) {
  const std::string body = part("form-data; name=\"file\"; filename=\"bot.py\"", "x") + "--XyZ--\r\n";
  for (const char* type : {"multipart/form-data", "multipart/form-data; boundary=",
                           "multipart/form-data; boundary=\"XyZ", "multipart/form-data; boundary=a<b",
                           "multipart/mixed; boundary=XyZ", "text/plain", "application/x-www-form-urlencoded"})
    EXPECT_FALSE(parse_form_file(type, body)) << type;
  EXPECT_FALSE(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')));
  EXPECT_TRUE(multipart_boundary("multipart/form-data; boundary=" + std::string(70, 'a')));
  // The body's boundary is another one.
  EXPECT_FALSE(parse_form_file("multipart/form-data; boundary=Other", body));
}

TEST(SeasonMultipart, RefusesAMissingOrExtraFieldOrAnUnclosedBody) {
  struct Case {
    std::string body;
    std::string message;
  };
  const std::string file = part("form-data; name=\"file\"; filename=\"bot.py\"", "x");
  for (const Case& c : {
           Case{part("form-data; name=\"other\"", "x") + "--XyZ--",
                "unexpected field \"other\": the form has one field, file"},
           Case{"--XyZ--\r\n", "the form has no field file"},
           Case{file + file + "--XyZ--", "the field file is sent twice: an upload is one file"},
           Case{part("form-data; name=\"file\"", "x") + "--XyZ--",
                "the field file has no file name (send a file: curl -F file=@bot.py)"},
           Case{part("form-data; name=\"file\"; filename=\"\"", "x") + "--XyZ--",
                "the field file has no file name (send a file: curl -F file=@bot.py)"},
           Case{part("attachment; name=\"file\"; filename=\"bot.py\"", "x") + "--XyZ--",
                "a part is not `Content-Disposition: form-data`"},
           Case{"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"\r\n\r\nx",
                "the body ends inside a part (no closing boundary)"},
           Case{"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"",
                "a part's headers do not end within 2048 bytes"},
           Case{"--XyZ\r\nContent-Disposition: form-data; name=\"file\x01\"\r\n\r\nx\r\n--XyZ--",
                "a part's header holds a control byte"},
           Case{"--XyZ\r\nContent-Disposition: form-data; name=\"file; filename=\"bot.py\"\r\n\r\nx\r\n--XyZ--",
                "a part's Content-Disposition cannot be read"},
           Case{"--XyZ", "a multipart boundary is not followed by a line break"},
           Case{"no boundary here", "the body does not hold the multipart boundary"},
           Case{"", "the body does not hold the multipart boundary"},
       }) {
    const Expected<FormFile> parsed = parse_form_file(kType, c.body);
    ASSERT_FALSE(parsed) << c.body;
    EXPECT_EQ(parsed.error(), c.message) << c.body;
  }
}

TEST(SeasonMultipart, BoundsThePartsAndEachPartsHeaders) {
  std::string many;
  for (std::size_t i = 0; i <= kMaxParts; ++i) many += part("form-data; name=\"file\"; filename=\"bot.py\"", "x");
  const Expected<FormFile> parsed = parse_form_file(kType, many + "--XyZ--");
  ASSERT_FALSE(parsed);
  const std::string long_header =
      "--XyZ\r\nX-Pad: " + std::string(kMaxPartHeaderBytes, 'a') +
      "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.py\"\r\n\r\nx\r\n--XyZ--";
  const Expected<FormFile> oversized = parse_form_file(kType, long_header);
  ASSERT_FALSE(oversized);
  EXPECT_EQ(oversized.error(), "a part's headers do not end within 2048 bytes");
  EXPECT_FALSE(parse_form_file(
      kType, part("form-data; name=\"file\"; filename=\"" + std::string(300, 'a') + ".py\"", "x") + "--XyZ--"));
}

TEST(SeasonMultipart, HostileBytesComeBackAsAValueOrAFileInsideTheBody) {
  // Seeded mutations of a valid body (bytes changed, cut, repeated): never a crash, and any file found lies
  // inside the body it was read from.
  const std::string valid =
      part("form-data; name=\"file\"; filename=\"bot.py\"", "print(1)\r\n--XyZ-\r\n") + "--XyZ--\r\n";
  const std::uint32_t seed = 40;
  std::mt19937 rng(seed);
  static constexpr char kBytes[] = "-\r\n\"=;:XyZ \\\0a";  // a NUL among them
  const std::string alphabet(kBytes, sizeof kBytes - 1);
  for (int i = 0; i < 20000; ++i) {
    std::string body = valid;
    for (int edits = 1 + static_cast<int>(rng() % 4); edits > 0 && !body.empty(); --edits) {
      const std::size_t at = rng() % body.size();
      switch (rng() % 4) {
        case 0: body[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: body.resize(at); break;
        case 2: body.insert(at, body.substr(at, rng() % 40)); break;
        default: body.erase(at, rng() % 8); break;
      }
    }
    const Expected<FormFile> parsed = parse_form_file(kType, body);
    if (!parsed) continue;
    ASSERT_GE(parsed->content.data(), body.data()) << "seed " << seed << ", case " << i;
    ASSERT_LE(parsed->content.data() + parsed->content.size(), body.data() + body.size()) << "seed " << seed;
    ASSERT_FALSE(parsed->filename.empty());
  }
}

// --- what an upload may be ---

UploadLimits small_limits() {
  return UploadLimits{.max_upload_bytes = 4096, .max_files = 4, .max_unpacked_bytes = 8192};
}

std::optional<Refusal> inspect(const std::string& name, const std::string& content, UploadSummary* out = nullptr) {
  UploadSummary summary;
  std::optional<Refusal> refusal = inspect_upload(name, content, small_limits(), summary);
  if (out) *out = summary;
  return refusal;
}

TEST(SeasonUpload, TakesASourceFileATarGzAndAZip) {
  UploadSummary summary;
  EXPECT_FALSE(inspect("bot.py", "print('hi')\n", &summary));
  EXPECT_EQ(summary.kind, UploadKind::Source);
  const std::vector<ArchiveEntry> entries{
      {"bot", "", AE_IFDIR}, {"bot/bot.py", "import lib\n"}, {"bot/lib.py", "x = 1\n"}};
  EXPECT_FALSE(inspect("bot.tar.gz", make_archive(entries), &summary));
  EXPECT_EQ(summary.kind, UploadKind::TarGz);
  EXPECT_EQ(summary.files, 2u);
  EXPECT_EQ(summary.unpacked_bytes, 17u);
  EXPECT_FALSE(inspect("bot.zip", make_archive(entries, true), &summary));
  EXPECT_EQ(summary.kind, UploadKind::Zip);
  EXPECT_EQ(summary.files, 2u);
}

TEST(SeasonUpload, RefusesLinksSpecialFilesAndEscapingPaths) {
  struct Case {
    ArchiveEntry entry;
    const char* says;
  };
  for (const Case& c :
       {Case{{"bot.py", "", AE_IFLNK, "/etc/passwd"}, "is a symbolic link"},
        Case{{"bot.py", "", AE_IFREG, "lib.py", true}, "is a hard link"}, Case{{"fifo", "", AE_IFIFO}, "is a FIFO"},
        Case{{"dev", "", AE_IFCHR}, "is a character device"}, Case{{"../bot.py", "x"}, "is not a relative path"},
        Case{{"/tmp/bot.py", "x"}, "is not a relative path"},
        Case{{"a/../../bot.py", "x"}, "is not a relative path"}}) {
    for (bool zip : {false, true}) {
      if (zip && (c.entry.type == AE_IFIFO || c.entry.type == AE_IFCHR || c.entry.hard)) continue;  // not in a zip
      const std::optional<Refusal> refusal =
          inspect(zip ? "bot.zip" : "bot.tgz", make_archive({{"lib.py", "x"}, c.entry}, zip));
      ASSERT_TRUE(refusal) << c.entry.path;
      EXPECT_EQ(refusal->status, 422);
      EXPECT_NE(refusal->reason.find(c.says), std::string::npos) << refusal->reason;
    }
  }
}

TEST(SeasonUpload, RefusesWhatIsTooLargeTooManyOrNotAnArchive) {
  EXPECT_EQ(inspect("bot.py", std::string(4097, 'x'))->status, 413);
  // A bomb: small packed, over the unpacked limit, counted as it is read.
  const std::optional<Refusal> bomb = inspect("bot.tar.gz", make_archive({{"a.py", std::string(100000, 'a')}}));
  ASSERT_TRUE(bomb);
  EXPECT_EQ(bomb->status, 413);
  EXPECT_NE(bomb->reason.find("max_unpacked_kb"), std::string::npos);
  std::vector<ArchiveEntry> many;
  for (int i = 0; i < 5; ++i) many.push_back({"f" + std::to_string(i) + ".py", "x"});
  const std::optional<Refusal> too_many = inspect("bot.zip", make_archive(many, true));
  ASSERT_TRUE(too_many);
  EXPECT_NE(too_many->reason.find("max_files"), std::string::npos);
  EXPECT_EQ(inspect("bot.tar.gz", "not gzip at all")->status, 422);
  std::string cut = make_archive({{"a.py", std::string(3000, 'a') + "xyz"}});
  cut.resize(cut.size() / 2);
  EXPECT_EQ(inspect("bot.tar.gz", cut)->status, 422);
  EXPECT_EQ(inspect("bot.zip", "PK\x03\x04garbage")->status, 422);
  EXPECT_EQ(inspect("bot.tar.gz", make_archive({{"d", "", AE_IFDIR}}))->status, 422);  // no file
  EXPECT_EQ(inspect("bot.exe", "x")->status, 415);
  EXPECT_EQ(inspect(".bot.py", "x")->status, 400);
  EXPECT_EQ(inspect("bot.py", "")->status, 422);
  EXPECT_EQ(inspect("bot.py", std::string("a\0b", 3))->status, 422);
}

TEST(SeasonUpload, UnpacksRegularFilesAndFoldersWithoutTheArchivesModeBits) {
  system::TempFolder temp("season-unpack");
  // Every file of the archive is set-uid, set-gid and executable for all (season_archives.h).
  const std::string archive = make_archive({{"bot", "", AE_IFDIR}, {"bot/bot.py", "print(1)\n"}, {"lib.py", "x"}});
  UploadSummary summary;
  const fs::path into = temp.path();
  ASSERT_FALSE(unpack_upload("up.tar.gz", archive, small_limits(), summary, &into));
  EXPECT_EQ(read_file(temp.path() / "bot" / "bot.py"), "print(1)\n");
  for (const char* file : {"bot/bot.py", "lib.py"}) {
    struct stat st {};
    ASSERT_EQ(::lstat((temp.path() / file).c_str(), &st), 0) << file;
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 07000, 0u) << file;  // no set-uid, set-gid or sticky bit
    EXPECT_EQ(st.st_mode & 0111, 0u) << file;   // and not executable
  }
  // A refused archive: nothing is followed out of the folder.
  system::TempFolder other("season-unpack");
  const fs::path out = other.path();
  EXPECT_TRUE(
      unpack_upload("up.tgz", make_archive({{"x.py", "", AE_IFLNK, "/etc/passwd"}}), small_limits(), summary, &out));
  EXPECT_TRUE(fs::is_empty(other.path()));
}

// An archive whose entry would be a file and a folder at once passed the check and then failed to unpack with a
// server error (found by fuzz_upload): it is refused with its path before anything is stored.
TEST(SeasonUpload, RefusesAPathThatIsBothAFileAndAFolder) {
  for (bool zip : {false, true}) {
    for (const std::vector<ArchiveEntry>& entries : {std::vector<ArchiveEntry>{{"bot", "x"}, {"bot/bot.py", "y"}},
                                                     std::vector<ArchiveEntry>{{"bot/bot.py", "y"}, {"bot", "x"}},
                                                     std::vector<ArchiveEntry>{{"a/b", "x"}, {"a/b/c/d.py", "y"}}}) {
      const std::optional<Refusal> refusal = inspect(zip ? "bot.zip" : "bot.tgz", make_archive(entries, zip));
      ASSERT_TRUE(refusal) << entries[0].path << " then " << entries[1].path;
      EXPECT_EQ(refusal->status, 422);
      EXPECT_NE(refusal->reason.find("is both a file and a folder"), std::string::npos) << refusal->reason;
      system::TempFolder temp("season-unpack");
      const fs::path into = temp.path();
      UploadSummary summary;
      const std::optional<Refusal> unpacked =
          unpack_upload(zip ? "bot.zip" : "bot.tgz", make_archive(entries, zip), small_limits(), summary, &into);
      ASSERT_TRUE(unpacked);
      EXPECT_EQ(unpacked->status, 422) << unpacked->reason;  // not a server error
    }
  }
  // A folder's entry after a file below it, and files side by side, are fine.
  EXPECT_FALSE(inspect("bot.tgz", make_archive({{"bot/bot.py", "y"}, {"bot", "", AE_IFDIR}, {"bot.py", "z"}})));
}

// --- the revision store ---

TEST(SeasonStore, KeepsEveryRevisionReadOnlyWithItsDigestAndRemovesAKilledWritersTemporary) {
  system::TempFolder temp("season-store");
  Expected<RevisionStore> opened = RevisionStore::open(temp.path() / "revisions");
  ASSERT_TRUE(opened) << opened.error();
  RevisionStore store = std::move(opened).value();
  const UploadSummary summary{UploadKind::Source, 1, 9};
  for (int i = 1; i <= 3; ++i) {
    const std::string content = "print(" + std::to_string(i) + ")";
    const Expected<Revision> r = store.add("alice", "bot.py", content, summary);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->number, i);
    EXPECT_EQ(r->sha256, integrity::sha256_hex(content));
    const fs::path stored = temp.path() / "revisions" / "alice" / std::to_string(i) / "bot.py";
    EXPECT_EQ(read_file(stored), content);
    EXPECT_EQ(fs::status(stored).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  }
  // What a server killed mid-write leaves: removed at the next open, and the numbering goes on.
  fs::create_directory(temp.path() / "revisions" / "alice" / ".incoming-4");
  write_file(temp.path() / "revisions" / "alice" / ".incoming-4" / "bot.py", "half");
  opened = RevisionStore::open(temp.path() / "revisions");
  ASSERT_TRUE(opened) << opened.error();
  store = std::move(opened).value();
  EXPECT_FALSE(fs::exists(temp.path() / "revisions" / "alice" / ".incoming-4"));
  const Expected<std::vector<Revision>> list = store.list("alice");
  ASSERT_TRUE(list) << list.error();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ(list->back().number, 3);
  EXPECT_EQ(list->back().status, "queued");
  EXPECT_EQ(store.add("alice", "bot.py", "x", summary)->number, 4);
  EXPECT_TRUE(store.list("bob")->empty());
}

// --- failed tokens ---

TEST(SeasonRateLimit, BlocksAnAddressAfterItsFailuresForTheWindow) {
  FailureLimiter limiter;
  const auto t0 = FailureLimiter::Clock::time_point{} + std::chrono::hours(1);
  for (std::size_t i = 0; i < FailureLimiter::kMaxFailures; ++i) {
    EXPECT_FALSE(limiter.blocked("10.0.0.1", t0));
    limiter.fail("10.0.0.1", t0);
  }
  EXPECT_TRUE(limiter.blocked("10.0.0.1", t0 + std::chrono::seconds(59)));
  EXPECT_FALSE(limiter.blocked("10.0.0.2", t0));
  EXPECT_FALSE(limiter.blocked("10.0.0.1", t0 + FailureLimiter::kFailureWindow));
}

TEST(SeasonRateLimit, RemembersABoundedNumberOfAddresses) {
  FailureLimiter limiter;
  const auto t0 = FailureLimiter::Clock::time_point{} + std::chrono::hours(1);
  for (std::size_t i = 0; i < 3 * FailureLimiter::kMaxClients; ++i)
    limiter.fail("client-" + std::to_string(i), t0 + std::chrono::milliseconds(i));
  EXPECT_EQ(limiter.clients(), FailureLimiter::kMaxClients);
}

}  // namespace
}  // namespace kalah::season
