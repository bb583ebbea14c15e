// Failed token attempts per client address (docs/SEASON.md): an address with kMaxFailures failures within
// kFailureWindow is refused (429) until that window has passed, whatever token it then sends. Bounded memory: at
// most kMaxClients addresses are remembered; when full, the expired ones and then the oldest go.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace kalah::season {

class FailureLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMaxFailures = 10;
  static constexpr std::chrono::seconds kFailureWindow{60};
  static constexpr std::size_t kMaxClients = 4096;

  bool blocked(const std::string& client, Clock::time_point now) const;
  void fail(const std::string& client, Clock::time_point now);
  std::size_t clients() const { return failures_.size(); }

 private:
  struct Failures {
    Clock::time_point since;  // the window's start
    std::size_t count = 0;
  };
  void make_room(Clock::time_point now);
  std::map<std::string, Failures> failures_;
};

}  // namespace kalah::season
