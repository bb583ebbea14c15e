// The sanity gate: games through the referee's game loop (play_game with the players a tournament uses)
// and the suite through referee/suite, both with the entrant's sandbox and limits.
#include "arena/contest/gate.h"

#include <cassert>

#include <fmt/core.h>

#include "referee/endgame/database.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/suite/grading.h"
#include "referee/suite/labels.h"
#include "referee/suite/run.h"
#include "referee/system/clean_text.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena::contest {
namespace fs = std::filesystem;

namespace {

// How much of a forfeit's detail the entry keeps (the gate log has all of it).
constexpr std::size_t kForfeitDetail = 200;
// The suite's positions are drawn with this number (suite::SuiteKey): the contest's secret's, so that nobody
// without the secret can list them ahead of the gate.
std::uint64_t suite_seed(const SeedSecret& secret) { return secret.number_for("gate-suite"); }

// The `go` a suite position is sent: the one a contest game's first move would get, so that a position looks
// like a game (the clocks full, as at a game's start).
kep::Go contest_go(const TimeControl& t) {
  kep::Go go;
  switch (t.mode) {
    case TimeControl::Mode::Fischer:
      go.clock = kep::Go::Clock{t.base_ms, t.base_ms, t.inc_ms, t.inc_ms};
      if (t.moves > 0) go.movestogo = t.moves;
      break;
    case TimeControl::Mode::MoveTime: go.movetime = t.movetime_ms; break;
    case TimeControl::Mode::Depth: go.depth = t.depth; break;
    case TimeControl::Mode::Nodes: go.nodes = t.nodes; break;
  }
  return go;
}

// The wall time an answer to contest_go() may take: what the game loop would allow that move (the whole clock
// with its increment, the movetime, the hard limit of depth and node searches; three times the allowance on
// the CPU clock, docs/PROTOCOL.md "Clocks") and the margin.
std::chrono::milliseconds allowed_for(const TimeControl& t) {
  long long ms = 0;
  switch (t.mode) {
    case TimeControl::Mode::Fischer: ms = t.base_ms + t.inc_ms; break;
    case TimeControl::Mode::MoveTime: ms = t.movetime_ms; break;
    case TimeControl::Mode::Depth:
    case TimeControl::Mode::Nodes: ms = t.hard_limit_ms; break;
  }
  if (t.clock == ClockKind::Cpu) ms *= 3;
  return std::chrono::milliseconds(ms + t.margin_ms);
}

const char* seat_name(bool south) { return south ? "South" : "North"; }

// The bot's points from a game it started as South (or North).
double points_of(const GameRecord& r, bool south) {
  switch (r.result) {
    case Outcome::FirstWins: return south ? 1 : 0;
    case Outcome::SecondWins: return south ? 0 : 1;
    case Outcome::Draw: return 0.5;
    case Outcome::Ongoing: break;
  }
  assert(false && "play_game returns finished games");
  return 0;
}

GameSettings gate_game(const Config& config, const SeedSecret& secret, int game) {
  GameSettings s;
  s.id = fmt::format("gate-g{}", game + 1);
  s.round = 1;
  s.variant = config.variant;
  s.time = config.time;
  s.start = config.start;
  s.max_plies = config.tournament.max_plies;
  // Keyed like the contest's games (Runner::settings_for): a seed says nothing of whom or where a bot plays.
  s.seed = secret.seed_for(s.id);
  // The contest's own early endings, bar the endgame database (a build should not build one).
  s.adjudicate.store_majority = config.tournament.adjudicate.store_majority;
  s.adjudicate.draw = config.tournament.adjudicate.draw;
  s.adjudicate.resign = config.tournament.adjudicate.resign;
  return s;
}

GateGames play_games(const Config& config, const SeedSecret& secret, const EngineSpec& bot, std::string& log) {
  const GateConfig& gate = *config.submissions->gate;
  GateGames out;
  out.opponent = gate.opponent;
  out.min_score = gate.min_score;
  const EngineSpec opponent_spec = gate_opponent(config);
  std::unique_ptr<ProcessPlayer> me = make_player(bot);
  std::unique_ptr<ProcessPlayer> them = make_player(opponent_spec);
  log += fmt::format("games against {} ({}), {}, {}:\n", gate.opponent, opponent_spec.cmd.string(),
                     to_string(config.variant), config.time.describe());
  for (int g = 0; g < gate.games; ++g) {
    // Half the games with each colour: South in the odd ones.
    const bool south = g % 2 == 0;
    const GameSettings settings = gate_game(config, secret, g);
    const GameRecord r = play_game(south ? *me : *them, south ? *them : *me, settings);
    const double points = points_of(r, south);
    ++out.games;
    (points == 1 ? out.wins : points == 0 ? out.losses : out.draws)++;
    std::string ending = to_string(r.termination);
    if (r.forfeit) {
      const bool mine = r.forfeit->engine == bot.name;
      ending += fmt::format(" by {}: {}", mine ? bot.name : gate.opponent, r.forfeit->detail);
      if (mine && out.forfeits.size() < kMaxGateForfeits)
        out.forfeits.push_back(fmt::format("{}: {}: {}", settings.id, to_string(r.forfeit->reason),
                                           system::shorten_keeping_end(r.forfeit->detail, kForfeitDetail)));
      if (!mine) ++out.opponent_forfeits;
    }
    log += fmt::format("{} {} as {}: {} {}-{} ({}): {:g}\n", settings.id, bot.name, seat_name(south),
                       to_string(r.result), r.store_south, r.store_north, ending, points);
  }
  log += fmt::format("games: score {:g}/{} (+{} ={} -{}), needs {:g} of the points\n", out.score(), out.games, out.wins,
                     out.draws, out.losses, out.min_score);
  return out;
}

}  // namespace

Gate::Gate(const Config& config, const SeedSecret& secret) : config_(config), secret_(secret) {
  assert(config.submissions && config.submissions->gate);
}

Gate::~Gate() = default;

std::optional<std::string> Gate::prepare(const Say& say) {
  if (prepared_) return std::nullopt;
  const GateConfig& gate = *config_.submissions->gate;
  if (gate.plays_games()) {
    // An opponent that cannot start would hand every bot its games: the organiser's to fix, said once.
    EnginePlayer opponent(gate_opponent(config_));
    const std::optional<Fault> fault = opponent.start(std::chrono::milliseconds(config_.time.startup_ms));
    opponent.stop();
    if (fault)
      return fmt::format("the gate's opponent {} did not start: {}: {}", gate.opponent, to_string(fault->kind),
                         fault->detail);
  }
  if (gate.runs_suite()) {
    suite::LabelSettings settings;
    settings.cache_dir = endgame::default_cache_dir();
    // The CPUs the organiser gives the contest's games label the positions (and build the database).
    settings.threads = config_.tournament.concurrency;
    settings.labelling = [&](const std::string& why) {
      say(fmt::format("  (the gate's {} positions are labelled by the exact solver: {}; once, then cached)", gate.suite,
                      why));
    };
    Expected<suite::Labelling> labelled =
        suite::load_or_label(suite::SuiteKey{config_.variant, suite_seed(secret_), gate.suite}, settings);
    if (!labelled) return "submissions.gate.suite: " + labelled.error();
    positions_ = std::move(labelled->set.positions);
  }
  prepared_ = true;
  return std::nullopt;
}

Expected<GateResult> Gate::run(const EngineSpec& bot, const fs::path& log_file, const Say& say) {
  if (std::optional<std::string> error = prepare(say)) return Error{*error};
  const GateConfig& gate = *config_.submissions->gate;
  GateResult out;
  out.key = gate_key(config_);
  std::string log = "gate: " + out.key + "\n";
  if (gate.plays_games()) out.games = play_games(config_, secret_, bot, log);
  if (gate.runs_suite()) {
    if (bot.protocol != Protocol::Kep) {
      // A ManKalah agent plays whole games from the start only: it cannot be given a position.
      log += "suite: not run: a ManKalah agent cannot be given a position\n";
    } else {
      suite::RunSettings settings;
      settings.time = config_.time;
      settings.seed_of = [this](std::size_t i) { return secret_.seed_for(fmt::format("gate-p{}", i + 1)); };
      settings.go = contest_go(config_.time);
      settings.allowed = allowed_for(config_.time);
      // Neither the suite's seed nor anything derived from it: the log is the bot author's to read.
      log += fmt::format("suite: {} positions of {}, {} (+ margin {} ms), as in the contest:\n", positions_.size(),
                         to_string(config_.variant), config_.time.describe(), config_.time.margin_ms);
      EnginePlayer player(bot);
      const std::vector<suite::Answer> answers = suite::run_positions(
          player, config_.variant, positions_, settings, [&](std::size_t i, const suite::Answer& a) {
            const suite::LabelledPosition& p = positions_[i];
            const std::string where = suite::moves_text(p.candidate.moves);
            if (!a.move) {
              log += fmt::format("p{} {}: failed: {}: {} ({})\n", i + 1, to_string(p.candidate.phase),
                                 to_string(a.fault->kind), a.fault->detail, where);
              return;
            }
            const suite::Grade g = suite::grade(p, a);
            log += fmt::format("p{} {}: {} loses {} (best {:+}) ({})\n", i + 1, to_string(p.candidate.phase),
                               to_string(*a.move), *g.loss, p.best(), where);
          });
      player.stop();
      const suite::Report report = suite::make_report(positions_, answers);
      GateSuite result;
      result.positions = report.all.positions;
      result.perfect = report.all.perfect;
      result.failed = report.all.failed;
      result.mean_loss = report.all.mean_loss();
      result.min_perfect = gate.min_perfect;
      log += fmt::format("suite: perfect {}/{}, mean loss {:.2f}, failed {}, needs {:g} perfect\n", result.perfect,
                         result.positions, result.mean_loss, result.failed, result.min_perfect);
      out.suite = result;
    }
  }
  log += out.passed() ? "passed\n" : "not passed: " + out.failure() + "\n";
  system::write_own_file(log_file, log);
  return out;
}

}  // namespace kalah::arena::contest
