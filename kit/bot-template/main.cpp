// A Kalah engine on Kalah Arena's protocol loop: the loop speaks KEP, keeps the position and calls
// choose() when a move is due. Rename the bot and write your own choose().
#include "bots/common/bot.h"

namespace {

// Plays the move after which its own store holds the most seeds; on a tie, the lowest pit.
class StoreBot : public kalah::bot::Bot {
 public:
  std::string name() const override { return "mybot"; }
  std::string author() const override { return "an engine author"; }
  // choose() is quick, so it runs on the protocol thread (a searching bot returns false and
  // watches c.stop).
  bool instant() const override { return true; }

  kalah::Move choose(const kalah::bot::SearchContext& c) override {
    const kalah::Side me = c.position.to_move;
    kalah::Move best;
    int most = -1;
    // legal_moves() lists pits 1..m, then `swap` when the pie rule offers it.
    for (const kalah::Move m : kalah::legal_moves(c.variant, c.position)) {
      // After a pie swap this player owns the other side, and its store.
      const kalah::Side mine = m.is_swap() ? kalah::opponent(me) : me;
      const int seeds = kalah::store(c.variant, kalah::after(c.variant, c.position, m), mine);
      if (seeds > most) {
        most = seeds;
        best = m;
      }
    }
    return best;
  }

  // `bench` (docs/PROTOCOL.md, "Bench"): a count that names this build, so that a tournament can check it
  // runs the binary you meant. A searching bot returns the nodes of a fixed-depth search of the loop's
  // bench positions, with its default settings; this one counts the positions choose() would look at.
  bool has_bench() const override { return true; }
  long long bench() override {
    long long positions = 0;
    for (const kalah::Position& p : kalah::bot::bench_positions())
      positions += kalah::legal_move_count(kalah::Variant{}, p);
    return positions;
  }
};

}  // namespace

int main(int argc, char** argv) {
  StoreBot bot;
  // Command-line "--name value" pairs set options first (this bot declares none), then the loop
  // runs until `quit`.
  return kalah::bot::main(bot, argc, argv);
}
