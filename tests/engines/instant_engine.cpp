// An instant-reply KEP engine for the per-ply overhead benchmark. Standard Kalah(6,4) only: it replays
// `position startpos moves ...` with a tiny sower and answers every `go` at once with the first non-empty
// pit of the side to move. `swap` (pie rule) changes neither the board nor the side to move.
// `--score N` makes it report `info depth 1 score N` before every bestmove (the adjudication tests).
#include <array>
#include <iostream>
#include <sstream>
#include <string>

namespace {

struct Board {
  std::array<int, 14> cells{4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0};  // South 0-5, store 6; North 7-12, 13
  int to_move = 0;                                                      // 0 South, 1 North

  void play(int pit) {  // pit 1..6 from the mover's left
    const int base = 7 * to_move, own_store = base + 6, opponent_store = 13 - 7 * to_move;
    int i = base + pit - 1;
    int seeds = cells[i];
    cells[i] = 0;
    while (seeds > 0) {
      i = (i + 1) % 14;
      if (i == opponent_store) continue;
      ++cells[i];
      --seeds;
    }
    if (i == own_store) return;  // extra turn
    if (i >= base && i < base + 6 && cells[i] == 1 && cells[12 - i] > 0) {
      cells[own_store] += 1 + cells[12 - i];
      cells[i] = cells[12 - i] = 0;
    }
    to_move ^= 1;
  }

  int first_move() const {
    for (int pit = 1; pit <= 6; ++pit) {
      if (cells[7 * to_move + pit - 1] > 0) return pit;
    }
    return 1;  // no move: the game is over and the referee should not have asked
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::string info;
  if (argc == 3 && std::string(argv[1]) == "--score") info = "info depth 1 score " + std::string(argv[2]) + "\n";
  Board board;
  std::string line, word;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    word.clear();
    in >> word;
    if (word == "kep") {
      std::cout << "id name instant\nkepok\n" << std::flush;
    } else if (word == "isready") {
      std::cout << "readyok\n" << std::flush;
    } else if (word == "position") {
      board = Board{};
      while (in >> word) {
        if (word != "startpos" && word != "moves" && word != "swap") board.play(std::stoi(word));
      }
    } else if (word == "go") {
      std::cout << info << "bestmove " << board.first_move() << '\n' << std::flush;
    } else if (word == "quit") {
      return 0;
    }
  }
  return 0;
}
