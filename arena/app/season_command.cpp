// `arena season init DIR --roster AUTHORS.txt`: a new season's folder (docs/SEASON.md). The season itself is served
// by `arena serve --season DIR/season.toml` (serve_command.cpp).
#include <string>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/season/init.h"
#include "arena/season/season_config.h"
#include "arena/season/tokens.h"

namespace kalah::arena_app {
namespace {

struct SeasonOptions {
  std::string dir;
  std::string roster;
  CLI::App* init = nullptr;
};

int run_season(const SeasonOptions& o) {
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

}  // namespace

void add_season_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<SeasonOptions>(
      "season", "A practice season: authors upload any time to `arena serve --season` (docs/SEASON.md)", run_season);
  cmd->require_subcommand(1);
  o->init = cmd->add_subcommand("init", "Make a season's folder: season.toml, tokens.txt (one token per author)");
  o->init->add_option("dir", o->dir, "The season's folder, which must not exist yet")->required();
  o->init->add_option("--roster", o->roster, "The authors' names, one a line ('#' starts a comment)")->required();
  cmd->footer(
      "Examples:\n"
      "  arena season init term1 --roster authors.txt\n"
      "  arena serve --season term1/season.toml --listen 0.0.0.0:8080 --public\n"
      "Exit code: 0 done, 2 a usage error (a refused roster, an existing folder).\n");
}

}  // namespace kalah::arena_app
