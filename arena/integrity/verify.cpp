#include "arena/integrity/verify.h"

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/analysis/analyse.h"
#include "arena/integrity/archive.h"
#include "arena/integrity/engine_checksums.h"
#include "arena/integrity/replay.h"
#include "arena/integrity/sha256.h"
#include "arena/journal/journal.h"
#include "arena/report/report_service.h"
#include "referee/record/record_json.h"
#include "referee/system/clean_text.h"
#include "referee/system/temp_folder.h"
#include "referee/system/untrusted_files.h"

namespace kalah::integrity {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// A folder of our own under the system's temporary folder, removed with everything in it.

// The first problem ends the check; everything checked before it is a detail.
struct Problem {
  Verification::Verdict verdict = Verification::Verdict::Failed;  // Failed or Unreadable
  std::string what;
};
using Checked = std::optional<Problem>;  // nullopt: this check passed

Problem failed(std::string what) { return {Verification::Verdict::Failed, std::move(what)}; }
Problem unreadable(std::string what) { return {Verification::Verdict::Unreadable, std::move(what)}; }

// The small files compared or parsed whole (tournament.json, standings, SHA256SUMS) are at most this long.
constexpr std::uintmax_t kMaxReadFile = 64u << 20;

// A file of the folder under check: never through a link, never a FIFO or device, bounded.
Expected<std::string> read_text(const fs::path& file) { return system::read_regular_file(file, kMaxReadFile); }

// The first line where two texts differ: "line 12: recorded `...`, recomputed `...`".
std::string first_difference(const std::string& recorded, const std::string& recomputed) {
  std::istringstream a(recorded), b(recomputed);
  std::string x, y;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, x));
    const bool more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return "they differ in their last newline";
    if (!more_a) x = "(end of file)";
    if (!more_b) y = "(end of file)";
    if (x != y || !more_a || !more_b) {
      // A long line (report.html holds some) is shown from a little before where the two part.
      std::size_t column = 0;
      while (column < x.size() && column < y.size() && x[column] == y[column]) ++column;
      const std::size_t from = column > 60 ? column - 40 : 0;
      auto clip = [from](std::string s) {
        s = s.substr(std::min(from, s.size()));
        if (from == 0) s.erase(0, s.find_first_not_of(' '));
        return (from > 0 ? "..." : "") + (s.size() > 120 ? s.substr(0, 120) + "..." : s);
      };
      return fmt::format("line {}: recorded `{}`, the journal gives `{}`", line, system::clean_text(clip(x), false),
                         system::clean_text(clip(y), false));
    }
  }
}

class Verifier {
 public:
  Verifier(Verification& out, const VerifyOptions& options) : out_(out), options_(options) {}

  // An archive: its SHA256SUMS, then the folder in it.
  Checked archive(const fs::path& file) {
    {
      // Not gzip at all is the wrong file, not a failed check; a damaged archive is a failure.
      std::ifstream probe(file, std::ios::binary);
      if (!probe) return unreadable(file.string() + ": cannot read it");
      char magic[2] = {};
      if (!probe.read(magic, 2) || magic[0] != '\x1f' || magic[1] != '\x8b')
        return unreadable(file.string() + ": not a .tar.gz (from arena archive) nor a results folder");
    }
    system::TempFolder temp("kalah-verify", std::nothrow);
    if (temp.path().empty())
      return unreadable("cannot create a temporary folder to extract " + file.string() + " into");
    Expected<fs::path> top = extract_archive(file, temp.path());
    if (!top) return failed(top.error());
    if (Checked problem = check_sums(*top)) return problem;
    label_ = file.string() + ": " + top->filename().string();  // not the temporary folder's path
    return folder(*top);
  }

  // A results folder.
  Checked folder(const fs::path& dir) {
    if (label_.empty()) label_ = dir.string();
    if (std::optional<std::string> refused = journal::check_results_files(dir)) return unreadable(*refused);
    if (options_.other_kind)
      if (std::optional<Verification> other = options_.other_kind(dir)) {
        out_.details.insert(out_.details.end(), other->details.begin(), other->details.end());
        other_line_ = other->line;
        if (other->verdict == Verification::Verdict::Ok) return std::nullopt;
        return Problem{other->verdict, other->line};
      }
    if (is_rating_list(dir)) return rating_list(dir);
    if (!options_.sources.empty())
      return unreadable(label_ + ": not a rating list (no " + report::kRatingListFile +
                        "), so no other folder is checked with it");
    if (Checked problem = check_meta_schema(dir)) return problem;
    Expected<journal::StoredResults> stored = journal::read_results(dir);
    if (!stored) return failed(stored.error());
    for (const journal::StoredJournal& j : stored->journals)
      if (Checked problem = replay(dir, j.games)) return problem;
    out_.details.push_back(
        fmt::format("games: {} replayed by the rules, every move legal, every result consistent "
                    "(schema {})",
                    games_, max_schema_));
    Expected<arena::TournamentDescription> description = arena::description_from_settings(stored->meta.settings);
    if (!description) return failed((dir / journal::kMetaFile).string() + ": " + description.error());
    if (stored->meta.shard) {
      // One shard's folder: its journal and transcripts; the standings are the merge's, in the top folder.
      standings_ = fmt::format("shard {}/{}: no standings (its merge writes them)", stored->meta.shard->index,
                               stored->meta.shard->count);
      out_.details.push_back(
          fmt::format("standings: none in {}, as in every shard's folder: `arena report` of the "
                      "tournament's folder merges the shards and writes them",
                      label_));
    } else if (stored->shard_count > 0 && !fs::exists(fs::symlink_status(dir / "standings.json"))) {
      // A sharded run before its merge: the journals are all there is to check.
      standings_ = fmt::format("{} shard journals, not merged yet (no standings)", stored->journals.size());
      out_.details.push_back(
          fmt::format("standings: none yet: the shards are not merged (`arena report {}` merges "
                      "them and writes the standings; verify again after it)",
                      label_));
    } else if (Checked problem = check_standings(dir, *stored, *description)) {
      return problem;
    }
    if (Checked problem = check_transcripts(dir, *stored)) return problem;
    if (Checked problem = check_analysis(dir)) return problem;
    return check_engines(stored->meta.engines, *description);
  }

  // A rating list's folder: list.json and no journal.
  static bool is_rating_list(const fs::path& dir) {
    std::error_code ec;
    auto present = [&](const fs::path& p) { return fs::exists(fs::symlink_status(p, ec)); };
    return present(dir / report::kRatingListFile) && !present(dir / journal::kGamesFile) &&
           !present(dir / journal::kMetaFile) && !present(dir / "shards");
  }

  // The verdict line of a folder of another kind (VerifyOptions::other_kind), which is the verdict's.
  const std::optional<std::string>& other_line() const { return other_line_; }

  std::string ok_line() const {
    std::string engines = fmt::format("{} engine checksum{} recorded", recorded_, recorded_ == 1 ? "" : "s");
    if (unrecorded_ > 0) engines += fmt::format(", {} not recorded", unrecorded_);
    std::string archive =
        archived_files_ > 0 ? fmt::format(", {} archived files match {}", archived_files_, kChecksumList) : "";
    return fmt::format("arena verify: OK — {} game{} replayed, {}, {}{} (schema {})", games_, games_ == 1 ? "" : "s",
                       standings_, engines, archive, max_schema_);
  }

 private:
  // SHA256SUMS lists every other file of the archive with its digest.
  Checked check_sums(const fs::path& top) {
    const fs::path list = top / kChecksumList;
    std::error_code ec;
    if (!fs::is_regular_file(list, ec)) return failed(std::string("the archive has no ") + kChecksumList);
    Expected<std::string> text = read_text(list);
    if (!text) return failed(text.error());
    std::istringstream lines(*text);
    std::set<std::string> listed;
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      const std::size_t gap = line.find("  ");
      if (gap != 64 || line.size() <= 66)
        return failed(fmt::format("{}:{}: not a line \"<sha256>  <file>\"", kChecksumList, number));
      const std::string digest = line.substr(0, 64), name = line.substr(66);
      if (name.find("..") != std::string::npos || name.front() == '/' || name == kChecksumList)
        return failed(fmt::format("{}:{}: '{}' is not a file of the archive", kChecksumList, number, name));
      Expected<std::string> actual = sha256_file(top / name);
      if (!actual) return failed(fmt::format("{}:{}: {} is not in the archive", kChecksumList, number, name));
      if (*actual != digest)
        return failed(fmt::format("{}:{}: {} was changed: its SHA-256 is {}, the list says {}", kChecksumList, number,
                                  name, *actual, digest));
      listed.insert(name);
    }
    for (fs::recursive_directory_iterator it(top, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string name = fs::relative(it->path(), top, ec).string();
      if (name != kChecksumList && !listed.contains(name))
        return failed(fmt::format("{} is in the archive but not in its {}", name, kChecksumList));
    }
    out_.details.push_back(fmt::format("archive: {} files match {}", listed.size(), kChecksumList));
    archived_files_ = listed.size();
    return std::nullopt;
  }

  // tournament.json (the folder's and each shard's) in a format this arena reads.
  Checked check_meta_schema(const fs::path& dir) {
    std::vector<fs::path> metas;
    std::error_code ec;
    if (fs::exists(dir / journal::kMetaFile, ec)) metas.push_back(dir / journal::kMetaFile);
    for (fs::directory_iterator it(dir / "shards", ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (fs::exists(it->path() / journal::kMetaFile)) metas.push_back(it->path() / journal::kMetaFile);
    if (metas.empty() && !fs::exists(dir / journal::kGamesFile, ec)) {
      if (fs::exists(fs::symlink_status(dir / "standings.json", ec)))
        return unreadable(label_ + ": reports without a journal or " + report::kRatingListFile +
                          ": a rating list written before the arena recorded its tournaments? Write it again "
                          "(arena report A B --out L), then check it with: arena verify L A B");
      return unreadable(label_ + ": no tournament.json or games.jsonl: not a results folder");
    }
    std::sort(metas.begin(), metas.end());
    for (const fs::path& meta : metas) {
      const std::string name = fs::relative(meta, dir, ec).string();
      json::error_code jec;
      Expected<std::string> text = read_text(meta);
      if (!text) return unreadable(text.error());
      const json::value v = json::parse(*text, jec);
      if (jec || !v.is_object()) return failed(name + ": not a JSON object");
      const json::value* format = v.as_object().if_contains("format");
      if (!format || !format->is_int64() || format->get_int64() != journal::kMetaFormat)
        return failed(fmt::format("{}: format {}, but this arena knows format {} only", name,
                                  format ? json::serialize(*format) : "missing", journal::kMetaFormat));
    }
    out_.details.push_back(fmt::format("schema: {} tournament.json file{} of format {}", metas.size(),
                                       metas.size() == 1 ? "" : "s", journal::kMetaFormat));
    return std::nullopt;
  }

  Checked replay(const fs::path& dir, const fs::path& file) {
    std::error_code ec;
    const std::string name = fs::relative(file, dir, ec).string();
    int number = 0;
    Checked problem;
    const std::optional<std::string> unread = journal::read_journal_lines(file, [&](std::string_view line, bool) {
      ++number;
      problem = replay_line(line, fmt::format("{}:{}", name, number));
      return !problem;
    });
    if (unread) return unreadable(*unread);
    return problem;
  }

  Checked replay_line(std::string_view line, const std::string& where) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return std::nullopt;
    json::error_code jec;
    const json::value v = json::parse(line, jec);
    if (jec || !v.is_object()) return failed(where + ": not a JSON object (" + jec.message() + ")");
    const json::value* schema = v.as_object().if_contains("schema");
    const long long version = schema && schema->is_int64() ? schema->get_int64() : schema ? -1 : 1;
    if (version < 1 || version > kRecordSchema)
      return failed(fmt::format("{}: schema {}, but this arena knows schemas 1 to {}", where,
                                schema ? json::serialize(*schema) : "missing", kRecordSchema));
    max_schema_ = std::max(max_schema_, static_cast<int>(version));
    Expected<GameRecord> game = record_from_json(v);
    if (!game) return failed(where + ": " + game.error());
    if (std::optional<std::string> problem = check_game(*game))
      return failed(fmt::format("{} (game {}): {}", where, game->id, *problem));
    if (!ids_.insert(game->id).second)
      out_.details.push_back(
          fmt::format("{}: game {} is in the journal again; the reports count its first line", where, game->id));
    ++games_;
    return std::nullopt;
  }

  // transcripts/ beside each journal: only regular files, each named after a game of the journals
  // (transcripts/<id>.log), never a link, a FIFO or a device: what a report reads and shows from there.
  Checked check_transcripts(const fs::path& dir, const journal::StoredResults& stored) {
    std::size_t files = 0, others = 0;
    std::vector<fs::path> folders{dir};
    for (const journal::StoredJournal& j : stored.journals) {
      std::error_code ec;
      if (!fs::equivalent(j.games.parent_path(), dir, ec)) folders.push_back(j.games.parent_path());
    }
    for (const fs::path& folder : folders) {
      const fs::path transcripts = folder / "transcripts";
      std::error_code ec;
      const fs::file_type type = fs::symlink_status(transcripts, ec).type();
      if (type == fs::file_type::not_found) continue;
      const std::string name = fs::relative(transcripts, dir, ec).string();
      if (type != fs::file_type::directory) return unreadable(name + ": not a folder (a link is never followed)");
      for (fs::directory_iterator it(transcripts, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string file = it->path().filename().string();
        const std::string shown = name + "/" + system::clean_text(file.substr(0, 200), false);
        if (it->symlink_status(ec).type() != fs::file_type::regular)
          return unreadable(shown + ": not a regular file (a link, a FIFO or a device is never read)");
        // A transcript whose game never reached the journal (a run killed between the two) is only counted.
        if (file.ends_with(".log") && ids_.contains(file.substr(0, file.size() - 4)))
          ++files;
        else
          ++others;
      }
      if (ec) return unreadable(name + ": cannot list it: " + ec.message());
    }
    if (files + others > 0)
      out_.details.push_back(fmt::format("transcripts: {} regular files of games of the journal{}", files,
                                         others > 0 ? fmt::format(", {} other regular files (not read)", others) : ""));
    return std::nullopt;
  }

  // analysis.jsonl, when there is one: it fits the journal, its figures agree with each other and with the
  // endgame database.
  Checked check_analysis(const fs::path& dir) {
    Expected<analysis::AnalysisCheck> checked = analysis::check_analysis(dir);
    if (!checked) return failed(checked.error());
    if (checked->present)
      out_.details.push_back(fmt::format(
          "analysis: {} games, {} proved values consistent from ply to ply, {} of them equal to the endgame "
          "database's",
          checked->games, checked->values, checked->database_checked));
    return std::nullopt;
  }

  // The reports written again from the journals, as `arena report DIR` writes them, in a folder of our own.
  // The event is a label, not a result: the recorded one (the tournament's name, which a copy of the
  // folder under another name keeps), else the folder's name as `arena report` takes it.
  static std::string recorded_event(const fs::path& dir) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(dir, ec).lexically_normal();
    std::string event = absolute.filename().string();
    if (event.empty()) event = absolute.parent_path().filename().string();
    json::error_code jec;
    const Expected<std::string> recorded_text = read_text(dir / "standings.json");
    const json::value recorded = json::parse(recorded_text ? *recorded_text : std::string(), jec);
    if (!jec && recorded.is_object())
      if (const json::value* e = recorded.as_object().if_contains("event"); e && e->is_string())
        event = std::string(e->as_string());
    return event;
  }

  Checked check_standings(const fs::path& dir, const journal::StoredResults& stored,
                          const arena::TournamentDescription& description) {
    // The input `arena report` builds of the folder (an SPRT's test recomputed from its journals too).
    Expected<report::ReportInput> input = report::report_input(stored, description, {.event = recorded_event(dir)});
    if (!input) return failed("the reports cannot be recomputed from the journal: " + input.error());
    return compare_reports(dir, *input, "the journal");
  }

  // The reports written again from `input` in a folder of our own: every report people read (standings.md,
  // standings.json, standings.csv, games.pgn, report.html) that `dir` holds must equal it byte for byte.
  // standings.md and report.html may have been written with `arena report --publish` (no local paths or
  // user name in their "About" section), which the folder does not record: a difference there is checked
  // once more against the reports written that way. The pages beside them (bots/, a contest's
  // submissions/) show transcripts and logs that only the folder holds: they are named as not compared.
  Checked compare_reports(const fs::path& dir, const report::ReportInput& given, const std::string& source) {
    std::error_code ec;
    // A folder written before the reports gave rank intervals (docs/RANKING.md) is recomputed without them.
    report::ReportInput input = given;
    if (const Expected<std::string> text = read_text(dir / "standings.json");
        text && text->find("\"rank_intervals\"") == std::string::npos)
      input.rank_intervals = false;
    system::TempFolder temp("kalah-verify", std::nothrow);
    if (temp.path().empty()) return unreadable("cannot create a temporary folder for the recomputed reports");
    Expected<report::ReportSummary> written = report::write_reports(temp.path(), input);
    if (!written) return failed("the reports cannot be recomputed: " + written.error());
    std::optional<system::TempFolder> published;  // the same reports written with --publish, when needed
    std::vector<std::string> compared;
    for (const char* name : report::kReportFiles) {
      const std::string file = name;
      if (!fs::exists(fs::symlink_status(dir / name, ec))) {
        if (file == "standings.json")
          return failed(label_ + " has no standings.json to check (arena report DIR writes it)");
        continue;  // not there: nobody reads it
      }
      const Expected<std::string> recorded = read_text(dir / name), recomputed = read_text(temp.path() / name);
      if (!recorded) return unreadable(recorded.error());
      if (!recomputed) return unreadable(recomputed.error());
      // A standings.json written before its `sprt` member took sprt.json's shape (docs/FORMATS.md) is read too.
      if (*recorded != *recomputed && file == "standings.json" && report::old_standings_agree(*recorded, *recomputed)) {
        compared.push_back(std::string(name) + " (its sprt in the older shape)");
        continue;
      }
      if (*recorded != *recomputed) {
        const bool has_about = file == "standings.md" || file == "report.html";
        std::optional<std::string> as_published;
        if (has_about && !input.publish) {
          if (!published) {
            published.emplace("kalah-verify", std::nothrow);
            if (published->path().empty())
              return unreadable("cannot create a temporary folder for the recomputed reports");
            report::ReportInput with_publish = input;
            with_publish.publish = true;
            if (Expected<report::ReportSummary> again = report::write_reports(published->path(), with_publish); !again)
              return failed("the reports cannot be recomputed: " + again.error());
          }
          const Expected<std::string> text = read_text(published->path() / name);
          if (!text) return unreadable(text.error());
          as_published = *text;
        }
        if (!as_published || *recorded != *as_published) {
          // Named against the way of writing it that agrees with it longer: where the change is.
          auto agreed = [&](const std::string& other) {
            return std::mismatch(recorded->begin(), recorded->end(), other.begin(), other.end()).first -
                   recorded->begin();
          };
          const std::string& closer =
              as_published && agreed(*as_published) > agreed(*recomputed) ? *as_published : *recomputed;
          return failed(fmt::format("{} does not match {}: {}", name, source, first_difference(*recorded, closer)));
        }
      }
      compared.push_back(name);
    }
    std::vector<std::string> pages;
    for (const char* folder : {"bots", "submissions"}) {
      std::size_t count = 0;
      if (fs::symlink_status(dir / folder, ec).type() != fs::file_type::directory) continue;  // never a link
      for (fs::directory_iterator it(dir / folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        ++count;
      if (count > 0) pages.push_back(fmt::format("{}/ ({} page{})", folder, count, count == 1 ? "" : "s"));
    }
    // The verdict names the reports compared and the pages that were not: a reader of the OK line must not
    // take a file for checked that was not.
    const std::string last = compared.back();
    compared.pop_back();
    const std::string files = compared.empty() ? last : fmt::format("{} and {}", fmt::join(compared, ", "), last);
    const std::string unchecked = pages.empty() ? "" : fmt::format("{}", fmt::join(pages, ", "));
    standings_ =
        fmt::format("{} match {}{}", files, source, unchecked.empty() ? "" : " (not compared: " + unchecked + ")");
    out_.details.push_back(fmt::format("reports: {} equal to the ones recomputed from {} ({} engines){}", files, source,
                                       written->standings.engines.size(),
                                       unchecked.empty() ? ""
                                                         : "; not compared: " + unchecked +
                                                               " (they show the folder's transcripts and "
                                                               "logs, which it alone holds)"));
    return std::nullopt;
  }

  // A rating list's folder (`arena report A B --out L`): no journal of its own, and list.json naming the
  // tournaments it was written from. Verify opens no folder the checked data names, so the operator names
  // them (`arena verify L A B`): each is checked as a tournament's folder, then the list is written again
  // from their journals and compared.
  Checked rating_list(const fs::path& dir) {
    Expected<std::string> text = read_text(dir / report::kRatingListFile);
    if (!text) return unreadable(text.error());
    Expected<report::RatingListRecord> record = report::rating_list_from_text(*text);
    if (!record) return failed(fmt::format("{}: {}", report::kRatingListFile, record.error()));
    std::vector<std::string> shown;
    for (const std::string& s : record->sources) shown.push_back(system::clean_text(s.substr(0, 200), false));
    const std::string named = fmt::format("{}", fmt::join(shown, " "));
    if (options_.sources.empty())
      return unreadable(fmt::format(
          "{} is a rating list over {} tournaments ({}): it holds no journal of its own, and verify opens no folder "
          "that the data checked names; name the tournaments' folders after it to check it: arena verify {} {}",
          label_, record->sources.size(), named, label_, named));
    if (options_.sources.size() != record->sources.size())
      return unreadable(fmt::format("{} is a rating list over {} tournaments ({}), but {} folder{} named after it",
                                    label_, record->sources.size(), named, options_.sources.size(),
                                    options_.sources.size() == 1 ? " is" : "s are"));
    out_.details.push_back(fmt::format("rating list: {} tournaments, recorded as {}", record->sources.size(), named));
    std::vector<journal::StoredResults> stored;
    VerifyOptions plain = options_;
    plain.sources.clear();
    for (std::size_t i = 0; i < options_.sources.size(); ++i) {
      const fs::path& source = options_.sources[i];
      Verification part;
      Verifier checker(part, plain);
      if (Checked problem = checker.folder(source))
        return Problem{problem->verdict, fmt::format("{} (tournament {} of the list, recorded as {}): {}",
                                                     source.string(), i + 1, shown[i], problem->what)};
      games_ += checker.games_;
      recorded_ += checker.recorded_;
      unrecorded_ += checker.unrecorded_;
      max_schema_ = std::max(max_schema_, checker.max_schema_);
      out_.details.push_back(fmt::format("tournament {} ({}): {}", i + 1, source.string(), checker.ok_line()));
      Expected<journal::StoredResults> read = journal::read_results(source);
      if (!read) return failed(read.error());
      stored.push_back(std::move(read).value());
    }
    const report::ReportInput input = report::rating_list_input(*record, recorded_event(dir), stored);
    if (Checked problem = compare_reports(dir, input, "the tournaments' journals")) return problem;
    standings_ = "the rating list matches its tournaments: " + standings_;
    return std::nullopt;
  }

  // The engines' digests as the run recorded them, said, never checked against files here: the paths
  // are the checked data's, not the operator's, and verify (often root) opens nothing a journal names —
  // a crafted tournament.json would make it read any file of the machine and print its digest. They are
  // checked where the engines live: `sha256sum -c ENGINES.sha256` from the archive, or a resumed run,
  // which compares the engines of its own config with them before any game.
  Checked check_engines(const std::vector<std::string>& engines, const arena::TournamentDescription& description) {
    for (const std::string& name : engines) {
      const arena::EngineDigests& recorded = description.engine(name).digests;
      const std::string digest = recorded.sha256.value_or(""), path = recorded.executable.value_or("");
      if (digest.empty() || digest.starts_with(kNotRecorded) || path.empty()) {
        ++unrecorded_;
        out_.details.push_back(fmt::format("engine '{}': no checksum recorded", system::clean_text(name, false)));
        continue;
      }
      if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos)
        return failed(fmt::format("engine '{}': the recorded SHA-256 '{}' is not 64 hex digits",
                                  system::clean_text(name, false), system::clean_text(digest.substr(0, 80), false)));
      ++recorded_;
      out_.details.push_back(fmt::format("engine '{}': the run recorded SHA-256 {} for {} (not opened here)",
                                         system::clean_text(name, false), digest,
                                         system::clean_text(path.substr(0, 400), false)));
    }
    return std::nullopt;
  }

  Verification& out_;
  const VerifyOptions& options_;
  std::size_t games_ = 0;
  int max_schema_ = 1;
  std::set<std::string> ids_;
  std::size_t recorded_ = 0, unrecorded_ = 0;
  std::size_t archived_files_ = 0;
  std::string label_;  // the folder as named in messages
  std::optional<std::string> other_line_;
  std::string standings_ = "standings and ratings match";
};

}  // namespace

Verification verify(const fs::path& target, const VerifyOptions& options) {
  Verification out;
  Verifier verifier(out, options);
  std::error_code ec;
  const Checked problem = fs::is_directory(target, ec) ? verifier.folder(target)
                          : fs::is_regular_file(target, ec)
                              ? verifier.archive(target)
                              : unreadable(target.string() + ": no such results folder or archive");
  if (verifier.other_line()) {
    out.verdict = problem ? problem->verdict : Verification::Verdict::Ok;
    out.line = *verifier.other_line();
  } else if (!problem) {
    out.verdict = Verification::Verdict::Ok;
    out.line = verifier.ok_line();
  } else {
    out.verdict = problem->verdict;
    out.line = (problem->verdict == Verification::Verdict::Failed ? "arena verify: FAILED — "
                                                                  : "arena verify: cannot check — ") +
               problem->what;
  }
  return out;
}

}  // namespace kalah::integrity
