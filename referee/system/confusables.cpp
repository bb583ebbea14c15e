#include "referee/system/confusables.h"

#include <algorithm>
#include <array>
#include <utility>

namespace kalah::system {
namespace {

// One UTF-8 sequence at `at`: its code point and length, or nothing (length 1) for an invalid byte.
struct Decoded {
  char32_t c = 0;
  std::size_t length = 1;
  bool valid = false;
};

Decoded decode(std::string_view s, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return {lead, 1, true};
  std::size_t length = 0;
  char32_t c = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    c = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    c = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    c = lead & 0x07;
  } else {
    return {};
  }
  if (at + length > s.size()) return {};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {};
    c = (c << 6) | (byte(at + i) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not characters.
  constexpr char32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kShortest[length] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return {};
  return {c, length, true};
}

void encode(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Letters of other scripts (and a few Latin ones) that are drawn like an ASCII letter or digit, sorted by
// code point. docs/CONFIG.md ("Engine names") lists the same set; change both together.
constexpr std::array<std::pair<char32_t, char>, 86> kLookAlikes = {{
    {0x00A0, ' '},  // no-break space
    {0x0131, 'i'},  // Latin small dotless i
    {0x01C0, 'l'},  // Latin letter dental click
    {0x0251, 'a'},  // Latin small alpha
    {0x0261, 'g'},  // Latin small script g
    {0x0269, 'i'},  // Latin small iota
    // Greek
    {0x0391, 'A'},
    {0x0392, 'B'},
    {0x0395, 'E'},
    {0x0396, 'Z'},
    {0x0397, 'H'},
    {0x0399, 'l'},  // capital iota, drawn as 'I'
    {0x039A, 'K'},
    {0x039C, 'M'},
    {0x039D, 'N'},
    {0x039F, 'O'},
    {0x03A1, 'P'},
    {0x03A4, 'T'},
    {0x03A5, 'Y'},
    {0x03A7, 'X'},
    {0x03B1, 'a'},
    {0x03B3, 'y'},
    {0x03B9, 'i'},
    {0x03BD, 'v'},
    {0x03BF, 'o'},
    {0x03C1, 'p'},
    {0x03C5, 'u'},
    {0x03DC, 'F'},
    {0x03F2, 'c'},
    {0x03F3, 'j'},
    // Cyrillic
    {0x0405, 'S'},
    {0x0406, 'l'},  // Byelorussian-Ukrainian I, drawn as 'I'
    {0x0408, 'J'},
    {0x0410, 'A'},
    {0x0412, 'B'},
    {0x0415, 'E'},
    {0x0417, '3'},
    {0x041A, 'K'},
    {0x041C, 'M'},
    {0x041D, 'H'},
    {0x041E, 'O'},
    {0x0420, 'P'},
    {0x0421, 'C'},
    {0x0422, 'T'},
    {0x0423, 'Y'},
    {0x0425, 'X'},
    {0x0430, 'a'},
    {0x0435, 'e'},
    {0x043E, 'o'},
    {0x0440, 'p'},
    {0x0441, 'c'},
    {0x0443, 'y'},
    {0x0445, 'x'},
    {0x0455, 's'},
    {0x0456, 'i'},
    {0x0458, 'j'},
    {0x0461, 'w'},
    {0x0475, 'v'},
    {0x04AE, 'Y'},
    {0x04BB, 'h'},
    {0x04C0, 'l'},  // palochka
    {0x04CF, 'l'},  // small palochka
    {0x0501, 'd'},
    {0x051A, 'Q'},
    {0x051B, 'q'},
    {0x051C, 'W'},
    {0x051D, 'w'},
    // Spaces and dashes
    {0x2000, ' '},
    {0x2001, ' '},
    {0x2002, ' '},
    {0x2003, ' '},
    {0x2004, ' '},
    {0x2005, ' '},
    {0x2006, ' '},
    {0x2007, ' '},
    {0x2008, ' '},
    {0x2009, ' '},
    {0x200A, ' '},
    {0x2010, '-'},
    {0x2011, '-'},
    {0x2012, '-'},
    {0x2013, '-'},
    {0x2014, '-'},
    {0x2015, '-'},
    {0x202F, ' '},
    {0x205F, ' '},
}};
static_assert(std::is_sorted(kLookAlikes.begin(), kLookAlikes.end()));

// The ASCII character `c` is taken for, or 0 when it is none of the table's.
char ascii_look_alike(char32_t c) {
  if (c >= 0xFF01 && c <= 0xFF5E) return static_cast<char>(c - 0xFEE0);  // fullwidth ASCII
  if (c == 0x3000) return ' ';                                           // ideographic (fullwidth) space
  if (c == 0x2212 || c == 0xFE63) return '-';                            // minus sign, small hyphen-minus
  const auto* found = std::lower_bound(kLookAlikes.begin(), kLookAlikes.end(), c,
                                       [](const std::pair<char32_t, char>& e, char32_t v) { return e.first < v; });
  return found != kLookAlikes.end() && found->first == c ? found->second : 0;
}

// Within ASCII: '0' is drawn as 'O'; '1', 'I' and '|' as 'l'.
char ascii_prototype(char c) {
  switch (c) {
    case '0': return 'O';
    case '1':
    case 'I':
    case '|': return 'l';
    default: return c;
  }
}

}  // namespace

bool is_hidden_control(char32_t c) {
  return c == 0x061C || (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || c == 0x2060 ||
         (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

bool has_hidden_controls(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const Decoded d = decode(text, at);
    if (d.valid && is_hidden_control(d.c)) return true;
    at += d.length;
  }
  return false;
}

std::string without_hidden_controls(std::string_view text) {
  if (!has_hidden_controls(text)) return std::string(text);
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const Decoded d = decode(text, at);
    if (!(d.valid && is_hidden_control(d.c))) out.append(text.substr(at, d.length));
    at += d.length;
  }
  return out;
}

std::string show_hidden_controls(std::string_view text) {
  if (!has_hidden_controls(text)) return std::string(text);
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const Decoded d = decode(text, at);
    if (d.valid && is_hidden_control(d.c)) {
      static const char* hex = "0123456789abcdef";
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(d.c >> shift) & 15];
    } else {
      out.append(text.substr(at, d.length));
    }
    at += d.length;
  }
  return out;
}

std::string skeleton(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const Decoded d = decode(text, at);
    if (!d.valid) {
      out += text[at];
    } else if (d.c < 0x80) {
      out += ascii_prototype(static_cast<char>(d.c));
    } else if (const char ascii = ascii_look_alike(d.c)) {
      out += ascii_prototype(ascii);
    } else if (!is_hidden_control(d.c)) {
      encode(d.c, out);
    }
    at += d.length;
  }
  return out;
}

bool confusable(std::string_view a, std::string_view b) { return a == b || skeleton(a) == skeleton(b); }

}  // namespace kalah::system
