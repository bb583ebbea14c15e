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
#include "arena/report/reports.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"

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

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

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
      auto clip = [](std::string s) {
        s.erase(0, s.find_first_not_of(' '));
        return s.size() > 120 ? s.substr(0, 120) + "..." : s;
      };
      return fmt::format("line {}: recorded `{}`, the journal gives `{}`", line, clip(x), clip(y));
    }
  }
}

class Verifier {
 public:
  explicit Verifier(Verification& out) : out_(out) {}

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
    system::TempFolder temp("kalah-verify");
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
    if (Checked problem = check_standings(dir, *stored, *description)) return problem;
    if (Checked problem = check_analysis(dir)) return problem;
    return check_engines(stored->meta.engines, *description);
  }

  std::string ok_line() const {
    std::string engines = fmt::format("{} engine checksum{} match", checked_, checked_ == 1 ? "" : "s");
    if (absent_ > 0) engines += fmt::format(", {} not present here", absent_);
    if (unrecorded_ > 0) engines += fmt::format(", {} not recorded", unrecorded_);
    std::string archive =
        archived_files_ > 0 ? fmt::format(", {} archived files match {}", archived_files_, kChecksumList) : "";
    return fmt::format("arena verify: OK — {} game{} replayed, standings and ratings match, {}{} (schema {})", games_,
                       games_ == 1 ? "" : "s", engines, archive, max_schema_);
  }

 private:
  // SHA256SUMS lists every other file of the archive with its digest.
  Checked check_sums(const fs::path& top) {
    const fs::path list = top / kChecksumList;
    std::error_code ec;
    if (!fs::is_regular_file(list, ec)) return failed(std::string("the archive has no ") + kChecksumList);
    std::istringstream lines(read_text(list));
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
    if (metas.empty() && !fs::exists(dir / journal::kGamesFile, ec))
      return unreadable(label_ + ": no tournament.json or games.jsonl: not a results folder");
    std::sort(metas.begin(), metas.end());
    for (const fs::path& meta : metas) {
      const std::string name = fs::relative(meta, dir, ec).string();
      json::error_code jec;
      const json::value v = json::parse(read_text(meta), jec);
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
    std::ifstream in(file, std::ios::binary);
    if (!in) return failed(name + ": cannot read it");
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const std::string where = fmt::format("{}:{}", name, number);
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
    }
    if (in.bad()) return failed(name + ": cannot read it");
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
  Checked check_standings(const fs::path& dir, const journal::StoredResults& stored,
                          const arena::TournamentDescription& description) {
    report::ReportInput input;
    std::error_code ec;
    // The event is a label, not a result: the recorded one (the tournament's name, which a copy of the
    // folder under another name keeps), else the folder's name as `arena report` takes it.
    const fs::path absolute = fs::absolute(dir, ec).lexically_normal();
    input.event = absolute.filename().string();
    if (input.event.empty()) input.event = absolute.parent_path().filename().string();
    json::error_code jec;
    const json::value recorded = json::parse(read_text(dir / "standings.json"), jec);
    if (!jec && recorded.is_object())
      if (const json::value* event = recorded.as_object().if_contains("event"); event && event->is_string())
        input.event = std::string(event->as_string());
    input.description = description;
    report::add_results(input, stored);
    if (input.description.anchor && !input.description.anchor->engine.empty()) input.anchor = input.description.anchor;
    system::TempFolder temp("kalah-verify");
    if (temp.path().empty()) return unreadable("cannot create a temporary folder for the recomputed reports");
    Expected<report::ReportSummary> written = report::write_reports(temp.path(), input);
    if (!written) return failed("the reports cannot be recomputed: " + written.error());
    std::vector<std::string> compared;
    for (const char* name : {"standings.json", "standings.csv"}) {
      if (!fs::exists(dir / name, ec)) {
        if (std::string(name) == "standings.json")
          return failed(label_ + " has no standings.json to check (arena report DIR writes it)");
        continue;
      }
      const std::string recorded = read_text(dir / name), recomputed = read_text(temp.path() / name);
      if (recorded != recomputed)
        return failed(fmt::format("{} does not match the journal: {}", name, first_difference(recorded, recomputed)));
      compared.push_back(name);
    }
    out_.details.push_back(fmt::format("standings: {} equal to the ones recomputed from the journal ({} engines)",
                                       fmt::format("{}", fmt::join(compared, " and ")),
                                       written->standings.engines.size()));
    return std::nullopt;
  }

  // Whether the files a digest covers (`covered`: EngineDigests::files or ::dir) still have their recorded
  // digest; nullopt when none is recorded or they are not all present.
  static std::optional<bool> same_digest(const std::optional<std::string>& covered,
                                         const std::optional<std::string>& recorded) {
    if (!covered || covered->empty() || !recorded || recorded->empty() || recorded->starts_with(kNotRecorded))
      return std::nullopt;
    const std::optional<std::string> now = files_digest(*covered);
    if (!now) return std::nullopt;
    return *now == *recorded;
  }

  // The engines' digests recorded at the start of the run, where their files are present.
  Checked check_engines(const std::vector<std::string>& engines, const arena::TournamentDescription& description) {
    for (const std::string& name : engines) {
      const arena::EngineDigests& recorded = description.engine(name).digests;
      const std::string digest = recorded.sha256.value_or(""), path = recorded.executable.value_or("");
      if (digest.empty() || digest.starts_with(kNotRecorded) || path.empty()) {
        ++unrecorded_;
        out_.details.push_back(fmt::format("engine '{}': no checksum recorded", name));
        continue;
      }
      std::error_code ec;
      if (!fs::is_regular_file(path, ec)) {
        ++absent_;
        out_.details.push_back(
            fmt::format("engine '{}': {} is not present here; recorded SHA-256 {}", name, path, digest));
        continue;
      }
      Expected<std::string> now = sha256_file(path, /*follow_link=*/true);  // as the run recorded it
      if (!now) return failed(fmt::format("engine '{}': {}", name, now.error()));
      if (*now != digest)
        return failed(fmt::format("engine '{}': {} has SHA-256 {}, but the run recorded {}", name, path, *now, digest));
      std::string files_note;
      if (const std::optional<bool> same = same_digest(recorded.files, recorded.files_sha256)) {
        if (!*same)
          return failed(fmt::format("engine '{}': its files ({}) differ from the ones the run recorded", name,
                                    recorded.files->substr(0, 200)));
        files_note += ", and its files match";
      }
      if (const std::optional<bool> same = same_digest(recorded.dir, recorded.dir_sha256))
        files_note += *same ? ", and its folder matches" : ", but its folder has changed since the run (only noted)";
      ++checked_;
      out_.details.push_back(fmt::format("engine '{}': {} matches its recorded SHA-256{}", name, path, files_note));
    }
    return std::nullopt;
  }

  Verification& out_;
  std::size_t games_ = 0;
  int max_schema_ = 1;
  std::set<std::string> ids_;
  std::size_t checked_ = 0, absent_ = 0, unrecorded_ = 0;
  std::size_t archived_files_ = 0;
  std::string label_;  // the folder as named in messages
};

}  // namespace

Verification verify(const fs::path& target) {
  Verification out;
  Verifier verifier(out);
  std::error_code ec;
  const Checked problem = fs::is_directory(target, ec) ? verifier.folder(target)
                          : fs::is_regular_file(target, ec)
                              ? verifier.archive(target)
                              : unreadable(target.string() + ": no such results folder or archive");
  if (!problem) {
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
