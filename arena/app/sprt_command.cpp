// `arena sprt`: a regression match between a base and a test engine until the SPRT decides, from
// a TOML config with an [sprt] table or from options (arena/config/command_line.h).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/config/command_line.h"
#include "arena/config/config.h"
#include "arena/config/config_toml.h"
#include "arena/contest/entries.h"
#include "arena/flow/tournament_meta.h"
#include "arena/flow/tournaments.h"
#include "arena/git/git_engines.h"
#include "referee/engine/sandbox.h"

namespace kalah::arena_app {
namespace {

struct SprtOptions {
  std::string config;
  arena::SprtCommandLine match;
  bool fresh = false;
  bool print_config = false;
};

// `given`: the options that only make sense without a config file, as they were given.
arena::Config sprt_config(const SprtOptions& o, const std::vector<std::string>& given) {
  if (o.config.empty()) {
    Expected<arena::Config> parsed = arena::sprt_config(o.match, std::filesystem::current_path());
    if (!parsed) throw UsageError(parsed.error());
    return std::move(parsed).value();
  }
  if (!given.empty())
    throw UsageError(fmt::format("{} cannot be combined with a config file (put it in {})", given[0], o.config));
  Expected<arena::Config> loaded = arena::load_with_entrants(o.config);
  if (!loaded) throw UsageError(loaded.error());
  for (const std::string& warning : loaded->warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
  arena::Config config = std::move(loaded).value();
  if (!config.sprt) throw UsageError(o.config + ": an SPRT needs an [sprt] table (see docs/SPRT.md)");
  if (o.match.concurrency > 0) config.tournament.concurrency = o.match.concurrency;
  if (!o.match.out.empty()) config.tournament.output = o.match.out;
  for (const EngineSpec& e : config.engines)  // --out may put the results inside a sandboxed engine's dir
    if (auto problem = sandbox_dir_problem(e, config.results_dir()))
      throw UsageError("engine '" + e.name + "': " + *problem);
  if (o.match.max_pairs >= 0) config.sprt->max_pairs = o.match.max_pairs;
  if (!o.match.clock.empty()) arena::set_clock(config, *parse_clock_kind(o.match.clock));
  if (!o.match.summary.empty()) config.sprt->summary = std::filesystem::absolute(o.match.summary);
  return config;
}

int run_sprt(const SprtOptions& o, const std::vector<std::string>& given) {
  arena::Config config = sprt_config(o, given);
  if (o.print_config) {
    // The typed config written out (arena/config/config_toml.h), options and file alike: what would be played.
    Expected<std::string> text = arena::to_toml(config, std::filesystem::current_path());
    if (!text) throw UsageError(text.error());
    fmt::print("{}", *text);
    return 0;
  }
  arena::FlowOptions flow = prepare_engines(config, !o.fresh, "another --name");
  flow.fresh = o.fresh;
  Expected<int> played = arena::play_sprt(config, flow);
  if (!played) throw UsageError(played.error());
  return *played;
}

}  // namespace

arena::FlowOptions prepare_engines(arena::Config& config, bool check_results, const std::string& other_name) {
  arena::FlowOptions flow;
  const bool from_git = config.sprt && config.sprt->git;
  if (from_git)
    if (Expected<bool> planned = arena::git::plan_git_engines(config); !planned) throw UsageError(planned.error());
  if (check_results && !config.shard)
    if (std::optional<std::string> clash = arena::results_clash(config))
      throw UsageError(*clash + "; " + other_name +
                       " keeps those results and starts this one beside them, or --fresh starts over here (the old "
                       "files are moved aside, not deleted)");
  if (!from_git) return flow;
  Expected<bool> added =
      arena::git::prepare_git_engines(config, [](const std::string& line) { fmt::print("git: {}\n", line); });
  std::fflush(stdout);
  if (!added) throw UsageError(added.error());
  flow.results_opened = arena::git::copy_build_logs;
  return flow;
}

void add_sprt_command(cli::Commands& commands) {
  auto o = std::make_shared<SprtOptions>();
  auto cli_only = std::make_shared<std::vector<CLI::Option*>>();
  CLI::App* cmd = commands.add(
      "sprt", "Play game pairs between a base and a test engine until the SPRT decides (resumes an unfinished one)",
      [o, cli_only] {
        std::vector<std::string> given;
        for (CLI::Option* opt : *cli_only)
          if (opt->count() > 0) given.push_back(opt->get_name());
        return run_sprt(*o, given);
      });
  cmd->footer(
      "Examples:\n"
      "  arena sprt --base build/bots/kalah-random --test build/bots/kalah-greedy --depth 1 --elo1 50\n"
      "  arena sprt configs/sprt.toml\n"
      "  arena sprt --repo . --base-ref main --test-ref HEAD --build make --run ./engine --elo1 10\n"
      "  arena sprt --repo . --base-ref main --test-ref pr --build make --run ./engine --build-sandbox bwrap \\\n"
      "      --worktrees /srv/sprt-cache --memory-mb 512   (a stranger's pull request: builds and engines sandboxed)\n"
      "Exit code (also of `arena run` on an [sprt] config, and of `arena report` merging its shards):\n"
      "  0 H1 accepted, 1 H0 accepted, 3 no decision at max_pairs, 2 a usage error, 130/143 interrupted\n");
  arena::SprtCommandLine& m = o->match;
  cmd->add_option("config", o->config, "A TOML config with an [sprt] table and two engines (base, then test)");
  auto only = [&](CLI::Option* option) { cli_only->push_back(option); };
  only(cmd->add_option("--base", m.base, "Base engine command (words after the first are arguments)"));
  only(cmd->add_option("--test", m.test, "Test engine command"));
  only(cmd->add_option("--base-name", m.base_name, "Base engine name (default: base)"));
  only(cmd->add_option("--test-name", m.test_name, "Test engine name (default: test)"));
  only(cmd->add_option("--base-option", m.base_options, "NAME=VALUE sent to the base with setoption"));
  only(cmd->add_option("--test-option", m.test_options, "NAME=VALUE sent to the test with setoption"));
  only(cmd->add_option("--tc", m.tc, "Fischer clock in seconds: BASE+INC (default " + TimeControl{}.describe() + ")"));
  only(cmd->add_option("--movetime", m.movetime, "Milliseconds per move")->check(CLI::PositiveNumber));
  only(cmd->add_option("--depth", m.depth, "Fixed search depth")->check(CLI::PositiveNumber));
  only(cmd->add_option("--nodes", m.nodes, "Fixed node count")->check(CLI::PositiveNumber));
  only(cmd->add_option("--openings-plies", m.openings_plies,
                       fmt::format("A random opening of K plies per pair (default {})", arena::kSprtOpeningPlies))
           ->check(CLI::Range(0, 100)));
  only(cmd->add_option("--openings", m.openings, "An openings book file (docs/CONFIG.md)"));
  const stats::SprtParams defaults = arena::SprtConfig{}.params;
  only(cmd->add_option("--elo0", m.elo0, fmt::format("H0 Elo (default {})", defaults.elo0)));
  only(cmd->add_option("--elo1", m.elo1, fmt::format("H1 Elo (default {})", defaults.elo1)));
  only(cmd->add_option("--alpha", m.alpha, fmt::format("False-positive rate (default {})", defaults.alpha)));
  only(cmd->add_option("--beta", m.beta, fmt::format("False-negative rate (default {})", defaults.beta)));
  only(cmd->add_option("--model", m.model, "normalized (default) or logistic")
           ->check(CLI::IsMember({"normalized", "logistic"})));
  only(cmd->add_option("--variant", m.variant, "Rules, e.g. \"pits=6 seeds=4 pie=on\""));
  only(cmd->add_option("--name", m.name, "Match name: results go to <out>/<name>/ (default " + m.name + ")"));
  only(cmd->add_option("--seed", m.seed, fmt::format("Seeds the openings (default {})", m.seed)));
  only(cmd->add_option("--repo", m.repo, "A git repository: the engines are two of its commits (docs/SPRT.md)"));
  only(cmd->add_option("--base-ref", m.base_ref, "With --repo: the base's commit, branch or tag"));
  only(cmd->add_option("--test-ref", m.test_ref, "With --repo: the test's commit, branch or tag"));
  only(cmd->add_option("--build", m.build, "With --repo: a shell command that builds a checkout (once per commit)"));
  only(cmd->add_option("--run", m.run, "With --repo: the engine's command, run in its built checkout"));
  only(cmd->add_option("--worktrees", m.worktrees,
                       "With --repo: the build cache (default $XDG_CACHE_HOME/kalah-arena/worktrees)"));
  only(cmd->add_option("--build-sandbox", m.build_sandbox, "With --repo: none (default) or bwrap")
           ->check(CLI::IsMember({"none", "bwrap"})));
  only(cmd->add_option("--sandbox", m.sandbox,
                       "none or bwrap: run both engines in the sandbox (docs/SECURITY.md); with --repo, "
                       "--build-sandbox bwrap implies bwrap")
           ->check(CLI::IsMember({"none", "bwrap"})));
  only(cmd->add_option("--memory-mb", m.memory_mb, "Each engine's memory limit in MiB ([tournament] memory_mb)")
           ->check(CLI::Range(1LL, 1'000'000LL)));
  only(cmd->add_option("--memory-enforcement", m.memory_enforcement,
                       "cgroup (default) or rlimit: how --memory-mb is enforced ([tournament] memory_enforcement)")
           ->check(CLI::IsMember({"cgroup", "rlimit"})));
  only(
      cmd->add_option("--max-file-mb", m.max_file_mb, "Each engine's file-size limit in MiB ([tournament] max_file_mb)")
          ->check(CLI::Range(1LL, 1'000'000LL)));
  only(cmd->add_option("--max-processes", m.max_processes, "Each engine's process limit ([tournament] max_processes)")
           ->check(CLI::Range(1, 100'000)));
  only(cmd->add_option("--max-output-kb", m.max_output_kb,
                       "Stderr kept per engine and game in KiB, more is a forfeit ([tournament] max_output_kb)")
           ->check(CLI::Range(1LL, 1'000'000'000LL)));
  cmd->add_option("--summary", m.summary, "Write a Markdown summary for a pull request to this file at the end");
  only(cmd->add_flag("--bench", m.bench,
                     "Before the first game ask each engine for its bench (feature bench) and record the counts"));
  only(
      cmd->add_option("--base-bench", m.base_bench, "The base's bench node count: another refuses it (implies --bench)")
          ->check(CLI::NonNegativeNumber));
  only(
      cmd->add_option("--test-bench", m.test_bench, "The test's bench node count: another refuses it (implies --bench)")
          ->check(CLI::NonNegativeNumber));
  cmd->add_option("--max-pairs", m.max_pairs, "Stop after this many pairs; 0 = until decided")
      ->check(CLI::Range(0, 1000000000));
  cmd->add_option("--concurrency", m.concurrency, "Games at once")->check(CLI::Range(1, 256));
  cmd->add_option("--clock", m.clock, "wall (default) or cpu: what a move is charged (overrides [time] clock)")
      ->check(CLI::IsMember({"wall", "cpu"}));
  cmd->add_option("--out", m.out, "Output folder (default results)")->check(cli::non_empty());
  cmd->add_flag("--fresh", o->fresh, "Start over: move the existing results aside instead of resuming");
  cmd->add_flag("--print-config", o->print_config,
                "Print the config the options (or the file with them) give as TOML, checked as arena run checks it, "
                "and stop");
}

}  // namespace kalah::arena_app
