#include "referee/app/cli.h"

#include <cstdio>

#include <fmt/core.h>

namespace kalah::cli {

Commands::Commands(CLI::App& app) : app_(app) { app_.require_subcommand(1); }

CLI::App* Commands::add(const std::string& name, const std::string& description, std::function<int()> run) {
  CLI::App* command = app_.add_subcommand(name, description);
  command->callback([this, run = std::move(run)] { exit_code_ = run(); });
  return command;
}

int Commands::main(int argc, char** argv) {
  // A first word that is no option and no command: say so, and what the commands are.
  std::string names;
  bool known = false;
  for (const CLI::App* command : app_.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + command->get_name();
    known = known || (argc > 1 && command->check_name(argv[1]));
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    fmt::print(stderr, "{}: unknown command '{}'; the commands are: {} (see {} --help)\n", app_.get_name(),
               std::string_view(argv[1]).substr(0, 64), names, app_.get_name());
    return 2;
  }
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app_.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app_.exit(e);
  } catch (const CLI::ParseError& e) {
    app_.exit(e);
    return 2;
  } catch (const UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: {}\n", app_.get_name(), e.what());
    return 2;
  }
  return exit_code_;
}

}  // namespace kalah::cli
