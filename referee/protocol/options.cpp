#include "referee/protocol/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "referee/rules/spelling.h"

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
    std::vector<std::string> names;
    for (const OptionDecl& o : declared) names.push_back(o.name);
    if (const std::optional<std::string> meant = nearest_word(name, names)) text += " (did you mean '" + *meant + "'?)";
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
