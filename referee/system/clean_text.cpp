#include "referee/system/clean_text.h"

#include <cstdint>
#include <cstdio>

namespace kalah::system {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool plain_byte(unsigned char c, bool keep_newlines) {
  if (c >= 0x20 && c < 0x7f) return true;
  return c == '\t' || (keep_newlines && c == '\n');
}

// The length of the UTF-8 sequence that `lead` starts, 0 for a byte that cannot start one.
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Decodes the complete sequence at `s` (of `length` bytes); -1 when it is not valid UTF-8 (a bad
// continuation byte, an overlong form, a surrogate, beyond U+10FFFF).
long decode(const unsigned char* s, std::size_t length) {
  std::uint32_t cp = length == 2 ? (s[0] & 0x1Fu) : length == 3 ? (s[0] & 0x0Fu) : (s[0] & 0x07u);
  for (std::size_t i = 1; i < length; ++i) {
    if ((s[i] & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (s[i] & 0x3Fu);
  }
  if ((length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return -1;
  return static_cast<long>(cp);
}

// Cleans `text` into `out`; returns how many bytes at its end start a sequence that may continue in the
// next chunk (only when `more` may follow).
std::size_t clean_into(std::string_view text, bool keep_newlines, bool more, std::string& out) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  char escape[8];
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (plain_byte(c, keep_newlines)) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c < 0x80) {  // a C0 control or DEL
      std::snprintf(escape, sizeof escape, "\\x%02x", c);
      out += escape;
      ++i;
      continue;
    }
    const std::size_t length = sequence_length(c);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (i + length > n) {
      // Cut by the end of the chunk: kept for the next one if what there is could still be valid.
      bool could_continue = true;
      for (std::size_t k = i + 1; k < n; ++k) could_continue = could_continue && (s[k] & 0xC0) == 0x80;
      if (more && could_continue) return n - i;
      out += kReplacement;
      ++i;
      continue;
    }
    const long cp = decode(s + i, length);
    if (cp < 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (cp >= 0x80 && cp <= 0x9F) {  // C1 controls (0x9b is CSI for some terminals)
      std::snprintf(escape, sizeof escape, "\\u%04lx", cp);
      out += escape;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return 0;
}

}  // namespace

bool is_clean_text(std::string_view text, bool keep_newlines) {
  for (unsigned char c : text)
    if (!plain_byte(c, keep_newlines)) return false;  // anything else takes the careful path
  return true;
}

std::string clean_text(std::string_view text, bool keep_newlines) {
  if (is_clean_text(text, keep_newlines)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  clean_into(text, keep_newlines, false, out);
  return out;
}

std::string TextCleaner::feed(std::string_view chunk) {
  std::string out;
  if (pending_.empty() && is_clean_text(chunk, keep_newlines_)) return std::string(chunk);
  const std::string joined = pending_ + std::string(chunk);
  pending_.clear();
  const std::size_t left = clean_into(joined, keep_newlines_, true, out);
  pending_ = joined.substr(joined.size() - left);
  return out;
}

std::string TextCleaner::finish() {
  std::string out;
  clean_into(pending_, keep_newlines_, false, out);
  pending_.clear();
  return out;
}

std::string shorten_keeping_end(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  constexpr std::string_view kGap = " ... ";
  std::string_view last;
  if (const std::size_t bar = text.rfind(" | "); bar != std::string_view::npos) last = text.substr(bar + 3);
  if (last.size() + kGap.size() >= limit) last = {};
  const std::size_t budget = limit - last.size() - (last.empty() ? 4 : kGap.size());
  // The start: up to the last space within the budget (a word never cut), else at a character's boundary.
  std::size_t cut = budget;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  if (const std::size_t space = text.rfind(' ', budget); space != std::string_view::npos && space > budget / 2)
    cut = space;
  std::string out(text.substr(0, cut));
  while (!out.empty() && (out.back() == ' ' || out.back() == '|')) out.pop_back();
  out += last.empty() ? std::string_view(" ...") : kGap;
  out += last;
  return out;
}

}  // namespace kalah::system
