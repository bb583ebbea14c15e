// What an upload may be (docs/SEASON.md, docs/SECURITY.md): one source file (.py, .c, .cc, .cpp, .cxx), a .tar.gz
// (.tgz) or a .zip, checked whole before anything is stored. An archive is read from memory and never unpacked
// here: each entry must be a regular file or a folder (no link of either kind, no device, FIFO or socket) under a
// relative path without `..`, the entries and their unpacked bytes are counted as they are read, never trusting
// a size the archive declares. No mode bit of an archive is kept by anything that later unpacks it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "arena/season/season_config.h"

namespace kalah::season {

enum class UploadKind { Source, TarGz, Zip };
const char* to_string(UploadKind kind);  // "source", "tar.gz", "zip"

struct UploadSummary {
  UploadKind kind = UploadKind::Source;
  std::size_t files = 0;              // regular files (1 for a source file)
  std::uintmax_t unpacked_bytes = 0;  // their sizes together
};

// Why an upload is refused, with the HTTP status that says so: 413 too large, 415 not a kind above, 422 an archive
// that breaks a rule or cannot be read, 400 a file name that is not 1 to 128 of [A-Za-z0-9._+-] starting with a
// letter or a digit.
struct Refusal {
  int status = 400;
  std::string reason;
};

// The kind of `filename`, by its ending; none for anything else.
std::optional<UploadKind> upload_kind(std::string_view filename);
bool valid_file_name(std::string_view filename);

// Checks the upload `content` named `filename` against `limits`: its summary, or why it is refused.
std::optional<Refusal> inspect_upload(std::string_view filename, std::string_view content, const UploadLimits& limits,
                                      UploadSummary& summary);
// The same, and with `into` (an existing empty folder of the arena's) its files written there: a source file as it
// is named, an archive's folders and regular files, every file 0644 and every folder 0755, whatever the archive
// said. A failed write is a Refusal with status 500.
std::optional<Refusal> unpack_upload(std::string_view filename, std::string_view content, const UploadLimits& limits,
                                     UploadSummary& summary, const std::filesystem::path* into);

}  // namespace kalah::season
