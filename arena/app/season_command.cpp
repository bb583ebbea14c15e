// `arena season init DIR --roster AUTHORS.txt`: a new season's folder; `arena season freeze DIR/season.toml`: its
// intake closed and each author's last entered revision fixed; `arena season final DIR/season.toml`: the final over
// those revisions (docs/SEASON.md). The season itself is served by `arena serve --season` (serve_command.cpp).
#include <algorithm>
#include <string>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/flow/tournaments.h"
#include "arena/formats/registry.h"
#include "arena/season/final.h"
#include "arena/season/freeze.h"
#include "arena/season/init.h"
#include "arena/season/ladder_slurm.h"
#include "arena/season/season_config.h"
#include "arena/season/tokens.h"
#include "referee/engine/sandbox.h"
#include "referee/record/record_json.h"

namespace kalah::arena_app {
namespace {

struct SeasonOptions {
  std::string dir;
  std::string roster;
  std::string config;
  bool fresh = false;
  season::LadderGameRequest game;
  CLI::App* init = nullptr;
  CLI::App* ladder_game = nullptr;
  CLI::App* freeze = nullptr;
  CLI::App* final_play = nullptr;
};

int run_init(const SeasonOptions& o) {
  Expected<season::InitSummary> made = season::init_season(o.dir, o.roster);
  if (!made) throw UsageError(made.error());
  const std::filesystem::path& dir = made->dir;
  fmt::print("season in {}: {} author{}\n", dir.string(), made->authors.size(), made->authors.size() == 1 ? "" : "s");
  fmt::print("  {}  the config (the contest, [season]: deadline, pseudonyms, upload limits, final)\n",
             (dir / season::kSeasonFile).string());
  fmt::print("  {}  each author's token, to hand out (readable by you only; the season keeps {})\n",
             (dir / season::kTokensFile).string(), season::kTokenHashesFile);
  fmt::print("serve it:  arena serve --season {}\n", (dir / season::kSeasonFile).string());
  return 0;
}

season::SeasonConfig load_season_file(const std::string& file) {
  Expected<season::SeasonConfig> config = season::load_season(file);
  if (!config) throw UsageError(config.error());
  return std::move(config).value();
}

// Each author's line of a freeze record: the revision in the final, or why none is.
void print_authors(const season::FreezeRecord& record) {
  std::size_t width = 0;
  for (const season::FrozenAuthor& a : record.authors) width = std::max(width, a.author.size());
  for (const season::FrozenAuthor& a : record.authors) {
    if (a.in_final())
      fmt::print("  {:<{}}  {} (revision {}, sha256 {})", a.author, width, a.engine, a.revision, a.sha256);
    else
      fmt::print("  {:<{}}  not in the final: {}", a.author, width, a.reason);
    for (int n : a.unprocessed) fmt::print("; revision {} was not processed (queued or building): not in it", n);
    fmt::print("\n");
  }
}

int run_freeze(const SeasonOptions& o) {
  const season::SeasonConfig config = load_season_file(o.config);
  Expected<season::Freeze> done = season::freeze_season(config);
  if (!done) throw UsageError(done.error());
  const season::FreezeRecord& r = done->record;
  const std::string deadline = r.deadline.empty()  ? "no deadline set"
                               : r.before_deadline ? "before its deadline, " + r.deadline
                                                   : "after its deadline, " + r.deadline;
  if (done->written)
    fmt::print("season {} frozen at {} ({}): uploads are refused from now on\n", config.dir.string(), r.frozen_at,
               deadline);
  else
    fmt::print("season {} was frozen at {} already ({}), with the same final: nothing changed\n", config.dir.string(),
               r.frozen_at, deadline);
  print_authors(r);
  const std::size_t finalists = r.finalists().size();
  fmt::print("record: {}\nthe final ({}) plays {} revision{}: arena season final {}\n",
             (config.dir / season::kFreezeFile).string(), r.final, finalists, finalists == 1 ? "" : "s",
             (config.dir / season::kSeasonFile).string());
  return 0;
}

int run_final(const SeasonOptions& o) {
  const season::SeasonConfig season = load_season_file(o.config);
  Expected<arena::Config> loaded = season::final_config(season);
  if (!loaded) throw UsageError(loaded.error());
  arena::Config config = std::move(loaded).value();
  for (const std::string& warning : config.warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
  std::string names;
  for (const EngineSpec& e : config.engines) names += (names.empty() ? "" : ", ") + e.name;
  fmt::print("the final of season {}: {}, {} engines: {}\n", season.dir.string(), season::describe_final(season),
             config.engines.size(), names);
  arena::FlowOptions flow =
      prepare_engines(config, !o.fresh && !config.tournament.staged(), "moving that folder aside");
  for (const EngineSpec& e : config.engines)
    if (auto problem = sandbox_dir_problem(e, config.results_dir()))
      throw UsageError("engine '" + e.name + "': " + *problem);
  flow.fresh = o.fresh;
  Expected<int> played = formats::play(config, flow);
  if (!played) throw UsageError(played.error());
  return *played;
}

// One game of the ladder, in a Slurm job that the server started (docs/SEASON.md, "The ladder on Slurm"): its record
// as one JSON line on stdout, which the server reads and journals.
int run_ladder_game(const SeasonOptions& o) {
  const season::SeasonConfig season = load_season_file(o.config);
  Expected<GameRecord> record = season::play_ladder_game(season, o.game);
  if (!record) throw UsageError(record.error());
  fmt::print("{}\n", to_json_line(*record));
  return 0;
}

int run_season(const SeasonOptions& o) {
  if (o.freeze->parsed()) return run_freeze(o);
  if (o.ladder_game->parsed()) return run_ladder_game(o);
  if (o.final_play->parsed()) return run_final(o);
  return run_init(o);
}

}  // namespace

void add_season_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<SeasonOptions>(
      "season", "A practice season: authors upload any time to `arena serve --season` (docs/SEASON.md)", run_season);
  cmd->require_subcommand(1);
  o->init = cmd->add_subcommand("init", "Make a season's folder: season.toml, tokens.txt (one token per author)");
  o->init->add_option("dir", o->dir, "The season's folder, which must not exist yet")->required();
  o->init->add_option("--roster", o->roster, "The authors' names, one a line ('#' starts a comment)")->required();
  o->freeze = cmd->add_subcommand(
      "freeze", "Close the intake and fix each author's last entered revision for the final (DIR/freeze.json)");
  o->freeze->add_option("config", o->config, "The season's season.toml (its server must be stopped)")->required();
  o->final_play = cmd->add_subcommand(
      "final", "Play the final [season] final declares over the frozen revisions (resumes an unfinished one)");
  o->final_play->add_option("config", o->config, "The season's season.toml, frozen")->required();
  o->final_play->add_flag("--fresh", o->fresh,
                          "Start over: move the final's existing results aside instead of resuming");
  o->ladder_game = cmd->add_subcommand(
      "ladder-game", "Play one game of the ladder and print its record (what the ladder's Slurm jobs run)");
  o->ladder_game->add_option("config", o->config, "The season's season.toml")->required();
  o->ladder_game->add_option("--pair", o->game.pair, "The ladder's pair, from 0")->required();
  o->ladder_game->add_option("--game-in-pair", o->game.game_in_pair, "0, or 1 for the colours swapped")->required();
  o->ladder_game->add_option("--south", o->game.south, "South's engine")->required();
  o->ladder_game->add_option("--north", o->game.north, "North's engine")->required();
  cmd->footer(
      "Examples:\n"
      "  arena season init term1 --roster authors.txt\n"
      "  arena serve --season term1/season.toml --listen 0.0.0.0:8080 --public\n"
      "  arena season freeze term1/season.toml\n"
      "  arena season final term1/season.toml\n"
      "Exit code: 0 done, 2 a usage error (a refused roster, an existing folder, a season in use or not frozen);\n"
      "the final's as `arena run`'s (130 after Ctrl-C: the same command resumes it).\n");
}

}  // namespace kalah::arena_app
