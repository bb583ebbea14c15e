#include "arena/app/time_limit.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/core.h>

#include "referee/app/cli.h"
#include "referee/process/forked_work.h"
#include "referee/system/temp_folder.h"

namespace kalah::arena_app {

int within_time_limit(std::chrono::seconds limit, const std::string& command, const std::function<int()>& body) {
  if (limit.count() <= 0) return body();
  system::TempFolder temp("kalah-work", std::nothrow);  // removed whether the work finished or was stopped
  if (temp.path().empty()) throw cli::UsageError(temp.error());
  const std::string temp_path = temp.path().string();
  // The child: the work, its exit code, its errors as the command line prints them.
  const process::ForkedWork work = process::run_forked(limit, [&] {
    ::setenv("TMPDIR", temp_path.c_str(), 1);
    try {
      return body();
    } catch (const std::exception& e) {  // cli::UsageError included
      std::fflush(stdout);
      fmt::print(stderr, "arena: {}\n", e.what());
      return 2;
    }
  });
  switch (work.outcome) {
    case process::ForkedWork::Outcome::Exited: return work.code;
    case process::ForkedWork::Outcome::Signalled:
      fmt::print(stderr, "arena {}: the work ended by signal {} ({})\n", command, work.code, ::strsignal(work.code));
      return 2;
    case process::ForkedWork::Outcome::TimedOut:
      fmt::print(stderr,
                 "arena {}: stopped after {} s (--time-limit {}): the input takes longer than that to check; a "
                 "crafted archive or journal can, and so can a very large one: raise --time-limit (0: no limit) to "
                 "go on\n",
                 command, limit.count(), limit.count());
      return 2;
    case process::ForkedWork::Outcome::CouldNotStart: break;
  }
  throw cli::UsageError(fmt::format("cannot start the work of `arena {}`: {}", command, work.detail));
}

}  // namespace kalah::arena_app
