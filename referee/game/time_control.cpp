#include "referee/game/time_control.h"

#include <charconv>
#include <cmath>
#include <optional>

namespace kalah {
namespace {

// Milliseconds as seconds without trailing zeros: 10000 -> "10", 100 -> "0.1".
std::string seconds(std::int64_t ms) {
  std::string s = std::to_string(ms / 1000);
  if (ms % 1000) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}

// A whole decimal number of seconds ("10", "0.5", "2.25"), nothing else around it.
std::optional<double> parse_seconds(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

std::string TimeControl::describe() const {
  switch (mode) {
    case Mode::Fischer: return seconds(base_ms) + "+" + seconds(inc_ms);
    case Mode::MoveTime: return "movetime " + std::to_string(movetime_ms);
    case Mode::Depth: return "depth " + std::to_string(depth);
    case Mode::Nodes: return "nodes " + std::to_string(nodes);
  }
  return "";
}

std::string TimeControl::pgn() const {
  if (mode != Mode::Fischer) return "-";
  return inc_ms == 0 ? seconds(base_ms) : seconds(base_ms) + "+" + seconds(inc_ms);
}

const char* to_string(TimeControl::Mode m) {
  switch (m) {
    case TimeControl::Mode::Fischer: return "fischer";
    case TimeControl::Mode::MoveTime: return "movetime";
    case TimeControl::Mode::Depth: return "depth";
    case TimeControl::Mode::Nodes: return "nodes";
  }
  return "?";
}

Expected<TimeControl> parse_fischer(std::string_view text) {
  const std::string what = "'" + std::string(text) + "': expected SECONDS or SECONDS+INCREMENT, e.g. 10+0.1";
  const std::size_t plus = text.find('+');
  const std::optional<double> base = parse_seconds(text.substr(0, plus));
  const std::optional<double> inc = plus == std::string_view::npos ? 0.0 : parse_seconds(text.substr(plus + 1));
  if (!base || !inc) return Error{what};
  if (!(*base > 0) || !(*inc >= 0) || *base > 86'400 || *inc > 3'600)
    return Error{"'" + std::string(text) +
                 "': the base time must be > 0 and at most a day, the increment >= 0 "
                 "and at most an hour"};
  TimeControl t;
  t.mode = TimeControl::Mode::Fischer;
  t.base_ms = std::llround(*base * 1000);
  t.inc_ms = std::llround(*inc * 1000);
  if (t.base_ms == 0) return Error{"'" + std::string(text) + "': the base time rounds to 0 ms"};
  return t;
}

}  // namespace kalah
