// The tournaments the arena plays, each a listener on the one flow (arena/flow/flow.h) that
// prints what its operator wants to see. Both resume what the journal already holds.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "arena/config/config.h"
#include "arena/config/description.h"
#include "arena/flow/flow.h"
#include "arena/journal/journal.h"
#include "arena/runner/round_source.h"
#include "referee/rules/expected.h"
#include "referee/stats/sprt.h"

namespace kalah::arena {

// The exit code of a tournament that was played: 0 when it ran to its end, 128 + the signal when a
// signal interrupted it, as a shell reports it (130 for Ctrl-C, 143 for SIGTERM; running the same
// command again resumes it); kInterrupted when it was stopped otherwise.
inline constexpr int kInterrupted = 130;
inline int interrupted_exit_code(int signal) { return signal > 0 ? 128 + signal : kInterrupted; }
// For an interrupted run: says where its games are and how to resume, and gives the exit code;
// nullopt for a run that went to its end.
std::optional<int> report_interruption(const FlowResult& run, std::FILE* out);

// The exit codes of an SPRT that ran to its end (`arena sprt`, `arena run` on an [sprt] config, and the
// merge of its shards by `arena report`): the decision as a gate for a CI job. H1 accepted is success.
inline constexpr int kSprtH1 = 0;
inline constexpr int kSprtH0 = 1;
inline constexpr int kSprtUndecided = 3;
// An SPRT's decision as that gate: kSprtH1, kSprtH0 or kSprtUndecided.
inline int sprt_exit_code(stats::Decision decision) {
  return decision == stats::Decision::H1 ? kSprtH1 : decision == stats::Decision::H0 ? kSprtH0 : kSprtUndecided;
}

// A round robin or gauntlet: every game of the schedule not yet in the journal, a progress line as they
// finish, the standings table at the end. Errors are operator-facing (journal, reports).
Expected<int> play_schedule(const Config& config, const FlowOptions& options = {}, std::FILE* out = stdout);

// What a tournament paired round by round says, given by its format (arena/formats/<kind>/): the start line's
// account of its games, and at the end, before the standings, its own table or how far it went.
struct RoundsText {
  std::function<std::string(const Config&)> games;
  std::function<std::string(const Config&, const TournamentDescription&, RoundSource&)> end;
};

// `arena run` on a Swiss, knockout or adaptive tournament (never sharded): round by round, each round paired
// by `pairing` from the results of the ones before (arena/runner/round_source.h); the start line, the progress
// line as games finish, and at the end `text.end`, then the rating list.
Expected<int> play_rounds(const Config& config, std::unique_ptr<RoundPairing> pairing, const RoundsText& text,
                          const FlowOptions& options = {}, std::FILE* out = stdout);

// `arena sprt`, and `arena run` on a config with an [sprt] table: colour-swapped pairs between
// engines[0] (base) and engines[1] (test) until the SPRT decides or max_pairs; a line per finished
// pair, <results>/sprt.json rewritten after every pair and at the end, the decision last. Returns
// kSprtH1, kSprtH0 or kSprtUndecided (max_pairs), or the interrupted code.
// A shard (config.shard) plays its own pairs while it reads the other shards' journals, stops when
// the test over all of them decides, and returns 0 whatever the decision: its task is done, and the
// merge (`arena report` of its folder, report::rewrite_reports) is the gate.
Expected<int> play_sprt(const Config& config, const FlowOptions& options = {}, std::FILE* out = stdout);

}  // namespace kalah::arena
