// The journal reader on arbitrary bytes: one line as a record, and the text as a whole journal
// (torn last lines, duplicates, blank lines); a record that parses writes back to a line that parses.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "arena/journal/games_file.h"
#include "referee/record/record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (kalah::Expected<kalah::GameRecord> record = kalah::record_from_json(text)) {
    if (!kalah::record_from_json(kalah::to_json_line(*record))) std::abort();
  }
  kalah::journal::SeenIds seen;
  (void)kalah::journal::scan_games_text(
      text, "fuzz.jsonl", [](kalah::GameRecord&&) {}, seen);
  return 0;
}
