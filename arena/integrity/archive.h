// One .tar.gz of a results folder (docs/VERIFY.md): what `arena archive DIR` writes and `arena verify`
// reads back. Written deterministically (entries sorted, fixed times, owners and modes, no time in the
// gzip header), so the same results give a byte-identical archive; read back defensively (regular files
// and folders only, relative paths without `..`, under one top folder, sizes capped).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::integrity {

inline constexpr const char* kChecksumList = "SHA256SUMS";
inline constexpr const char* kEngineChecksums = "ENGINES.sha256";
inline constexpr const char* kConfigCopy = "config.toml";

// Caps of reading an archive: more entries or more bytes in all is refused, never extracted.
inline constexpr std::size_t kMaxArchiveEntries = 100'000;
inline constexpr std::uintmax_t kMaxArchiveBytes = 8ull << 30;

// The files of a results folder an archive holds, as paths relative to it, sorted: every regular file
// in it and its subfolders (the journal, tournament.json, config.toml, the reports, the shards' folders,
// any page a report writes beside them) except the lock, hidden files (the temporaries of atomic
// writes), what --fresh moved aside (*.bak, *.bak2, ...), .tar.gz files, the slurm/ folder, and of a
// contest entry (entries/<name>/) everything but its bot.toml; of logs/<name>/ its build.log, check.log and
// gate.log.
std::vector<std::string> archived_files(const std::filesystem::path& results_dir);

struct ArchiveSummary {
  std::size_t files = 0;     // entries, ENGINES.sha256 and SHA256SUMS included
  std::uintmax_t bytes = 0;  // their size before compression
};

// Writes `results_dir`'s archive to `out`, every entry under one folder named like `results_dir`,
// with ENGINES.sha256 (the engines' recorded digests, in sha256sum's format) and SHA256SUMS (every
// other entry's digest, sha256sum's format, paths relative to that folder). Replaces `out` atomically.
// `journals_below`: the folder holds no journal of its own but tournament folders (a staged tournament's stages,
// arena/formats/staged), whose files are packed as any subfolder's; otherwise a folder without games.jsonl or
// shards is refused.
Expected<ArchiveSummary> write_archive(const std::filesystem::path& results_dir, const std::filesystem::path& out,
                                       bool journals_below = false);

// Extracts `archive` into the empty folder `into` and returns the archive's one top folder inside it.
// Errors: not a gzip'ed tar; an entry that is not a regular file or a folder (links, devices); an
// absolute path, a `..`, entries under more than one top folder; more than the caps above.
Expected<std::filesystem::path> extract_archive(const std::filesystem::path& archive,
                                                const std::filesystem::path& into);

}  // namespace kalah::integrity
