#include "referee/game/time_control.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

namespace kalah {

// Each field's getter and setter; the int fields are range-checked by their readers (config, transcript).
#define KALAH_TIME_FIELD(name, mode, ...)                                                                    \
  TimeField {                                                                                                \
#name, mode, [](const TimeControl& t) { return static_cast<std::int64_t>(t.name); },                       \
        [](TimeControl& t, std::int64_t v) { t.name = static_cast<decltype(TimeControl::name)>(v); }, __VA_ARGS__ \
  }
const std::array<TimeField, 11> kTimeFields = {
    KALAH_TIME_FIELD(base_ms, TimeControl::Mode::Fischer),
    KALAH_TIME_FIELD(inc_ms, TimeControl::Mode::Fischer),
    KALAH_TIME_FIELD(moves, TimeControl::Mode::Fischer),
    KALAH_TIME_FIELD(delay_ms, TimeControl::Mode::Fischer, true),
    KALAH_TIME_FIELD(movetime_ms, TimeControl::Mode::MoveTime),
    KALAH_TIME_FIELD(depth, TimeControl::Mode::Depth),
    KALAH_TIME_FIELD(nodes, TimeControl::Mode::Nodes),
    KALAH_TIME_FIELD(margin_ms, std::nullopt),
    KALAH_TIME_FIELD(startup_ms, std::nullopt),
    KALAH_TIME_FIELD(ping_ms, std::nullopt),
    KALAH_TIME_FIELD(hard_limit_ms, std::nullopt),
};
#undef KALAH_TIME_FIELD

std::optional<TimeControl::Mode> parse_time_mode(std::string_view text) {
  for (TimeControl::Mode m :
       {TimeControl::Mode::Fischer, TimeControl::Mode::MoveTime, TimeControl::Mode::Depth, TimeControl::Mode::Nodes})
    if (text == to_string(m)) return m;
  return std::nullopt;
}

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

// Seconds, or "M:SS[.s]" / "H:MM:SS[.s]": the hours or minutes first, whole; minutes after hours and the
// seconds after a colon below 60.
std::optional<double> parse_clock_time(std::string_view text) {
  std::vector<std::string_view> parts;
  for (std::size_t colon; (colon = text.find(':')) != std::string_view::npos; text = text.substr(colon + 1))
    parts.push_back(text.substr(0, colon));
  const std::optional<double> last = parse_seconds(text);
  if (!last || parts.size() > 2) return std::nullopt;
  if (parts.empty()) return last;
  if (*last < 0 || *last >= 60) return std::nullopt;
  double total = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    int whole = 0;
    const std::string_view part = parts[i];
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), whole);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || whole < 0 || (i > 0 && whole >= 60))
      return std::nullopt;
    total = total * 60 + whole;
  }
  return total * 60 + *last;
}

}  // namespace

std::string TimeControl::clock_text() const {
  const std::string delayed = delay_ms > 0 ? (delay == DelayKind::Simple ? "d" : "b") + seconds(delay_ms) : "";
  return (moves > 0 ? std::to_string(moves) + "/" : std::string()) + seconds(base_ms) + "+" + seconds(inc_ms) + delayed;
}

std::string TimeControl::describe() const {
  // Said only of a CPU clock, so that what every report and header says of a wall clock stays as it was.
  const std::string on = clock == ClockKind::Cpu ? " (CPU clock)" : "";
  switch (mode) {
    case Mode::Fischer:
      if (delay_ms > 0)
        return clock_text() + (delay == DelayKind::Simple ? " (simple delay)" : " (Bronstein delay)") + on;
      return clock_text() + on;
    case Mode::MoveTime: return "movetime " + std::to_string(movetime_ms) + on;
    case Mode::Depth: return "depth " + std::to_string(depth) + on;
    case Mode::Nodes: return "nodes " + std::to_string(nodes) + on;
  }
  return "";
}

std::string TimeControl::pgn() const {
  if (mode != Mode::Fischer) return "-";
  const std::string period = moves > 0 ? std::to_string(moves) + "/" : std::string();
  return period + (inc_ms == 0 ? seconds(base_ms) : seconds(base_ms) + "+" + seconds(inc_ms));
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

Expected<TimeControl> parse_fischer(std::string_view whole) {
  const std::string what = "'" + std::string(whole) +
                           "': expected SECONDS or SECONDS+INCREMENT, optionally after MOVES/ and before a delay "
                           "dSECONDS or bSECONDS (e.g. 10+0.1, 40/60+0.6, 1:30+1, 60+0.5d2)";
  std::string_view text = whole;
  std::optional<double> delay = 0.0;
  DelayKind delay_kind = DelayKind::Simple;
  if (const std::size_t at = text.find_first_of("db"); at != std::string_view::npos) {
    delay_kind = text[at] == 'd' ? DelayKind::Simple : DelayKind::Bronstein;
    delay = parse_seconds(text.substr(at + 1));
    if (!delay) return Error{what};
    if (!(*delay > 0) || *delay > 3'600)
      return Error{"'" + std::string(whole) + "': the delay must be > 0 and at most an hour"};
    text = text.substr(0, at);
  }
  int moves = 0;
  if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    const std::string_view count = text.substr(0, slash);
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), moves);
    if (ec != std::errc() || end != count.data() + count.size()) return Error{what};
    if (moves < 1 || moves > 1000)
      return Error{"'" + std::string(whole) + "': the moves per time control must be 1 to 1000, not " +
                   std::string(count)};
    text = text.substr(slash + 1);
  }
  const std::size_t plus = text.find('+');
  const std::optional<double> base = parse_clock_time(text.substr(0, plus));
  const std::optional<double> inc = plus == std::string_view::npos ? 0.0 : parse_seconds(text.substr(plus + 1));
  if (!base || !inc) return Error{what};
  if (!(*base > 0) || !(*inc >= 0) || *base > 86'400 || *inc > 3'600)
    return Error{"'" + std::string(whole) +
                 "': the base time must be > 0 and at most a day, the increment >= 0 "
                 "and at most an hour"};
  TimeControl t;
  t.mode = TimeControl::Mode::Fischer;
  t.base_ms = std::llround(*base * 1000);
  t.inc_ms = std::llround(*inc * 1000);
  t.moves = moves;
  t.delay_ms = std::llround(*delay * 1000);
  t.delay = delay_kind;
  if (t.base_ms == 0) return Error{"'" + std::string(whole) + "': the base time rounds to 0 ms"};
  if (*delay > 0 && t.delay_ms == 0) return Error{"'" + std::string(whole) + "': the delay rounds to 0 ms"};
  return t;
}

Expected<TimeControl> time_from_options(std::string_view tc, std::int64_t movetime_ms, int depth, std::int64_t nodes) {
  TimeControl t;
  if (movetime_ms > 0) {
    t.mode = TimeControl::Mode::MoveTime;
    t.movetime_ms = movetime_ms;
  } else if (depth > 0) {
    t.mode = TimeControl::Mode::Depth;
    t.depth = depth;
  } else if (nodes > 0) {
    t.mode = TimeControl::Mode::Nodes;
    t.nodes = nodes;
  } else if (!tc.empty()) {
    Expected<TimeControl> clock = parse_fischer(tc);
    if (!clock) return Error{"--tc " + clock.error()};
    t = *clock;
  }
  return t;
}

}  // namespace kalah
