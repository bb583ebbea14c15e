#include "arena/schedule/adaptive.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "arena/rating/rank_interval.h"
#include "arena/rating/rating.h"
#include "arena/schedule/final_cut.h"

namespace kalah::arena {
namespace {

// SplitMix64's finaliser: the seeded tie-breaks (one number per engine, or per pair and round).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t mix(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  return mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
}

// A game's result for engine `a` of a PairingGames: kLoss, kDraw or kWin from its points (1, 1/2, 0).
int result_of(double points) { return static_cast<int>(std::lround(points * 2)); }

// The finished pairs of the complete rounds, as the rating code takes them: per pairing of a lower and a
// higher engine index, the pairs by the lower one's results. Every counted round is complete, so no game is
// without its partner.
class PairTally {
 public:
  explicit PairTally(int engines) : n_(engines), kinds_(static_cast<std::size_t>(engines * engines)) {}

  // Counts the finished pairs of `round`; true when every game of it is finished.
  bool add(const AdaptiveRound& round, const GameResults& results) {
    bool complete = true;
    for (const Pairing& b : round.boards) {
      const std::array<std::string, 2> ids = adaptive_game_ids(round.round, b);
      const auto first = results.find(ids[0]), second = results.find(ids[1]);
      if (first == results.end() || second == results.end()) {
        complete = false;
        continue;
      }
      // The lower index's result as South and as North.
      const bool lower_first = b.first < b.second;
      const double as_south = lower_first ? first->second : second->second;
      const double as_north = 1.0 - (lower_first ? second->second : first->second);
      const int lo = std::min(b.first, b.second), hi = std::max(b.first, b.second);
      ++kinds_[index(lo, hi)][static_cast<std::size_t>(result_of(as_south) * 3 + result_of(as_north))];
    }
    return complete;
  }

  std::vector<rating::PairingGames> pairings() const {
    std::vector<rating::PairingGames> out;
    for (int a = 0; a < n_; ++a)
      for (int b = a + 1; b < n_; ++b) {
        const std::array<int, 9>& k = kinds_[index(a, b)];
        if (games(a, b) == 0) continue;
        rating::PairingGames g;
        g.a = a;
        g.b = b;
        g.pairs = k;
        out.push_back(g);
      }
    return out;
  }

  // Games played by one engine.
  int games_of(int a) const {
    int total = 0;
    for (int b = 0; b < n_; ++b)
      if (b != a) total += games(a, b);
    return total;
  }

  // Games played between two engines (either order).
  int games(int a, int b) const {
    const std::array<int, 9>& k = kinds_[index(std::min(a, b), std::max(a, b))];
    int pairs = 0;
    for (int c : k) pairs += c;
    return 2 * pairs;
  }

 private:
  std::size_t index(int a, int b) const { return static_cast<std::size_t>(a * n_ + b); }
  int n_;
  std::vector<std::array<int, 9>> kinds_;
};

// The fit the reports make of these games: Bradley–Terry with a first-mover term (docs/RATING.md).
rating::Rating fit_of(int engines, const std::vector<rating::PairingGames>& pairings) {
  rating::FitOptions options;
  options.first_mover = true;
  return rating::fit(engines, rating::fit_results(pairings), options);
}

// The engines best first by the fit; equal ratings in an order drawn from the seed.
std::vector<int> order_of(const AdaptivePlan& plan, const std::vector<double>& elo) {
  std::vector<int> order(static_cast<std::size_t>(plan.engines));
  for (int i = 0; i < plan.engines; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double ea = elo[static_cast<std::size_t>(a)], eb = elo[static_cast<std::size_t>(b)];
    if (ea != eb) return ea > eb;
    return mix(plan.seed, static_cast<std::uint64_t>(a)) < mix(plan.seed, static_cast<std::uint64_t>(b));
  });
  return order;
}

// Round 1: the engines in an order drawn from the seed, consecutive ones paired (with an odd number, the
// last one rests).
AdaptiveRound first_round(const AdaptivePlan& plan) {
  AdaptiveRound out;
  out.round = 1;
  const std::vector<double> level(static_cast<std::size_t>(plan.engines), 0.0);
  const std::vector<int> order = order_of(plan, level);
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) out.boards.push_back({order[i], order[i + 1]});
  return out;
}

// Each engine's 95% rank interval in the fit's order, by the reports' bootstrap; an engine without a game gets
// every place (1 to n). `everyone_played`: whether each engine has a game.
std::vector<RankSpan> rank_spans(const AdaptivePlan& plan, const PairTally& tally, const rating::Rating& fit,
                                 const std::vector<int>& order, bool& everyone_played) {
  rating::RankProblem p;
  p.engines = plan.engines;
  p.pairings = tally.pairings();
  p.by = rating::OrderBy::Elo;
  rating::set_model(p, fit);
  p.rank.assign(static_cast<std::size_t>(plan.engines), 0);
  std::vector<char> played(static_cast<std::size_t>(plan.engines), 0);
  for (const rating::PairingGames& g : p.pairings)
    played[static_cast<std::size_t>(g.a)] = played[static_cast<std::size_t>(g.b)] = 1;
  everyone_played = true;
  for (std::size_t r = 0; r < order.size(); ++r) {
    // An engine without a game stays outside the bootstrap's order (rank 0) and is given every place below.
    if (played[static_cast<std::size_t>(order[r])])
      p.rank[static_cast<std::size_t>(order[r])] = static_cast<int>(r) + 1;
    everyone_played = everyone_played && played[static_cast<std::size_t>(order[r])];
  }
  const rating::RankUncertainty u = rating::rank_intervals(p);
  std::vector<RankSpan> out(static_cast<std::size_t>(plan.engines), RankSpan{1, plan.engines});
  for (int e = 0; e < plan.engines; ++e)
    if (played[static_cast<std::size_t>(e)])
      out[static_cast<std::size_t>(e)] = {u.engines[static_cast<std::size_t>(e)].low,
                                          u.engines[static_cast<std::size_t>(e)].high};
  return out;
}

// The widest 95% rank interval (high - low) of the fit's order; an engine without a game counts as unbounded.
int widest_interval(const AdaptivePlan& plan, const PairTally& tally, const rating::Rating& fit,
                    const std::vector<int>& order) {
  bool everyone_played = false;
  const std::vector<RankSpan> spans = rank_spans(plan, tally, fit, order, everyone_played);
  if (!everyone_played) return std::numeric_limits<int>::max();
  int widest = 0;
  for (const RankSpan& s : spans) widest = std::max(widest, s.high - s.low);
  return widest;
}

// A later round: the open adjacent pairs of the order (choose_boards), the better-rated engine South in the
// first game. Empty when no pair is open.
AdaptiveRound later_round(const AdaptivePlan& plan, int round, const PairTally& tally, const rating::Rating& fit,
                          const std::vector<int>& order) {
  std::vector<AdaptiveCandidate> open;
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    const int above = order[i], below = order[i + 1];
    const double wrong = rating::los(fit, below, above);
    if (wrong <= kAdaptiveOpen) continue;
    const auto r = static_cast<std::uint64_t>(round);
    open.push_back({wrong,
                    tally.games(above, below),
                    mix(plan.seed, r, static_cast<std::uint64_t>(above), static_cast<std::uint64_t>(below)),
                    {above, below}});
  }
  AdaptiveRound out;
  out.round = round;
  out.boards = choose_boards(std::move(open), plan.engines);
  return out;
}

bool is_complete(const AdaptiveRound& round, const GameResults& results) {
  for (const Pairing& b : round.boards)
    for (const std::string& id : adaptive_game_ids(round.round, b))
      if (!results.contains(id)) return false;
  return true;
}

bool has_a_result(const AdaptiveRound& round, const GameResults& results) {
  for (const Pairing& b : round.boards)
    for (const std::string& id : adaptive_game_ids(round.round, b))
      if (results.contains(id)) return true;
  return false;
}

}  // namespace

std::vector<Pairing> choose_boards(std::vector<AdaptiveCandidate> open, int engines, Weigh weigh) {
  auto step = [](const AdaptiveCandidate& c) { return static_cast<int>(std::floor(c.wrong * 20)); };
  std::sort(open.begin(), open.end(), [&](const AdaptiveCandidate& a, const AdaptiveCandidate& b) {
    const int sa = step(a), sb = step(b);
    if (weigh == Weigh::Games) return std::tie(a.games, sb, a.draw) < std::tie(b.games, sa, b.draw);
    return std::tie(sb, a.games, a.draw) < std::tie(sa, b.games, b.draw);
  });
  std::vector<Pairing> boards;
  std::vector<char> busy(static_cast<std::size_t>(engines), 0);
  for (const AdaptiveCandidate& c : open) {
    char& first = busy[static_cast<std::size_t>(c.pair.first)];
    char& second = busy[static_cast<std::size_t>(c.pair.second)];
    if (first || second) continue;
    first = second = 1;
    boards.push_back(c.pair);
  }
  return boards;
}

const char* to_string(AdaptiveEnd end) {
  switch (end) {
    case AdaptiveEnd::Running: return "running";
    case AdaptiveEnd::Budget: return "budget";
    case AdaptiveEnd::Settled: return "settled";
    case AdaptiveEnd::Target: return "target";
    case AdaptiveEnd::Decided: return "decided";
  }
  return "running";
}

struct AdaptiveReplay::State {
  explicit State(AdaptivePlan p) : plan(std::move(p)), tally(plan.engines) {
    if (!plan.boundaries.empty()) progress.entrants.assign(static_cast<std::size_t>(plan.engines), FinalEntrant{});
  }

  const AdaptiveProgress& finish(AdaptiveEnd end) {
    progress.complete = true;
    progress.end = end;
    return progress;
  }

  // A final's check before round `round` (or after the last, when the budget is spent): each engine's interval
  // and whether it is clear of every boundary. True when some interval still straddles one.
  bool check(int round, const rating::Rating& fit, const std::vector<int>& order, std::vector<RankSpan>& spans) {
    bool everyone_played = false;
    spans = rank_spans(plan, tally, fit, order, everyone_played);
    bool open = false;
    for (std::size_t e = 0; e < spans.size(); ++e) {
      FinalEntrant& entrant = progress.entrants[e];
      entrant.low = spans[e].low;
      entrant.high = spans[e].high;
      if (straddles(spans[e], plan.boundaries)) {
        entrant.clear_after = 0;
        open = true;
      } else if (entrant.clear_after == 0) {
        entrant.clear_after = round - 1;
        entrant.games = tally.games_of(static_cast<int>(e));
      }
    }
    return open;
  }

  // A final's later round: the pairs final_pairs() names, weighed and chosen as an adaptive round's.
  AdaptiveRound final_round(int round, const rating::Rating& fit, const std::vector<int>& order,
                            const std::vector<RankSpan>& spans) const {
    std::vector<AdaptiveCandidate> pairs;
    const auto r = static_cast<std::uint64_t>(round);
    for (const Pairing& p : final_pairs(order, spans, plan.boundaries))
      pairs.push_back({rating::los(fit, p.second, p.first), tally.games(p.first, p.second),
                       mix(plan.seed, r, static_cast<std::uint64_t>(p.first), static_cast<std::uint64_t>(p.second)),
                       p});
    AdaptiveRound out;
    out.round = round;
    out.boards = choose_boards(std::move(pairs), plan.engines, Weigh::Games);
    pair_idle(order, spans, plan.boundaries, out.boards);
    return out;
  }

  // The next round after the complete ones, or the end (progress.complete).
  void pair_next(const GameResults& results) {
    const int r = static_cast<int>(progress.rounds.size()) + 1;
    const int pairs_left = (plan.budget_games - progress.games_paired) / 2;
    const bool is_final = !plan.boundaries.empty();
    if (r == 1) {
      if (pairs_left <= 0) {
        finish(AdaptiveEnd::Budget);
        return;
      }
      AdaptiveRound round = first_round(plan);
      if (round.boards.size() > static_cast<std::size_t>(pairs_left))
        round.boards.resize(static_cast<std::size_t>(pairs_left));  // a budget smaller than round 1
      push(std::move(round));
      return;
    }
    const rating::Rating fit = fit_of(plan.engines, tally.pairings());
    const std::vector<int> order = order_of(plan, fit.elo);
    std::vector<RankSpan> spans;
    if (is_final && !check(r, fit, order, spans)) {
      finish(AdaptiveEnd::Decided);
      return;
    }
    if (pairs_left <= 0) {
      finish(AdaptiveEnd::Budget);
      return;
    }
    AdaptiveRound round = is_final ? final_round(r, fit, order, spans) : later_round(plan, r, tally, fit, order);
    if (round.boards.empty()) {
      finish(AdaptiveEnd::Settled);
      return;
    }
    // The last round of the budget is cut to the pairs it has left, the most uncertain kept.
    if (round.boards.size() > static_cast<std::size_t>(pairs_left))
      round.boards.resize(static_cast<std::size_t>(pairs_left));
    // The bootstrap costs a thousand replays: a round with a game in the results was due when it was played
    // (the same rules on the same results), so the target is only checked before the first round without any.
    if (plan.target_width > 0 && !has_a_result(round, results) &&
        widest_interval(plan, tally, fit, order) <= plan.target_width) {
      finish(AdaptiveEnd::Target);
      return;
    }
    push(std::move(round));
  }

  void push(AdaptiveRound round) {
    progress.games_paired += 2 * static_cast<int>(round.boards.size());
    progress.rounds.push_back(std::move(round));
  }

  AdaptivePlan plan;
  PairTally tally;  // the games of the rounds counted so far
  AdaptiveProgress progress;
  std::size_t counted = 0;  // rounds in the tally
};

AdaptiveReplay::AdaptiveReplay(AdaptivePlan plan) : state_(std::make_unique<State>(std::move(plan))) {
  assert(state_->plan.engines >= 2 && state_->plan.budget_games >= 2 && state_->plan.budget_games % 2 == 0);
}
AdaptiveReplay::~AdaptiveReplay() = default;
AdaptiveReplay::AdaptiveReplay(AdaptiveReplay&&) noexcept = default;
AdaptiveReplay& AdaptiveReplay::operator=(AdaptiveReplay&&) noexcept = default;

const AdaptiveProgress& AdaptiveReplay::update(const GameResults& results) {
  State& s = *state_;
  // Every round adds a pair of the budget, so the budget bounds the rounds.
  for (int step = 0; step <= s.plan.budget_games && !s.progress.complete; ++step) {
    if (s.counted < s.progress.rounds.size()) {
      const AdaptiveRound& last = s.progress.rounds.back();
      if (!is_complete(last, results)) break;
      s.tally.add(last, results);
      ++s.counted;
    }
    s.pair_next(results);
  }
  return s.progress;
}

AdaptiveProgress replay_adaptive(const AdaptivePlan& plan, const GameResults& results) {
  return AdaptiveReplay(plan).update(results);
}

}  // namespace kalah::arena
