// The watched submissions folder taken in (docs/SEASON.md, "A watched folder"): a thread of the season's server looks
// at the inbox every kLookInterval, takes each ready file (inbox.h: unchanged since the look before) in through the
// same code as an upload (the same checks, digest, numbering and statuses), and removes it from the inbox once the
// revision is stored durably; a refused one goes to INBOX/.refused/AUTHOR/ with its reason beside it. Everything is
// said in DIR/season.log. A bounded poll, not inotify: an inbox filled by a sync may be a network or FUSE mount whose
// changes the local kernel never sees, and a file must be seen twice unchanged before it is taken in any case.
//
// No revision is taken twice: a file is claimed (renamed in place) before it is read, stored, then removed. A server
// killed between the store and the removal leaves the claimed file; at the next start it is that revision when the
// author's latest revision taken from the inbox has its name and its SHA-256, and is then removed, not taken again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <variant>

#include "arena/season/inbox.h"
#include "arena/season/season_config.h"
#include "arena/season/store.h"

namespace kalah::season {

inline constexpr auto kLookInterval = std::chrono::milliseconds(250);

// What the watcher asks of the season it feeds.
struct InboxTaker {
  // Why the season takes nothing in now (the deadline passed); none while it does.
  std::function<std::optional<std::string>()> closed;
  // An inbox file checked and stored as the author's next revision, as an upload is (SeasonIntake::take).
  std::function<std::variant<Revision, Refusal>(const std::string& author, const std::string& file,
                                                std::string_view content)>
      take;
};

class InboxWatcher {
 public:
  InboxWatcher(const SeasonConfig& config, const RevisionStore& store, Inbox inbox, InboxTaker taker);
  ~InboxWatcher();  // the file in work is finished first
  InboxWatcher(const InboxWatcher&) = delete;
  InboxWatcher& operator=(const InboxWatcher&) = delete;

  void start();
  // One look and everything it finds taken in, refused or reported (the thread's work, each kLookInterval).
  void look_once();

 private:
  void take(const InboxFile& ready);
  void refuse(const InboxFile& file, const std::string& reason);
  // The author's latest revision taken from the inbox, if any.
  std::optional<Revision> latest_from_inbox(const std::string& author) const;
  void log(const std::string& line);
  // Logs a failure once while it lasts (a look every kLookInterval would repeat it).
  void log_failure(const std::string& key, const std::string& line);

  const SeasonConfig& config_;
  const RevisionStore& store_;
  Inbox inbox_;
  InboxTaker taker_;
  std::set<std::string> failures_, failures_now_;
  bool closed_said_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kalah::season
