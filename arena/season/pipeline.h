// What happens to a stored revision (docs/SEASON.md, "After an upload"): one at a time, in the order they came, on a
// thread of its own: unpacked into the contest's submissions folder as the bot AUTHOR-rN (with the manifest the
// upload brought, its name replaced, or a default one: bot.py runs as `python3 bot.py`, a single C or C++ file is
// built by a stated command), then built, checked and gated by `arena contest build`'s code, each step's status
// recorded durably beside the revision: queued -> building -> build-failed | check-failed | gate-failed | entered;
// an entered revision's author's earlier entered ones are withdrawn from the contest and become superseded.
// A revision a stopped server left queued or building is taken up again at the next start, after the supersessions a
// stopped server left undone.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/season/season_config.h"
#include "arena/season/store.h"

namespace kalah::season {

// The build commands of a single source file uploaded without a bot.toml.
inline constexpr const char* kDefaultCBuild = "cc -O2 -o bot bot.c -lm";
inline constexpr const char* kDefaultCxxBuild = "c++ -O2 -std=c++20 -o bot bot.cpp";

// The contest's bot of revision `number` of the author known publicly as `name` (SeasonConfig::public_name):
// "alice-r3", or "swift-otter-42-r3" in a season with pseudonyms.
std::string revision_bot(const std::string& author, int number);

class Pipeline {
 public:
  // `entered` (if given) is called on the pipeline's thread each time a revision entered, after its author's earlier
  // ones were superseded.
  Pipeline(const SeasonConfig& config, const RevisionStore& store, std::function<void()> entered = {});
  ~Pipeline();  // the revision in work is finished first (its build is bounded by build_timeout_s)
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void start(const std::vector<std::pair<std::string, int>>& pending);
  void enqueue(const std::string& author, int number);

 private:
  void loop();
  void process(const std::string& author, int number);
  void supersede(const std::string& author, int number);
  // Each author's entered revisions below their latest entered one superseded: what a server killed between the two
  // records (or a supersession that failed) left undone.
  void reconcile();

  const SeasonConfig& config_;
  const RevisionStore& store_;
  std::function<void()> entered_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<std::string, int>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kalah::season
