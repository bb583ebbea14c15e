#include "arena/config/toml_table.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "arena/config/paths.h"
#include "referee/rules/spelling.h"
#include "referee/system/confusables.h"

namespace kalah::arena::detail {

std::string Locator::at(int line, int column) const {
  return path_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

std::string Locator::at(const toml::source_region& where) const {
  return at(static_cast<int>(where.begin.line), static_cast<int>(where.begin.column));
}

void Locator::fail(const toml::source_region& where, const std::string& message) const {
  throw ConfigFailure{at(where) + message};
}

std::string describe(toml::node_type type) {
  switch (type) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

std::string in_quotes(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  // A bidi or zero-width control, shown as what it is rather than obeyed by the terminal.
  return system::show_hidden_controls(out) + "\"";
}

std::string format_number(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

bool before(const toml::source_region& a, const toml::source_region& b) {
  if (a.begin.line != b.begin.line) return a.begin.line < b.begin.line;
  return a.begin.column < b.begin.column;
}

bool has_control(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

Table::Table(const Locator& locator, const toml::table& table, std::string prefix, std::string display,
             std::initializer_list<std::string_view> known)
    : locator_(locator), table_(table), prefix_(std::move(prefix)), display_(std::move(display)) {
  // toml++ iterates keys in sorted order; report the unknown key that comes first in the file.
  const toml::key* first_unknown = nullptr;
  for (auto&& [key, value] : table_) {
    bool is_known = false;
    for (std::string_view k : known) is_known = is_known || key.str() == k;
    if (!is_known && (!first_unknown || before(key.source(), first_unknown->source()))) first_unknown = &key;
  }
  if (!first_unknown) return;
  std::string list;
  std::vector<std::string> names;
  for (std::string_view k : known) {
    list += (list.empty() ? "" : ", ") + std::string(k);
    names.emplace_back(k);
  }
  const std::optional<std::string> meant = nearest_word(first_unknown->str(), names);
  locator_.fail(first_unknown->source(), "unknown key " + in_quotes(first_unknown->str()) + " in " + display_ +
                                             (meant ? " (did you mean " + in_quotes(*meant) + "?)" : "") +
                                             "; known keys: " + list);
}

const toml::source_region& Table::key_source(std::string_view key) const {
  auto it = table_.find(key);
  return it != table_.end() ? it->first.source() : table_.source();
}

void Table::fail_at(std::string_view key, const std::string& message) const {
  const toml::node* node = find(key);
  locator_.fail(node ? node->source() : table_.source(), message);
}

void Table::missing(std::string_view key) const {
  locator_.fail(table_.source(), "missing key " + in_quotes(key) + " in " + display_);
}

std::optional<std::int64_t> Table::integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  const auto* value = node->as_integer();
  if (!value) fail_at(key, key_name(key) + " must be an integer, not " + describe(node->type()));
  const std::int64_t v = value->get();
  if (v < lo || v > hi) {
    const std::string range = hi == std::numeric_limits<std::int64_t>::max()
                                  ? "at least " + std::to_string(lo)
                                  : "from " + std::to_string(lo) + " to " + std::to_string(hi);
    fail_at(key, key_name(key) + " must be " + range + ", not " + std::to_string(v));
  }
  return v;
}

std::optional<double> Table::number(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  double v = 0;
  if (const auto* i = node->as_integer())
    v = static_cast<double>(i->get());
  else if (const auto* f = node->as_floating_point())
    v = f->get();
  else
    fail_at(key, key_name(key) + " must be a number, not " + describe(node->type()));
  if (!std::isfinite(v)) fail_at(key, key_name(key) + " must be a finite number");
  return v;
}

std::optional<std::string> Table::string(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  const auto* value = node->as_string();
  if (!value) fail_at(key, key_name(key) + " must be a string, not " + describe(node->type()));
  if (value->get().empty()) fail_at(key, key_name(key) + " must not be empty");
  return value->get();
}

std::optional<bool> Table::on_off(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  if (const auto* b = node->as_boolean()) return b->get();
  if (const auto* s = node->as_string()) {
    if (s->get() == "on") return true;
    if (s->get() == "off") return false;
    fail_at(key, key_name(key) + " must be true, false, \"on\" or \"off\", not " + in_quotes(s->get()));
  }
  fail_at(key, key_name(key) + " must be true, false, \"on\" or \"off\", not " + describe(node->type()));
}

void Table::fail_choice(std::string_view key, const toml::node& node,
                        const std::vector<std::string_view>& names) const {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) list += i + 1 == names.size() ? " or " : ", ";
    list += in_quotes(names[i]);
  }
  const auto* text = node.as_string();
  const std::string got = text ? in_quotes(text->get()) : describe(node.type());
  fail_at(key, key_name(key) + " must be " + list + ", not " + got);
}

Reader::Reader(std::string path, std::filesystem::path work_dir, const std::filesystem::path& base_dir)
    : loc_(std::move(path)), work_dir_(std::move(work_dir)), config_dir_(absolute_from(work_dir_, base_dir)) {}

void Reader::fail_top(const std::string& message) const { throw ConfigFailure{loc_.at(1, 1) + message}; }

const toml::table* Reader::section(const toml::table& root, std::string_view name) const {
  const toml::node* node = root.get(name);
  if (!node) return nullptr;
  if (!node->is_table())
    loc_.fail(node->source(),
              std::string(name) + " must be a table ([" + std::string(name) + "]), not " + describe(node->type()));
  return node->as_table();
}

const toml::table* Reader::sub_table(const Table& t, std::string_view key) const {
  const toml::node* node = t.find(key);
  if (!node) return nullptr;
  if (!node->is_table()) t.fail_at(key, t.key_name(key) + " must be a table ({ ... }), not " + describe(node->type()));
  return node->as_table();
}

std::optional<std::filesystem::path> Reader::directory(const Table& t, std::string_view key) const {
  auto dir = t.string(key);
  if (!dir) return std::nullopt;
  auto found = resolve_directory(*dir, work_dir_, config_dir_);
  if (!found) t.fail_at(key, t.key_name(key) + " " + found.error());
  return *found;
}

std::filesystem::path Reader::required_directory(const Table& t, std::string_view key) const {
  auto found = directory(t, key);
  if (!found) t.missing(key);
  return *found;
}

std::int64_t required(const Table& t, std::string_view key, std::optional<std::int64_t> value) {
  if (!value) t.missing(key);
  return *value;
}

}  // namespace kalah::arena::detail
