#include "arena/report/submission_pages.h"

#include <algorithm>

#include <fmt/core.h>

#include "arena/contest/manifest.h"
#include "arena/report/bot_pages.h"
#include "arena/report/text_util.h"
#include "referee/system/clean_text.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// entries.json and the logs are read whole up to these sizes (a build log keeps the first MiB of the output);
// a page shows the first kShownLogBytes of each log, the file has the rest.
constexpr std::uintmax_t kMaxEntriesBytes = 16u << 20;
constexpr std::uintmax_t kMaxLogBytes = 4u << 20;
constexpr std::size_t kShownLogBytes = 64u << 10;

const char* evidence_title(std::string_view file) {
  return file == "build.log" ? "Build" : file == "check.log" ? "referee check" : "Sanity gate";
}

std::string status_text(const arena::Submission& s) {
  switch (s.status) {
    case arena::SubmissionStatus::Entered: return fmt::format("entered (entrant {})", s.order);
    case arena::SubmissionStatus::NotEntered: return "not entered: " + s.reason;
    case arena::SubmissionStatus::Withdrawn: return "withdrawn: " + s.reason;
    case arena::SubmissionStatus::Disqualified: return "disqualified: " + s.reason;
  }
  return to_string(s.status);
}

// One log of the submission: a link relative to the page and its first part inline; what the build stage
// that writes it means when there is none.
std::string evidence_section(const arena::Submission& s, const std::string& file, const fs::path& results,
                             const fs::path& page_dir) {
  std::string out = fmt::format("<h2>{}</h2>\n", evidence_title(file));
  const fs::path log = results / "logs" / s.name / file;
  std::error_code ec;
  if (s.name.empty() || !fs::exists(fs::symlink_status(log, ec))) {
    const char* why = file == "build.log"   ? "the submission was refused before its build (its manifest, its name)"
                      : file == "check.log" ? "no check was run (the build failed, or the contest skips the check)"
                                            : "no gate was run (no gate in this contest, or an earlier step failed)";
    return out + fmt::format("<p class=\"note\">None: {}.</p>\n", why);
  }
  const std::string link = fs::absolute(log, ec).lexically_normal().lexically_relative(page_dir).generic_string();
  out += fmt::format("<p><a href=\"{}\">logs/{}/{}</a></p>\n", html_escape(link), html_escape(s.name), file);
  Expected<std::string> read = system::read_regular_file(log, kMaxLogBytes);
  if (!read) return out + "<p class=\"note\">It could not be read: " + html_escape(read.error()) + "</p>\n";
  std::string text = std::move(read).value();
  if (text.size() > kShownLogBytes) {
    out += fmt::format("<p class=\"note\">The first {} KiB of its {} bytes; the file has all of them.</p>\n",
                       kShownLogBytes >> 10, text.size());
    text.resize(kShownLogBytes);
  }
  return out + "<pre>" + html_escape(system::clean_text(text, true)) + "</pre>\n";
}

std::string submission_page_html(const arena::Submission& s, const std::string& engine, const std::string& event,
                                 const fs::path& results, const fs::path& page_dir) {
  const std::string title = s.name.empty() ? s.folder + "/" : s.name;
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + html_escape(title) + " (submission) – " + html_escape(event) + "</title>\n<style>" +
         std::string(page_style()) + "</style>\n</head>\n<body>\n";
  out += "<h1>" + html_escape(title) + "</h1>\n";
  out += "<p><a href=\"../report.html\">" + html_escape(event) + ": standings and every game</a></p>\n";
  out += "<p class=\"entry\"><b>" + html_escape(status_text(s)) + "</b></p>\n";
  if (s.ever_entered())
    out += fmt::format("<p><a href=\"../{}\">Its games, results and forfeits</a></p>\n",
                       html_escape(bot_page_path(engine)));
  out += "<div class=\"scroll\"><table><tbody>\n";
  auto row = [&](const char* label, const std::string& value) {
    if (!value.empty())
      out += fmt::format("<tr><th class=\"name\">{}</th><td class=\"name\">{}</td></tr>\n", label, html_escape(value));
  };
  row("Folder", s.folder + "/");
  row("Name", s.name);
  row("Author", s.author);
  row("Language", s.language);
  row("Built", s.built_at.empty() ? "" : fmt::format("{} (build {:.1f} s)", s.built_at, s.build_seconds));
  if (s.gate) row("Sanity gate", s.gate->figures());
  out += "</tbody></table></div>\n";
  out +=
      "<p class=\"note\">What the arena wrote about this submission as it built, checked and gated it "
      "(docs/CONTEST.md): the build's output, every check of <code>referee check</code> and every game and "
      "position of the gate.</p>\n";
  for (const char* file : kEvidenceFiles) out += evidence_section(s, file, results, page_dir);
  return out + "</body>\n</html>\n";
}

}  // namespace

std::string submission_page_path(const std::string& folder) {
  return "submissions/" + page_file_name(folder) + ".html";
}

Expected<std::vector<SubmissionLink>> write_submission_pages(const fs::path& dir, const fs::path& results,
                                                             const std::string& event,
                                                             const std::vector<std::string>& engine_names) {
  std::vector<SubmissionLink> out;
  std::error_code ec;
  const fs::path file = results / "entries.json";
  if (!fs::exists(fs::symlink_status(file, ec))) return out;
  // A published folder is untrusted: never through a link, never a FIFO, bounded; a name that is not a bot's
  // is not used as a folder to read.
  Expected<std::string> text = system::read_regular_file(file, kMaxEntriesBytes);
  if (!text) return out;
  Expected<arena::Entries> read = arena::entries_from_text(*text);
  if (!read) return out;
  arena::Entries entries = std::move(read).value();
  const fs::path page_dir = fs::absolute(dir / "submissions", ec).lexically_normal();
  if (auto error = system::make_own_folder(page_dir)) return Error{*error};
  const fs::path from = fs::absolute(results, ec).lexically_normal();
  for (arena::Submission& s : entries.submissions) {
    if (!s.name.empty() && !arena::valid_bot_name(s.name)) s.name.clear();
    SubmissionLink link{s.folder, s.name, status_text(s), submission_page_path(s.folder), s.ever_entered()};
    // An entrant with a house bot's name plays under another (arena::entrant_engine_name).
    const std::string renamed = s.name + arena::kEntrantSuffix;
    const bool is_renamed = std::find(engine_names.begin(), engine_names.end(), renamed) != engine_names.end();
    const std::string html = submission_page_html(s, is_renamed ? renamed : s.name, event, from, page_dir);
    if (auto error = system::write_file_atomically(dir / link.page, html, system::Durability::Rebuildable))
      return Error{*error};
    out.push_back(std::move(link));
  }
  return out;
}

std::string submissions_html(const std::vector<SubmissionLink>& submissions) {
  if (submissions.empty()) return {};
  std::string out =
      "<h2 id=\"submissions\">Submissions</h2>\n<p class=\"note\">Every submission of the contest, entered or not: "
      "its name opens its page, with its build log, its <code>referee check</code> and its sanity gate.</p>\n"
      "<div class=\"scroll\"><table><thead><tr><th class=\"name\">Submission</th><th class=\"name\">Folder</th>"
      "<th class=\"name\">Status</th></tr></thead><tbody>\n";
  for (const SubmissionLink& s : submissions)
    out += fmt::format(
        "<tr><td class=\"name\"><a href=\"{}\">{}</a></td><td class=\"name\">{}/</td><td class=\"name\" "
        "style=\"white-space:normal\">{}</td>"
        "</tr>\n",
        html_escape(s.page), html_escape(s.name.empty() ? s.folder + "/" : s.name), html_escape(s.folder),
        html_escape(s.status));
  return out + "</tbody></table></div>\n";
}

}  // namespace kalah::report
