// `referee check`: an engine's conformance run (referee/check), a PASS/FAIL/SKIP line per check and a
// summary per engine; exit 0 when every check of every engine passes, 1 when one fails, 2 on usage errors.
#include <algorithm>
#include <cstdio>
#include <set>

#include <boost/json.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/app/commands.h"
#include "referee/app/engine_args.h"
#include "referee/check/conformance.h"
#include "referee/engine/kgp_engine.h"
#include "referee/process/engine_process.h"
#include "referee/record/json_text.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct CheckOptions {
  std::vector<std::vector<std::string>> engines;
  std::string tc = "1+0.01";
  long long movetime = check::Settings{}.movetime_ms;
  long long margin = TimeControl{}.margin_ms;
  long long startup_ms = TimeControl{}.startup_ms;
  long long ping_ms = TimeControl{}.ping_ms;
  long long stop_after_ms = check::Settings{}.stop_after.count();
  long long stop_ms = check::Settings{}.stop_allowed.count();
  long long bench_ms = check::Settings{}.bench_allowed.count();
  long long quit_ms = 200;
  std::uint64_t seed = check::Settings{}.seed;
  bool json = false;
  std::string comm_log;
};

check::Settings settings_of(const CheckOptions& o) {
  check::Settings s;
  Expected<TimeControl> clock = parse_fischer(o.tc);
  if (!clock) throw UsageError("--tc " + clock.error());
  s.clock = *clock;
  s.clock.margin_ms = o.margin;
  s.clock.startup_ms = o.startup_ms;
  s.clock.ping_ms = o.ping_ms;
  s.movetime_ms = o.movetime;
  s.stop_after = std::chrono::milliseconds(o.stop_after_ms);
  s.stop_allowed = std::chrono::milliseconds(o.stop_ms);
  s.bench_allowed = std::chrono::milliseconds(o.bench_ms);
  s.seed = o.seed;
  return s;
}

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> forfeits;  // the forfeit reasons of the failures, each once, in order

  explicit Tally(const std::vector<check::Result>& results) {
    for (const check::Result& r : results) {
      passed += r.verdict == check::Verdict::Pass;
      failed += r.verdict == check::Verdict::Fail;
      skipped += r.verdict == check::Verdict::Skip;
      if (r.forfeit && std::find(forfeits.begin(), forfeits.end(), to_string(*r.forfeit)) == forfeits.end())
        forfeits.push_back(to_string(*r.forfeit));
    }
  }
};

// The protocol the checks speak: a KGP agent's own, not that of the host it plays through.
const char* protocol_text(const EngineSpec& e) { return e.kgp ? kKgpProtocol : to_string(e.protocol); }

std::string result_line(const check::Result& r) {
  std::string line = std::string(check::to_string(r.verdict)) + " " + r.check;
  if (r.verdict == check::Verdict::Fail && r.forfeit) return line + ": " + to_string(*r.forfeit) + ": " + r.detail;
  return r.detail.empty() ? line : line + ": " + r.detail;
}

std::string summary_line(const EngineSpec& e, const Tally& t) {
  std::string line = fmt::format("{}: {} passed, {} failed, {} skipped", e.name, t.passed, t.failed, t.skipped);
  if (t.failed == 0) return line + ": ready for a tournament";
  if (!t.forfeits.empty())
    return line + fmt::format(": in a tournament it would lose games by forfeit ({})", fmt::join(t.forfeits, ", "));
  return line + ": the referee would not forfeit it for these, but they break the protocol";
}

boost::json::object json_of(const EngineSpec& e, const std::vector<check::Result>& results, const Tally& t) {
  boost::json::array checks;
  for (const check::Result& r : results) {
    boost::json::object c;
    c["check"] = r.check;
    std::string verdict = check::to_string(r.verdict);
    std::transform(verdict.begin(), verdict.end(), verdict.begin(), [](unsigned char ch) { return std::tolower(ch); });
    c["result"] = verdict;
    c["forfeit"] = r.forfeit ? boost::json::value(to_string(*r.forfeit)) : boost::json::value(nullptr);
    c["detail"] = r.detail;
    checks.push_back(std::move(c));
  }
  boost::json::array forfeits;
  for (const std::string& f : t.forfeits) forfeits.push_back(boost::json::value(f));
  return boost::json::object{{"engine", e.name},
                             {"command", command_text(e)},
                             {"protocol", protocol_text(e)},
                             {"passed", t.passed},
                             {"failed", t.failed},
                             {"skipped", t.skipped},
                             {"forfeits", std::move(forfeits)},
                             {"checks", std::move(checks)}};
}

int run_check(const CheckOptions& o) {
  const check::Settings settings = settings_of(o);
  std::vector<EngineSpec> engines;
  std::set<std::string> names;
  for (const std::vector<std::string>& tokens : o.engines) {
    engines.push_back(parse_engine(tokens, o.comm_log));
    engines.back().quit_grace = std::chrono::milliseconds(o.quit_ms);
    if (!names.insert(engines.back().name).second)
      throw UsageError("two engines are named '" + engines.back().name + "'; give each its own name=NAME");
  }
  process::become_subreaper();
  int failing = 0;
  for (const EngineSpec& e : engines) {
    if (!o.json)
      fmt::print("checking '{}' ({}, protocol {}): positions on go movetime {} (+ margin {} ms), clock {}\n", e.name,
                 command_text(e), protocol_text(e), settings.movetime_ms, o.margin, settings.clock.describe());
    std::fflush(stdout);
    const std::vector<check::Result> results = check::run_checks(e, settings, [&](const check::Result& r) {
      if (o.json) return;
      fmt::print("{}\n", result_line(r));
      std::fflush(stdout);
    });
    const Tally tally(results);
    failing += tally.failed > 0;
    if (o.json)
      fmt::print("{}\n", json_text(json_of(e, results, tally)));
    else
      fmt::print("{}\n", summary_line(e, tally));
    std::fflush(stdout);
  }
  if (!o.json && engines.size() > 1)
    fmt::print("{} of {} engines pass every check\n", engines.size() - static_cast<size_t>(failing), engines.size());
  return failing > 0 ? 1 : 0;
}

}  // namespace

void add_check_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<CheckOptions>(
      "check", "Check that engines follow the protocol before a tournament: a PASS/FAIL line per check", run_check);
  add_engine_option(cmd, o->engines, "repeatable; name= is optional");
  cmd->add_option("--tc", o->tc, "Fischer clock BASE+INC in seconds of the self-play game (default 1+0.01)");
  cmd->add_option("--movetime", o->movetime, fmt::format("go movetime of every position, ms (default {})", o->movetime))
      ->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--margin", o->margin, "Grace beyond the allowed time before a time forfeit, ms")
      ->check(CLI::Range(0LL, 60000LL));
  add_handshake_options(cmd, o->startup_ms, o->ping_ms);
  cmd->add_option("--stop-after-ms", o->stop_after_ms, "Thinking time on go depth 1000 before stop is sent")
      ->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--stop-ms", o->stop_ms, "Deadline from stop to bestmove")->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--bench-ms", o->bench_ms,
                  fmt::format("Deadline from bench to its answer (feature bench; default {})", o->bench_ms))
      ->check(CLI::Range(1LL, 3600000LL));
  cmd->add_option("--quit-ms", o->quit_ms, "Grace period from quit to the engine's exit (the referee's: 200)")
      ->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--seed", o->seed, "Seed of the random games the positions are taken from");
  cmd->add_flag("--json", o->json, "One JSON object per engine instead of the lines");
  add_log_option(cmd, o->comm_log, "the engines");
  cmd->footer(
      "Exit code: 0 every check of every engine passes, 1 a check fails, 2 a usage error.\n"
      "Example:\n"
      "  referee check --engine cmd=build/bots/kalah-alphabeta --engine cmd=python3 arg=bots/python/random_bot.py\n");
}

}  // namespace kalah::referee_app
