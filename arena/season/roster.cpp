#include "arena/season/roster.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace kalah::season {

bool valid_author(std::string_view name) {
  if (name.empty() || name.size() > kMaxAuthorLength) return false;
  if (!std::isalnum(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

namespace {

std::string_view trimmed(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

std::string lower(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The name as a message shows it: printable ASCII kept, anything else as \xNN, cut to a sane length.
std::string shown_name(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : name.substr(0, 80)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '"' && c != '\\') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return '"' + out + (name.size() > 80 ? "...\"" : "\"");
}

}  // namespace

Expected<std::vector<std::string>> parse_roster(std::string_view text, std::string_view path) {
  const std::string where(path);
  if (text.size() > kMaxRosterBytes)
    return Error{where + ": a roster is at most " + std::to_string(kMaxRosterBytes) + " bytes"};
  std::vector<std::string> names;
  std::map<std::string, std::size_t> seen;  // lower-cased name -> its line
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = trimmed(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    if (line.empty() || line.front() == '#') continue;
    const std::string at = where + ":" + std::to_string(number) + ": ";
    if (!valid_author(line))
      return Error{at + "the author name " + shown_name(line) + " is not 1 to " + std::to_string(kMaxAuthorLength) +
                   " letters, digits, '.', '_' or '-' starting with a letter or a digit"};
    const auto [it, added] = seen.emplace(lower(line), number);
    if (!added)
      return Error{at + "the author " + shown_name(line) + " is already on line " + std::to_string(it->second) +
                   " (names are compared ignoring case)"};
    names.emplace_back(line);
  }
  if (names.empty()) return Error{where + ": no author names (one a line; '#' starts a comment)"};
  return names;
}

}  // namespace kalah::season
