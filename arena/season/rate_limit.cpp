#include "arena/season/rate_limit.h"

namespace kalah::season {

bool FailureLimiter::blocked(const std::string& client, Clock::time_point now) const {
  const auto found = failures_.find(client);
  return found != failures_.end() && now - found->second.since < kFailureWindow && found->second.count >= kMaxFailures;
}

void FailureLimiter::fail(const std::string& client, Clock::time_point now) {
  auto found = failures_.find(client);
  if (found == failures_.end()) {
    make_room(now);
    found = failures_.emplace(client, Failures{now, 0}).first;
  }
  Failures& f = found->second;
  if (now - f.since >= kFailureWindow) f = Failures{now, 0};
  ++f.count;
}

void FailureLimiter::make_room(Clock::time_point now) {
  if (failures_.size() < kMaxClients) return;
  std::erase_if(failures_, [now](const auto& entry) { return now - entry.second.since >= kFailureWindow; });
  if (failures_.size() < kMaxClients) return;
  auto oldest = failures_.begin();
  for (auto it = failures_.begin(); it != failures_.end(); ++it)
    if (it->second.since < oldest->second.since) oldest = it;
  failures_.erase(oldest);
}

}  // namespace kalah::season
