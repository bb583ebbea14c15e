// kalah-greedy: the move that gains most seeds in its store right now, moves
// that earn another turn first; ties broken by a seeded generator.
#include <random>

#include "bots/common/bot.h"

namespace {

class GreedyBot : public kalah::bot::SeededBot {
 public:
  std::string name() const override { return "kalah-greedy"; }
  bool instant() const override { return true; }

  kalah::Move choose(const kalah::bot::SearchContext& c) override {
    using namespace kalah;
    const Side me = c.position.to_move;
    const int before = store(c.variant, c.position, me) - store(c.variant, c.position, opponent(me));
    int best_score = -1000000;
    std::vector<Move> best;
    for (Move m : legal_moves(c.variant, c.position)) {
      const Position next = after(c.variant, c.position, m);
      // After a swap the stores are the same but the sides are exchanged: I
      // now own the side that was my opponent's.
      const Side mine = m.is_swap() ? opponent(me) : me;
      int score = store(c.variant, next, mine) - store(c.variant, next, opponent(mine)) - before;
      if (!next.over && next.to_move == mine && !m.is_swap()) score += 1000;  // another turn
      if (score > best_score) best_score = score, best.clear();
      if (score == best_score) best.push_back(m);
    }
    return best[std::uniform_int_distribution<size_t>(0, best.size() - 1)(rng())];
  }
};

}  // namespace

int main(int argc, char** argv) {
  GreedyBot bot;
  return kalah::bot::main(bot, argc, argv);
}
