// The small parsers of command-line values: variants, time controls, shards and CPU lists.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arena/config/config.h"
#include "referee/game/time_control.h"
#include "referee/rules/variant.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)kalah::parse_variant(text);
  (void)kalah::parse_fischer(text);
  (void)kalah::arena::parse_shard(text);
  (void)kalah::arena::parse_cpu_list(text);
  return 0;
}
