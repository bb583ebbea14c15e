#include "arena/formats/round_robin/round_robin_format.h"

namespace kalah::formats::round_robin {

const Format& format() {
  static const ScheduleFormat f(kType);
  return f;
}

}  // namespace kalah::formats::round_robin
