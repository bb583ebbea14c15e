// <results>/entries.json: a contest's submissions as `arena contest build` found and built them, and
// what became of each (docs/CONTEST.md, docs/FORMATS.md). The one record of who is in a contest: the
// run reads its entrants from here, `arena contest withdraw` changes their status here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

enum class SubmissionStatus { Entered, NotEntered, Withdrawn, Disqualified };
const char* to_string(SubmissionStatus s);  // "entered", "not-entered", "withdrawn", "disqualified"

struct Submission {
  std::string folder;  // the subfolder of [submissions] dir
  std::string name;    // from the manifest; empty when the manifest could not be read
  std::string author;
  std::string language;
  Protocol protocol = Protocol::Kep;
  SubmissionStatus status = SubmissionStatus::NotEntered;
  std::string reason;             // why it is not entered, withdrawn or disqualified
  int order = 0;                  // 1, 2, ... in the order bots entered (never reused); 0: never entered
  std::filesystem::path cmd;      // as it runs: absolute
  std::vector<std::string> args;  // as it runs: files of the bot named by absolute path
  std::string source_digest;      // of the submission folder this build came from
  std::string built_at;           // ISO 8601 UTC
  double build_seconds = 0;

  bool ever_entered() const { return order > 0; }
};

struct Entries {
  std::vector<Submission> submissions;  // sorted by folder
  int next_order() const;
  // The bots that ever entered, in entry order (withdrawn and disqualified ones keep their place).
  std::vector<const Submission*> entrants() const;
  Submission* by_name(std::string_view name);
};

// The file's text and back; `read_entries` of a missing file is an empty Entries.
std::string entries_to_text(const Entries& entries);
Expected<Entries> entries_from_text(std::string_view text);
Expected<Entries> read_entries(const std::filesystem::path& file);
std::optional<std::string> write_entries(const std::filesystem::path& file, const Entries& entries);

// The lines the reports show about a contest's field: the submissions that did not enter, and why.
std::vector<std::string> entry_notes(const Entries& entries);

// Appends a contest's entrants to `config.engines` (after the house bots) with the sandbox, limits and
// restart policy of [tournament], and fills config.entries. An error when entries.json is unreadable or
// fewer than two engines would play.
std::optional<std::string> add_entrants(Config& config, const Entries& entries);

}  // namespace kalah::arena
