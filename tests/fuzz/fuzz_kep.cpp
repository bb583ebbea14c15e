// The KEP codec on arbitrary lines: parsing never crashes, and what parses formats back to a line that
// parses to the same text again (docs/PROTOCOL.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "referee/protocol/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (kalah::Expected<kalah::kep::Command> command = kalah::kep::parse_command(line)) {
    const std::string text = kalah::kep::format(*command);
    kalah::Expected<kalah::kep::Command> again = kalah::kep::parse_command(text);
    if (!again || kalah::kep::format(*again) != text) std::abort();
  }
  const kalah::kep::EngineMessage message = kalah::kep::parse_engine_line(line);
  (void)kalah::kep::format(message);
  (void)kalah::kep::shorten(line);
  return 0;
}
