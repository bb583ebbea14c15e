#include "arena/runner/start_watch.h"

#include <tuple>

#include <fmt/format.h>

namespace kalah::arena {

namespace {

// What to do about an engine that does not start.
std::string fix_for(const EngineSpec& e) {
  std::string fix = fmt::format("Make its command start (try it alone: referee check --engine cmd={})",
                                e.cmd_as_written.empty() ? e.cmd.string() : e.cmd_as_written);
  if (e.sandbox == SandboxMode::Bwrap)
    fix +=
        "; in its sandbox it sees only /usr, /etc, its dir and its command, as a uid of its own when the arena "
        "is root (docs/SECURITY.md)";
  return fix;
}

}  // namespace

StartWatch::StartWatch(const Config& config) : config_(config), health_(config.engines.size()) {}

std::optional<std::string> StartWatch::add(const GameSpec& spec, const GameRecord& record) {
  const bool startup = record.forfeit && record.forfeit->reason == Termination::Startup;
  // The game loop readies South, then North: a South that failed to start leaves North untried.
  const bool south_failed = startup && record.forfeit->engine == record.south;
  const bool north_failed = startup && !south_failed;
  std::optional<std::string> stop;
  for (const auto& [engine, failed, tried] :
       {std::tuple{spec.south, south_failed, true}, std::tuple{spec.north, north_failed, !south_failed}}) {
    if (!tried || engine < 0 || static_cast<std::size_t>(engine) >= health_.size()) continue;
    Health& h = health_[static_cast<std::size_t>(engine)];
    if (!failed) {
      h.started = true;
      continue;
    }
    if (h.started) continue;
    if (h.failures == 0) h.reason = record.forfeit->detail;
    h.same = h.same && record.forfeit->detail == h.reason;
    ++h.failures;
    const bool entrant = config_.is_contest() && engine >= config_.house_engines;
    if (h.failures == kStartFailures && h.same && !entrant && !stop) {
      const EngineSpec& e = config_.engines[static_cast<std::size_t>(engine)];
      stop = fmt::format(
          "engine '{}' failed to start in each of its first {} games of this run, every time with: {}\n"
          "It never started, so every game it plays would be a start-up forfeit: the run stops, with no standings. "
          "{}; then run the same command again (the games played so far are kept)",
          e.name, kStartFailures, h.reason, fix_for(e));
    }
  }
  return stop;
}

std::vector<StartWatch::NeverStarted> StartWatch::never_started() const {
  std::vector<NeverStarted> out;
  for (std::size_t i = 0; i < health_.size(); ++i)
    if (!health_[i].started && health_[i].failures > 0)
      out.push_back({config_.engines[i].name, health_[i].failures, health_[i].reason});
  return out;
}

}  // namespace kalah::arena
