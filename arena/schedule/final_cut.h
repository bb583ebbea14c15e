// The stopping rule of a final (docs/SCHEDULE.md, "Finals that stop themselves"): an adaptive tournament with
// declared boundaries (prize places, grade cuts) plays only the entrants whose 95% rank interval still
// straddles one of them. Pure: the intervals come in, the pairs to weigh go out (arena/schedule/adaptive.cpp
// weighs and chooses them as it does an adaptive round's).
#pragma once

#include <vector>

#include "arena/schedule/schedule.h"

namespace kalah::arena {

// An engine's 95% rank interval: places `low` (its best) to `high` (its worst), 1 = first.
struct RankSpan {
  int low = 0, high = 0;
};

// A boundary k lies between places k and k + 1 (the top k against the rest): an interval straddles it when it
// holds places on both sides, low <= k < high. `boundaries` ascending.
bool straddles(const RankSpan& span, const std::vector<int>& boundaries);

// The pairs a final weighs for its next round, each once, the engine higher in `order` first: for each
// boundary k, every engine straddling it now placed above it (place <= k) against every one placed below it,
// the games that decide who is on which side. When all of them are on one side, the other side is the engine
// just across the boundary (the one at place k + 1, or at place k): the only games that can settle them, so
// that engine plays although its own interval may be clear. `order`: every engine, best first (place =
// index + 1); `spans`: by engine index.
std::vector<Pairing> final_pairs(const std::vector<int>& order, const std::vector<RankSpan>& spans,
                                 const std::vector<int>& boundaries);

// Appends to `boards` (a round's boards, chosen from final_pairs) the entrants that straddle a boundary but
// found no board, because more uncertain pairs took their neighbours: for each boundary in turn, those of them
// that straddle it, in `order`, the first with the second, the third with the fourth, ... So every entrant with
// a decision open plays each round but at most one.
void pair_idle(const std::vector<int>& order, const std::vector<RankSpan>& spans, const std::vector<int>& boundaries,
               std::vector<Pairing>& boards);

}  // namespace kalah::arena
