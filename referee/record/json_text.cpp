#include "referee/record/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace kalah {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n;
  std::uint32_t cp;
  if ((c & 0xE0) == 0xC0)
    n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0)
    n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void append_hex4(std::string& out, unsigned code) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u00";
  out += kHex[(code >> 4) & 0xF];
  out += kHex[code & 0xF];
}

class Writer {
 public:
  Writer(std::string& out, const JsonTextOptions& options) : out_(out), options_(options) {}

  void write(const boost::json::value& v, int depth) {
    switch (v.kind()) {
      case boost::json::kind::null: out_ += "null"; break;
      case boost::json::kind::bool_: out_ += v.get_bool() ? "true" : "false"; break;
      case boost::json::kind::int64: out_ += std::to_string(v.get_int64()); break;
      case boost::json::kind::uint64: out_ += std::to_string(v.get_uint64()); break;
      case boost::json::kind::double_: out_ += json_number(v.get_double()); break;
      case boost::json::kind::string:
        append_json_string(out_, std::string_view(v.get_string()), options_.html_safe);
        break;
      case boost::json::kind::array: write_array(v.get_array(), depth); break;
      case boost::json::kind::object: write_object(v.get_object(), depth); break;
    }
  }

 private:
  void newline(int depth) {
    if (options_.indent == 0) return;
    out_ += '\n';
    out_.append(static_cast<std::size_t>(depth * options_.indent), ' ');
  }

  // Arrays of scalars stay on one line even when pretty-printing: a board or a
  // move list reads better that way and keeps files short.
  static bool is_flat(const boost::json::array& a) {
    for (const auto& e : a)
      if (e.is_array() || e.is_object()) return false;
    return true;
  }

  void write_array(const boost::json::array& a, int depth) {
    out_ += '[';
    const bool flat = is_flat(a);
    bool first = true;
    for (const auto& e : a) {
      if (!first) out_ += (flat && options_.indent != 0) ? ", " : ",";
      first = false;
      if (!flat) newline(depth + 1);
      write(e, depth + 1);
    }
    if (!flat && !a.empty()) newline(depth);
    out_ += ']';
  }

  static bool is_flat(const boost::json::object& o) {
    for (const auto& kv : o)
      if (kv.value().is_array() || kv.value().is_object()) return false;
    return true;
  }

  // A small object of scalars, {"games": 4, "points": 2.5}, fits on one line
  // when pretty-printing.
  bool write_inline(const boost::json::object& o) {
    constexpr std::size_t kMaxInline = 100;
    if (options_.indent == 0 || o.empty() || !is_flat(o)) return false;
    std::string line = "{";
    for (const auto& kv : o) {
      if (line.size() > 1) line += ", ";
      append_json_string(line, std::string_view(kv.key()), options_.html_safe);
      line += ": ";
      line += json_text(kv.value(), options_);
    }
    line += '}';
    if (line.size() > kMaxInline) return false;
    out_ += line;
    return true;
  }

  void write_object(const boost::json::object& o, int depth) {
    if (write_inline(o)) return;
    out_ += '{';
    bool first = true;
    for (const auto& kv : o) {
      if (!first) out_ += ',';
      first = false;
      newline(depth + 1);
      append_json_string(out_, std::string_view(kv.key()), options_.html_safe);
      out_ += options_.indent != 0 ? ": " : ":";
      write(kv.value(), depth + 1);
    }
    if (!o.empty()) newline(depth);
    out_ += '}';
  }

  std::string& out_;
  const JsonTextOptions& options_;
};

}  // namespace

void append_json_string(std::string& out, std::string_view text, bool html_safe) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(text, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7F || (html_safe && (c == '<' || c == '>' || c == '&')))
          append_hex4(out, c);
        else
          out += static_cast<char>(c);
    }
    ++i;
  }
  out += '"';
}

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  if (x == 0) return "0";  // also for -0
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
  if (ec != std::errc()) return "null";
  return std::string(buffer, end);
}

std::string json_text(const boost::json::value& value, const JsonTextOptions& options) {
  std::string out;
  Writer(out, options).write(value, 0);
  return out;
}

}  // namespace kalah
