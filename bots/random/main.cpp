// kalah-random: a uniformly random legal move, from a seeded generator.
#include <random>

#include "bots/common/bot.h"

namespace {

class RandomBot : public kalah::bot::Bot {
 public:
  std::string name() const override { return "kalah-random"; }
  std::vector<kalah::kep::OptionDecl> options() const override {
    return {{"Seed", "spin", std::to_string(seed_), 0, 2147483647}};
  }
  bool set_option(const std::string& name, const std::string& value) override {
    if (name != "Seed") return false;
    try {
      seed_ = std::stoull(value);
    } catch (const std::exception&) {
      return false;
    }
    rng_.seed(seed_);
    return true;
  }
  bool instant() const override { return true; }
  kalah::Move choose(const kalah::bot::SearchContext& c) override {
    const kalah::MoveList moves = kalah::legal_moves(c.variant, c.position);
    return moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng_)];
  }

 private:
  unsigned long long seed_ = 1;
  std::mt19937_64 rng_{1};
};

}  // namespace

int main(int argc, char** argv) {
  RandomBot bot;
  if (!kalah::bot::apply_arguments(bot, argc, argv)) return 2;
  return kalah::bot::run(bot);
}
