#include "arena/season/pipeline.h"

#include <algorithm>
#include <sstream>

#include <fmt/core.h>
#include <toml++/toml.h>

#include "arena/contest/contest.h"
#include "arena/contest/entries.h"
#include "arena/contest/manifest.h"
#include "arena/report/report_service.h"
#include "arena/season/upload.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {
namespace fs = std::filesystem;

std::string revision_bot(const std::string& author, int number) { return author + "-r" + std::to_string(number); }

namespace {

// bot.toml of the revision's bot: the upload's own manifest under the bot's name, or the default one of what the
// folder holds; an error text (the build failed) when there is neither.
Expected<std::string> manifest_text(const fs::path& folder, const std::string& bot, const std::string& author) {
  toml::table t;
  if (fs::exists(fs::symlink_status(folder / arena::kManifestFile))) {
    Expected<arena::Manifest> m = arena::read_manifest(folder / arena::kManifestFile);
    if (!m) return Error{m.error()};
    if (m->build) t.insert("build", *m->build);
    toml::array run;
    for (const std::string& word : m->run) run.push_back(word);
    t.insert("run", run);
    if (!m->language.empty()) t.insert("language", m->language);
    t.insert("protocol", to_string(m->protocol));
    if (auto error = system::remove_tree(folder / arena::kManifestFile)) return Error{*error};
  } else if (fs::is_regular_file(fs::symlink_status(folder / "bot.py"))) {
    t.insert("language", "Python");
    t.insert("run", "python3 bot.py");
  } else if (fs::is_regular_file(fs::symlink_status(folder / "bot.c"))) {
    t.insert("language", "C");
    t.insert("build", kDefaultCBuild);
    t.insert("run", "./bot");
  } else if (fs::is_regular_file(fs::symlink_status(folder / "bot.cpp"))) {
    t.insert("language", "C++");
    t.insert("build", kDefaultCxxBuild);
    t.insert("run", "./bot");
  } else {
    return Error{"no bot.toml, and no bot.py, bot.c or bot.cpp to run by default (docs/SEASON.md)"};
  }
  t.insert("name", bot);
  t.insert("author", author);
  std::ostringstream out;
  out << t << "\n";
  return out.str();
}

// The revision unpacked into `folder` (made anew) with its bot.toml, naming the bot `bot` and its author `author`
// (the public name: a pseudonym when the season has them). A single source file is named bot.EXT.
std::optional<std::string> prepare(const Revision& r, const fs::path& revision, const fs::path& folder,
                                   const UploadLimits& limits, const std::string& bot, const std::string& author) {
  if (auto error = system::remove_tree(folder)) return error;
  std::error_code ec;
  if (!fs::create_directory(folder, ec) || ec) return system::system_error_text(folder, "cannot create");
  Expected<std::string> content = system::read_regular_file(revision / r.file, limits.max_upload_bytes);
  if (!content) return content.error();
  std::string name = r.file;
  if (r.summary.kind == UploadKind::Source) name = "bot" + r.file.substr(r.file.rfind('.'));
  if (name == "bot.cc" || name == "bot.cxx") name = "bot.cpp";
  UploadSummary summary;
  if (std::optional<Refusal> refused = unpack_upload(name, *content, limits, summary, &folder)) return refused->reason;
  Expected<std::string> manifest = manifest_text(folder, bot, author);
  if (!manifest) return manifest.error();
  return system::write_own_file(folder / arena::kManifestFile, *manifest);
}

// The status the contest's record of `bot` says, with its reason.
StatusRecord outcome(const arena::Config& contest, const std::string& bot) {
  StatusRecord out{"build-failed", "", bot, system::utc_now_iso8601()};
  Expected<arena::Entries> entries = arena::read_entries(contest.entries_file());
  if (!entries) return {"build-failed", entries.error(), bot, out.at};
  for (const arena::Submission& s : entries->submissions) {
    if (s.folder != bot) continue;
    out.reason = s.reason;
    if (s.status == arena::SubmissionStatus::Entered)
      out.status = "entered";
    else if (s.gate && !s.gate->passed())
      out.status = "gate-failed";
    else if (fs::exists(contest.results_dir() / "logs" / bot / "check.log"))
      out.status = "check-failed";
    return out;
  }
  out.reason = "the contest did not record it";
  return out;
}

// Whether the contest's entries.json records `bot` as withdrawn.
bool withdrawn_from(const arena::Config& contest, const std::string& bot) {
  Expected<arena::Entries> entries = arena::read_entries(contest.entries_file());
  if (!entries) return false;
  return std::any_of(entries->submissions.begin(), entries->submissions.end(), [&](const arena::Submission& s) {
    return s.folder == bot && s.status == arena::SubmissionStatus::Withdrawn;
  });
}

}  // namespace

Pipeline::Pipeline(const SeasonConfig& config, const RevisionStore& store, std::function<void()> entered)
    : config_(config), store_(store), entered_(std::move(entered)) {}

Pipeline::~Pipeline() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Pipeline::start(const std::vector<std::pair<std::string, int>>& pending) {
  {
    const std::lock_guard lock(mutex_);
    queue_.assign(pending.begin(), pending.end());
  }
  thread_ = std::thread([this] { loop(); });
}

void Pipeline::enqueue(const std::string& author, int number) {
  {
    const std::lock_guard lock(mutex_);
    queue_.emplace_back(author, number);
  }
  wake_.notify_one();
}

void Pipeline::loop() {
  reconcile();
  for (;;) {
    std::pair<std::string, int> next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    process(next.first, next.second);
  }
}

void Pipeline::process(const std::string& author, int number) {
  const std::string& shown = config_.public_name(author);
  const std::string bot = revision_bot(shown, number);
  const auto record = [&](const std::string& status, const std::string& reason) {
    (void)store_.record_status(author, number, {status, reason, bot, system::utc_now_iso8601()});
  };
  const Expected<std::vector<Revision>> revisions = store_.list(author);
  if (!revisions) return;
  const auto found =
      std::find_if(revisions->begin(), revisions->end(), [number](const Revision& r) { return r.number == number; });
  if (found == revisions->end()) return;
  const Revision& r = *found;
  record("building", "");
  const arena::Config& contest = config_.contest;
  const fs::path folder = contest.submissions->dir / bot;
  if (std::optional<std::string> error =
          prepare(r, store_.folder(author, number), folder, config_.limits, bot, shown)) {
    (void)system::remove_tree(folder);  // never a half-made submission for the contest's next build to find
    return record("build-failed", *error);
  }
  // The season's log of every build: what `arena contest build` would print.
  const fs::path log = config_.dir / "season.log";
  Expected<arena::contest::BuildSummary> built = arena::contest::build_submissions(
      contest, [&](const std::string& line) { (void)system::write_own_file(log, line + "\n", /*append=*/true); });
  if (!built) return record("build-failed", "the arena could not build: " + built.error());
  const StatusRecord done = outcome(contest, bot);
  (void)store_.record_status(author, number, done);
  if (done.status != "entered") return;
  supersede(author, number);
  if (entered_) entered_();
}

// The author's earlier entered revisions leave the contest (withdrawn: their finished games stay, by
// [submissions] withdrawn) and are recorded `superseded`.
void Pipeline::supersede(const std::string& author, int number) {
  const Expected<std::vector<Revision>> revisions = store_.list(author);
  if (!revisions) return;
  const arena::Config& contest = config_.contest;
  const arena::contest::WriteReports write_reports = [&](const fs::path& results) {
    Expected<report::RewrittenReports> written =
        report::rewrite_reports(results, {.event = contest.tournament.name, .publish = contest.tournament.publish});
    return written ? std::nullopt : std::optional<std::string>(written.error());
  };
  const fs::path log = config_.dir / "season.log";
  for (const Revision& r : *revisions) {
    if (r.number >= number || r.status != "entered") continue;
    const std::string reason = "superseded by " + revision_bot(config_.public_name(author), number);
    Expected<std::string> done =
        arena::contest::change_status(contest, r.bot, arena::EntryStatus::Withdrawn, reason, write_reports);
    // Withdrawn already: a server killed between the contest's record and the store's finishes the second.
    const bool withdrawn = done || withdrawn_from(contest, r.bot);
    (void)system::write_own_file(log, "  " + (done ? *done : r.bot + " not superseded: " + done.error()) + "\n",
                                 /*append=*/true);
    if (withdrawn)
      (void)store_.record_status(author, r.number, {"superseded", reason, r.bot, system::utc_now_iso8601()});
  }
}

void Pipeline::reconcile() {
  for (const std::string& author : store_.authors()) {
    const Expected<std::vector<Revision>> revisions = store_.list(author);
    if (!revisions) continue;
    const auto latest =
        std::find_if(revisions->rbegin(), revisions->rend(), [](const Revision& r) { return r.status == "entered"; });
    if (latest == revisions->rend()) continue;
    const bool undone = std::any_of(revisions->begin(), revisions->end(), [&](const Revision& r) {
      return r.number < latest->number && r.status == "entered";
    });
    if (!undone) continue;
    supersede(author, latest->number);
    if (entered_) entered_();
  }
}

}  // namespace kalah::season
