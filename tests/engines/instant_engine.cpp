// An instant-reply KEP engine for the per-ply overhead benchmark and the conformance tests. It follows `newgame`'s
// pits, seeds and pie (standard capture only; Kalah(6,4) until told otherwise), replays `position startpos moves ...`
// with a tiny sower and answers every `go` at once with the first non-empty pit of the side to move. `swap` (pie rule)
// changes neither the board nor the side to move. `--score N` makes it report `info depth 1 score N` before every
// bestmove (the adjudication tests). `--seeds-to FILE` makes it announce `feature seed` and append the `seed=` of
// every `newgame` to FILE, one a line: what a bot that tries to recognise its games has to go on (the seed tests).
// For the CPU clock's tests: `--sleep MS` sleeps MS ms before every bestmove (it spends no CPU time); `--ponder`
// keeps a thread busy from each bestmove until the next `go` (the opponent's time); `--burn-on-newgame MS` uses
// MS ms of CPU time after `newgame`, before it answers `isready`.
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Board {
  int pits = 6;
  int seeds = 4;
  bool pie = false;
  std::vector<int> cells;  // South's pits 0..pits-1, its store pits; North's pits after it, then North's store
  int to_move = 0;         // 0 South, 1 North
  bool first_move = true;

  void reset() {
    cells.assign(2 * pits + 2, seeds);
    cells[pits] = cells[2 * pits + 1] = 0;
    to_move = 0;
    first_move = true;
  }

  void play(int pit) {  // pit 1..pits from the mover's left
    const int size = 2 * pits + 2, base = (pits + 1) * to_move, own_store = base + pits;
    const int opponent_store = (pits + 1) * (1 - to_move) + pits;
    int i = base + pit - 1;
    int left = cells[i];
    cells[i] = 0;
    while (left > 0) {
      i = (i + 1) % size;
      if (i == opponent_store) continue;
      ++cells[i];
      --left;
    }
    const bool pie_first = pie && first_move;
    first_move = false;
    if (i == own_store && !pie_first) return;  // extra turn (never on the first move under the pie rule)
    if (i >= base && i < base + pits && cells[i] == 1 && cells[2 * pits - i] > 0) {
      cells[own_store] += 1 + cells[2 * pits - i];
      cells[i] = cells[2 * pits - i] = 0;
    }
    to_move ^= 1;
  }

  int first_legal() const {
    for (int pit = 1; pit <= pits; ++pit) {
      if (cells[(pits + 1) * to_move + pit - 1] > 0) return pit;
    }
    return 1;  // no move: the game is over and the referee should not have asked
  }
};

// "pits=6" -> 6 into `value` when `word` starts with `key`.
void read_key(const std::string& word, const std::string& key, int& value) {
  if (word.rfind(key, 0) == 0) value = std::stoi(word.substr(key.size()));
}

// The CPU time this process has used, in ms.
double cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

void burn(double ms) {
  const double until = cpu_ms() + ms;
  while (cpu_ms() < until) {
  }
}

// A thread that spins while `on` is set: the pondering of --ponder.
class Ponderer {
 public:
  ~Ponderer() { stop(); }
  void start() {
    stop();
    on_ = true;
    thread_ = std::thread([this] {
      while (on_.load(std::memory_order_relaxed)) {
      }
    });
  }
  void stop() {
    on_ = false;
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> on_{false};
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::string info;
  std::string seeds_to;
  int sleep_ms = 0, burn_on_newgame_ms = 0;
  bool ponder = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    if (flag == "--score" && has_value) info = "info depth 1 score " + std::string(argv[++i]) + "\n";
    if (flag == "--seeds-to" && has_value) seeds_to = argv[++i];
    if (flag == "--sleep" && has_value) sleep_ms = std::stoi(argv[++i]);
    if (flag == "--burn-on-newgame" && has_value) burn_on_newgame_ms = std::stoi(argv[++i]);
    if (flag == "--ponder") ponder = true;
  }
  Ponderer ponderer;
  Board board;
  board.reset();
  std::string line, word;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    word.clear();
    in >> word;
    if (word == "kep") {
      std::cout << "id name instant\n" << (seeds_to.empty() ? "" : "feature seed\n") << "kepok\n" << std::flush;
    } else if (word == "isready") {
      std::cout << "readyok\n" << std::flush;
    } else if (word == "newgame") {
      while (in >> word) {
        read_key(word, "pits=", board.pits);
        read_key(word, "seeds=", board.seeds);
        if (word.rfind("pie=", 0) == 0) board.pie = word == "pie=on";
        if (word.rfind("seed=", 0) == 0 && !seeds_to.empty())
          std::ofstream(seeds_to, std::ios::app) << word.substr(5) << '\n';
      }
      board.reset();
      if (burn_on_newgame_ms > 0) burn(burn_on_newgame_ms);
    } else if (word == "position") {
      board.reset();
      while (in >> word) {
        if (word != "startpos" && word != "moves" && word != "swap") board.play(std::stoi(word));
      }
    } else if (word == "go") {
      ponderer.stop();
      if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
      std::cout << info << "bestmove " << board.first_legal() << '\n' << std::flush;
      if (ponder) ponderer.start();
    } else if (word == "quit") {
      ponderer.stop();
      return 0;
    }
  }
  return 0;
}
