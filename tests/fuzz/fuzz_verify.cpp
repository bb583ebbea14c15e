// What `arena verify` reads from outside on arbitrary bytes: the bytes as an archive, extracted into
// a scratch folder (an Error for anything not a safe .tar.gz, never a write outside it), and as a
// journal line whose record, when the reader takes it, is replayed by the rules (never an assert).
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "arena/integrity/archive.h"
#include "arena/integrity/replay.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"

namespace {

namespace fs = std::filesystem;

const fs::path& scratch() {
  static const kalah::system::TempFolder dir("kalah-fuzz-verify", std::nothrow);
  if (dir.path().empty()) std::abort();
  return dir.path();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (kalah::Expected<kalah::GameRecord> record = kalah::record_from_json(text))
    (void)kalah::integrity::check_game(*record);

  const fs::path archive = scratch() / "input.tar.gz", into = scratch() / "into";
  std::ofstream(archive, std::ios::binary | std::ios::trunc).write(text.data(), static_cast<std::streamsize>(size));
  fs::create_directories(into);
  if (kalah::Expected<fs::path> top = kalah::integrity::extract_archive(archive, into)) {
    if (top->parent_path() != into) std::abort();  // the one folder it returns is inside the scratch folder
  }
  fs::remove_all(into);
  return 0;
}
