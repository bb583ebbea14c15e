// kalah-alphabeta: the KEP engine around alphabeta::Search.
#include "bots/alphabeta/alphabeta.h"

int main(int argc, char** argv) {
  kalah::alphabeta::AlphaBetaBot bot;
  return kalah::bot::main(bot, argc, argv);
}
