// A journal's game checked against the rules (docs/VERIFY.md): its moves replayed from its start
// position, and its final stores, pie swap and result compared with what the rules and the way it
// ended allow. Pure: a record in, the first problem out.
#pragma once

#include <optional>
#include <string>

#include "referee/record/record.h"

namespace kalah::integrity {

// nullopt when the record is consistent; otherwise what is wrong, for people ("move 12 (pit 3) is
// illegal here (legal: 1 2 5)", "the result is 1-0 but the final stores 20-28 give 0-1").
std::optional<std::string> check_game(const GameRecord& game);

}  // namespace kalah::integrity
