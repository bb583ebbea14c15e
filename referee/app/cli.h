// What the `referee` and `arena` executables share around CLI11: subcommands that return their
// exit code, and one place that turns parse errors and operator mistakes into messages and codes.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>

namespace kalah::cli {

// An operator mistake (bad option, missing file, unwritable output): thrown by a command, printed
// once by Commands::main as "<program>: <message>", exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// For an option whose empty value would otherwise quietly mean its default (--out ""): refused.
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); }, "");
}

class Commands {
 public:
  // `app` holds the subcommands; exactly one must be given.
  explicit Commands(CLI::App& app);

  // Adds a subcommand; `run` is called when it is given and returns the process's exit code.
  CLI::App* add(const std::string& name, const std::string& description, std::function<int()> run);

  // The same for a command whose options are one struct: returns the subcommand, to add options
  // to, and the struct they are read into, which lives as long as the parser; `run` gets it.
  template <class Options>
  std::pair<CLI::App*, Options*> add(const std::string& name, const std::string& description,
                                     int (*run)(const Options&)) {
    auto options = std::make_shared<Options>();
    CLI::App* command = add(name, description, [options, run] { return run(*options); });
    return {command, options.get()};
  }

  // Parses the command line and runs the subcommand. Returns 0 after --help, 2 after a parse error
  // or a UsageError (the message goes to stderr, after anything already printed to stdout),
  // otherwise the subcommand's own code.
  int main(int argc, char** argv);

 private:
  CLI::App& app_;
  int exit_code_ = 0;
};

}  // namespace kalah::cli
