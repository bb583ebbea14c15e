// The words of `arena match` (internal to kalah_config): a flag and its words, a value checked for its kind and
// written as TOML, the tables filled by KEY=VALUE words, -pgnout's forms, and the hint for a flag of
// cutechess-cli or fastchess spelt otherwise here. match_line.cpp puts them together into a config.
#pragma once

#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::arena::match_detail {

// One flag as given: "-engine" and its words up to the next flag.
struct Flag {
  std::string name;
  std::vector<std::string> words;
  std::string text() const {
    std::string t = name;
    for (const std::string& w : words) t += " " + w;
    return t;
  }
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// The TOML text with the flag behind every line.
class Toml {
 public:
  void line(const std::string& text, const std::string& origin) {
    toml_ += text + "\n";
    origins_.push_back(origin);
  }
  std::string& text() { return toml_; }
  std::vector<std::string>& origins() { return origins_; }

 private:
  std::string toml_;
  std::vector<std::string> origins_;
};

// What a KEY=VALUE becomes in TOML: how its value is written.
enum class Kind { String, Integer, Boolean, Number, Seconds };  // Seconds: written as whole milliseconds

// A KEY=VALUE word of a table flag (-variant, -openings, -sprt, -draw, -resign, -adjudicate): the key, its TOML key
// and its kind.
struct TableKey {
  const char* flag;
  const char* toml;
  Kind kind;
};

bool is_whole_number(std::string_view text);
// A finite decimal number, nothing around it.
std::optional<double> decimal(std::string_view text);
// KEY=VALUE with a non-empty key.
Expected<std::pair<std::string, std::string>> split_pair(const Flag& flag, const std::string& word);
// A value as TOML, checked for its kind.
Expected<std::string> toml_value(const Flag& flag, const std::string& key, const std::string& value, Kind kind);
// "; use -seed N" for a flag of cutechess-cli or fastchess spelt otherwise here; else "did you mean".
std::string habitual_flag_hint(const std::string& name);
// The file of `-pgnout FILE` or `-pgnout file=FILE [KEY=VALUE]...`.
Expected<std::string> pgnout_file(const Flag& flag);
// The words of one table flag as TOML lines of `out`; `seen` catches a key given twice.
std::optional<std::string> add_table(const Flag& flag, std::initializer_list<TableKey> known, Toml& out,
                                     std::set<std::string>& seen);
// The flags whose KEY=VALUE words fill one TOML table; they may be given more than once.
bool is_table_flag(std::string_view name);
// The words of some flags as the inside of a TOML inline table ("movecount = 3, score = 20"); their texts are
// added to `origin`.
Expected<std::string> inline_table(const std::vector<Flag>& flags, std::initializer_list<TableKey> known,
                                   std::string& origin);

}  // namespace kalah::arena::match_detail
