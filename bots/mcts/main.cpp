// kalah-mcts: the KEP engine around mcts::Search.
#include "bots/mcts/mcts.h"

int main(int argc, char** argv) {
  kalah::mcts::MctsBot bot;
  if (!kalah::bot::apply_arguments(bot, argc, argv)) return 2;
  return kalah::bot::run(bot);
}
