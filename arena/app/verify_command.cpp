// `arena verify DIR|FILE.tar.gz`: replays every game of a results folder (or of its archive) by the rules,
// recomputes its standings and checks the recorded digests (docs/VERIFY.md). The details go to stdout,
// then one verdict line; exit 0 when everything matches, 1 when something does not, 2 when there is
// nothing to check.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/app/time_limit.h"
#include "arena/formats/staged/staged_verify.h"
#include "arena/integrity/verify.h"

namespace kalah::arena_app {
namespace {

struct VerifyOptions {
  std::string target;
  std::vector<std::string> sources;  // a rating list's tournaments
  bool quiet = false;
  long long time_limit_s = kDefaultTimeLimit.count();
};

int verify(const VerifyOptions& o) {
  return within_time_limit(std::chrono::seconds(o.time_limit_s), "verify", [&] {
    integrity::VerifyOptions options;
    options.sources.assign(o.sources.begin(), o.sources.end());
    // A staged tournament's folder (or archive): each stage's folder verified, staged.json derived again from them.
    options.other_kind = [](const std::filesystem::path& dir) -> std::optional<integrity::Verification> {
      if (!staged::is_staged_folder(dir)) return std::nullopt;
      return staged::verify_staged(dir);
    };
    const integrity::Verification checked = integrity::verify(o.target, options);
    if (!o.quiet)
      for (const std::string& line : checked.details) fmt::print("{}\n", line);
    fmt::print("{}\n", checked.line);
    return checked.exit_code();
  });
}

}  // namespace

void add_verify_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<VerifyOptions>(
      "verify",
      "Check a results folder or its archive: schema versions, every game replayed by the rules, the standings "
      "recomputed, the engines' recorded SHA-256 (exit 0 OK, 1 failed)",
      verify);
  cmd->add_option("target", o->target, "A results folder (results/quick) or an archive of one (quick.tar.gz)")
      ->required();
  cmd->add_option("sources", o->sources,
                  "For a rating list's folder (arena report A B --out L): the folders of its tournaments, A B");
  cmd->add_flag("--quiet", o->quiet, "Print the verdict line only");
  cmd->add_option("--time-limit", o->time_limit_s,
                  "Give up after this many seconds (exit 2): an archive is untrusted input (0: no limit)")
      ->default_val(kDefaultTimeLimit.count())
      ->check(CLI::Range(0LL, 1'000'000LL));
}

}  // namespace kalah::arena_app
