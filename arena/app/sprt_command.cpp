// `arena sprt`: a regression match between a base and a test engine, played in colour-swapped
// pairs until the pentanomial SPRT decides (arena/runner/sprt_source.h). The match comes from a
// TOML config with an [sprt] table or from command-line options, which are written as TOML and go
// through parse_config, so both ways get the same validation and the same fingerprint.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/app/interrupts.h"
#include "arena/app/sprt.h"
#include "arena/app/tournament_meta.h"
#include "arena/journal/journal.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "arena/report/standings.h"
#include "arena/runner/runner.h"
#include "arena/runner/sprt_source.h"
#include "referee/process/engine_process.h"
#include "referee/record/json_text.h"

namespace kalah::arena_app {

namespace {

namespace fs = std::filesystem;

constexpr const char* kSprtFile = "sprt.json";

std::string penta_text(const stats::Pentanomial& p) {
  const auto& n = p.counts;
  return fmt::format("[{:g}, {:g}, {:g}, {:g}, {:g}]", n[0], n[1], n[2], n[3], n[4]);
}

// The live line after each finished pair.
std::string status_line(const arena::SprtStatus& s) {
  return fmt::format("pairs {}  LL-LD-D-WD-WW {}  Elo {:.1f} +- {:.1f}  LLR {:.2f} ({:.2f}, {:.2f})", s.pairs,
                     penta_text(s.pentanomial), s.summary.elo, s.summary.elo95, s.sprt.llr, s.sprt.lower,
                     s.sprt.upper);
}

// `finished`: the match is over (decided or max_pairs), not running or interrupted.
std::string sprt_json(const arena::Config& config, const arena::SprtStatus& s, bool finished) {
  const stats::SprtParams& p = config.sprt->params;
  boost::json::object o;
  o["name"] = config.tournament.name;
  o["base"] = config.engines[0].name;
  o["test"] = config.engines[1].name;
  o["params"] = boost::json::object{{"elo0", p.elo0},   {"elo1", p.elo1},
                                    {"alpha", p.alpha}, {"beta", p.beta},
                                    {"model", model_name(p.model)}, {"max_pairs", config.sprt->max_pairs}};
  boost::json::array penta;
  for (double n : s.pentanomial.counts) penta.push_back(n);
  o["pentanomial"] = std::move(penta);
  o["trinomial"] = boost::json::object{
      {"wins", s.trinomial.wins}, {"draws", s.trinomial.draws}, {"losses", s.trinomial.losses}};
  o["score"] = s.summary.score;
  add_summary_json(o, s.summary);
  add_sprt_json(o, s.sprt);
  o["pairs"] = s.pairs;
  o["games"] = s.games;
  o["finished"] = finished;
  return json_text(o, {.indent = 2}) + "\n";
}

// Replaces `dir`/sprt.json atomically: readers see the old file or the new one, never half of one.
std::string write_sprt_json(const fs::path& dir, const std::string& text) {
  const fs::path file = dir / kSprtFile;
  const fs::path tmp = dir / (std::string(kSprtFile) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return "cannot write " + tmp.string();
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) return "cannot replace " + file.string() + ": " + ec.message();
  return {};
}

std::string outcome_sentence(const arena::Config& config, const arena::SprtStatus& s) {
  const std::string& base = config.engines[0].name;
  const std::string& test = config.engines[1].name;
  const stats::SprtParams& p = config.sprt->params;
  const std::string hypotheses = fmt::format("elo0={:g} against elo1={:g} {} Elo", p.elo0, p.elo1, model_name(p.model));
  switch (s.sprt.decision) {
    case stats::Decision::H1:
      return fmt::format("H1 accepted ({}): '{}' is stronger than '{}'", hypotheses, test, base);
    case stats::Decision::H0:
      return fmt::format("H0 accepted ({}): '{}' is not shown to be stronger than '{}'", hypotheses, test, base);
    case stats::Decision::Continue: break;
  }
  return fmt::format("no decision after {} pairs (max_pairs)", s.pairs);
}

}  // namespace

void run_sprt(const arena::Config& config, bool fresh) {
  if (!config.sprt || config.engines.size() != 2)
    throw UsageError(config.source + ": an SPRT needs an [sprt] table and exactly two engines (base, then test)");
  for (const arena::EngineConfig& e : config.engines)
    if (e.protocol != arena::Protocol::Kep)
      throw UsageError(fmt::format("{}: engine '{}': protocol '{}' is not supported by this version (only kep)",
                                   config.source, e.name, to_string(e.protocol)));

  const fs::path dir = config.results_dir();
  Expected<journal::Journal> opened = journal::Journal::open(dir, tournament_meta(config), fresh);
  if (!opened) throw UsageError(opened.error());
  journal::Journal journal = std::move(opened).value();
  for (const std::string& w : journal.warnings()) fmt::print(stderr, "arena: warning: {}\n", w);

  std::vector<GameRecord> all = journal.games();
  std::vector<std::string> names;
  for (const arena::EngineConfig& e : config.engines) names.push_back(e.name);
  arena::SprtSource source(config, all);

  fmt::print("{}: SPRT '{}' (test) vs '{}' (base), {}{}, {}, {}, concurrency {}\n", config.tournament.name,
             names[1], names[0], describe(config.sprt->params),
             config.sprt->max_pairs > 0 ? fmt::format(" max_pairs={}", config.sprt->max_pairs) : "",
             to_string(config.variant), describe_time(config), config.tournament.concurrency);
  if (!all.empty()) fmt::print("resuming: {} games ({} pairs) already played\n", all.size(), source.status().pairs);
  std::fflush(stdout);
  if (std::string error = write_sprt_json(dir, sprt_json(config, source.status(), false)); !error.empty())
    throw UsageError(error);

  const bool tty = ::isatty(::fileno(stdout)) != 0;
  int pairs_shown = source.status().pairs;
  std::string json_error;  // the first failure to write sprt.json during the run
  process::become_subreaper();
  arena::Runner runner(config, journal, source, [&](const arena::GameSpec&, const GameRecord& r) {
    all.push_back(r);
    const arena::SprtStatus& s = source.status();
    if (s.pairs == pairs_shown) return;
    pairs_shown = s.pairs;
    fmt::print("{}{}{}", tty ? "\r\033[K" : "", status_line(s), tty ? "" : "\n");
    std::fflush(stdout);
    if (std::string error = write_sprt_json(dir, sprt_json(config, s, false)); !error.empty() && json_error.empty()) {
      json_error = error;
      fmt::print(stderr, "\narena: warning: {}\n", error);
    }
  });
  arena::RunResult result;
  {
    InterruptWatcher watcher([&] { runner.interrupt(); });
    result = runner.run(config.tournament.concurrency);
  }
  if (tty && pairs_shown > 0) fmt::print("\n");

  const arena::SprtStatus& s = source.status();
  try {
    report::write_all_reports(dir, all, names, config.tournament.name);
  } catch (const report::ReportError& e) {
    throw UsageError(e.what());
  }
  const bool unfinished = result.interrupted || !result.error.empty();
  if (std::string error = write_sprt_json(dir, sprt_json(config, s, !unfinished)); !error.empty())
    throw UsageError(error);
  if (!result.error.empty()) throw UsageError("journal: " + result.error);
  if (result.interrupted) {
    fmt::print("interrupted after {} pairs (LLR {:.2f}); run the same command again to resume\n", s.pairs,
               s.sprt.llr);
    exit_code() = 130;
    return;
  }

  fmt::print("\n{}\n", report::format_standings_table(report::compute_standings(all, names)));
  fmt::print("SPRT result for '{}' (test) against '{}' (base), from the test engine's view:\n", names[1], names[0]);
  fmt::print("Pairs   {} (LL-LD-D-WD-WW {}), games {} (W {:g}, D {:g}, L {:g})\n", s.pairs,
             penta_text(s.pentanomial), s.games, s.trinomial.wins, s.trinomial.draws, s.trinomial.losses);
  fmt::print("{}{}", summary_text(s.summary), sprt_text(s.sprt, config.sprt->params));
  fmt::print("{}\n", outcome_sentence(config, s));
  fmt::print("results: {}/ (sprt.json, standings.md, standings.json, standings.csv, games.pgn, report.html)\n",
             dir.string());
}

namespace {

struct SprtOptions {
  std::string config;
  std::string base, test;
  std::string base_name = "base", test_name = "test";
  std::vector<std::string> base_options, test_options;
  std::string tc;
  long long movetime = 0;
  int depth = 0;
  long long nodes = 0;
  int concurrency = 0;
  int openings_plies = -1;
  std::string openings;
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  std::string model = "normalized";
  int max_pairs = -1;
  std::string variant;
  std::string name = "sprt";
  unsigned long long seed = 1;
  std::string out;
  bool fresh = false;
};

// A TOML basic string.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
  }
  return out + "\"";
}

std::vector<std::string> split_words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// "10+0.1" (seconds) -> base and increment in milliseconds.
std::pair<long long, long long> parse_tc(const std::string& tc) {
  const std::size_t plus = tc.find('+');
  double base = 0, inc = 0;
  try {
    std::size_t used = 0;
    const std::string b = tc.substr(0, plus);
    base = std::stod(b, &used);
    if (used != b.size()) throw std::invalid_argument(tc);
    if (plus != std::string::npos) {
      const std::string i = tc.substr(plus + 1);
      inc = std::stod(i, &used);
      if (used != i.size()) throw std::invalid_argument(tc);
    }
  } catch (const std::exception&) {
    throw UsageError(fmt::format("--tc '{}': expected SECONDS or SECONDS+INCREMENT, e.g. 10+0.1", tc));
  }
  if (!(base > 0) || !(inc >= 0) || !std::isfinite(base) || !std::isfinite(inc))
    throw UsageError(fmt::format("--tc '{}': the base time must be > 0 and the increment >= 0", tc));
  return {std::llround(base * 1000), std::llround(inc * 1000)};
}

std::string engine_toml(const std::string& name, const std::string& command, const std::vector<std::string>& options,
                        const char* which) {
  const std::vector<std::string> words = split_words(command);
  if (words.empty()) throw UsageError(fmt::format("--{} needs a command", which));
  std::string t = fmt::format("[[engine]]\nname = {}\ncmd = {}\n", toml_string(name), toml_string(words[0]));
  if (words.size() > 1) {
    t += "args = [";
    for (std::size_t i = 1; i < words.size(); ++i) t += (i > 1 ? ", " : "") + toml_string(words[i]);
    t += "]\n";
  }
  if (!options.empty()) {
    t += "[engine.options]\n";
    for (const std::string& o : options) {
      const std::size_t eq = o.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError(fmt::format("--{}-option '{}': expected NAME=VALUE", which, o));
      t += fmt::format("{} = {}\n", toml_string(o.substr(0, eq)), toml_string(o.substr(eq + 1)));
    }
  }
  return t;
}

// The command-line match as a TOML config (shown by nothing, parsed by parse_config).
std::string options_toml(const SprtOptions& o) {
  std::string t = fmt::format("[tournament]\nname = {}\nconcurrency = {}\nseed = {}\n", toml_string(o.name),
                              o.concurrency > 0 ? o.concurrency : 1, o.seed);
  if (!o.out.empty()) t += fmt::format("output = {}\n", toml_string(o.out));

  if (!o.variant.empty()) {
    Expected<Variant> v = parse_variant(o.variant);
    if (!v) throw UsageError("--variant: " + v.error());
    t += "[variant]\n";
    for (const std::string& kv : split_words(to_string(v.value()))) {
      const std::size_t eq = kv.find('=');
      const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
      const bool numeric = key == "pits" || key == "seeds";
      t += fmt::format("{} = {}\n", key, numeric ? value : toml_string(value));
    }
  }

  const int modes = !o.tc.empty() + (o.movetime > 0) + (o.depth > 0) + (o.nodes > 0);
  if (modes > 1) throw UsageError("give at most one of --tc, --movetime, --depth and --nodes");
  t += "[time]\n";
  if (o.movetime > 0) t += fmt::format("movetime_ms = {}\n", o.movetime);
  else if (o.depth > 0) t += fmt::format("depth = {}\n", o.depth);
  else if (o.nodes > 0) t += fmt::format("nodes = {}\n", o.nodes);
  else {
    const auto [base, inc] = parse_tc(o.tc.empty() ? "10+0.1" : o.tc);
    t += fmt::format("base_ms = {}\ninc_ms = {}\n", base, inc);
  }

  if (!o.openings.empty() && o.openings_plies >= 0)
    throw UsageError("give at most one of --openings and --openings-plies");
  t += "[openings]\n";
  if (!o.openings.empty()) t += fmt::format("file = {}\n", toml_string(fs::absolute(o.openings).string()));
  else t += fmt::format("random_plies = {}\n", o.openings_plies >= 0 ? o.openings_plies : 4);

  t += fmt::format("[sprt]\nelo0 = {}\nelo1 = {}\nalpha = {}\nbeta = {}\nmodel = {}\nmax_pairs = {}\n",
                   json_number(o.elo0), json_number(o.elo1), json_number(o.alpha), json_number(o.beta),
                   toml_string(o.model), std::max(0, o.max_pairs));
  t += engine_toml(o.base_name, o.base, o.base_options, "base");
  t += engine_toml(o.test_name, o.test, o.test_options, "test");
  return t;
}

void run_sprt_command(const SprtOptions& o, const std::vector<std::string>& cli_only_given) {
  arena::Config config;
  if (!o.config.empty()) {
    if (!cli_only_given.empty())
      throw UsageError(fmt::format("{} cannot be combined with a config file (put it in {})", cli_only_given[0],
                                   o.config));
    Expected<arena::Config> loaded = arena::load_config(o.config);
    if (!loaded) throw UsageError(loaded.error());
    config = std::move(loaded).value();
    if (!config.sprt) throw UsageError(o.config + ": an SPRT needs an [sprt] table (see docs/SPRT.md)");
    if (o.concurrency > 0) config.tournament.concurrency = o.concurrency;
    if (!o.out.empty()) config.tournament.output = o.out;
    if (o.max_pairs >= 0) config.sprt->max_pairs = o.max_pairs;
  } else {
    if (o.base.empty() || o.test.empty())
      throw UsageError("give a config file with an [sprt] table, or both --base CMD and --test CMD");
    const fs::path cwd = fs::current_path();
    Expected<arena::Config> parsed = arena::parse_config(options_toml(o), "arena sprt options", cwd, cwd);
    if (!parsed) throw UsageError(parsed.error());
    config = std::move(parsed).value();
  }
  run_sprt(config, o.fresh);
}

}  // namespace

void add_sprt_command(CLI::App& app) {
  auto o = std::make_shared<SprtOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sprt", "Play game pairs between a base and a test engine until the SPRT decides (resumes an unfinished one)");
  cmd->add_option("config", o->config, "A TOML config with an [sprt] table and two engines (base, then test)");
  std::vector<CLI::Option*> cli_only;
  cli_only.push_back(cmd->add_option("--base", o->base, "Base engine command (words after the first are arguments)"));
  cli_only.push_back(cmd->add_option("--test", o->test, "Test engine command"));
  cli_only.push_back(cmd->add_option("--base-name", o->base_name, "Base engine name (default: base)"));
  cli_only.push_back(cmd->add_option("--test-name", o->test_name, "Test engine name (default: test)"));
  cli_only.push_back(cmd->add_option("--base-option", o->base_options, "NAME=VALUE sent to the base with setoption"));
  cli_only.push_back(cmd->add_option("--test-option", o->test_options, "NAME=VALUE sent to the test with setoption"));
  cli_only.push_back(cmd->add_option("--tc", o->tc, "Fischer clock in seconds: BASE+INC (default 10+0.1)"));
  cli_only.push_back(cmd->add_option("--movetime", o->movetime, "Milliseconds per move")->check(CLI::PositiveNumber));
  cli_only.push_back(cmd->add_option("--depth", o->depth, "Fixed search depth")->check(CLI::PositiveNumber));
  cli_only.push_back(cmd->add_option("--nodes", o->nodes, "Fixed node count")->check(CLI::PositiveNumber));
  cli_only.push_back(cmd->add_option("--openings-plies", o->openings_plies,
                                     "A random opening of K plies per pair (default 4)")->check(CLI::Range(0, 100)));
  cli_only.push_back(cmd->add_option("--openings", o->openings, "An openings book file (docs/CONFIG.md)"));
  cli_only.push_back(cmd->add_option("--elo0", o->elo0, "H0 Elo (default 0)"));
  cli_only.push_back(cmd->add_option("--elo1", o->elo1, "H1 Elo (default 5)"));
  cli_only.push_back(cmd->add_option("--alpha", o->alpha, "False-positive rate (default 0.05)"));
  cli_only.push_back(cmd->add_option("--beta", o->beta, "False-negative rate (default 0.05)"));
  cli_only.push_back(cmd->add_option("--model", o->model, "normalized (default) or logistic")
                         ->check(CLI::IsMember({"normalized", "logistic"})));
  cli_only.push_back(cmd->add_option("--variant", o->variant, "Rules, e.g. \"pits=6 seeds=4 pie=on\""));
  cli_only.push_back(cmd->add_option("--name", o->name, "Match name: results go to <out>/<name>/ (default sprt)"));
  cli_only.push_back(cmd->add_option("--seed", o->seed, "Seeds the openings (default 1)"));
  cmd->add_option("--max-pairs", o->max_pairs, "Stop after this many pairs; 0 = until decided")
      ->check(CLI::Range(0, 1000000000));
  cmd->add_option("--concurrency", o->concurrency, "Games at once")->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out, "Output folder (default results)");
  cmd->add_flag("--fresh", o->fresh, "Start over: move the existing results aside instead of resuming");
  cmd->footer(
      "Examples:\n"
      "  arena sprt --base build/bots/kalah-random --test build/bots/kalah-greedy --depth 1 --elo1 50\n"
      "  arena sprt configs/sprt.toml\n");
  cmd->callback([o, cli_only] {
    std::vector<std::string> given;
    for (CLI::Option* opt : cli_only)
      if (opt->count() > 0) given.push_back(opt->get_name());
    run_sprt_command(*o, given);
  });
}

}  // namespace kalah::arena_app
