// The TOML config loader on arbitrary text: every mistake is an Error value with a position, never a
// crash or an exception that escapes (docs/CONFIG.md). Paths resolve against a folder that does not
// exist, so nothing on the machine is touched.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "arena/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const kalah::Expected<kalah::arena::Config> config =
      kalah::arena::parse_config(text, "fuzz.toml", "/nonexistent/conf", "/nonexistent/work");
  if (!config && config.error().rfind("fuzz.toml", 0) != 0) std::abort();  // every message names the file
  return 0;
}
