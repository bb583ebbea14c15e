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

// The pairs a final weighs for its next round, each once, the engine higher in `order` first. For each
// boundary, the engines straddling it, in `order`, are paired with their neighbours among them; an engine that
// straddles a boundary alone is paired with the engine just across it (the one at place k + 1 for an engine at
// or above place k, else the one at place k): the only games that can settle it, so that engine plays although
// its own interval is clear. `order`: every engine, best first (place = index + 1); `spans`: by engine index.
std::vector<Pairing> final_pairs(const std::vector<int>& order, const std::vector<RankSpan>& spans,
                                 const std::vector<int>& boundaries);

}  // namespace kalah::arena
