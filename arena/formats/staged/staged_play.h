// Playing a staged tournament (docs/CONFIG.md, "Staged"): `arena run` on type = "staged" and `arena season final`
// on final = "staged". Each stage is an ordinary round robin played by the one flow (arena/flow) into a folder of
// its own, <results>/<name>/stage-k/, so its journal, reports, resume and `arena verify` are every tournament's.
// Which stage comes next, and who plays it, is derived from the stages' journals each time (derive_record): a
// killed run resumes the stage it was playing, and a complete stage is never played again.
#pragma once

#include <cstdio>

#include "arena/config/config.h"
#include "arena/flow/flow.h"
#include "arena/formats/staged/staged_record.h"
#include "referee/rules/expected.h"

namespace kalah::staged {

// The round robin of stage k (1-based) for `engines`: the config with the stage's variant, rounds and seed, the
// engines named (in config order), named stage-k under the staged folder. A contest's entry states are left out:
// the stage's engines are those still in.
arena::Config stage_config(const arena::Config& config, int k, const std::vector<std::string>& engines);

// Plays (or resumes) `config`'s staged tournament, then writes staged.json and staged.md: each stage's games not in
// its journal yet, stage after stage, until the last stage or until fewer than two engines are left. `options.fresh`
// moves the whole staged folder aside first (<name>.bak, .bak2, ...). Returns 0 once finished, or the exit code of
// the stage's run that stopped (interrupted: the same command resumes it). Errors: a folder declared otherwise
// (staged.json names other stages, engines or seed), a stage's folder that is not what the rules make of the stage
// before, and every error of the flow.
Expected<int> play_staged(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out = stdout);

}  // namespace kalah::staged
