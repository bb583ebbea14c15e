#include "referee/app/cli.h"

#include <cstdio>
#include <optional>
#include <vector>

#include <fmt/core.h>

#include "referee/rules/spelling.h"
#include "referee/system/build_info.h"

namespace kalah::cli {
namespace {

// The options `command` takes as they are typed: "--fresh", "-o".
std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& n : option->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : option->get_snames()) names.push_back("-" + n);
  }
  return names;
}

// For a command line with words nobody took: "arena run: unknown option '--fersh'; did you mean '--fresh'?
// (see arena run --help)" for the first option that looks like a typo of one the command takes; none if no
// such word (CLI11's own message is printed then).
std::optional<std::string> typo_message(CLI::App& app) {
  // The command given, down to a subcommand of a subcommand ("arena contest build"), and every option on the way.
  std::string program = app.get_name();
  std::vector<std::string> names = option_names(app);
  for (CLI::App* command = &app; !command->get_subcommands().empty();) {
    command = command->get_subcommands().front();
    program += " " + command->get_name();
    const std::vector<std::string> more = option_names(*command);
    names.insert(names.end(), more.begin(), more.end());
  }
  for (const std::string& word : app.remaining(true)) {
    if (word.size() < 2 || word[0] != '-') continue;
    const std::string flag = word.substr(0, word.find('='));
    const std::string hint = did_you_mean(flag, names);
    if (!hint.empty())
      return fmt::format("{}: unknown option '{}'{} (see {} --help)", program, flag.substr(0, 64), hint, program);
  }
  return std::nullopt;
}

}  // namespace

Commands::Commands(CLI::App& app) : app_(app) {
  app_.require_subcommand(1);
  app_.set_version_flag("--version", system::version_text(app_.get_name()),
                        "Print the version and the commit it was built from");
}

CLI::App* Commands::add(const std::string& name, const std::string& description, std::function<int()> run) {
  CLI::App* command = app_.add_subcommand(name, description);
  command->callback([this, run = std::move(run)] { exit_code_ = run(); });
  return command;
}

int Commands::main(int argc, char** argv) {
  // A first word that is no option and no command: say so, and what the commands are.
  std::string names;
  std::vector<std::string> words;
  bool known = false;
  for (const CLI::App* command : app_.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + command->get_name();
    words.push_back(command->get_name());
    known = known || (argc > 1 && command->check_name(argv[1]));
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    const std::optional<std::string> meant = nearest_word(argv[1], words);
    fmt::print(stderr, "{}: unknown command '{}'{}; the commands are: {} (see {} --help)\n", app_.get_name(),
               std::string_view(argv[1]).substr(0, 64), meant ? " (did you mean '" + *meant + "'?)" : "", names,
               app_.get_name());
    return 2;
  }
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app_.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app_.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app_.exit(e);
  } catch (const CLI::ExtrasError& e) {
    if (const std::optional<std::string> message = typo_message(app_)) {
      fmt::print(stderr, "{}\n", *message);
      return 2;
    }
    app_.exit(e);
    return 2;
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
