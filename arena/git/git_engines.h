// A git SPRT's two engines: the config's [sprt] repo (or `arena sprt --repo`) turned into the base and
// test engines every SPRT plays, so that nothing after this step knows they came from git.
#pragma once

#include "arena/config/config.h"
#include "arena/git/git_build.h"
#include "referee/rules/expected.h"

namespace kalah::arena::git {

// For a config whose [sprt] has a repo: resolves base_ref and test_ref, checks out and builds both
// commits (build_commit) and appends the two engines (base, then test) to config.engines, each run
// with `run` in its built tree; fills in each side's commit and build time. Nothing for another config.
// Errors: a ref that names no commit, a failed build (with its log's tail), a `run` program that the
// build did not make.
Expected<bool> prepare_git_engines(Config& config, const Say& say);

}  // namespace kalah::arena::git
