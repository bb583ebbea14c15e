// Per contest submission a page, <results>/submissions/<folder>.html (docs/CONTEST.md, "The evidence"): what
// became of it (entered, not entered and why, withdrawn, disqualified), and the arena's evidence about it: its
// build log, its `referee check` and its sanity gate (logs/<name>/*.log), shown and linked relative to the page,
// so that a student who was kept out sees why in the published results or their archive. Every text is
// escaped: a submission's name and its build's output are the student's.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/contest/entries.h"
#include "arena/report/context.h"

namespace kalah::report {

// The page's path in a results folder: "submissions/<folder>.html", made safe as bot_page_path makes a name.
std::string submission_page_path(const std::string& folder);

// The arena's evidence files about a submission named `name`, in the order the build makes them.
inline constexpr const char* kEvidenceFiles[] = {"build.log", "check.log", "gate.log"};

// The submissions of the contest whose results folder is `results` (its entries.json; none without one), each
// with its page written into `dir`/submissions/ (`dir` is where the reports go, usually `results` itself). The
// logs are read from `results`/logs/ without following a link or reading past a bound, and linked relative to
// the page. An entrant's page links its bot page under the name it plays by among `engine_names` (its own, or
// "NAME (entrant)" when it has a house bot's name: arena::entrant_engine_name). An error only when a page
// cannot be written.
Expected<std::vector<SubmissionLink>> write_submission_pages(const std::filesystem::path& dir,
                                                             const std::filesystem::path& results,
                                                             const std::string& event,
                                                             const std::vector<std::string>& engine_names);

// report.html's section listing them, each name opening its page; empty without submissions.
std::string submissions_html(const std::vector<SubmissionLink>& submissions);

}  // namespace kalah::report
