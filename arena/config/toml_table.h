// Strict reading of one TOML table (internal to kalah_config): every key must be known, every
// value has the right type and range, and every problem becomes a ConfigFailure whose message
// starts with "path:line:column: ". toml++'s value_or() is deliberately never used: it would turn
// a misspelt key or a wrong type into a silent default.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

namespace kalah::arena::detail {

// Thrown inside the parser only; parse_config() turns it into an Error.
struct ConfigFailure {
  std::string message;
};

// Prefixes messages with the file name and a position.
class Locator {
 public:
  explicit Locator(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }
  std::string at(const toml::source_region& where) const;
  std::string at(int line, int column) const;
  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const;

 private:
  std::string path_;
};

// "a string", "an integer", ... for messages.
std::string describe(toml::node_type type);
// Text in double quotes with control characters escaped, for messages.
std::string in_quotes(std::string_view text);
// Shortest decimal text that reads back as the same double ("1.5", "2", "-0.25").
std::string format_number(double value);
// True when a comes before b in the file.
bool before(const toml::source_region& a, const toml::source_region& b);
// Whether `text` holds a control character (below 0x20, or DEL).
bool has_control(std::string_view text);

// The upper bound of the counts and intervals that have no natural one.
inline constexpr std::int64_t kBillion = 1'000'000'000;

class Table {
 public:
  // `prefix` names the keys in messages ("tournament" -> "tournament.rounds"), `display` names the
  // table itself ("[tournament]"). Throws at the first (in file order) key not in `known`.
  Table(const Locator& locator, const toml::table& table, std::string prefix, std::string display,
        std::initializer_list<std::string_view> known);

  const toml::table& toml() const { return table_; }
  const toml::source_region& source() const { return table_.source(); }
  const Locator& locator() const { return locator_; }
  std::string key_name(std::string_view key) const { return prefix_ + "." + std::string(key); }

  const toml::node* find(std::string_view key) const { return table_.get(key); }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  // Where the key itself is written (for "X needs Y" messages).
  const toml::source_region& key_source(std::string_view key) const;

  [[noreturn]] void fail_at(std::string_view key, const std::string& message) const;
  [[noreturn]] void missing(std::string_view key) const;

  std::optional<std::int64_t> integer(std::string_view key, std::int64_t lo, std::int64_t hi) const;
  // A float or an integer; never nan or infinite.
  std::optional<double> number(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;  // non-empty
  // A boolean, or the strings "on" / "off".
  std::optional<bool> on_off(std::string_view key) const;

  // One of a fixed set of strings.
  template <class E>
  std::optional<E> choice(std::string_view key, std::initializer_list<std::pair<std::string_view, E>> choices) const {
    return choice(key, std::span<const std::pair<std::string_view, E>>(choices.begin(), choices.size()));
  }
  template <class E>
  std::optional<E> choice(std::string_view key, std::span<const std::pair<std::string_view, E>> choices) const {
    const toml::node* node = find(key);
    if (!node) return std::nullopt;
    std::vector<std::string_view> names;
    for (const auto& c : choices) names.push_back(c.first);
    const auto* text = node->as_string();
    if (text) {
      for (const auto& c : choices)
        if (text->get() == c.first) return c.second;
    }
    fail_choice(key, *node, names);
  }

 private:
  [[noreturn]] void fail_choice(std::string_view key, const toml::node& node,
                                const std::vector<std::string_view>& names) const;

  const Locator& locator_;
  const toml::table& table_;
  std::string prefix_;
  std::string display_;
};

// What every table's reader shares: where messages point and where relative paths start.
class Reader {
 public:
  Reader(std::string path, std::filesystem::path work_dir, const std::filesystem::path& base_dir);

  const Locator& loc() const { return loc_; }
  const std::filesystem::path& work_dir() const { return work_dir_; }
  const std::filesystem::path& config_dir() const { return config_dir_; }  // absolute

  // A problem of the file as a whole, at 1:1.
  [[noreturn]] void fail_top(const std::string& message) const;
  // The top-level table `name`, nullptr when absent; anything else than a table is an error.
  const toml::table* section(const toml::table& root, std::string_view name) const;
  // The inline table under `key` of `t`, nullptr when absent; anything else is an error.
  const toml::table* sub_table(const Table& t, std::string_view key) const;
  // A folder key: relative to the working directory or to the config's folder (paths.h), and it must exist.
  std::optional<std::filesystem::path> directory(const Table& t, std::string_view key) const;
  std::filesystem::path required_directory(const Table& t, std::string_view key) const;

 private:
  Locator loc_;
  std::filesystem::path work_dir_;
  std::filesystem::path config_dir_;
};

// `value` of the key `key` of `t`, which must be there.
std::int64_t required(const Table& t, std::string_view key, std::optional<std::int64_t> value);

}  // namespace kalah::arena::detail
