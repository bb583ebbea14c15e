#include "referee/protocol/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace kalah::kep {

namespace {

std::optional<long long> integer(std::string_view text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::string bound(const std::optional<long long>& b) { return b ? std::to_string(*b) : "-"; }

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Edits (insert, delete, replace, swap of neighbours) between a and b, compared without case; stops
// counting past 3.
int distance(std::string_view a_text, std::string_view b_text) {
  const std::string a = lower(a_text), b = lower(b_text);
  if (a.size() > b.size() + 3 || b.size() > a.size() + 3) return 4;
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string declaration_problem(const OptionDecl& o) {
  if (o.type == "spin") {
    const std::optional<long long> value = integer(o.default_value);
    if (!value) return "a spin's default '" + o.default_value + "' is not an integer";
    if (o.min && o.max && *o.min > *o.max)
      return "min " + std::to_string(*o.min) + " is above max " + std::to_string(*o.max);
    if ((o.min && *value < *o.min) || (o.max && *value > *o.max))
      return "default " + std::to_string(*value) + " is outside [" + bound(o.min) + ", " + bound(o.max) + "]";
    return {};
  }
  if (o.type == "check")
    return o.default_value == "true" || o.default_value == "false"
               ? std::string()
               : "a check's default '" + o.default_value + "' is not true or false";
  if (o.type == "string") return {};
  return "type '" + o.type + "' is not spin, check or string";
}

std::string describe(const OptionDecl& o) {
  std::string text = o.name + " " + o.type + " " + (o.default_value.empty() ? "\"\"" : o.default_value);
  if (o.min || o.max)
    text += " [" + (o.min ? std::to_string(*o.min) : "") + ", " + (o.max ? std::to_string(*o.max) : "") + "]";
  return text;
}

std::string setting_problem(const std::vector<OptionDecl>& declared, std::string_view name, std::string_view value) {
  const auto found =
      std::find_if(declared.begin(), declared.end(), [&](const OptionDecl& o) { return o.name == name; });
  if (found == declared.end()) {
    const std::string quoted = "'" + std::string(name) + "'";
    std::string text = "option " + quoted + " is not one the engine declares";
    const OptionDecl* nearest = nullptr;
    int best = 3;
    for (const OptionDecl& o : declared)
      if (const int d = distance(name, o.name); d < best) {
        best = d;
        nearest = &o;
      }
    if (nearest) text += " (did you mean '" + nearest->name + "'?)";
    return text;
  }
  const OptionDecl& o = *found;
  const std::string quoted = "option '" + o.name + "'";
  if (o.type == "spin") {
    const std::optional<long long> n = integer(value);
    if (!n) return quoted + " is a spin (an integer); '" + std::string(value) + "' is not one";
    if ((o.min && *n < *o.min) || (o.max && *n > *o.max))
      return quoted + ": " + std::to_string(*n) + " is outside the declared range [" + bound(o.min) + ", " +
             bound(o.max) + "]";
    return {};
  }
  if (o.type == "check" && value != "true" && value != "false")
    return quoted + " is a check; its value is true or false, not '" + std::string(value) + "'";
  return {};
}

}  // namespace kalah::kep
