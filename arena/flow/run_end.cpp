// What the terminal says when a run stops before its end, shared by every kind of tournament.
#include <fmt/core.h>

#include "arena/flow/tournaments.h"

namespace kalah::arena {

std::optional<int> report_interruption(const FlowResult& r, std::FILE* out) {
  if (!r.run.interrupted) return std::nullopt;
  if (r.run.limited) {
    fmt::print(out,
               "stopped after {} game{} as --max-games asked: {} games are in {}; run the same command again to "
               "play the rest\n",
               r.run.played, r.run.played == 1 ? "" : "s", r.games, r.journal.string());
    return 0;
  }
  fmt::print(out, "interrupted: {} games are in {}; run the same command again to resume\n", r.games,
             r.journal.string());
  return interrupted_exit_code(r.interrupt_signal);
}

}  // namespace kalah::arena
