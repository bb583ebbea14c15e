// The registry of tournament formats: one line per format. A new format is a folder, its line here, and (for a
// kind of [tournament] type) its row in arena/config/kinds.cpp (docs/ARCHITECTURE.md, "How to add a format").
#include "arena/formats/registry.h"

#include <array>
#include <cassert>

#include "arena/formats/adaptive/adaptive_format.h"
#include "arena/formats/gauntlet/gauntlet_format.h"
#include "arena/formats/knockout/knockout_format.h"
#include "arena/formats/round_robin/round_robin_format.h"
#include "arena/formats/sprt/sprt_format.h"
#include "arena/formats/staged/staged_format.h"
#include "arena/formats/swiss/swiss_format.h"

namespace kalah::formats {

std::span<const Format* const> registered() {
  static const std::array<const Format*, 7> formats{
      &staged::format(),       // type = "staged": its stages, each a round robin
      &sprt::format(),         // an [sprt] table: a match of two engines until the test decides
      &round_robin::format(),  //
      &gauntlet::format(),     //
      &swiss::format(),        //
      &knockout::format(),     //
      &adaptive::format(),     //
  };
  return formats;
}

const Format& format_of(const arena::Config& config) {
  for (const Format* f : registered())
    if (f->plays(config)) return *f;
  assert(false && "every kind of arena/config/kinds.cpp has its format");
  return *registered().back();
}

Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) {
  return format_of(config).play(config, options, out);
}

}  // namespace kalah::formats
