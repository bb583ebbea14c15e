// `referee match`: N games between two engines, one JSON line per game.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/app/commands.h"
#include "referee/app/engine_args.h"
#include "referee/engine/engine_names.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/process/engine_process.h"
#include "referee/record/record_json.h"
#include "referee/rules/opening.h"
#include "referee/stats/stats.h"
#include "referee/system/confusables.h"
#include "referee/system/executable.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct MatchOptions {
  std::vector<std::vector<std::string>> engines;
  std::string variant;
  std::string start;
  int games = 2;
  std::string tc;
  long long movetime = 0;
  int depth = 0;
  long long nodes = 0;
  long long margin = TimeControl{}.margin_ms;
  std::string clock = "wall";
  long long startup_ms = TimeControl{}.startup_ms;
  long long ping_ms = TimeControl{}.ping_ms;
  int openings_plies = 0;
  std::uint64_t seed = 1;
  int max_plies = kDefaultMaxPlies;
  std::string out;
  std::string comm_log;
};

TimeControl time_control(const MatchOptions& o) {
  const int modes = !o.tc.empty() + (o.movetime > 0) + (o.depth > 0) + (o.nodes > 0);
  if (modes > 1) throw UsageError("give only one of --tc, --movetime, --depth, --nodes");
  Expected<TimeControl> limit = time_from_options(o.tc, o.movetime, o.depth, o.nodes);
  if (!limit) throw UsageError(limit.error());
  TimeControl t = *limit;
  t.margin_ms = o.margin;
  t.clock = parse_clock_kind(o.clock).value_or(ClockKind::Wall);
  t.startup_ms = o.startup_ms;
  t.ping_ms = o.ping_ms;
  return t;
}

int run_match(const MatchOptions& o) {
  if (o.engines.size() != 2) throw UsageError("give exactly two --engine options");
  Expected<Variant> variant = parse_variant(o.variant);
  if (!variant) throw UsageError("--variant: " + variant.error());
  const std::optional<Position> start = parse_start_option(*variant, o.start);
  const TimeControl time = time_control(o);
  EngineSpec configs[2] = {parse_engine(o.engines[0], o.comm_log), parse_engine(o.engines[1], o.comm_log)};
  for (const EngineSpec& e : configs)
    if ((start || o.openings_plies > 0) && e.protocol == Protocol::Mankalah)
      throw UsageError(std::string(start ? "--start" : "--openings-plies") + ": engine '" + e.name +
                       "' speaks the ManKalah protocol, whose agents only play a whole game from the standard "
                       "start (docs/PROTOCOL.md)");
  // Two names the user wrote are a mistake, as in a config. An engine without name= is called by the name it
  // announces (`id name`), or by its command's file name when it announces none or does not start; the
  // second of two such names (self-play of one binary) gets a suffix, "-2".
  const std::vector<bool> given = {names_given(o.engines[0]), names_given(o.engines[1])};
  if (given[0] && given[1] && configs[0].name == configs[1].name)
    throw UsageError("the two engines are both named '" + configs[0].name + "'; give each its own name=NAME");
  if (given[0] && given[1] && system::confusable(configs[0].name, configs[1].name))
    throw UsageError("the two engines' names '" + configs[0].name + "' and '" + configs[1].name +
                     "' look alike (docs/CONFIG.md, \"Engine names\"); give each a name of its own");
  const std::vector<std::string> names =
      names_from_handshakes({configs[0], configs[1]}, given, std::chrono::milliseconds(time.startup_ms));
  for (int i = 0; i < 2; ++i) configs[i].name = names[static_cast<std::size_t>(i)];

  std::ofstream file;
  if (!o.out.empty()) {
    file.open(o.out, std::ios::app);
    if (!file) throw UsageError("cannot write to '" + o.out + "'");
  }
  std::ostream& out = o.out.empty() ? std::cout : file;
  std::FILE* summary_stream = o.out.empty() ? stderr : stdout;

  process::become_subreaper();
  std::unique_ptr<ProcessPlayer> players[2] = {make_player(configs[0]), make_player(configs[1])};
  // An option the engine does not take as given stops the match before its first game (docs/PROTOCOL.md,
  // "Options"); the engine stays running for it. One that does not start forfeits its games as always.
  for (int i = 0; i < 2; ++i) {
    auto* kep = dynamic_cast<EnginePlayer*>(players[i].get());
    if (!kep || configs[i].options.empty() || kep->start(std::chrono::milliseconds(time.startup_ms))) continue;
    if (const std::vector<std::string> problems = kep->option_problems(); !problems.empty())
      throw UsageError(fmt::format("engine '{}': {}", configs[i].name, fmt::join(problems, "; ")));
  }
  stats::Trinomial score;  // from the first engine's view
  std::vector<Move> opening;
  for (int g = 0; g < o.games; ++g) {
    // Games come in colour-swapped pairs on the same opening.
    if (g % 2 == 0) {
      std::mt19937_64 rng(o.seed * 1000003 + static_cast<std::uint64_t>(g / 2));
      std::optional<Opening> random =
          random_opening(*variant, start.value_or(start_position(*variant)), o.openings_plies, rng);
      if (!random)
        throw UsageError(fmt::format("no {}-ply opening leaves a game of this variant running", o.openings_plies));
      opening = std::move(*random);
    }
    const int south = g % 2;
    GameSettings s;
    s.id = fmt::format("g{}", g + 1);
    s.round = g / 2 + 1;
    s.variant = *variant;
    s.start = start;
    s.time = time;
    s.opening = opening;
    s.max_plies = o.max_plies;
    s.seed = game_seed(o.seed, s.id);
    const GameRecord r = play_game(*players[south], *players[1 - south], s);
    out << to_json_line(r) << '\n';
    out.flush();
    const double first_points = r.result == Outcome::Draw ? 0.5 : (r.result == Outcome::FirstWins) == (south == 0);
    score.add(first_points);
  }
  const stats::Summary sum = stats::summarize(score);
  fmt::print(summary_stream, "{} vs {}: +{} ={} -{} ({:.1f}/{} points), Elo {:+.1f} +- {:.1f}\n", configs[0].name,
             configs[1].name, score.wins, score.draws, score.losses, score.wins + score.draws / 2, o.games, sum.elo,
             sum.elo95);
  return 0;
}

}  // namespace

void add_match_command(cli::Commands& commands) {
  auto [cmd, o] =
      commands.add<MatchOptions>("match", "Play games between two engines; one JSON line per game", run_match);
  add_engine_option(cmd, o->engines, "give twice; without name= the name the engine announces");
  cmd->add_option("--variant", o->variant, "Variant tokens, e.g. \"pits=6 seeds=4 pie=on\"");
  add_start_option(cmd, o->start);
  cmd->add_option("--games", o->games, "Number of games; colours alternate")->check(CLI::Range(1, 1000000));
  cmd->add_option("--tc", o->tc, "Fischer clock BASE+INC in seconds (default " + TimeControl{}.describe() + ")");
  cmd->add_option("--movetime", o->movetime, "Fixed time per move, ms")->check(CLI::Range(1LL, 86400000LL));
  cmd->add_option("--depth", o->depth, "Fixed search depth")->check(CLI::Range(1, 1000));
  cmd->add_option("--nodes", o->nodes, "Fixed node count")->check(CLI::Range(1LL, 1LL << 50));
  cmd->add_option("--margin", o->margin, "Grace beyond the allowed time before a time forfeit, ms")
      ->check(CLI::Range(0LL, 60000LL));
  cmd->add_option("--clock", o->clock,
                  "wall or cpu: charge a move its wall time or the CPU time of the engine's processes (default wall)")
      ->check(CLI::IsMember({"wall", "cpu"}));
  add_handshake_options(cmd, o->startup_ms, o->ping_ms);
  cmd->add_option("--openings-plies", o->openings_plies, "Random opening plies per game pair")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--seed", o->seed, "Seed for the openings and the games' own seeds (to engines with feature seed)");
  cmd->add_option("--max-plies", o->max_plies, "Adjudicate after this many plies")->check(CLI::Range(1, 100000));
  cmd->add_option("--out", o->out, "Append the game records to this file (default: standard output)");
  add_log_option(cmd, o->comm_log, "the engines");
}

}  // namespace kalah::referee_app
