#include "arena/schedule/schedule.h"

#include <algorithm>
#include <map>

#include <cassert>
#include <random>
#include <utility>

namespace kalah::arena {
namespace {

// Sebastiano Vigna's splitmix64 finaliser: spreads (seed, k) over the whole generator state so
// that neighbouring pair numbers get unrelated openings.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Index of {a, b} among the round-robin pairings (i, j), i < j, in lexicographic order.
int round_robin_index(int players, int a, int b) {
  const int i = a < b ? a : b;
  const int j = a < b ? b : a;
  return i * (2 * players - i - 1) / 2 + (j - i - 1);
}

// A contest's opening number of a game pair is pairing * rounds + cycle: fixed whatever the number of
// entrants (a round robin's uses the number of pairings, which a late entry would change), and distinct
// for every pair, so that a book's lines (taken modulo its size) differ between the rounds of a pairing.
// (It was cycle * 1 000 000 + pairing, which a book of 800, 1000, ... lines folded onto one line a pairing.)
std::uint64_t contest_opening_number(int pairing, int cycle, int rounds) {
  return static_cast<std::uint64_t>(pairing) * static_cast<std::uint64_t>(rounds) + static_cast<std::uint64_t>(cycle);
}

struct Board {
  int pairing;
  Pairing colours;  // first is South in game 0
};

std::string game_id(int round, int south, int north, int pair, int game) {
  return "r" + std::to_string(round) + "-" + std::to_string(south) + "v" + std::to_string(north) + "-p" +
         std::to_string(pair) + "-g" + std::to_string(game);
}

// `opening_number(pairing)`: the opening of this round's pair of that pairing.
template <class OpeningNumber>
void add_round(std::vector<GameSpec>& games, const OpeningSource& openings, int round, int cycle,
               const OpeningNumber& opening_number, const std::vector<Board>& boards) {
  std::vector<OpeningLine> chosen;
  for (const Board& b : boards) chosen.push_back(openings.for_pair(opening_number(b.pairing)));
  for (int game = 0; game < 2; ++game) {
    for (size_t i = 0; i < boards.size(); ++i) {
      const Board& b = boards[i];
      GameSpec g;
      g.round = round;
      g.pairing = b.pairing;
      g.pair = cycle;
      g.game_in_pair = game;
      g.south = game == 0 ? b.colours.first : b.colours.second;
      g.north = game == 0 ? b.colours.second : b.colours.first;
      g.id = game_id(round, g.south, g.north, g.pair, game);
      g.start = chosen[i].start;
      g.opening = chosen[i].moves;
      games.push_back(std::move(g));
    }
  }
}

std::vector<int> non_seeds(const Config& c) {
  std::vector<int> others;
  for (int e = 0; e < static_cast<int>(c.engines.size()); ++e) {
    bool seed = false;
    for (int s : c.tournament.seed_engines) seed = seed || s == e;
    if (!seed) others.push_back(e);
  }
  return others;
}

}  // namespace

std::vector<std::vector<Pairing>> berger_table(int players) {
  if (players < 2) return {};
  const int n = players % 2 ? players + 1 : players;  // with the bye
  const int fixed = n - 1;                            // the circle turns around this player (the bye for odd counts)
  const int turning = n - 1;
  std::vector<std::vector<Pairing>> rounds;
  for (int r = 0; r < n - 1; ++r) {
    // FIDE's tables step the circle by n/2 places per round (not 1), which also makes the fixed
    // player alternate colours: Black in rounds 1, 3, ... and White in rounds 2, 4, ...
    const int base = r * (n / 2) % turning;
    std::vector<Pairing> boards;
    boards.push_back(r % 2 ? Pairing{fixed, base} : Pairing{base, fixed});
    for (int i = 1; i < n / 2; ++i) boards.push_back(Pairing{(base + i) % turning, (base - i + turning) % turning});
    if (n != players)
      std::erase_if(boards, [&](const Pairing& p) { return p.first == players || p.second == players; });
    rounds.push_back(std::move(boards));
  }
  return rounds;
}

std::vector<Pairing> pairings(const Config& c) {
  std::vector<Pairing> out;
  if (paired_from_results(c.tournament.type)) return out;
  const int n = static_cast<int>(c.engines.size());
  if (c.is_contest()) {
    // Column by column, (0,1), (0,2), (1,2), (0,3), ...: a late entrant's pairings come after all the
    // others, so that every pairing keeps its index as the contest grows.
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i) out.push_back({i, j});
  } else if (kind_of(c.tournament.type).every_pair) {
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) out.push_back({i, j});
  } else {
    const std::vector<int> others = non_seeds(c);
    for (int s : c.tournament.seed_engines)
      for (int o : others) out.push_back({s, o});
  }
  return out;
}

OpeningSource::OpeningSource(const Config& config) : config_(config) {
  const size_t size = config.openings.book.size();
  for (size_t i = 0; i < size; ++i) order_.push_back(i);
  if (config.openings.order == OpeningOrder::Random) {
    // Fisher-Yates with rng() % n: the same permutation on every standard library.
    std::mt19937_64 rng(splitmix64(config.tournament.seed ^ 0x6f70656e696e6773ull));  // "openings"
    for (size_t i = size; i > 1; --i) std::swap(order_[i - 1], order_[rng() % i]);
  }
}

OpeningLine OpeningSource::for_pair(std::uint64_t k) const {
  const OpeningsConfig& o = config_.openings;
  if (!o.book.empty()) {
    OpeningLine line = o.book[order_[k % o.book.size()]];
    if (!line.start) line.start = config_.start;
    return line;
  }
  if (o.random_plies == 0) return {config_.start, {}};
  const Position from = config_.start_or_standard();
  std::mt19937_64 rng(splitmix64(splitmix64(config_.tournament.seed) ^ k));
  if (auto opening = random_opening(config_.variant, from, o.random_plies, rng)) return {config_.start, *opening};
  // Practically unreachable: this pair's walk got lost in a variant where few openings survive.
  // load_config() proved that the search from seed 0 succeeds, so fall back to it.
  std::mt19937_64 fallback(0);
  auto opening = random_opening(config_.variant, from, o.random_plies, fallback);
  assert(opening);
  return {config_.start, opening ? *opening : Opening{}};
}

std::vector<GameSpec> make_schedule(const Config& c) {
  if (paired_from_results(c.tournament.type)) return {};  // paired round by round: arena/schedule/rounds.h
  const std::vector<Pairing> all = pairings(c);
  const int count = static_cast<int>(all.size());
  const int n = static_cast<int>(c.engines.size());
  const OpeningSource openings(c);
  std::vector<GameSpec> games;
  games.reserve(static_cast<size_t>(count) * c.tournament.rounds * 2);
  // A round robin's or gauntlet's pair k = cycle * pairings + pairing: adding rounds only appends games.
  auto by_cycle = [count](int cycle) {
    return [count, cycle](int pairing) { return static_cast<std::uint64_t>(cycle) * count + pairing; };
  };

  if (c.is_contest()) {
    // A contest's cycle is one round (docs/CONTEST.md): the Berger table of n entrants would renumber
    // every round when one more enters. Nothing of a game pair (its id, its opening number) depends on
    // how many entered; the pairs of a withdrawn or disqualified entrant are left out.
    for (int cycle = 0; cycle < c.tournament.rounds; ++cycle) {
      std::vector<Board> boards;
      for (int p = 0; p < count; ++p)
        if (c.plays(all[p].first) && c.plays(all[p].second)) boards.push_back({p, all[p]});
      add_round(
          games, openings, cycle + 1, cycle,
          [&](int pairing) { return contest_opening_number(pairing, cycle, c.tournament.rounds); }, boards);
    }
  } else if (kind_of(c.tournament.type).every_pair) {
    const auto table = berger_table(n);
    const int per_cycle = static_cast<int>(table.size());
    for (int cycle = 0; cycle < c.tournament.rounds; ++cycle) {
      for (int r = 0; r < per_cycle; ++r) {
        std::vector<Board> boards;
        for (const Pairing& p : table[r]) boards.push_back({round_robin_index(n, p.first, p.second), p});
        add_round(games, openings, cycle * per_cycle + r + 1, cycle, by_cycle(cycle), boards);
      }
    }
  } else {
    const std::vector<int> others = non_seeds(c);
    const int seeds = static_cast<int>(c.tournament.seed_engines.size());
    for (int cycle = 0; cycle < c.tournament.rounds; ++cycle) {
      // Opponent by opponent, so that with several seed engines the games in flight spread over
      // the opponents.
      std::vector<Board> boards;
      for (int o = 0; o < static_cast<int>(others.size()); ++o)
        for (int s = 0; s < seeds; ++s)
          boards.push_back({s * static_cast<int>(others.size()) + o, Pairing{c.tournament.seed_engines[s], others[o]}});
      add_round(games, openings, cycle + 1, cycle, by_cycle(cycle), boards);
    }
  }
  return games;
}

std::array<GameSpec, 2> SprtPairs::pair(int pair_index) const {
  assert(config_.engines.size() >= 2 && pair_index >= 0);
  const OpeningLine opening = openings_.for_pair(static_cast<std::uint64_t>(pair_index));
  std::array<GameSpec, 2> games;
  for (int game = 0; game < 2; ++game) {
    GameSpec& g = games[game];
    g.round = pair_index + 1;
    g.pairing = 0;
    g.pair = pair_index;
    g.game_in_pair = game;
    g.south = game;
    g.north = 1 - game;
    g.id = "sprt-p" + std::to_string(pair_index) + "-g" + std::to_string(game);
    g.start = opening.start;
    g.opening = opening.moves;
  }
  return games;
}

GameSpec sprt_game(const Config& config, int pair_index, int game_in_pair) {
  assert(game_in_pair == 0 || game_in_pair == 1);
  return SprtPairs(config).pair(pair_index)[game_in_pair];
}

namespace {

// The ordinal of each game's pair, in order of first appearance.
std::vector<int> pair_ordinals(const std::vector<GameSpec>& schedule) {
  std::map<std::pair<int, int>, int> ordinal;
  std::vector<int> out;
  out.reserve(schedule.size());
  for (const GameSpec& g : schedule)
    out.push_back(ordinal.try_emplace({g.pairing, g.pair}, static_cast<int>(ordinal.size())).first->second);
  return out;
}

}  // namespace

std::vector<GameSpec> shard_games(const std::vector<GameSpec>& schedule, const Shard& shard) {
  const std::vector<int> ordinals = pair_ordinals(schedule);
  std::vector<GameSpec> out;
  for (std::size_t i = 0; i < schedule.size(); ++i)
    if (ordinals[i] % shard.count == shard.index - 1) out.push_back(schedule[i]);
  return out;
}

int count_pairs(const std::vector<GameSpec>& schedule) {
  const std::vector<int> ordinals = pair_ordinals(schedule);
  return ordinals.empty() ? 0 : *std::max_element(ordinals.begin(), ordinals.end()) + 1;
}

std::optional<std::string> shard_problem(const Config& config, int count) {
  if (count < 1) return "the number of shards must be at least 1";
  if (config.sprt) return std::nullopt;
  if (config.tournament.staged())
    return config.source +
           ": a staged tournament cannot be sharded: each stage is played by the engines the stage before leaves "
           "in; play it unsharded (arena run without --shard)";
  if (paired_from_results(config.tournament.type))
    return config.source + ": " + std::string(kind_of(config.tournament.type).article) + " " +
           to_string(config.tournament.type) +
           " tournament cannot be sharded: each round is paired from the results of the rounds before, so its "
           "games are not known in advance; play it unsharded (arena run without --shard)";
  const int pairs = count_pairs(make_schedule(config));
  if (count > pairs)
    return config.source + ": " + std::to_string(count) + " shards but the tournament has only " +
           std::to_string(pairs) + " colour-swapped game pairs; use at most " + std::to_string(pairs) + " shards";
  return std::nullopt;
}

}  // namespace kalah::arena
