// kalah-alphabeta: the KEP engine around alphabeta::Search.
#include "bots/alphabeta/alphabeta.h"

int main(int argc, char** argv) {
  kalah::alphabeta::AlphaBetaBot bot;
  if (!kalah::bot::apply_arguments(bot, argc, argv)) return 2;
  return kalah::bot::run(bot);
}
