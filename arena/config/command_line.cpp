#include "arena/config/command_line.h"

#include <algorithm>
#include <optional>
#include <tuple>

#include <fmt/core.h>

#include "arena/config/config_toml.h"
#include "referee/game/time_control.h"
#include "referee/record/json_text.h"
#include "referee/rules/words.h"

namespace kalah::arena {

std::string toml_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

namespace {

// The NAME=VALUE options of one engine (--base-option, --test-option), in the order given.
Expected<std::vector<EngineOption>> engine_options(const std::vector<std::string>& options, const char* which) {
  std::vector<EngineOption> out;
  for (const std::string& o : options) {
    const std::size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{fmt::format("--{}-option '{}': expected NAME=VALUE", which, o)};
    out.push_back({o.substr(0, eq), o.substr(eq + 1)});
  }
  return out;
}

// One engine of the options: its name, its command's words, its options; the sandbox, limits and restart
// policy of [tournament], as an [[engine]] table without keys of its own has them.
Expected<EngineSpec> engine_of(const TournamentConfig& t, const std::string& name, const std::string& command,
                               const std::vector<std::string>& options, const char* which) {
  const std::vector<std::string_view> words = split_words(command);
  if (words.empty()) return Error{fmt::format("--{} needs a command", which)};
  EngineSpec e;
  e.name = name;
  e.cmd_as_written = std::string(words[0]);
  for (std::size_t i = 1; i < words.size(); ++i) e.args.emplace_back(words[i]);
  Expected<std::vector<EngineOption>> given = engine_options(options, which);
  if (!given) return Error{given.error()};
  e.options = std::move(given).value();
  e.restart = t.restart;
  e.sandbox = t.sandbox;
  e.keep_sandbox = t.keep_sandbox;
  e.limits = t.limits;
  return e;
}

Expected<SandboxMode> sandbox_mode(const std::string& text, const char* option) {
  if (text == to_string(SandboxMode::None)) return SandboxMode::None;
  if (text == to_string(SandboxMode::Bwrap)) return SandboxMode::Bwrap;
  return Error{fmt::format("--{} '{}': expected none or bwrap", option, text)};
}

// [tournament]: the name, concurrency, seed and output, and the sandbox and limits of both engines.
Expected<TournamentConfig> tournament_of(const SprtCommandLine& o) {
  TournamentConfig t;
  t.name = o.name;
  t.concurrency = o.concurrency > 0 ? o.concurrency : 1;
  t.seed = o.seed;
  if (!o.out.empty()) t.output = o.out;
  if (!o.sandbox.empty()) {
    Expected<SandboxMode> mode = sandbox_mode(o.sandbox, "sandbox");
    if (!mode) return Error{mode.error()};
    t.sandbox = *mode;
    t.sandbox_given = true;
  }
  if (!o.memory_enforcement.empty()) {
    if (o.memory_enforcement != "cgroup" && o.memory_enforcement != "rlimit")
      return Error{"--memory-enforcement '" + o.memory_enforcement + "': expected cgroup or rlimit"};
    t.limits.memory_enforcement =
        o.memory_enforcement == "rlimit" ? MemoryEnforcement::Rlimit : MemoryEnforcement::Cgroup;
  }
  t.limits.memory_mb = std::max(0LL, o.memory_mb);
  t.limits.max_file_mb = std::max(0LL, o.max_file_mb);
  t.limits.max_output_kb = std::max(0LL, o.max_output_kb);
  t.limits.max_processes = std::max(0, o.max_processes);
  return t;
}

// [sprt]: the test's hypotheses, bounds and benches; for a git SPRT the repository, its refs and the engines'
// names and options.
Expected<SprtConfig> sprt_of(const SprtCommandLine& o) {
  SprtConfig s;
  s.params.elo0 = o.elo0;
  s.params.elo1 = o.elo1;
  s.params.alpha = o.alpha;
  s.params.beta = o.beta;
  if (o.model != stats::to_string(stats::Model::Normalized) && o.model != stats::to_string(stats::Model::Logistic))
    return Error{"--model '" + o.model + "': expected normalized or logistic"};
  s.params.model =
      o.model == stats::to_string(stats::Model::Logistic) ? stats::Model::Logistic : stats::Model::Normalized;
  s.max_pairs = std::max(0, o.max_pairs);
  s.summary = o.summary;
  s.base_bench = o.base_bench;
  s.test_bench = o.test_bench;
  s.bench = o.bench || o.base_bench || o.test_bench;
  if (o.repo.empty()) return s;
  GitSprtConfig g;
  g.repo = o.repo;
  g.base.ref = o.base_ref;
  g.test.ref = o.test_ref;
  g.build = o.build;
  g.run = o.run;
  g.worktrees = o.worktrees;
  if (!o.build_sandbox.empty()) {
    Expected<SandboxMode> mode = sandbox_mode(o.build_sandbox, "build-sandbox");
    if (!mode) return Error{mode.error()};
    g.build_limits.sandbox = *mode;
  }
  for (const auto& [side, name, options, which] : {std::tuple{&g.base, &o.base_name, &o.base_options, "base"},
                                                   std::tuple{&g.test, &o.test_name, &o.test_options, "test"}}) {
    Expected<std::vector<EngineOption>> given = engine_options(*options, which);
    if (!given) return Error{given.error()};
    side->engine.name = *name;
    side->engine.options = std::move(given).value();
  }
  s.git = std::move(g);
  return s;
}

}  // namespace

Expected<Config> sprt_draft(const SprtCommandLine& o) {
  Config c;
  Expected<TournamentConfig> tournament = tournament_of(o);
  if (!tournament) return Error{tournament.error()};
  c.tournament = std::move(tournament).value();
  if (!o.variant.empty()) {
    Expected<Variant> v = parse_variant(o.variant);
    if (!v) return Error{"--variant: " + v.error()};
    c.variant = *v;
  }
  const int modes = !o.tc.empty() + (o.movetime > 0) + (o.depth > 0) + (o.nodes > 0);
  if (modes > 1) return Error{"give at most one of --tc, --movetime, --depth and --nodes"};
  // The one reading of the clock options (referee match's too).
  Expected<TimeControl> time = time_from_options(o.tc, o.movetime, o.depth, o.nodes);
  if (!time) return Error{time.error()};
  c.time = *time;
  if (!o.clock.empty()) {
    const std::optional<ClockKind> clock = parse_clock_kind(o.clock);
    if (!clock) return Error{"--clock '" + o.clock + "': expected wall or cpu"};
    c.time.clock = *clock;
  }
  if (!o.openings.empty() && o.openings_plies >= 0) return Error{"give at most one of --openings and --openings-plies"};
  if (!o.openings.empty())
    c.openings.file = std::filesystem::absolute(o.openings);
  else
    c.openings.random_plies = o.openings_plies >= 0 ? o.openings_plies : kSprtOpeningPlies;
  Expected<SprtConfig> sprt = sprt_of(o);
  if (!sprt) return Error{sprt.error()};
  c.sprt = std::move(sprt).value();
  if (c.sprt->git) return c;
  for (const auto& [name, command, options, which] : {std::tuple{o.base_name, o.base, o.base_options, "base"},
                                                      std::tuple{o.test_name, o.test, o.test_options, "test"}}) {
    Expected<EngineSpec> engine = engine_of(c.tournament, name, command, options, which);
    if (!engine) return Error{engine.error()};
    c.engines.push_back(std::move(engine).value());
  }
  return c;
}

Expected<Config> sprt_config(const SprtCommandLine& options, const std::filesystem::path& work_dir) {
  if (!options.repo.empty()) {
    if (!options.base.empty() || !options.test.empty())
      return Error{"--repo takes the engines from git: give --base-ref and --test-ref, not --base or --test"};
    if (options.base_ref.empty() || options.test_ref.empty() || options.run.empty())
      return Error{"--repo needs --base-ref REF, --test-ref REF and --run CMD (and usually --build CMD)"};
  } else if (!options.base_ref.empty() || !options.test_ref.empty() || !options.build.empty() || !options.run.empty() ||
             !options.worktrees.empty() || !options.build_sandbox.empty()) {
    return Error{"--base-ref, --test-ref, --build, --run, --worktrees and --build-sandbox need --repo DIR"};
  } else if (options.base.empty() || options.test.empty()) {
    return Error{"give a config file with an [sprt] table, both --base CMD and --test CMD, or --repo DIR"};
  }
  // The typed values written out and read as a file is read: the same checks, and what --print-config prints.
  Expected<Config> draft = sprt_draft(options);
  if (!draft) return Error{draft.error()};
  Expected<std::string> toml = to_toml(*draft, work_dir);
  if (!toml) return Error{toml.error()};
  return parse_config(*toml, "arena sprt options", work_dir, work_dir);
}

}  // namespace kalah::arena
