// A published results folder or archive is hostile input to `arena verify`, `arena report` and a resumed
// `arena run`, which often run as root (docs/SECURITY.md). Each test plays one attack on a real run's
// folder: a FIFO, a device or a link where a journal or tournament.json should be (before: a hang, or a
// file outside the folder read); an engine executable named by tournament.json (before: verify hashed any
// file of the machine and printed its digest); a game id that is a path, or a transcript that is a link
// (before: `arena report` copied a file from outside the folder into a bot's page); input that costs memory or
// time out of all proportion (before: a 290 KB archive held 2 GiB, a 20 KB one naming 1000 engines ran past the
// time limit).
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "arena/integrity/sha256.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = e2e::fs;
namespace json = boost::json;

constexpr const char* kMarker = "SECRET-MARKER-4711";

class VerifyHostile : public testing::Test {
 protected:
  void SetUp() override {
    const std::string marker = e2e::unique_marker();
    const fs::path random = e2e::copy_executable(e2e::kRandom, tmp_.path(), marker + "r");
    const fs::path bad = e2e::copy_executable(e2e::kBadEngine, tmp_.path(), marker + "b");
    // Every game a start-up forfeit, so that each has a transcript a bot's page shows.
    test::TestConfig("h")
        .set("rounds", 1)
        .set("seed", 3)
        .set("output", (tmp_ / "results").string())
        .time("base_ms = 5000\ninc_ms = 50")
        .engine("random", random)
        .engine("dead", bad, "args = [\"--crash-at-start\"]")
        .write(config_);
    const e2e::RunResult r = arena({"run", config_.string()});
    ASSERT_EQ(r.status.code, 0) << r.summary();
    ASSERT_TRUE(fs::is_directory(results_ / "transcripts"));
  }

  // Quickly or not at all: a reader that hangs on a FIFO is killed at the limit, and the test fails.
  e2e::RunResult arena(std::vector<std::string> args, std::chrono::milliseconds limit = std::chrono::seconds(60)) {
    args.insert(args.begin(), e2e::kArena.string());
    return e2e::run(args, tmp_.path(), limit);
  }

  // A copy of the results folder to tamper with, under the same name in a folder of its own.
  fs::path copy() {
    const fs::path dir = tmp_.path() / ("c" + std::to_string(++copies_)) / "h";
    fs::create_directories(dir.parent_path());
    fs::copy(results_, dir, fs::copy_options::recursive);
    fs::remove(dir / "arena.lock");
    return dir;
  }

  std::string first_id() const {
    return std::string(json::parse(e2e::read_lines(results_ / "games.jsonl").at(0)).as_object().at("id").as_string());
  }

  // A transcript of this run with the marker among its lines, outside the folder: what an attacker wants shown.
  fs::path planted_transcript() {
    std::string text = e2e::read_file(results_ / "transcripts" / (first_id() + ".log"));
    const std::size_t end = text.rfind("# end");
    text.insert(end == std::string::npos ? text.size() : end, std::string("     29 random < ") + kMarker + "\n");
    const fs::path file = tmp_.path() / "leak.log";
    e2e::write_file(file, text);
    return file;
  }

  // Whether any file under `dir` holds the marker (the planted link itself aside).
  static bool holds_marker(const fs::path& dir) {
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (fs::is_regular_file(entry.symlink_status()) &&
          e2e::read_file(entry.path()).find(kMarker) != std::string::npos)
        return true;
    return false;
  }

  system::TempFolder tmp_{"kalah-e2e"};
  fs::path config_ = tmp_.path() / "h.toml";
  fs::path results_ = tmp_.path() / "results" / "h";
  int copies_ = 0;
};

// What the attack puts where a file of the folder should be.
enum class Plant { Fifo, LinkOut, LinkToDevice, Device };

void plant(const fs::path& file, Plant what, const fs::path& outside) {
  fs::remove(file);
  switch (what) {
    case Plant::Fifo: ASSERT_EQ(::mkfifo(file.c_str(), 0644), 0); break;
    case Plant::LinkOut: fs::create_symlink(outside, file); break;
    case Plant::LinkToDevice: fs::create_symlink("/dev/zero", file); break;
    case Plant::Device: ASSERT_EQ(::mknod(file.c_str(), S_IFCHR | 0644, ::makedev(1, 5)), 0); break;  // /dev/zero
  }
}

TEST_F(VerifyHostile, AFifoADeviceOrALinkInTheFolderIsRefusedAtOnceByVerifyReportAndAResumedRun) {
  std::vector<Plant> plants = {Plant::Fifo, Plant::LinkOut, Plant::LinkToDevice};
  if (::geteuid() == 0) plants.push_back(Plant::Device);  // mknod needs root (CI runs as root)
  for (const char* name : {"games.jsonl", "tournament.json"}) {
    // A link points at a faithful copy outside the folder: only the link is wrong.
    const fs::path outside = tmp_.path() / (std::string("outside-") + name);
    fs::copy_file(results_ / name, outside, fs::copy_options::overwrite_existing);
    for (Plant what : plants) {
      const std::string label = std::string(name) + " as plant " + std::to_string(static_cast<int>(what));
      const fs::path dir = copy();
      plant(dir / name, what, outside);
      for (const char* command : {"verify", "report"}) {
        const e2e::RunResult r = arena({command, dir.string()}, std::chrono::seconds(20));
        EXPECT_FALSE(r.status.timed_out) << label << ": arena " << command << " hung\n" << r.summary();
        EXPECT_EQ(r.status.code, 2) << label << ": arena " << command << "\n" << r.summary();
        EXPECT_NE((r.out + r.err).find(std::string(name) + ": "), std::string::npos) << label << "\n" << r.summary();
        EXPECT_NE((r.out + r.err).find("refused"), std::string::npos) << label << "\n" << r.summary();
      }
    }
  }
  // A resumed run reads the same two files of its own folder.
  for (const char* name : {"games.jsonl", "tournament.json"}) {
    const fs::path kept = tmp_.path() / (std::string("kept-") + name);
    fs::copy_file(results_ / name, kept, fs::copy_options::overwrite_existing);
    plant(results_ / name, Plant::Fifo, {});
    const e2e::RunResult r = arena({"run", config_.string()}, std::chrono::seconds(20));
    EXPECT_FALSE(r.status.timed_out) << name << ": a resumed run hung\n" << r.summary();
    EXPECT_EQ(r.status.code, 2) << name << "\n" << r.summary();
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << name << "\n" << r.summary();
    fs::remove(results_ / name);
    fs::copy_file(kept, results_ / name);
  }
}

TEST_F(VerifyHostile, AShardFolderThatIsALinkIsNeverEntered) {
  // A "shard" elsewhere on the machine, linked into the folder: its journal would count otherwise.
  const fs::path dir = copy();
  const fs::path elsewhere = tmp_.path() / "elsewhere";
  fs::create_directories(dir / "shards");
  fs::copy(results_, elsewhere, fs::copy_options::recursive);
  fs::create_symlink(elsewhere, dir / "shards" / "1-of-2");
  for (const char* command : {"verify", "report"}) {
    const e2e::RunResult r = arena({command, dir.string()}, std::chrono::seconds(20));
    EXPECT_EQ(r.status.code, 2) << command << "\n" << r.summary();
    EXPECT_NE((r.out + r.err).find("shards/1-of-2: a symbolic link (never followed in a results folder): refused"),
              std::string::npos)
        << command << "\n"
        << r.summary();
  }
}

TEST_F(VerifyHostile, AnEngineExecutableNamedByTheResultsIsNeverOpened) {
  // A file only root may read, named as an engine's executable by a crafted tournament.json.
  const fs::path secret = tmp_.path() / "secret";
  e2e::write_file(secret, std::string("the organiser's key ") + kMarker + "\n");
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  const std::string digest = integrity::sha256_hex(e2e::read_file(secret));
  const fs::path dir = copy();
  json::value meta = json::parse(e2e::read_file(dir / "tournament.json"));
  json::object& settings = meta.as_object()["settings"].as_object();
  settings["engine.random.executable"] = secret.string();
  settings["engine.random.sha256"] = std::string(64, '0');  // a wrong guess: the digest would be printed
  e2e::write_file(dir / "tournament.json", json::serialize(meta));
  const fs::path archive = tmp_.path() / "h.tar.gz";
  ASSERT_EQ(arena({"archive", dir.string(), "-o", archive.string()}).status.code, 0);
  for (const fs::path& target : {dir, archive}) {
    const e2e::RunResult r = arena({"verify", target.string()});
    EXPECT_EQ(r.out.find(digest), std::string::npos) << "the secret's SHA-256 was printed\n" << r.summary();
    EXPECT_EQ(r.status.code, 0) << r.summary();
    EXPECT_NE(r.out.find("engine 'random': the run recorded SHA-256 " + std::string(64, '0') + " for " +
                         secret.string() + " (not opened here)"),
              std::string::npos)
        << r.summary();
  }
}

TEST_F(VerifyHostile, AGameIdIsNeverAPath) {
  // transcripts/<id>.log with the id "../../../leak" is the planted file beside the copies' folders.
  const fs::path leak = planted_transcript();
  const fs::path dir = copy();
  ASSERT_EQ(fs::canonical(dir / "transcripts" / "../../../leak.log"), fs::canonical(leak));
  std::vector<std::string> lines = e2e::read_lines(dir / "games.jsonl");
  json::value game = json::parse(lines.at(0));
  game.as_object()["id"] = "../../../leak";
  lines[0] = json::serialize(game);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  e2e::write_file(dir / "games.jsonl", text);

  const e2e::RunResult report = arena({"report", dir.string()});
  EXPECT_EQ(report.status.code, 2) << report.summary();
  EXPECT_NE(report.err.find("games.jsonl:1: field 'id': '../../../leak' is not a game id (an id is not a path"),
            std::string::npos)
      << report.summary();
  EXPECT_FALSE(holds_marker(dir)) << "a file outside the folder was copied into its reports";
  const e2e::RunResult verify = arena({"verify", dir.string()});
  EXPECT_EQ(verify.status.code, 1) << verify.summary();
  EXPECT_NE(verify.out.find("FAILED — games.jsonl:1: field 'id': '../../../leak' is not a game id"), std::string::npos)
      << verify.summary();
}

TEST_F(VerifyHostile, ATranscriptThatIsALinkIsNeverRead) {
  const fs::path leak = planted_transcript();
  const fs::path dir = copy();
  const fs::path transcript = dir / "transcripts" / (first_id() + ".log");
  fs::remove(transcript);
  fs::create_symlink(leak, transcript);
  const e2e::RunResult report = arena({"report", dir.string()});
  EXPECT_EQ(report.status.code, 0) << report.summary();
  EXPECT_FALSE(holds_marker(dir)) << "the transcript link's target was copied into the reports";
  EXPECT_NE(e2e::read_file(dir / "bots" / "dead.html").find("a symbolic link (never followed here)"),
            std::string::npos);
  const e2e::RunResult verify = arena({"verify", dir.string()}, std::chrono::seconds(20));
  EXPECT_EQ(verify.status.code, 2) << verify.summary();
  EXPECT_NE(verify.out.find("transcripts/" + first_id() + ".log: not a regular file"), std::string::npos)
      << verify.summary();

  // A FIFO as a transcript: neither command waits on it.
  fs::remove(transcript);
  ASSERT_EQ(::mkfifo(transcript.c_str(), 0644), 0);
  const e2e::RunResult fifo = arena({"report", dir.string()}, std::chrono::seconds(20));
  EXPECT_FALSE(fifo.status.timed_out) << fifo.summary();
  EXPECT_EQ(fifo.status.code, 0) << fifo.summary();
  EXPECT_EQ(arena({"verify", dir.string()}, std::chrono::seconds(20)).status.code, 2);
}

// The folders the reports write into (bots/, submissions/) planted as links to a folder outside: `arena report`
// writes nothing through them (before: the bot pages were written into the link's target, which as root could
// be any folder of the machine) and says why.
TEST_F(VerifyHostile, AReportsFolderThatIsALinkIsNeverWrittenThrough) {
  const fs::path dir = copy();
  const fs::path outside = tmp_.path() / "outside";
  fs::create_directories(outside);
  fs::remove_all(dir / "bots");
  fs::create_symlink(outside, dir / "bots");
  const e2e::RunResult report = arena({"report", dir.string()});
  EXPECT_NE(report.status.code, 0) << report.summary();
  EXPECT_NE((report.out + report.err).find("bots: is a symbolic link, not a folder to write into"), std::string::npos)
      << report.summary();
  EXPECT_TRUE(fs::is_empty(outside)) << "a page was written through the link";
}

// The largest resident set, in MiB, of any child of this test that has ended (arena commands and what they
// started): the memory the commands took, whatever they are made of.
double peak_child_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
}

// analysis.jsonl is read against the journal as it streams past: a line for a game that is not there is never
// kept. A 256 MB file of such lines (a 290 KB archive: zeros compress well) made `arena report` and `arena verify`
// hold 2.1 GB (every line parsed and kept, 8 bytes an entry); now they hold one line at a time: the memory bound
// of docs/VERIFY.md ("Memory"), here with a wide margin (37 MB measured).
TEST_F(VerifyHostile, AHugeAnalysisFileIsStreamedInBoundedMemory) {
  constexpr double kBoundMib = 256;
  const fs::path dir = copy();
  {
    std::string zeros;
    for (int i = 0; i < 200000; ++i) zeros += i ? ",0" : "0";
    std::ofstream out(dir / "analysis.jsonl", std::ios::binary);
    for (std::size_t size = 0, line = 0; size < (256u << 20); ++line) {
      const std::string text =
          "{\"id\":\"nope-" + std::to_string(line) + "\",\"value\":[" + zeros + "],\"loss\":[" + zeros + "]}\n";
      out << text;
      size += text.size();
    }
  }
  ASSERT_LT(peak_child_mib(), kBoundMib) << "the run before the test took that much already";
  // The reports written with the analysis (its lines all warned about), so that only the analysis can fail.
  const e2e::RunResult report = arena({"report", dir.string()}, std::chrono::seconds(240));
  EXPECT_EQ(report.status.code, 0) << report.summary();
  EXPECT_NE(report.err.find("game 'nope-0' is in no journal read; its analysis line is ignored"), std::string::npos)
      << report.summary();
  EXPECT_LT(peak_child_mib(), kBoundMib) << "arena report of a 256 MB analysis.jsonl";
  const fs::path archive = tmp_.path() / "huge.tar.gz";
  ASSERT_EQ(arena({"archive", dir.string(), "-o", archive.string()}, std::chrono::seconds(240)).status.code, 0);
  EXPECT_LT(fs::file_size(archive), 1u << 20) << "a small archive";
  const e2e::RunResult verify = arena({"verify", archive.string()}, std::chrono::seconds(240));
  EXPECT_EQ(verify.status.code, 1) << verify.summary();
  EXPECT_NE(verify.out.find("FAILED — analysis.jsonl:1: game 'nope-0' is not in the journal"), std::string::npos)
      << verify.summary();
  EXPECT_LT(peak_child_mib(), kBoundMib) << "arena verify of a 256 MB analysis.jsonl in a small archive";
}

// A journal naming 1000 engines (tournament.json lists them; 1000 games, a 20 KB archive): each Elo fit costs
// ~1000^3, and the Elo-over-games chart refitted at each of the first 100 games and 50 more per doubling, so
// `arena report` and `arena verify` ran for minutes (past a 280 s time limit, measured). The chart's fits are
// bounded now (ReportEloHistory.ThousandsOfEnginesCostAFewFitsNotOneAGame counts them): both finish in seconds,
// well inside the limits given here (no time is asserted).
TEST_F(VerifyHostile, AnArchiveNamingAThousandEnginesIsReportedAndVerified) {
  const fs::path dir = copy();
  constexpr int kEngines = 1000;
  json::value meta = json::parse(e2e::read_file(dir / "tournament.json"));
  json::array names;
  for (int i = 0; i < kEngines; ++i) names.emplace_back("e" + std::to_string(i));
  meta.as_object()["engines"] = names;
  json::object& settings = meta.as_object()["settings"].as_object();
  for (auto it = settings.begin(); it != settings.end();)
    it = it->key().starts_with("engine.") ? settings.erase(it) : std::next(it);
  e2e::write_file(dir / "tournament.json", json::serialize(meta));
  const std::vector<std::string> played = e2e::read_lines(dir / "games.jsonl");
  std::string journal;
  for (int k = 0; k < kEngines; ++k) {
    json::value game = json::parse(played.at(static_cast<std::size_t>(k) % played.size()));
    json::object& g = game.as_object();
    const std::string south = "e" + std::to_string(k), north = "e" + std::to_string((7 * k + 1) % kEngines);
    if (g["forfeit"].is_object()) {
      json::object& forfeit = g["forfeit"].as_object();
      forfeit["engine"] = forfeit["engine"].as_string() == g["south"].as_string() ? south : north;
    }
    g["id"] = "x-" + std::to_string(k);
    g["south"] = south;
    g["north"] = north;
    journal += json::serialize(game) + "\n";
  }
  e2e::write_file(dir / "games.jsonl", journal);
  fs::remove_all(dir / "transcripts");
  fs::remove_all(dir / "bots");
  const e2e::RunResult report = arena({"report", dir.string(), "--time-limit", "200"}, std::chrono::seconds(220));
  ASSERT_EQ(report.status.code, 0) << report.summary();
  const fs::path archive = tmp_.path() / "thousand.tar.gz";
  ASSERT_EQ(arena({"archive", dir.string(), "-o", archive.string()}).status.code, 0);
  const e2e::RunResult verify =
      arena({"verify", archive.string(), "--time-limit", "200", "--quiet"}, std::chrono::seconds(220));
  EXPECT_EQ(verify.status.code, 0) << verify.summary();
  EXPECT_NE(verify.out.find("arena verify: OK — 1000 games replayed"), std::string::npos) << verify.summary();
}

}  // namespace
}  // namespace kalah
