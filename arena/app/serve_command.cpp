// `arena serve DIR... [--listen ADDR:PORT] [--token-file FILE] [--public] [--max-connections N]
// [--idle-timeout S] [--nice N]`: the results folders over HTTP, read-only (docs/SERVE.md). The listen policy is
// checked before anything is bound.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/season/intake.h"
#include "arena/serve/server.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena_app {
namespace {

struct ServeArguments {
  std::vector<std::string> dirs;
  std::string season;
  std::string listen = serve::kDefaultListen;
  std::string token_file;
  bool is_public = false;
  std::size_t max_connections = serve::kDefaultMaxConnections;
  int idle_timeout_s = 30;
  int nice = serve::kDefaultNice;
};

int serve_folders(const ServeArguments& a) {
  serve::ServeOptions options;
  Expected<serve::ListenAddress> listen = serve::parse_listen(a.listen);
  if (!listen) throw UsageError(listen.error());
  options.listen = *listen;
  if (!a.token_file.empty()) {
    Expected<std::string> token = serve::read_token_file(a.token_file);
    if (!token) throw UsageError(token.error());
    options.token = std::move(token).value();
  }
  if (std::optional<std::string> refusal =
          serve::exposure_refusal(options.listen, options.token.has_value(), a.is_public))
    throw UsageError(*refusal);
  options.dirs.assign(a.dirs.begin(), a.dirs.end());
  options.max_connections = a.max_connections;
  options.idle_timeout = std::chrono::seconds(a.idle_timeout_s);
  options.nice = a.nice;
  std::unique_ptr<season::SeasonIntake> intake;
  if (!a.season.empty()) {
    Expected<season::SeasonConfig> config = season::load_season(a.season);
    if (!config) throw UsageError(config.error());
    // The season's own results are served when no DIR is named.
    const std::filesystem::path output = config->contest.tournament.output;
    Expected<std::unique_ptr<season::SeasonIntake>> opened = season::SeasonIntake::open(std::move(config).value());
    if (!opened) throw UsageError(opened.error());
    intake = std::move(opened).value();
    if (options.dirs.empty()) {
      if (std::optional<std::string> error = system::make_own_folder(output)) throw UsageError(*error);
      options.dirs.push_back(output);
    }
    options.intake = intake.get();
    fmt::print("arena serve: season {}: {} authors, uploads at POST /api/submissions\n", intake->config().dir.string(),
               intake->authors());
    if (intake->frozen())
      fmt::print("arena serve: the season is frozen since {} (arena season freeze): uploads are refused{}\n",
                 intake->frozen()->frozen_at,
                 intake->config().watch.empty() ? "" : ", the watched folder is not taken in");
    if (intake->watching())
      fmt::print("arena serve: watching {}: a file dropped as AUTHOR/FILE there is taken in as an upload\n",
                 intake->config().watch.string());
  }
  if (options.dirs.empty()) throw UsageError("name a results folder to serve, or --season FILE");
  std::optional<std::string> error = serve::serve(options, [](const std::string& url) {
    fmt::print("arena serve: listening on {}\n", url);
    std::fflush(stdout);
  });
  if (error) throw UsageError(*error);
  return 0;
}

}  // namespace

void add_serve_command(cli::Commands& commands) {
  auto [cmd, a] = commands.add("serve",
                               "Serve results folders read-only over HTTP: a JSON API of the tournaments, "
                               "their standings and games (docs/SERVE.md)",
                               &serve_folders);
  cmd->add_option("dirs", a->dirs, "A tournament's results folder, or a folder of them (e.g. results)");
  cmd->add_option("--season", a->season,
                  "A season's season.toml (docs/SEASON.md): authors upload with their tokens; one server per season");
  cmd->add_option("--listen", a->listen,
                  "ADDR:PORT to listen on (port 0: any free one); other than loopback needs --token-file or --public")
      ->default_val(std::string(serve::kDefaultListen));
  cmd->add_option("--token-file", a->token_file,
                  "Every request needs the token on this file's first line (Authorization: Bearer, or ?token=)");
  cmd->add_flag("--public", a->is_public, "Listen on a non-loopback address without a token: anyone may read");
  cmd->add_option("--max-connections", a->max_connections, "Connections at once; beyond them new ones are closed")
      ->default_val(serve::kDefaultMaxConnections)
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  cmd->add_option("--idle-timeout", a->idle_timeout_s,
                  "Seconds a connection may stay open without a request (then it is closed)")
      ->default_val(30)
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--nice", a->nice,
                  "Steps of niceness the server takes, so that the games of a run on this machine come first")
      ->default_val(serve::kDefaultNice)
      ->check(CLI::Range(0, 19));
}

}  // namespace kalah::arena_app
