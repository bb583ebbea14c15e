// The results folder's seed secret (docs/PROTOCOL.md, "Seeds"; docs/FORMATS.md): the file `seed-secret`
// beside the journal, made by the first run (or `arena contest build`) that needs it and read by every later
// one, the shards of a run in one shared folder included, so that every game keeps its seed. It is packed into
// the archive with the rest of the folder: once the results are published the seeds can be recomputed.
#pragma once

#include <filesystem>

#include "referee/game/seed_secret.h"
#include "referee/rules/expected.h"

namespace kalah::journal {

inline constexpr const char* kSeedSecretFile = "seed-secret";

// The secret in `results_dir`/seed-secret, made (mode 0600, the folder created when missing) when there is
// none. Processes that race to make it agree on one: each writes its own temporary and links it into place,
// and the ones that lose read the winner's. A file that is a link, not a regular file, or not the 64 hex
// digits and a newline this writes is an error naming it.
Expected<SeedSecret> load_or_make_seed_secret(const std::filesystem::path& results_dir);

// Writes `secret` as `results_dir`/seed-secret in the same way (mode 0600, never through a link, a secret already
// there kept) and returns the one the file holds: for a folder that must share another's secret, which is
// written anew rather than copied (a copy would take the source's mode bits and follow a link put in its place).
Expected<SeedSecret> install_seed_secret(const std::filesystem::path& results_dir, const SeedSecret& secret);

}  // namespace kalah::journal
