// A contest's entrants (docs/CONTEST.md): `arena contest build` turns a folder of submissions into
// entrants, each built in a sandbox with limits and checked with `referee check`; `arena contest
// withdraw` and `disqualify` take one out without touching a finished game. Both record what they did
// in <results>/entries.json, the run reads its entrants from there.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena::contest {

using Say = std::function<void(const std::string&)>;

struct BuildSummary {
  int submissions = 0;  // folders seen
  int entered = 0;      // entrants now playing (new and earlier)
  int not_entered = 0;  // folders that are not (bad manifest, duplicate name, build or check failed)
};

// Builds every new or changed submission of `config` (read without its entrants) and records the
// outcome of each in entries.json; `say` gets one line per submission as it is done. An error only for
// what stops the whole step: no submissions folder, results folder in use by a run, an unwritable file.
Expected<BuildSummary> build_submissions(const Config& config, const Say& say);

// Writes the reports of a results folder again (the report service's rewrite_reports, which comes after
// this module); an error text when it cannot.
using WriteReports = std::function<std::optional<std::string>(const std::filesystem::path& results)>;

// Withdraws or disqualifies entrant `name` with `reason`: entries.json, and the journal's settings when
// the contest has started (its reports are then written again by `write_reports`, under the folder's lock).
// Refused while a run holds the results folder. Returns what was done, in one line.
Expected<std::string> change_status(const Config& config, const std::string& name, EntryStatus status,
                                    const std::string& reason, const WriteReports& write_reports);

}  // namespace kalah::arena::contest
