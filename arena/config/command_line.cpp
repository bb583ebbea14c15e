#include "arena/config/command_line.h"

#include <optional>

#include <fmt/core.h>

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

// A number as TOML reads it back exactly.
std::string toml_number(double x) { return fmt::format("{}", x); }

// One NAME=VALUE option as a TOML key; a malformed one is checked by check_options() first.
std::string option_toml(const std::string& option) {
  const std::size_t eq = option.find('=');
  return fmt::format("{} = {}\n", toml_string(option.substr(0, eq)), toml_string(option.substr(eq + 1)));
}

std::optional<std::string> check_options(const std::vector<std::string>& options, const char* which) {
  for (const std::string& o : options) {
    const std::size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) return fmt::format("--{}-option '{}': expected NAME=VALUE", which, o);
  }
  return std::nullopt;
}

Expected<std::string> engine_toml(const std::string& name, const std::string& command,
                                  const std::vector<std::string>& options, const char* which) {
  const std::vector<std::string_view> words = split_words(command);
  if (words.empty()) return Error{fmt::format("--{} needs a command", which)};
  std::string t = fmt::format("[[engine]]\nname = {}\ncmd = {}\n", toml_string(name), toml_string(words[0]));
  if (words.size() > 1) {
    t += "args = [";
    for (std::size_t i = 1; i < words.size(); ++i) t += (i > 1 ? ", " : "") + toml_string(words[i]);
    t += "]\n";
  }
  if (auto problem = check_options(options, which)) return Error{*problem};
  if (!options.empty()) {
    t += "[engine.options]\n";
    for (const std::string& o : options) t += option_toml(o);
  }
  return t;
}

// The rest of [sprt] for a git SPRT: the repository and its refs instead of two [[engine]] tables.
std::string git_toml(const SprtCommandLine& o) {
  std::string t;
  for (const auto& [key, value] :
       {std::pair{"repo", &o.repo}, std::pair{"base_ref", &o.base_ref}, std::pair{"test_ref", &o.test_ref},
        std::pair{"build", &o.build}, std::pair{"run", &o.run}, std::pair{"worktrees", &o.worktrees},
        std::pair{"build_sandbox", &o.build_sandbox}})
    if (!value->empty()) t += fmt::format("{} = {}\n", key, toml_string(*value));
  t += fmt::format("base_name = {}\ntest_name = {}\n", toml_string(o.base_name), toml_string(o.test_name));
  for (const auto& [options, which] : {std::pair{&o.base_options, "base"}, std::pair{&o.test_options, "test"}}) {
    if (options->empty()) continue;
    t += fmt::format("[sprt.{}_options]\n", which);
    for (const std::string& option : *options) t += option_toml(option);
  }
  return t;
}

}  // namespace

Expected<std::string> sprt_config_toml(const SprtCommandLine& o) {
  std::string t = fmt::format("[tournament]\nname = {}\nconcurrency = {}\nseed = {}\n", toml_string(o.name),
                              o.concurrency > 0 ? o.concurrency : 1, o.seed);
  if (!o.out.empty()) t += fmt::format("output = {}\n", toml_string(o.out));
  if (!o.sandbox.empty()) t += fmt::format("sandbox = {}\n", toml_string(o.sandbox));
  if (!o.memory_enforcement.empty()) t += fmt::format("memory_enforcement = {}\n", toml_string(o.memory_enforcement));
  for (const auto& [key, value] : {std::pair{"memory_mb", o.memory_mb}, std::pair{"max_file_mb", o.max_file_mb},
                                   std::pair{"max_output_kb", o.max_output_kb},
                                   std::pair{"max_processes", static_cast<long long>(o.max_processes)}})
    if (value > 0) t += fmt::format("{} = {}\n", key, value);

  if (!o.variant.empty()) {
    Expected<Variant> v = parse_variant(o.variant);
    if (!v) return Error{"--variant: " + v.error()};
    t += "[variant]\n";
    const std::string keys = to_string(v.value());  // "pits=6 seeds=4 capture=standard ..."
    for (std::string_view kv : split_words(keys)) {
      const std::size_t eq = kv.find('=');
      const std::string key(kv.substr(0, eq)), value(kv.substr(eq + 1));
      const bool numeric = key == "pits" || key == "seeds";
      t += fmt::format("{} = {}\n", key, numeric ? value : toml_string(value));
    }
  }

  const int modes = !o.tc.empty() + (o.movetime > 0) + (o.depth > 0) + (o.nodes > 0);
  if (modes > 1) return Error{"give at most one of --tc, --movetime, --depth and --nodes"};
  t += "[time]\n";
  if (o.movetime > 0) {
    t += fmt::format("movetime_ms = {}\n", o.movetime);
  } else if (o.depth > 0) {
    t += fmt::format("depth = {}\n", o.depth);
  } else if (o.nodes > 0) {
    t += fmt::format("nodes = {}\n", o.nodes);
  } else {
    // Without --tc, TimeControl's own clock (10+0.1).
    Expected<TimeControl> clock = o.tc.empty() ? Expected<TimeControl>(TimeControl{}) : parse_fischer(o.tc);
    if (!clock) return Error{"--tc " + clock.error()};
    t += fmt::format("base_ms = {}\ninc_ms = {}\n", clock->base_ms, clock->inc_ms);
  }
  if (!o.clock.empty()) t += fmt::format("clock = {}\n", toml_string(o.clock));

  if (!o.openings.empty() && o.openings_plies >= 0) return Error{"give at most one of --openings and --openings-plies"};
  t += "[openings]\n";
  if (!o.openings.empty())
    t += fmt::format("file = {}\n", toml_string(std::filesystem::absolute(o.openings).string()));
  else
    t += fmt::format("random_plies = {}\n", o.openings_plies >= 0 ? o.openings_plies : 4);

  t += fmt::format("[sprt]\nelo0 = {}\nelo1 = {}\nalpha = {}\nbeta = {}\nmodel = {}\nmax_pairs = {}\n",
                   toml_number(o.elo0), toml_number(o.elo1), toml_number(o.alpha), toml_number(o.beta),
                   toml_string(o.model), std::max(0, o.max_pairs));
  if (!o.summary.empty()) t += fmt::format("summary = {}\n", toml_string(o.summary));
  if (o.bench) t += "bench = true\n";
  if (o.base_bench) t += fmt::format("base_bench = {}\n", *o.base_bench);
  if (o.test_bench) t += fmt::format("test_bench = {}\n", *o.test_bench);
  if (!o.repo.empty()) {
    for (auto [options, which] : {std::pair{&o.base_options, "base"}, std::pair{&o.test_options, "test"}})
      if (auto problem = check_options(*options, which)) return Error{*problem};
    return t + git_toml(o);
  }
  for (const auto& [name, command, options, which] : {std::tuple{o.base_name, o.base, o.base_options, "base"},
                                                      std::tuple{o.test_name, o.test, o.test_options, "test"}}) {
    Expected<std::string> engine = engine_toml(name, command, options, which);
    if (!engine) return engine;
    t += *engine;
  }
  return t;
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
  Expected<std::string> toml = sprt_config_toml(options);
  if (!toml) return Error{toml.error()};
  return parse_config(*toml, "arena sprt options", work_dir, work_dir);
}

}  // namespace kalah::arena
