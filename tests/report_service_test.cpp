// The one report service (arena/report/report_service.h) and the one SPRT record (arena/report/sprt_report.h):
// every writer of a folder's reports builds the same input — a contest's withdrawal keeps an analysis's move
// quality — and the files of an older arena (standings.json's flat `sprt`) are still read and verified.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "arena/analysis/analysis_file.h"
#include "arena/config/config.h"
#include "arena/contest/contest.h"
#include "arena/contest/entries.h"
#include "arena/integrity/verify.h"
#include "arena/journal/journal.h"
#include "arena/journal/meta.h"
#include "arena/report/report_service.h"
#include "arena/report/sprt_report.h"
#include "referee/system/temp_folder.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// A folder an SPRT of the arena before the one shape wrote (b1ecfb5: `arena sprt` of greedy against random,
// movetime 5, elo1=200): its journal, tournament.json, sprt.json and standings with the flat `sprt`.
const fs::path kOldSprt = KALAH_SOURCE_DIR "/tests/data/old-sprt";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

json::object read_json(const fs::path& path) { return json::parse(read_file(path)).as_object(); }

// sprt.json's text without its "outcome" line, which the one shape added.
std::string without_outcome(const std::string& text) {
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"outcome\": ") == std::string::npos) out += line + "\n";
  return out;
}

// An analysis line for every game of `journal`: each ply perfect (value 0, loss 0).
std::string perfect_analysis(const fs::path& journal) {
  std::istringstream lines(read_file(journal));
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    const json::object game = json::parse(line).as_object();
    json::array zeros(game.at("moves").as_array().size(), json::value(0));
    out += json::serialize(json::object{{"id", game.at("id")}, {"value", zeros}, {"loss", zeros}}) + "\n";
  }
  return out;
}

// `arena contest withdraw` of an analysed contest: the reports it writes again show the move quality, as
// `arena report` would (before: written without the analysis, until the next `arena report`).
TEST(ReportService, AWithdrawalKeepsTheMoveQualityOfAnAnalysedContest) {
  const system::TempFolder tmp("kalah-report-service");
  ASSERT_FALSE(tmp.path().empty()) << tmp.error();
  Config config;
  config.source = (tmp / "contest.toml").string();
  config.tournament.name = "class";
  config.tournament.output = tmp.path();
  config.submissions = SubmissionsConfig{};
  const fs::path results = config.results_dir();
  fs::create_directories(results);
  // The old SPRT's games, played here as a contest between a house bot and an entrant.
  fs::copy_file(kOldSprt / journal::kGamesFile, results / journal::kGamesFile);
  write_file(results / analysis::kAnalysisFile, perfect_analysis(results / journal::kGamesFile));
  TournamentDescription description;
  description.contest = "withdrawn=keep disqualified=void";
  journal::TournamentMeta meta;
  meta.fingerprint = "contest";
  meta.engines = {"random", "greedy"};
  meta.settings = to_settings(description);
  write_file(results / journal::kMetaFile, journal::meta_to_text(meta));
  Entries entries;
  Submission greedy;
  greedy.folder = greedy.name = "greedy";
  greedy.status = SubmissionStatus::Entered;
  greedy.order = 1;
  entries.submissions.push_back(greedy);
  ASSERT_EQ(write_entries(config.entries_file(), entries), std::nullopt);

  // As `arena contest withdraw` does: the reports written again by the report service, under the folder's lock.
  const contest::WriteReports write_reports = [&](const std::filesystem::path& folder) {
    const Expected<report::RewrittenReports> written =
        report::rewrite_reports(folder, {.event = config.tournament.name});
    return written ? std::nullopt : std::optional<std::string>(written.error());
  };
  const Expected<std::string> done =
      contest::change_status(config, "greedy", EntryStatus::Withdrawn, "ill", write_reports);
  ASSERT_TRUE(done) << done.error();
  EXPECT_NE(done->find("reports written again"), std::string::npos) << *done;
  const json::object standings = read_json(results / "standings.json");
  ASSERT_TRUE(standings.contains("analysis")) << "the withdrawal dropped the move quality";
  EXPECT_EQ(standings.at("analysis").at("games").as_int64(), 14);
  for (const json::value& e : standings.at("engines").as_array())
    EXPECT_TRUE(e.as_object().contains("analysis")) << json::serialize(e);
  EXPECT_NE(read_file(results / "standings.md").find("Move quality from the perfect-play analysis"), std::string::npos);
}

// standings.json's `sprt` before the one shape: its hypotheses flat, its benches base_bench and test_bench.
TEST(SprtRecord, ReadsTheFlatShapeOfAnOlderStandingsJson) {
  json::object flat = read_json(kOldSprt / "standings.json").at("sprt").as_object();
  ASSERT_TRUE(report::is_old_sprt_shape(flat));
  flat["base_bench"] = 797;
  flat["test_bench"] = 511;
  const Expected<report::SprtRecord> read = report::sprt_record_from_json(flat);
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->base, "random");
  EXPECT_EQ(read->test, "greedy");
  EXPECT_EQ(read->params.elo1, 200);
  EXPECT_EQ(read->params.model, stats::Model::Normalized);
  EXPECT_EQ(read->state.decision, stats::Decision::H1);
  EXPECT_EQ(read->pairs, 7);
  EXPECT_EQ(read->pentanomial.counts[4], 6);
  ASSERT_TRUE(read->llr_by_pair);
  EXPECT_EQ(read->llr_by_pair->size(), 7u);
  EXPECT_EQ(read->base_bench, 797);
  EXPECT_EQ(read->test_bench, 511);
  EXPECT_EQ(read->outcome, "H1 accepted (elo0=0 against elo1=200 normalized Elo): 'greedy' is stronger than 'random'");
}

// sprt.json was always in the one shape: read as it is, and written again with the same keys in the same order
// but for the outcome, which it gains, and the same figures (Boost.JSON reads a double to within its last bit).
TEST(SprtRecord, ReadsAnOlderSprtJsonAndWritesTheSameFigures) {
  const json::object old = read_json(kOldSprt / "sprt.json");
  ASSERT_FALSE(report::is_old_sprt_shape(old));
  const Expected<report::SprtRecord> read = report::sprt_record_from_json(old);
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->finished, true);
  EXPECT_FALSE(read->llr_by_pair);
  EXPECT_EQ(read->trinomial.wins, 13);
  const json::object again = json::parse(without_outcome(report::sprt_file_text(*read))).as_object();
  ASSERT_EQ(again.size(), old.size());
  for (auto a = again.begin(), b = old.begin(); a != again.end(); ++a, ++b) {
    EXPECT_EQ(a->key(), b->key());
    if (a->value().is_number()) {
      EXPECT_DOUBLE_EQ(a->value().to_number<double>(), b->value().to_number<double>()) << a->key();
    } else if (!a->value().is_object()) {
      EXPECT_EQ(a->value(), b->value()) << a->key();
    }
  }
}

// The folder written by the older arena verifies: its standings.json agrees with the recomputed one in
// everything but the shape of `sprt`, whose figures are the same.
TEST(SprtRecord, VerifyAcceptsTheOlderShapeOfStandingsJsonAndNoChangedFigure) {
  const system::TempFolder tmp("kalah-report-service");
  ASSERT_FALSE(tmp.path().empty()) << tmp.error();
  const fs::path dir = tmp / "old-sprt";
  fs::copy(kOldSprt, dir);
  const integrity::Verification ok = integrity::verify(dir);
  EXPECT_EQ(ok.verdict, integrity::Verification::Verdict::Ok) << ok.line;
  EXPECT_NE(ok.line.find("standings.json (its sprt in the older shape)"), std::string::npos) << ok.line;

  // A figure of the old block changed is a failure, as in the current shape.
  std::string text = read_file(dir / "standings.json");
  const std::size_t pairs = text.find("\"pairs\": 7");
  ASSERT_NE(pairs, std::string::npos);
  text.replace(pairs, 10, "\"pairs\": 8");
  write_file(dir / "standings.json", text);
  const integrity::Verification changed = integrity::verify(dir);
  EXPECT_EQ(changed.verdict, integrity::Verification::Verdict::Failed) << changed.line;
}

// `arena report` of the old folder: standings.json's `sprt` in the one shape, sprt.json's figures unchanged.
TEST(ReportService, RewritesAnOlderSprtFolderInTheOneShape) {
  const system::TempFolder tmp("kalah-report-service");
  ASSERT_FALSE(tmp.path().empty()) << tmp.error();
  const fs::path dir = tmp / "old-sprt";
  fs::copy(kOldSprt, dir);
  const Expected<report::RewrittenReports> written = report::rewrite_reports(dir);
  ASSERT_TRUE(written) << written.error();
  ASSERT_TRUE(written->sprt);
  const json::object sprt = read_json(dir / "standings.json").at("sprt").as_object();
  EXPECT_FALSE(report::is_old_sprt_shape(sprt));
  EXPECT_EQ(sprt.at("params").at("elo1").as_int64(), 200);
  EXPECT_EQ(sprt.at("name").as_string(), "old-sprt");
  EXPECT_EQ(sprt.at("llr_by_pair").as_array().size(), 7u);
  EXPECT_FALSE(sprt.contains("finished"));
  const std::string state = read_file(dir / "sprt.json");
  EXPECT_EQ(state.find("llr_by_pair"), std::string::npos) << state;
  EXPECT_EQ(without_outcome(state), read_file(kOldSprt / "sprt.json"));
  // The standings of the old folder, but for `sprt`, are what they were.
  EXPECT_TRUE(report::old_standings_agree(read_file(kOldSprt / "standings.json"), read_file(dir / "standings.json")));
  // And the rewritten folder verifies in the one shape.
  EXPECT_EQ(integrity::verify(dir).verdict, integrity::Verification::Verdict::Ok);
}

}  // namespace
}  // namespace kalah::arena
