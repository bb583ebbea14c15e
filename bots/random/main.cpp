// kalah-random: a uniformly random legal move, from a seeded generator.
#include <random>

#include "bots/common/bot.h"

namespace {

class RandomBot : public kalah::bot::SeededBot {
 public:
  std::string name() const override { return "kalah-random"; }
  bool instant() const override { return true; }
  kalah::Move choose(const kalah::bot::SearchContext& c) override {
    const kalah::MoveList moves = kalah::legal_moves(c.variant, c.position);
    return moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng())];
  }
};

}  // namespace

int main(int argc, char** argv) {
  RandomBot bot;
  return kalah::bot::main(bot, argc, argv);
}
