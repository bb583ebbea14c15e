// The wall clock, as records and meta files write it.
#pragma once

#include <string>

namespace kalah::system {

// The current time in UTC as ISO 8601 to the second: "2026-12-02T12:00:00Z".
std::string utc_now_iso8601();

}  // namespace kalah::system
