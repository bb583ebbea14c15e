#include "referee/rules/variant.h"

#include <charconv>
#include <set>
#include <vector>

#include "referee/rules/words.h"

namespace kalah {
namespace {

bool parse_int(std::string_view s, int lo, int hi, int& out) {
  int value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

bool parse_switch(std::string_view s, bool& out) {
  if (s == "on") return out = true, true;
  if (s == "off") return out = false, true;
  return false;
}

}  // namespace

std::string to_string(const Variant& v) {
  std::string s = "pits=" + std::to_string(v.pits) + " seeds=" + std::to_string(v.seeds);
  s += v.capture == Capture::Standard ? " capture=standard" : " capture=empty";
  s += v.ending == Ending::SideEmpty ? " ending=side-empty" : " ending=no-move";
  s += v.remainder == Remainder::Owner ? " remainder=owner" : " remainder=none";
  s += v.majority ? " majority=on" : " majority=off";
  s += v.pie ? " pie=on" : " pie=off";
  return s;
}

Expected<Variant> parse_variant(std::string_view text) {
  Variant v;
  std::set<std::string_view> seen;
  for (std::string_view token : split_words(text)) {
    size_t eq = token.find('=');
    if (eq == std::string_view::npos) return Error{"variant token '" + std::string(token) + "' is not key=value"};
    std::string_view key = token.substr(0, eq);
    std::string_view value = token.substr(eq + 1);
    if (!seen.insert(key).second) return Error{"variant key '" + std::string(key) + "' given twice"};
    bool ok = false;
    if (key == "pits") {
      ok = parse_int(value, 1, Variant::kMaxPits, v.pits);
      if (!ok) return Error{"pits must be a whole number from 1 to 16, not '" + std::string(value) + "'"};
    } else if (key == "seeds") {
      ok = parse_int(value, 1, Variant::kMaxSeeds, v.seeds);
      if (!ok) return Error{"seeds must be a whole number from 1 to 16, not '" + std::string(value) + "'"};
    } else if (key == "capture") {
      ok = value == "standard" || value == "empty";
      v.capture = value == "empty" ? Capture::Empty : Capture::Standard;
      if (!ok) return Error{"capture must be 'standard' or 'empty', not '" + std::string(value) + "'"};
    } else if (key == "ending") {
      ok = value == "side-empty" || value == "no-move";
      v.ending = value == "no-move" ? Ending::NoMove : Ending::SideEmpty;
      if (!ok) return Error{"ending must be 'side-empty' or 'no-move', not '" + std::string(value) + "'"};
    } else if (key == "remainder") {
      ok = value == "owner" || value == "none";
      v.remainder = value == "none" ? Remainder::None : Remainder::Owner;
      if (!ok) return Error{"remainder must be 'owner' or 'none', not '" + std::string(value) + "'"};
    } else if (key == "majority" || key == "pie") {
      ok = parse_switch(value, key == "pie" ? v.pie : v.majority);
      if (!ok) return Error{std::string(key) + " must be 'on' or 'off', not '" + std::string(value) + "'"};
    } else {
      return Error{"unknown variant key '" + std::string(key) +
                   "' (known: pits, seeds, capture, ending, remainder, majority, pie)"};
    }
  }
  return v;
}

}  // namespace kalah
