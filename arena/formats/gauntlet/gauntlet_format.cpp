#include "arena/formats/gauntlet/gauntlet_format.h"

namespace kalah::formats::gauntlet {

const Format& format() {
  static const ScheduleFormat f(kType);
  return f;
}

}  // namespace kalah::formats::gauntlet
