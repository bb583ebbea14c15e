// Regular expressions for the tests' output checks, compiled once in tests/support/text_match.cpp: a test file
// that instantiates std::regex itself costs about 3 CPU-s more to compile (at -O0, with the tests' precompiled
// header), and a dozen test files used it (docs/PERFORMANCE.md, "Build and CI time"). ECMAScript syntax, as
// std::regex's default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kalah::test {

// The groups of a match: [0] the whole match, [i] group i ("" for a group that did not take part).
using Groups = std::vector<std::string>;

// Whether `pattern` matches somewhere in `text` (std::regex_search); `icase`: ignoring case.
bool search(const std::string& text, const std::string& pattern, bool icase = false);
// The first match's groups, if any.
std::optional<Groups> search_groups(const std::string& text, const std::string& pattern);
// Every non-overlapping match's groups, in order.
std::vector<Groups> search_all(const std::string& text, const std::string& pattern);
// Whether `pattern` matches the whole of `text` (std::regex_match), and its groups.
bool full_match(const std::string& text, const std::string& pattern);
std::optional<Groups> match_groups(const std::string& text, const std::string& pattern);
// Every match replaced by `with` (std::regex_replace's format: "$&" is the match).
std::string replace(const std::string& text, const std::string& pattern, const std::string& with);
// `literal` with every character that is special in a pattern escaped.
std::string escape(std::string_view literal);

}  // namespace kalah::test
