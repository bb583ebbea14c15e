// `referee suite`: grades one engine on positions the exact solver labelled (referee/suite): the share of
// perfect moves, the mean loss and the blunders, per phase; exit 0 when the perfect share reaches
// --min-perfect, 1 below it, 2 on usage errors (docs/SOLVER.md, "Grading a bot: referee suite").
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

#include <boost/json.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/app/commands.h"
#include "referee/app/engine_args.h"
#include "referee/endgame/database.h"
#include "referee/process/engine_process.h"
#include "referee/record/json_text.h"
#include "referee/suite/grading.h"
#include "referee/suite/kgp_run.h"
#include "referee/suite/labels.h"
#include "referee/suite/run.h"
#include "referee/system/files.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct SuiteOptions {
  std::vector<std::vector<std::string>> engine;  // given once
  int positions = 30;
  std::string variant = "pits=6 seeds=4";
  std::uint64_t seed = 1;
  double min_perfect = 0;
  long long movetime = 100;
  long long margin = TimeControl{}.margin_ms;
  std::string clock = "wall";
  long long startup_ms = TimeControl{}.startup_ms;
  long long ping_ms = TimeControl{}.ping_ms;
  long long label_ms = 5000;
  int threads = 1;
  std::size_t hash_mb = 128;
  std::size_t db_mb = 512;
  std::string cache_dir = endgame::default_cache_dir().string();
  std::string json;
  std::string comm_log;
  bool verbose = false;
};

std::string margin_text(int m) { return m > 0 ? fmt::format("+{}", m) : std::to_string(m); }

std::string percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

// "#4 early: 3 (-6), best 2 (+4): loss 10 (startpos moves 3 1 4)", or the failure.
std::string position_line(std::size_t i, const suite::LabelledPosition& p, const suite::Answer& a) {
  std::string best;
  for (const solver::MoveValue& mv : p.values)
    if (mv.margin == p.best()) best += (best.empty() ? "" : " ") + to_string(mv.move);
  const std::string where = "(" + suite::moves_text(p.candidate.moves) + ")";
  const std::string head = fmt::format("#{} {}", i + 1, to_string(p.candidate.phase));
  if (!a.move) return fmt::format("FAIL {}: {}: {} {}", head, to_string(a.fault->kind), a.fault->detail, where);
  const suite::Grade g = suite::grade(p, a);
  const char* verdict = *g.loss == 0 ? "perfect" : *g.loss >= suite::kBlunderLoss ? "blunder" : "inexact";
  return fmt::format("{} {}: {} ({}), best {} ({}): loss {} {}", verdict, head, to_string(*a.move),
                     margin_text(*g.margin), best, margin_text(p.best()), *g.loss, where);
}

std::string tally_row(const std::string& label, const suite::Tally& t) {
  return fmt::format("{:<8}{:>9}  {:>4} {:>8}  {:>4} {:>8}  {:>9.2f}  {:>8}  {:>6}", label, t.positions, t.perfect,
                     "(" + percent(t.perfect_share()) + ")", t.kept, "(" + percent(t.kept_share()) + ")", t.mean_loss(),
                     t.blunders, t.failed);
}

boost::json::object tally_json(const std::string& phase, const suite::Tally& t) {
  return boost::json::object{{"phase", phase},
                             {"positions", t.positions},
                             {"answered", t.answered},
                             {"perfect", t.perfect},
                             {"perfect_share", t.perfect_share()},
                             {"kept", t.kept},
                             {"kept_share", t.kept_share()},
                             {"mean_loss", t.mean_loss()},
                             {"blunders", t.blunders},
                             {"failed", t.failed}};
}

// A KEP engine's score is a whole number, and stays one in the file; a KGP agent's eval is a real.
boost::json::value score_json(const std::optional<double>& score) {
  if (!score) return nullptr;
  if (std::abs(*score) < 1e15 && *score == std::floor(*score)) return static_cast<std::int64_t>(*score);
  return *score;
}

boost::json::object result_json(std::size_t i, const suite::LabelledPosition& p, const suite::Answer& a) {
  boost::json::object values;
  for (const solver::MoveValue& mv : p.values) values[to_string(mv.move)] = mv.margin;
  const suite::Grade g = suite::grade(p, a);
  auto optional_int = [](const std::optional<int>& x) {
    return x ? boost::json::value(*x) : boost::json::value(nullptr);
  };
  boost::json::value failure = nullptr;
  if (a.fault) failure = boost::json::object{{"reason", to_string(a.fault->kind)}, {"detail", a.fault->detail}};
  return boost::json::object{{"position", i + 1},
                             {"phase", to_string(p.candidate.phase)},
                             {"moves", suite::moves_text(p.candidate.moves)},
                             {"values", std::move(values)},
                             {"best", p.best()},
                             {"move", a.move ? boost::json::value(to_string(*a.move)) : boost::json::value(nullptr)},
                             {"margin", optional_int(g.margin)},
                             {"loss", optional_int(g.loss)},
                             {"kept", g.kept ? boost::json::value(*g.kept) : boost::json::value(nullptr)},
                             {"failure", std::move(failure)},
                             {"elapsed_ms", std::round(a.elapsed_ms * 10) / 10},
                             {"score", score_json(a.score)}};
}

std::string labels_line(const suite::Labelling& l, const suite::LabelSettings& s) {
  if (l.from_cache) return "labels: read from " + l.file.string();
  const suite::LabelStats& st = l.stats;
  std::string line = fmt::format(
      "labels: {} positions labelled by the exact solver in {:.1f} s ({} tried in {} games: {} not proved within {} "
      "ms, "
      "{} with every move equal, {} repeated; endgame database {})",
      l.set.positions.size(), st.seconds, st.tried, st.games, st.unproved, s.budget.count(), st.uninformative,
      st.duplicates, l.db_levels >= 0 ? fmt::format("{} seeds", l.db_levels) : std::string("none"));
  if (!l.file.empty() && l.note.find("not saved") == std::string::npos) line += ", saved to " + l.file.string();
  return line;
}

// The grades on the terminal: a row per phase and one for all, and what the words mean.
void print_suite_report(const suite::Report& report) {
  fmt::print("{:<8}{:>9}  {:>13}  {:>13}  {:>9}  {:>8}  {:>6}\n", "phase", "positions", "perfect", "result kept",
             "mean loss", "blunders", "failed");
  for (int p = 0; p < suite::kPhases; ++p)
    fmt::print("{}\n", tally_row(to_string(static_cast<suite::Phase>(p)), report.phases[static_cast<std::size_t>(p)]));
  fmt::print("{}\n", tally_row("all", report.all));
  fmt::print("loss: the best move's margin minus the played one's (final store difference, perfect play after it)\n");
  fmt::print("blunder: loss >= {}; mean loss: over the answered positions; a failed position is not perfect\n",
             suite::kBlunderLoss);
  fmt::print(
      "result kept: a won position stays won, a drawn one drawn (the measure of an engine that plays for the "
      "result, not the margin)\n");
  if (report.spearman)
    fmt::print("scores: Spearman rank correlation of the engine's score with the exact value: {:+.2f} ({} positions)\n",
               *report.spearman, report.scored);
  else if (report.scored > 0)
    fmt::print("scores: too few or too uniform to correlate ({} positions with a score)\n", report.scored);
  else
    fmt::print("scores: the engine reported none (info ... score)\n");
}

// --json: the run's settings, its grades and every position's result.
void write_suite_json(const SuiteOptions& o, const EngineSpec& engine, const Variant& variant,
                      const suite::Labelling& labelling, const suite::Report& report,
                      const std::vector<suite::Answer>& answers, bool passed, double seconds) {
  const std::vector<suite::LabelledPosition>& positions = labelling.set.positions;
  boost::json::array phases;
  for (int p = 0; p < suite::kPhases; ++p)
    phases.push_back(tally_json(to_string(static_cast<suite::Phase>(p)), report.phases[static_cast<std::size_t>(p)]));
  phases.push_back(tally_json("all", report.all));
  boost::json::array results;
  for (std::size_t i = 0; i < positions.size(); ++i) results.push_back(result_json(i, positions[i], answers[i]));
  const boost::json::object doc{
      {"engine", engine.name},
      {"command", command_text(engine)},
      {"variant", to_string(variant)},
      {"seed", o.seed},
      {"positions", o.positions},
      {"movetime_ms", o.movetime},
      {"margin_ms", o.margin},
      {"clock", o.clock},
      {"labels_file", labelling.file.string()},
      {"labels_from_cache", labelling.from_cache},
      {"blunder_loss", suite::kBlunderLoss},
      {"phases", std::move(phases)},
      {"scores",
       boost::json::object{{"method", "spearman"},
                           {"scored", report.scored},
                           {"correlation", report.spearman ? boost::json::value(*report.spearman) : nullptr}}},
      {"min_perfect", o.min_perfect},
      {"passed", passed},
      {"seconds", std::round(seconds * 100) / 100},
      {"results", std::move(results)}};
  if (std::optional<std::string> failed =
          system::write_file_atomically(o.json, json_text(doc, {.indent = 2}) + "\n", system::Durability::Rebuildable))
    throw UsageError("--json: " + *failed);
}

// Prints a failed position as soon as it is known (every one with --verbose).
std::function<void(std::size_t, const suite::Answer&)> position_printer(
    const SuiteOptions& o, const std::vector<suite::LabelledPosition>& positions) {
  return [&o, &positions](std::size_t i, const suite::Answer& a) {
    if (o.verbose || !a.move) {
      fmt::print("{}\n", position_line(i, positions[i], a));
      std::fflush(stdout);
    }
  };
}

// A KGP agent's answers, with this process as its server (docs/KGP.md, "Grading a KGP agent").
std::vector<suite::Answer> play_kgp_positions(const SuiteOptions& o, const EngineSpec& engine, const Variant& v,
                                              const std::vector<suite::LabelledPosition>& positions,
                                              const suite::RunSettings& rs) {
  fmt::print("KGP agent '{}' ({}): each state {} ms or until it yields, in the mode it asks for\n", engine.name,
             command_text(engine), o.movetime);
  std::fflush(stdout);
  const kgp::AgentCommand agent{engine.kgp->cmd, engine.kgp->args, engine.dir.string(), engine.stderr_file.string(),
                                engine.kgp->websocket};
  suite::KgpRun run = suite::run_kgp_positions(agent, v, positions, rs, position_printer(o, positions));
  if (run.mode == "eval")
    fmt::print("mode eval: each move is the one whose board the agent values best, each score its eval\n");
  else if (run.mode == "freeplay")
    fmt::print("mode freeplay: each move is its last before yield or the stop (freeplay has no score)\n");
  return std::move(run.answers);
}

// The engine's answers to the positions, each failed one printed as soon as it is known.
std::vector<suite::Answer> play_positions(const SuiteOptions& o, const EngineSpec& engine, const Variant& v,
                                          const std::vector<suite::LabelledPosition>& positions,
                                          const suite::RunSettings& rs) {
  process::become_subreaper();
  if (engine.kgp) return play_kgp_positions(o, engine, v, positions, rs);
  fmt::print("engine '{}' ({}): go movetime {} (+ margin {} ms){}\n", engine.name, command_text(engine), o.movetime,
             o.margin, rs.time.clock == ClockKind::Cpu ? ", on the CPU clock" : "");
  std::fflush(stdout);
  EnginePlayer player(engine);
  // An option the engine does not take as given is the operator's mistake, as in `referee match`.
  if (!engine.options.empty() && !player.start(std::chrono::milliseconds(o.startup_ms)))
    if (const std::vector<std::string> problems = player.option_problems(); !problems.empty())
      throw UsageError(fmt::format("engine '{}': {}", engine.name, fmt::join(problems, "; ")));
  std::vector<suite::Answer> answers = suite::run_positions(player, v, positions, rs, position_printer(o, positions));
  player.stop();
  return answers;
}

int run_suite(const SuiteOptions& o) {
  if (o.engine.size() != 1) throw UsageError("--engine: the suite grades one engine; give --engine once");
  std::vector<std::string> words = o.engine.front();
  // `--engine PATH ...`: a first word that is not key=value is the command.
  if (!words.empty() && words.front().find('=') == std::string::npos) words.front() = "cmd=" + words.front();
  const EngineSpec engine = parse_engine(words, o.comm_log);
  if (engine.protocol != Protocol::Kep)
    throw UsageError("engine '" + engine.name + "': the suite sends positions as KEP games; protocol=" +
                     to_string(engine.protocol) + " agents cannot be given one");
  const Expected<Variant> variant = parse_variant(o.variant);
  if (!variant) throw UsageError("--variant: " + variant.error());
  if (!solver::ExactSolver::supports(*variant))
    throw UsageError("--variant: the exact solver takes at most 255 seeds: " + to_string(*variant));
  if (engine.kgp && variant->pie) throw UsageError("--variant: a KGP agent cannot play the pie rule: KGP has no swap");
  if (engine.kgp && o.clock == "cpu")
    throw UsageError("--clock cpu: a KGP agent's states last a time on the wall clock; grade it with --clock wall");

  const suite::SuiteKey key{*variant, o.seed, o.positions};
  suite::LabelSettings ls;
  ls.budget = std::chrono::milliseconds(o.label_ms);
  ls.hash_mb = o.hash_mb;
  ls.db_mb = o.db_mb;
  ls.threads = o.threads;
  ls.cache_dir = o.cache_dir;
  ls.labelling = [](const std::string& why) {
    fmt::print("labels: labelling with the exact solver ({}); the endgame database is built on its first use\n",
               why.rfind("no ", 0) == 0 ? why : std::string("the cached file is unusable"));
    std::fflush(stdout);
  };
  // Labelling a new set can take minutes: a progress line on a terminal.
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  if (terminal)
    ls.progress = [&](int accepted, int tried) {
      fmt::print(stderr, "\rlabelling: {} of {} positions ({} tried)", accepted, o.positions, tried);
      std::fflush(stderr);
    };
  fmt::print("suite: {} positions of {}, seed {} (early {}, middle {}, late {})\n", o.positions, to_string(*variant),
             o.seed, suite::phase_quota(o.positions, suite::Phase::Early),
             suite::phase_quota(o.positions, suite::Phase::Middle),
             suite::phase_quota(o.positions, suite::Phase::Late));
  std::fflush(stdout);
  const Expected<suite::Labelling> labelling = suite::load_or_label(key, ls);
  if (terminal && !(labelling && labelling->from_cache)) fmt::print(stderr, "\n");
  if (!labelling) throw UsageError(labelling.error());
  if (!labelling->note.empty()) fmt::print("note: {}\n", labelling->note);
  fmt::print("{}\n", labels_line(*labelling, ls));
  const std::vector<suite::LabelledPosition>& positions = labelling->set.positions;

  suite::RunSettings rs;
  rs.time.mode = TimeControl::Mode::MoveTime;
  rs.time.movetime_ms = o.movetime;
  rs.time.margin_ms = o.margin;
  rs.time.clock = parse_clock_kind(o.clock).value_or(ClockKind::Wall);
  rs.time.startup_ms = o.startup_ms;
  rs.time.ping_ms = o.ping_ms;
  rs.seed = o.seed;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<suite::Answer> answers = play_positions(o, engine, *variant, positions, rs);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const suite::Report report = suite::make_report(positions, answers);
  print_suite_report(report);
  const bool passed = report.all.perfect_share() + 1e-12 >= o.min_perfect;
  fmt::print("perfect: {} of {} ({}), result kept: {} of {} ({}); the engine took {:.2f} s", report.all.perfect,
             report.all.positions, percent(report.all.perfect_share()), report.all.kept, report.all.positions,
             percent(report.all.kept_share()), seconds);
  if (o.min_perfect > 0) fmt::print(", {} --min-perfect {}", passed ? "at least" : "below", percent(o.min_perfect));
  fmt::print("\n");
  std::fflush(stdout);

  if (!o.json.empty()) write_suite_json(o, engine, *variant, *labelling, report, answers, passed, seconds);
  return passed ? 0 : 1;
}

}  // namespace

void add_suite_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<SuiteOptions>(
      "suite", "Grade an engine on positions the exact solver labelled: perfect moves, mean loss, blunders", run_suite);
  add_engine_option(cmd, o->engine, "a first word without '=' is the command");
  cmd->add_option("--positions", o->positions, "How many positions, a third per phase (default 30)")
      ->check(CLI::Range(3, suite::kMaxPositions));
  cmd->add_option("--variant", o->variant, "The variant's rules (default \"pits=6 seeds=4\")");
  cmd->add_option("--seed", o->seed, "Seed of the games the positions are drawn from (default 1)");
  cmd->add_option("--min-perfect", o->min_perfect, "Exit 1 when the share of perfect moves is below this (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--movetime-ms", o->movetime, "go movetime of every position, ms (default 100)")
      ->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--margin", o->margin, "Grace beyond the movetime before a time failure, ms (default 50)")
      ->check(CLI::Range(0LL, 60000LL));
  cmd->add_option("--clock", o->clock,
                  "wall or cpu: a move's time is its wall time or the CPU time of the engine's processes (default "
                  "wall; cpu grades alike on a busy machine)")
      ->check(CLI::IsMember({"wall", "cpu"}));
  add_handshake_options(cmd, o->startup_ms, o->ping_ms);
  cmd->add_option("--label-ms", o->label_ms,
                  "The solver's budget per position when labelling; one not proved is replaced (default 5000)")
      ->check(CLI::Range(1LL, 3600000LL));
  cmd->add_option("--threads", o->threads, "Threads of the solver and the database build (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--hash-mb", o->hash_mb, "MB for the solver's table (default 128)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}));
  cmd->add_option("--db-mb", o->db_mb, "MB for the endgame database, 0 for none (default 512)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{65536}));
  cmd->add_option("--cache-dir", o->cache_dir,
                  "Folder of the endgame database and the labels file (default: the solver's, " +
                      endgame::default_cache_dir().string() + ")")
      ->check(cli::non_empty());
  cmd->add_option("--json", o->json, "Also write the figures and every position's result to this file as JSON")
      ->check(cli::non_empty());
  add_log_option(cmd, o->comm_log, "the engine");
  cmd->add_flag("--verbose", o->verbose, "A line for every position, not only the failed ones");
  cmd->footer(
      "Exit code: 0 the share of perfect moves reaches --min-perfect (default 0), 1 below it, 2 a usage error.\n"
      "Example:\n"
      "  referee suite --engine cmd=build/bots/kalah-greedy --positions 30 --min-perfect 0.5\n");
}

}  // namespace kalah::referee_app
