#include "arena/flow/interrupts.h"

#include <pthread.h>
#include <signal.h>

namespace kalah::arena {

namespace {
sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR1);  // our own "stop watching"
  return set;
}
}  // namespace

InterruptWatcher::InterruptWatcher(std::function<void()> on_interrupt) : on_interrupt_(std::move(on_interrupt)) {
  const sigset_t set = watched();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] {
    const sigset_t set = watched();
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0) continue;
      if (sig == SIGUSR1) return;
      if (!fired_) {
        signal_ = sig;
        fired_ = true;
        on_interrupt_();
      }
    }
  });
}

InterruptWatcher::~InterruptWatcher() {
  pthread_kill(thread_.native_handle(), SIGUSR1);
  thread_.join();
  const sigset_t set = watched();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace kalah::arena
