// The KGP side of `referee suite` (docs/KGP.md, "Grading a KGP agent"): every labelled position sent to a
// KGP agent as one `state`, this process being its server. The agent chooses the mode in its handshake:
// - `freeplay`: its last `move` before `yield` or the stop is graded;
// - `eval`: its last `eval` of the position is its score (the suite's rank correlation), and its move is the
//   one whose board it values best: each board after a legal move is sent as a state of its own, the eval
//   of a board where the other side moves counted negated (the view of the side to move, as the
//   specification describes an evaluation: a better chance of winning, a better score), a finished game
//   worth more than any eval when won, less when lost, 0 when drawn.
// A failure (no move or eval before the stop, an illegal move, garbage, a lost connection) is an answer
// with its reason, and the agent is started again for the next position, as run_positions does.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "referee/kgp/agent_connection.h"
#include "referee/suite/grading.h"
#include "referee/suite/labels.h"
#include "referee/suite/run.h"

namespace kalah::suite {

struct KgpRun {
  std::string mode;  // the mode the agent asked for first: "freeplay" or "eval"; empty when it never did
  std::vector<Answer> answers;
};

// Each state lasts settings.time.movetime_ms or until the agent yields; startup_ms bounds each start.
KgpRun run_kgp_positions(const kgp::AgentCommand& agent, const Variant& v,
                         const std::vector<LabelledPosition>& positions, const RunSettings& settings,
                         const std::function<void(std::size_t, const Answer&)>& report);

}  // namespace kalah::suite
