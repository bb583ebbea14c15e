#include "arena/schedule/rounds.h"

namespace kalah::arena {
namespace {

struct DuePair {
  int round;
  int pairing;  // Swiss: the board; knockout: the match's index in its round
  int pair;
  Pairing colours;  // first is South in game 0
  std::uint64_t opening;
};

std::vector<GameSpec> games_of(const OpeningSource& openings, const std::vector<DuePair>& pairs) {
  std::vector<GameSpec> games;
  for (int game = 0; game < 2; ++game) {
    for (const DuePair& d : pairs) {
      GameSpec g;
      g.round = d.round;
      g.pairing = d.pairing;
      g.pair = d.pair;
      g.game_in_pair = game;
      g.south = game == 0 ? d.colours.first : d.colours.second;
      g.north = game == 0 ? d.colours.second : d.colours.first;
      g.id = "r" + std::to_string(g.round) + "-" + std::to_string(g.south) + "v" + std::to_string(g.north) + "-p" +
             std::to_string(g.pair) + "-g" + std::to_string(game);
      const OpeningLine line = openings.for_pair(d.opening);
      g.start = line.start;
      g.opening = line.moves;
      games.push_back(std::move(g));
    }
  }
  return games;
}

// An adaptive tournament's current round, as a Swiss round's: one opening per board, running on over the rounds
// (a round has at most n / 2).
std::vector<DuePair> adaptive_due(const Config& config, const AdaptiveProgress& progress) {
  if (progress.complete) return {};
  const int n = static_cast<int>(config.engines.size());
  const AdaptiveRound& round = progress.rounds.back();
  const std::uint64_t base = static_cast<std::uint64_t>(round.round - 1) * static_cast<std::uint64_t>(n / 2);
  std::vector<DuePair> due;
  for (std::size_t b = 0; b < round.boards.size(); ++b)
    due.push_back({round.round, static_cast<int>(b), 0, round.boards[b], base + b});
  return due;
}

}  // namespace

std::vector<GameSpec> adaptive_games_due(const Config& config, AdaptiveReplay& replay, const GameResults& results) {
  return games_of(OpeningSource(config), adaptive_due(config, replay.update(results)));
}

std::vector<GameSpec> swiss_games_due(const Config& config, const GameResults& results) {
  const TournamentConfig& t = config.tournament;
  const int n = static_cast<int>(config.engines.size());
  const SwissProgress progress = replay_swiss(n, t.rounds, results);
  if (progress.complete) return {};
  const SwissRound& round = progress.rounds.back();
  // Pair numbers of the openings: one per board, running on over the rounds.
  const std::uint64_t base = static_cast<std::uint64_t>(round.round - 1) * static_cast<std::uint64_t>(n / 2);
  std::vector<DuePair> due;
  for (std::size_t b = 0; b < round.boards.size(); ++b)
    due.push_back({round.round, static_cast<int>(b), 0, round.boards[b], base + b});
  return games_of(OpeningSource(config), due);
}

std::vector<GameSpec> knockout_games_due(const Config& config, const GameResults& results) {
  const TournamentConfig& t = config.tournament;
  const int n = static_cast<int>(config.engines.size());
  const KnockoutProgress progress = replay_knockout(n, t.rounds, t.tiebreak_pairs, results);
  const std::uint64_t per_match = static_cast<std::uint64_t>(t.rounds + t.tiebreak_pairs);
  const std::uint64_t matches_per_round = static_cast<std::uint64_t>(progress.bracket_size / 2);
  std::vector<DuePair> due;
  for (const std::vector<KnockoutMatch>& round : progress.rounds)
    for (const KnockoutMatch& m : round) {
      if (m.decision != KnockoutDecision::Pending || m.high < 0 || m.low < 0) continue;
      const std::uint64_t match =
          static_cast<std::uint64_t>(m.round - 1) * matches_per_round + static_cast<std::uint64_t>(m.index);
      for (int p : m.due)
        due.push_back({m.round, m.index, p, {m.high, m.low}, match * per_match + static_cast<std::uint64_t>(p)});
    }
  return games_of(OpeningSource(config), due);
}

AdaptivePlan adaptive_plan(const Config& config) {
  const TournamentConfig& t = config.tournament;
  return {static_cast<int>(config.engines.size()), t.budget_games, t.target_width, t.seed, t.boundaries};
}

}  // namespace kalah::arena
