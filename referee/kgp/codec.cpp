#include "referee/kgp/codec.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace kalah::kgp {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_space(char c) { return c == ' ' || c == '\t'; }
// A control character that no line may carry outside a string (inside one only the tab is allowed).
bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7f;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

// "[+-]digits"
bool looks_integer(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return all_digits(s);
}

// "[+-]digits*.digits+"
bool looks_real(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view whole = s.substr(0, dot);
  return (whole.empty() || all_digits(whole)) && all_digits(s.substr(dot + 1));
}

template <class T>
std::optional<T> to_number(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  T value{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

Error fail(std::string what) { return Error{std::move(what)}; }

// The command's `[id][@ref]` prefix, when the first word is one.
std::optional<std::string> parse_header(std::string_view word, Command& c) {
  const std::size_t at = word.find('@');
  const std::string_view id = word.substr(0, at);
  if (!id.empty()) {
    auto n = to_number<std::uint64_t>(id);
    if (!n) return "the command id " + shorten(id) + " is not a number up to 2^64-1";
    c.id = *n;
  }
  if (at != std::string_view::npos) {
    auto n = to_number<std::uint64_t>(word.substr(at + 1));
    if (!n) return "the reference " + shorten(word.substr(at)) + " is not @ and a number up to 2^64-1";
    c.ref = *n;
  }
  return std::nullopt;
}

// Whether the first word of a line is an `[id][@ref]` prefix rather than the command's name.
bool is_header(std::string_view word) {
  const std::size_t at = word.find('@');
  const std::string_view id = word.substr(0, at);
  if (!id.empty() && !all_digits(id)) return false;
  if (at == std::string_view::npos) return !id.empty();
  const std::string_view ref = word.substr(at + 1);
  return ref.empty() || all_digits(ref);  // "@" alone is a malformed reference, reported as such
}

// A quoted string starting at text[i] == '"'; i ends after the closing quote.
Expected<std::string> parse_string(std::string_view text, std::size_t& i) {
  std::string out;
  for (++i; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      ++i;
      return out;
    }
    if (c == '\\') {
      if (++i == text.size()) break;
      c = text[i];
    }
    if (is_control(c)) return fail("a control character in a string");
    out += c;
  }
  return fail("a string without its closing quote");
}

// A board literal starting at text[i] == '<'; i ends after the '>'.
Expected<Board> parse_board(std::string_view text, std::size_t& i) {
  const std::size_t close = text.find('>', i);
  if (close == std::string_view::npos) return fail("a board without its closing '>'");
  const std::string_view body = text.substr(i + 1, close - i - 1);
  i = close + 1;
  std::vector<long long> values;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = body.find(',', from);
    const std::string_view item = body.substr(from, comma == std::string_view::npos ? body.npos : comma - from);
    if (!all_digits(item)) return fail("a board holds numbers separated by commas, not " + shorten(item));
    auto n = to_number<long long>(item);
    if (!n || *n > kMaxCellSeeds) return fail("a board number over " + std::to_string(kMaxCellSeeds));
    values.push_back(*n);
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  const long long pits = values[0];
  if (pits < 1 || pits > kMaxBoardPits)
    return fail("a board of " + std::to_string(pits) + " pits (1 to " + std::to_string(kMaxBoardPits) + ")");
  if (values.size() != static_cast<std::size_t>(3 + 2 * pits))
    return fail("a board of " + std::to_string(pits) + " pits has " + std::to_string(3 + 2 * pits) + " numbers, not " +
                std::to_string(values.size()));
  Board b;
  b.pits = static_cast<int>(pits);
  b.south_store = values[1];
  b.north_store = values[2];
  b.south.assign(values.begin() + 3, values.begin() + 3 + pits);
  b.north.assign(values.begin() + 3 + pits, values.end());
  return b;
}

// A bare argument: an integer, a real or a word.
Expected<Arg> parse_bare(std::string_view token) {
  if (looks_integer(token)) {
    if (auto n = to_number<long long>(token)) return Arg{*n};
    return fail("the integer " + shorten(token) + " is out of range");
  }
  if (looks_real(token)) {
    auto x = to_number<double>(token);
    if (x && std::isfinite(*x)) return Arg{*x};
    return fail("the real " + shorten(token) + " is out of range");
  }
  if (is_word(token)) return Arg{Text{std::string(token), false}};
  return fail("not an integer, real, word, string or board: " + shorten(token));
}

// The arguments in text[i..]; i is at a non-space.
std::optional<std::string> parse_args(std::string_view text, std::size_t i, Command& c) {
  while (i < text.size()) {
    if (text[i] == '"') {
      Expected<std::string> s = parse_string(text, i);
      if (!s) return s.error();
      c.args.emplace_back(Text{*s, true});
    } else if (text[i] == '<') {
      Expected<Board> b = parse_board(text, i);
      if (!b) return b.error();
      c.args.emplace_back(*b);
    } else {
      std::size_t end = i;
      while (end < text.size() && !is_space(text[end])) ++end;
      Expected<Arg> a = parse_bare(text.substr(i, end - i));
      if (!a) return a.error();
      c.args.push_back(*a);
      i = end;
    }
    if (i < text.size() && !is_space(text[i])) return "no space after argument " + std::to_string(c.args.size());
    while (i < text.size() && is_space(text[i])) ++i;
  }
  return std::nullopt;
}

void format_board(const Board& b, std::string& out) {
  out += '<' + std::to_string(b.pits) + ',' + std::to_string(b.south_store) + ',' + std::to_string(b.north_store);
  for (long long s : b.south) out += ',' + std::to_string(s);
  for (long long s : b.north) out += ',' + std::to_string(s);
  out += '>';
}

void format_real(double x, std::string& out) {
  if (!std::isfinite(x)) x = 0;
  char buffer[400];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::fixed);
  std::string_view s(buffer, ec == std::errc() ? static_cast<std::size_t>(end - buffer) : 0);
  out += s.empty() ? "0" : s;
  if (s.find('.') == std::string_view::npos) out += ".0";
}

void format_text(const Text& t, std::string& out) {
  if (!t.quoted && is_word(t.value)) {
    out += t.value;
    return;
  }
  out += '"';
  for (char c : t.value) {
    if (c == '"' || c == '\\') out += '\\';
    out += is_control(c) ? ' ' : c;
  }
  out += '"';
}

}  // namespace

std::string board_text(const Board& b) {
  std::string out;
  format_board(b, out);
  return out;
}

bool is_word(std::string_view text) {
  if (text.empty() || looks_integer(text) || looks_real(text)) return false;
  for (char c : text)
    if (!is_alpha(c) && !is_digit(c) && c != '-' && c != ':') return false;
  return true;
}

Expected<Command> parse_line(std::string_view line) {
  if (line.size() > kMaxLineChars) return fail("a line over " + std::to_string(kMaxLineChars) + " characters");
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (std::size_t k = 0; k < line.size(); ++k) {
    // Inside a string a control character is reported by parse_string; elsewhere it is one here.
    if (line[k] == '"') {
      std::size_t j = k;
      Expected<std::string> s = parse_string(line, j);
      if (!s) break;
      k = j - 1;
    } else if (is_control(line[k])) {
      return fail("a control character (byte " + std::to_string(static_cast<unsigned char>(line[k])) + ")");
    }
  }
  Command c;
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  auto word_end = [&](std::size_t from) {
    while (from < line.size() && !is_space(line[from])) ++from;
    return from;
  };
  std::size_t end = word_end(i);
  if (is_header(line.substr(i, end - i))) {
    if (auto problem = parse_header(line.substr(i, end - i), c)) return fail(*problem);
    i = end;
    while (i < line.size() && is_space(line[i])) ++i;
    end = word_end(i);
  }
  const std::string_view name = line.substr(i, end - i);
  if (name.empty()) return fail("no command name");
  for (char ch : name)
    if (!is_alpha(ch) && !is_digit(ch)) return fail("the command name " + shorten(name) + " is not letters and digits");
  c.name = std::string(name);
  i = end;
  while (i < line.size() && is_space(line[i])) ++i;
  if (auto problem = parse_args(line, i, c)) return fail(*problem);
  return c;
}

std::string format(const Command& c) {
  std::string out;
  if (c.id) out += std::to_string(*c.id);
  if (c.ref) out += '@' + std::to_string(*c.ref);
  if (!out.empty()) out += ' ';
  out += c.name;
  for (const Arg& a : c.args) {
    out += ' ';
    if (const auto* n = std::get_if<long long>(&a)) {
      out += std::to_string(*n);
    } else if (const auto* x = std::get_if<double>(&a)) {
      format_real(*x, out);
    } else if (const auto* t = std::get_if<Text>(&a)) {
      format_text(*t, out);
    } else {
      format_board(std::get<Board>(a), out);
    }
  }
  out += "\r\n";
  return out;
}

std::optional<std::string> text_arg(const Command& c, std::size_t index) {
  if (index >= c.args.size()) return std::nullopt;
  if (const auto* t = std::get_if<Text>(&c.args[index])) return t->value;
  return std::nullopt;
}

std::optional<long long> int_arg(const Command& c, std::size_t index) {
  if (index >= c.args.size()) return std::nullopt;
  if (const auto* n = std::get_if<long long>(&c.args[index])) return *n;
  return std::nullopt;
}

std::optional<double> real_arg(const Command& c, std::size_t index) {
  if (index >= c.args.size()) return std::nullopt;
  if (const auto* r = std::get_if<double>(&c.args[index])) return *r;
  if (const auto* n = std::get_if<long long>(&c.args[index])) return static_cast<double>(*n);
  return std::nullopt;
}

const Board* board_arg(const Command& c, std::size_t index) {
  if (index >= c.args.size()) return nullptr;
  return std::get_if<Board>(&c.args[index]);
}

Command make_command(std::string name, std::vector<Arg> args, std::optional<std::uint64_t> id,
                     std::optional<std::uint64_t> ref) {
  Command c;
  c.id = id;
  c.ref = ref;
  c.name = std::move(name);
  c.args = std::move(args);
  return c;
}

Command make_set(std::string key, Arg value, std::optional<std::uint64_t> id) {
  return make_command("set", {Text{std::move(key), false}, std::move(value)}, id);
}

Arg text(std::string value) {
  const bool quoted = !is_word(value);
  return Text{std::move(value), quoted};
}

std::string shorten(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 200)) out += is_control(c) ? '?' : c;
  if (line.size() > 200) out += "...";
  return out;
}

}  // namespace kalah::kgp
