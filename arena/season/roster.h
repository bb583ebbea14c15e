// A season's roster (docs/SEASON.md): the file of author names `arena season init --roster` reads, one name a
// line, and the rule of a name. The names become folders and URL segments, so the rule is strict.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::season {

// An author's name: 1 to kMaxAuthorLength of [A-Za-z0-9._-], starting with a letter or a digit.
inline constexpr std::size_t kMaxAuthorLength = 64;
bool valid_author(std::string_view name);

// The roster's names in file order. A line is a name; blank lines and lines starting with '#' are skipped; spaces
// around a name are not part of it. Refused, naming `path:line`: an invalid name, a name given twice (ignoring case:
// the folders must differ on any filesystem), no name at all, a file over kMaxRosterBytes.
inline constexpr std::size_t kMaxRosterBytes = 1u << 20;
Expected<std::vector<std::string>> parse_roster(std::string_view text, std::string_view path);

}  // namespace kalah::season
