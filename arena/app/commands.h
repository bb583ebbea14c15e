// Subcommands of the `arena` executable: each reads its options, calls the library and returns
// its exit code. Operator mistakes are thrown as cli::UsageError (exit code 2).
#pragma once

#include <string>

#include "arena/config/config.h"
#include "arena/flow/flow.h"
#include "referee/app/cli.h"

namespace kalah::arena_app {

using cli::UsageError;

// `arena run CONFIG`: play (or resume) a tournament, a round robin, a gauntlet or an SPRT match.
void add_run_command(cli::Commands& commands);
// `arena report DIR`: every report again from a results folder's journal.
void add_report_command(cli::Commands& commands);
// `arena plan CONFIG --shards N`: the split of a tournament into shards.
void add_plan_command(cli::Commands& commands);
// `arena slurm CONFIG --shards N`: a Slurm job array of the shards and a merge job.
void add_slurm_command(cli::Commands& commands);
// `arena sprt`: a regression match from a config or from options.
void add_sprt_command(cli::Commands& commands);
// `arena match -engine ... -each ...`: a tournament from cutechess-style flags.
void add_match_command(cli::Commands& commands);
// `arena contest build|withdraw|disqualify`: a class contest's entrants.
void add_contest_command(cli::Commands& commands);
// `arena stats`: Elo, LOS, nElo and the SPRT of given counts.
void add_stats_command(cli::Commands& commands);
// `arena verify DIR|FILE.tar.gz`: replay, recompute and check a results folder or its archive.
void add_verify_command(cli::Commands& commands);
// `arena archive DIR`: one deterministic .tar.gz of a results folder that `arena verify` accepts.
void add_archive_command(cli::Commands& commands);

// What `arena report DIR` does (every report of one folder again), for commands that change what they show.
// Returns its exit code (an SPRT's decision); throws UsageError.
int report_folder(const std::string& dir);
// Before a run starts anything: with `check_results`, a results folder that holds another tournament is refused,
// naming what differs and `other_name`, how to keep those results and run this one beside them ("another
// --name"); then a git SPRT's engines (arena/git): both commits checked out and built, then added to
// `config`, saying what it does on stdout. A git SPRT's refs are resolved first, so that a folder of another
// match is refused before anything is built. Throws UsageError (the folder holds another tournament, a ref
// that names no commit, a failed build with its log's tail: exit code 2). Returns the flow's options with what
// the prepared engines need of the run (a git SPRT's build logs copied into its results folder once it is open).
arena::FlowOptions prepare_engines(arena::Config& config, bool check_results, const std::string& other_name);
// `arena analyse DIR...`: every ply of every game valued with perfect play, into DIR/analysis.jsonl.
void add_analyse_command(cli::Commands& commands);
// `arena serve DIR...`: the results folders over HTTP, read-only (docs/SERVE.md); with --season, a season's uploads.
void add_serve_command(cli::Commands& commands);
// `arena season init DIR --roster FILE`: a new season's folder (docs/SEASON.md).
void add_season_command(cli::Commands& commands);

}  // namespace kalah::arena_app
