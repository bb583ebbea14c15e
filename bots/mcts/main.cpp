// kalah-mcts: the KEP engine around mcts::Search.
#include "bots/mcts/mcts.h"

int main(int argc, char** argv) {
  kalah::mcts::MctsBot bot;
  return kalah::bot::main(bot, argc, argv);
}
