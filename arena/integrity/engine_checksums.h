// What each engine of a run was, as SHA-256 digests recorded in tournament.json at the start of every
// run (docs/VERIFY.md): its executable, and the files it runs beyond that (a script named in its
// arguments, its `dir` folder). A resumed run whose engine differs from the recorded one is refused,
// so that one results folder never mixes two versions of a bot; `arena verify` checks them again.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/description.h"
#include "referee/engine/engine_spec.h"

namespace kalah::integrity {

// The caps of the folder digest: a `dir` holding more is recorded as "not recorded: ..." instead.
inline constexpr std::size_t kMaxTreeFiles = 2000;
inline constexpr std::uintmax_t kMaxTreeBytes = 64ull << 20;

// A digest that could not be taken is recorded as this prefix and the reason.
inline constexpr const char* kNotRecorded = "not recorded: ";

// Every engine's digests, by name (arena::EngineDigests, which tournament.json records): the executable's
// always; the files digest for an engine whose arguments name files (a script), the folder digest for one with a
// `dir` of its own (not the arena's working folder, the default), leaving out `results_dir`, the engine's stderr
// and log files, dot-files and Python's caches, and the list of every file those two cover with its own digest
// (file_sums, for ENGINES.sha256). Reads every file once; a file that cannot be read, or a folder over the caps,
// is recorded as "not recorded: ...".
std::map<std::string, arena::EngineDigests> engine_checksums(const std::vector<EngineSpec>& engines,
                                                             const std::filesystem::path& results_dir);

// The files or folder digest again from the text of EngineDigests::files or ::dir
// (lines "file PATH", "tree PATH", "skip PATH"): the SHA-256 of the list "<sha256>  <path>\n" of every
// file covered, sorted by path. nullopt when one of them is no longer there (a results folder checked
// on another machine).
std::optional<std::string> files_digest(const std::string& files_text);

// For a resumed run, what differs between the digests recorded in `stored` and the ones taken now, one
// line each naming the engine, what changed, the old and the new digest. `engines`: an executable or a script
// changed, which refuses the run; `folders`: an engine's folder changed (a data file, or a file the engine
// writes as it plays), which is only reported. Digests recorded by only one side are not compared.
struct EngineChanges {
  std::vector<std::string> engines;
  std::vector<std::string> folders;
};
EngineChanges changed_engines(const std::vector<std::string>& names, const arena::TournamentDescription& stored,
                              const std::map<std::string, arena::EngineDigests>& now);

}  // namespace kalah::integrity
