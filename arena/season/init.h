// `arena season init DIR --roster AUTHORS.txt` (docs/SEASON.md): a new season's folder: season.toml, commented,
// that plays as it is; tokens.txt, each author's token for the organiser to hand out; tokens.sha256, all the
// season keeps of them; and the empty folders the season fills.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kSubmissionsFolder = "submissions";  // [submissions] dir of the contest
inline constexpr const char* kRevisionsFolder = "revisions";      // every upload, AUTHOR/N/ (store.h)
inline constexpr const char* kResultsFolder = "results";          // [tournament] output

// season.toml's text for a season in the absolute folder `dir`.
std::string season_toml(const std::filesystem::path& dir);

struct InitSummary {
  std::filesystem::path dir;  // absolute
  std::vector<std::string> authors;
};

// Makes `dir`, which must not exist (a season's tokens are never written over), with everything above. The roster
// is read first: a refused roster makes nothing. tokens.txt is readable by its owner only.
Expected<InitSummary> init_season(const std::filesystem::path& dir, const std::filesystem::path& roster);

}  // namespace kalah::season
