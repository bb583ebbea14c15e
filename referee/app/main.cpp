// The `referee` executable: the rules from the command line.
#include <cstdio>
#include <iostream>

#include <fmt/core.h>

#include "referee/app/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Kalah referee: rules tools and matches between engines", "referee"};
  app.require_subcommand(1);
  kalah::referee_app::add_perft_command(app);
  kalah::referee_app::add_replay_command(app);
  kalah::referee_app::add_match_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const kalah::referee_app::UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "referee: {}\n", e.what());
    return 2;
  }
  return 0;
}
