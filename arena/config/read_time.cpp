// [time] and an engine's own `time` (docs/CONFIG.md, "Time controls"): one way to limit a move, the margins
// and the deadlines of the handshake and isready.
#include "arena/config/readers.h"

#include <utility>

namespace kalah::arena::detail {

namespace {

constexpr std::int64_t kOneDayMs = 86'400'000;
constexpr std::int64_t kOneHourMs = 3'600'000;

constexpr std::string_view kTimeModes =
    "give exactly one of tc, base_ms (with inc_ms and moves), movetime_ms, depth or nodes";
// [time] or an engine's `time`, with the keys they both take; `clock` only in [time].
Table time_table(const Reader& r, const toml::table& table, std::string prefix, std::string display,
                 bool with_clock = false) {
  if (with_clock)
    return Table(r.loc(), table, std::move(prefix), std::move(display),
                 {"tc", "base_ms", "inc_ms", "moves", "delay_ms", "delay", "movetime_ms", "depth", "nodes", "margin_ms",
                  "startup_ms", "ping_ms", "hard_limit_ms", "clock"});
  return Table(r.loc(), table, std::move(prefix), std::move(display),
               {"tc", "base_ms", "inc_ms", "moves", "delay_ms", "delay", "movetime_ms", "depth", "nodes", "margin_ms",
                "startup_ms", "ping_ms", "hard_limit_ms"});
}

// delay_ms and delay (docs/CONFIG.md, "Delays"): a clock's, given here or in tc ("60+0.5d2"), not both.
void read_delay(const Reader& r, const Table& t, std::string_view first_mode, TimeControl& out) {
  if (t.has("delay_ms") && first_mode != "base_ms")
    r.loc().fail(t.key_source("delay_ms"), t.key_name("delay_ms") + " needs " + t.key_name("base_ms") +
                                               (first_mode == "tc" ? " (tc has its own: \"60+0.5d2\")" : ""));
  if (t.has("delay") && !t.has("delay_ms"))
    r.loc().fail(t.key_source("delay"), t.key_name("delay") + " needs " + t.key_name("delay_ms") +
                                            (first_mode == "tc" ? " (in tc the letter says it: \"60d2\" simple, "
                                                                  "\"60b2\" Bronstein)"
                                                                : ""));
  if (first_mode != "base_ms") return;
  out.delay_ms = t.integer("delay_ms", 1, kOneHourMs).value_or(0);
  out.delay = t.choice<DelayKind>("delay", {{to_string(DelayKind::Simple), DelayKind::Simple},
                                            {to_string(DelayKind::Bronstein), DelayKind::Bronstein}})
                  .value_or(DelayKind::Simple);
}

// A [time] table, or an engine's own `time` (time odds) over the tournament's `defaults`: there the
// way to limit a move may be left out (the tournament's is kept) and every other key defaults to
// the tournament's.
TimeControl read_time_table(const Reader& r, const Table& t, const TimeControl* defaults) {
  TimeControl out = defaults ? *defaults : TimeControl{};
  const std::string& prefix = t.key_name("");
  auto name = [&](std::string_view key) { return prefix + std::string(key); };
  // "tc = 'inf'" says "no clock": then depth or nodes must limit a move.
  const std::optional<std::string> tc = t.string("tc");
  const bool infinite = tc && *tc == "inf";
  // The mode keys in file order: the second one is the mistake.
  std::string_view first_mode;
  for (std::string_view key : {"tc", "base_ms", "movetime_ms", "depth", "nodes"}) {
    if (!t.has(key) || (key == "tc" && infinite)) continue;
    if (first_mode.empty()) {
      first_mode = key;
      continue;
    }
    std::string_view later = key, earlier = first_mode;
    if (detail::before(t.key_source(key), t.key_source(first_mode))) std::swap(later, earlier);
    r.loc().fail(t.key_source(later),
                 name(later) + " and " + name(earlier) + " are two time controls; " + std::string(kTimeModes));
  }
  if (infinite && first_mode != "depth" && first_mode != "nodes")
    t.fail_at("tc", name("tc") + " = \"inf\" means no clock: give depth or nodes to end each search" +
                        (first_mode.empty() ? std::string() : ", not " + name(first_mode)));
  for (std::string_view key : {"inc_ms", "moves"})
    if (t.has(key) && first_mode != "base_ms")
      r.loc().fail(t.key_source(key), name(key) + " needs " + name("base_ms") +
                                          (first_mode == "tc" ? " (tc has its own: \"40/60+0.6\")" : ""));
  if (first_mode.empty() && !defaults)
    r.loc().fail(t.source(), "[time] has no time control; " + std::string(kTimeModes));
  if (first_mode == "tc") {
    Expected<TimeControl> clock = parse_fischer(*tc);
    if (!clock) t.fail_at("tc", name("tc") + " " + clock.error());
    out.mode = TimeControl::Mode::Fischer;
    out.base_ms = clock->base_ms;
    out.inc_ms = clock->inc_ms;
    out.moves = clock->moves;
    out.delay_ms = clock->delay_ms;
    out.delay = clock->delay;
  } else if (first_mode == "base_ms") {
    out.mode = TimeControl::Mode::Fischer;
    out.base_ms = *t.integer("base_ms", 1, kOneDayMs);
    out.inc_ms = t.integer("inc_ms", 0, kOneHourMs).value_or(0);
    out.moves = static_cast<int>(t.integer("moves", 1, 1000).value_or(0));
  } else if (first_mode == "movetime_ms") {
    out.mode = TimeControl::Mode::MoveTime;
    out.movetime_ms = *t.integer("movetime_ms", 1, kOneHourMs);
  } else if (first_mode == "depth") {
    out.mode = TimeControl::Mode::Depth;
    out.depth = static_cast<int>(*t.integer("depth", 1, 1000));
  } else if (first_mode == "nodes") {
    out.mode = TimeControl::Mode::Nodes;
    out.nodes = *t.integer("nodes", 1, 1'000'000'000'000'000);
  }
  read_delay(r, t, first_mode, out);
  out.margin_ms = t.integer("margin_ms", 0, 60'000).value_or(out.margin_ms);
  out.startup_ms = t.integer("startup_ms", 1, 600'000).value_or(out.startup_ms);
  out.ping_ms = t.integer("ping_ms", 1, 600'000).value_or(out.ping_ms);
  if (t.has("hard_limit_ms") && out.mode != TimeControl::Mode::Depth && out.mode != TimeControl::Mode::Nodes)
    r.loc().fail(t.key_source("hard_limit_ms"), name("hard_limit_ms") + " only applies with depth or nodes");
  out.hard_limit_ms = t.integer("hard_limit_ms", 1, kOneDayMs).value_or(out.hard_limit_ms);
  return out;
}

}  // namespace

void read_time(const Reader& r, const toml::table& root, Config& c) {
  const toml::table* table = r.section(root, "time");
  if (!table) r.fail_top("missing table [time]; " + std::string(kTimeModes));
  const Table t = time_table(r, *table, "time", "[time]", true);
  c.time = read_time_table(r, t, nullptr);
  // One clock for the whole tournament: an engine's own `time` keeps it.
  c.time.clock = t.choice<ClockKind>("clock", {{to_string(ClockKind::Wall), ClockKind::Wall},
                                               {to_string(ClockKind::Cpu), ClockKind::Cpu}})
                     .value_or(ClockKind::Wall);
}

TimeControl read_engine_time(const Reader& r, const toml::table& table, const TimeControl& defaults) {
  return read_time_table(r, time_table(r, table, "engine.time", "engine.time"), &defaults);
}

}  // namespace kalah::arena::detail
