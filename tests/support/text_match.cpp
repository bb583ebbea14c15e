#include "tests/support/text_match.h"

#include <regex>

namespace kalah::test {

namespace {

Groups groups_of(const std::smatch& m) {
  Groups out;
  out.reserve(m.size());
  for (const auto& group : m) out.push_back(group.matched ? group.str() : std::string());
  return out;
}

}  // namespace

bool search(const std::string& text, const std::string& pattern, bool icase) {
  return std::regex_search(text, icase ? std::regex(pattern, std::regex::icase) : std::regex(pattern));
}

std::optional<Groups> search_groups(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return std::nullopt;
  return groups_of(m);
}

std::vector<Groups> search_all(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  std::vector<Groups> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back(groups_of(*it));
  return out;
}

bool full_match(const std::string& text, const std::string& pattern) {
  return std::regex_match(text, std::regex(pattern));
}

std::optional<Groups> match_groups(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(pattern))) return std::nullopt;
  return groups_of(m);
}

std::string replace(const std::string& text, const std::string& pattern, const std::string& with) {
  return std::regex_replace(text, std::regex(pattern), with);
}

std::string escape(std::string_view literal) {
  static constexpr std::string_view kSpecial = R"(.^$|()[]{}*+?\)";
  std::string out;
  for (const char c : literal) {
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace kalah::test
