// The shared bot loop's own cost per ply (bots/common): a recorded session of `games` games, the
// requests as the referee words them (newgame and isready, then position and go every ply), played
// through kalah::bot::run() in this process from memory, the answers to /dev/null. No pipe and no
// other process: what the loop adds to a round trip when a bot chooses its move in no time.
//
//   bot_loop_bench [--games N] [--rounds N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bots/common/bot.h"
#include "referee/rules/position.h"

namespace {

// The first legal move, at once: the loop's cost, not a bot's.
class FirstMoveBot : public kalah::bot::Bot {
 public:
  std::string name() const override { return "first-move"; }
  bool instant() const override { return true; }
  kalah::Move choose(const kalah::bot::SearchContext& c) override {
    return kalah::legal_moves(c.variant, c.position).moves[0];
  }
};

// Random games (seeded) as the referee sends them; counts their plies.
std::string session(int games, long long& plies) {
  const kalah::Variant variant;  // pits=6 seeds=4
  std::mt19937 rng(1);
  std::string text = "kep\n";
  plies = 0;
  for (int g = 0; g < games; ++g) {
    text += "newgame " + to_string(variant) + "\nisready\n";
    kalah::Position position = start_position(variant);
    std::string moves;
    while (!position.over) {
      text += "position startpos" + (moves.empty() ? "" : " moves" + moves) + "\ngo movetime 1000\n";
      const kalah::MoveList legal = kalah::legal_moves(variant, position);
      const kalah::Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
      apply(variant, position, m);
      moves += " " + to_string(m);
      ++plies;
    }
  }
  return text + "quit\n";
}

}  // namespace

int main(int argc, char** argv) {
  int games = 2000, rounds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--games") {
      games = std::atoi(argv[i + 1]);
    } else if (a == "--rounds") {
      rounds = std::atoi(argv[i + 1]);
    } else {
      fmt::print(stderr, "usage: bot_loop_bench [--games N] [--rounds N]\n");
      return 2;
    }
  }
  long long plies = 0;
  std::string text = session(games, plies);
  std::vector<double> per_ply;
  for (int round = 0; round < rounds; ++round) {
    std::FILE* in = fmemopen(text.data(), text.size(), "r");
    std::FILE* out = std::fopen("/dev/null", "w");
    if (!in || !out) return 1;
    FirstMoveBot bot;
    const auto t0 = std::chrono::steady_clock::now();
    kalah::bot::run(bot, in, out);
    const auto t1 = std::chrono::steady_clock::now();
    std::fclose(in);
    std::fclose(out);
    per_ply.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(plies));
    fmt::print("round {}: {:.3f} us/ply\n", round + 1, per_ply.back());
  }
  std::sort(per_ply.begin(), per_ply.end());
  fmt::print("{} games, {} plies: median {:.3f} us/ply\n", games, plies, per_ply[per_ply.size() / 2]);
  return 0;
}
