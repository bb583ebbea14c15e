// Ctrl-C and SIGTERM, turned into a call on an ordinary thread: the signals
// are blocked everywhere and one thread waits for them with sigwait.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace kalah::arena {

class InterruptWatcher {
 public:
  // Blocks SIGINT/SIGTERM in this thread (and so in threads started later) and
  // calls `on_interrupt` from a watcher thread when one arrives.
  explicit InterruptWatcher(std::function<void()> on_interrupt);
  ~InterruptWatcher();  // stops the watcher and restores the signal mask
  bool fired() const { return fired_; }
  int signal() const { return signal_; }  // the signal that fired it (SIGINT or SIGTERM), or 0

 private:
  std::function<void()> on_interrupt_;
  std::thread thread_;
  std::atomic<bool> fired_{false};
  std::atomic<int> signal_{0};
};

}  // namespace kalah::arena
