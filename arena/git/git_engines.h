// A git SPRT's two engines: the config's [sprt] repo (or `arena sprt --repo`) turned into the base and
// test engines every SPRT plays, so that nothing after this step knows they came from git.
#pragma once

#include "arena/config/config.h"
#include "arena/git/git_build.h"
#include "referee/rules/expected.h"

namespace kalah::arena::git {

// For a config whose [sprt] has a repo: resolves base_ref and test_ref to their commits and sets the two
// engines (base, then test) as `run` names them, before anything is built: what the tournament is, for
// comparing it with a results folder's (arena/flow's results_clash). Nothing for another config. Errors:
// a ref that names no commit.
Expected<bool> plan_git_engines(Config& config);

// Then (planning first when that was not done): checks out and builds both commits (build_commit) and makes
// the two engines run with `run` in their built trees; fills in each side's build time. Errors: those of
// planning, a failed build (with its log's tail), a `run` program that the build did not make.
Expected<bool> prepare_git_engines(Config& config, const Say& say);

// A git SPRT's build logs, from the build cache into <results>/logs/<base|test>/build.log, so that the results
// folder says how its engines were made (the cache may be cleaned): the flow's FlowOptions::results_opened, once
// the folder is the run's. A failure is a warning on stderr. Nothing for a config whose engines are not from git.
void copy_build_logs(const Config& config);

}  // namespace kalah::arena::git
