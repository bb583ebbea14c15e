#include "referee/suite/positions.h"

#include <array>
#include <cassert>

#include "referee/rules/opening.h"

namespace kalah::suite {

const char* to_string(Phase p) {
  switch (p) {
    case Phase::Early: return "early";
    case Phase::Middle: return "middle";
    case Phase::Late: return "late";
  }
  return "?";
}

std::optional<Phase> parse_phase(std::string_view text) {
  for (Phase p : {Phase::Early, Phase::Middle, Phase::Late})
    if (text == to_string(p)) return p;
  return std::nullopt;
}

int seeds_in_pits(const Variant& v, const Position& p) {
  int k = 0;
  for (int i = 0; i < v.cells(); ++i)
    if (i != v.south_store() && i != v.north_store()) k += p.cells[static_cast<std::size_t>(i)];
  return k;
}

Phase phase_of(const Variant& v, const Position& p) {
  // Compared as 3k against T and 2T, so no rounding decides a boundary.
  const int k3 = 3 * seeds_in_pits(v, p);
  const int total = v.total_seeds();
  if (k3 > 2 * total) return Phase::Early;
  if (k3 > total) return Phase::Middle;
  return Phase::Late;
}

int phase_quota(int total, Phase p) {
  const int i = static_cast<int>(p);
  return total / kPhases + (i < total % kPhases ? 1 : 0);
}

Move greedy_move(const Variant& v, const Position& p, std::mt19937_64& rng) {
  assert(!p.over);
  const Side mover = p.to_move;
  const int before = store(v, p, mover);
  std::array<Move, Variant::kMaxPits> best{};
  int ties = 0;
  int best_gain = -1;
  for (Move m : legal_moves(v, p)) {
    if (m.is_swap()) continue;
    const int gain = store(v, after(v, p, m), mover) - before;
    if (gain > best_gain) {
      best_gain = gain;
      ties = 0;
    }
    if (gain == best_gain) best[static_cast<std::size_t>(ties++)] = m;
  }
  assert(ties > 0);
  return best[static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(ties))];
}

CandidateStream::CandidateStream(const Variant& v, std::uint64_t seed) : variant_(v), rng_(seed) {}

std::vector<Candidate> CandidateStream::next_game() {
  const int game = games_++;
  const int plies = 2 + static_cast<int>(rng_() % 5);
  std::vector<Move> moves;
  if (std::optional<Opening> opening = random_opening(variant_, plies, rng_)) moves = *opening;
  Position p = start_position(variant_);
  for (Move m : moves) apply(variant_, p, m);
  std::array<std::vector<Candidate>, kPhases> by_phase;
  while (!p.over) {
    if (legal_move_count(variant_, p) >= 2) {
      const Phase phase = phase_of(variant_, p);
      by_phase[static_cast<std::size_t>(phase)].push_back(Candidate{moves, p, phase, game});
    }
    const Move m = greedy_move(variant_, p, rng_);
    apply(variant_, p, m);
    moves.push_back(m);
  }
  std::vector<Candidate> out;
  for (std::vector<Candidate>& list : by_phase) {
    if (list.empty()) continue;
    out.push_back(std::move(list[static_cast<std::size_t>(rng_() % list.size())]));
  }
  return out;
}

std::string moves_text(const std::vector<Move>& moves) {
  std::string text = "startpos";
  for (std::size_t i = 0; i < moves.size(); ++i) text += (i == 0 ? " moves " : " ") + to_string(moves[i]);
  return text;
}

}  // namespace kalah::suite
