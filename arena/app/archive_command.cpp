// `arena archive DIR [-o FILE]`: one .tar.gz of a results folder, with its SHA256SUMS, that
// `arena verify` accepts (docs/VERIFY.md). The same results always give the same bytes.
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/formats/staged/staged_verify.h"
#include "arena/integrity/archive.h"

namespace kalah::arena_app {
namespace {

namespace fs = std::filesystem;

struct ArchiveOptions {
  std::string dir;
  std::string out;
};

int archive(const ArchiveOptions& o) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(o.dir, ec).lexically_normal();
  std::string name = absolute.filename().string();
  if (name.empty()) name = absolute.parent_path().filename().string();
  const fs::path out = o.out.empty() ? fs::path(name + ".tar.gz") : fs::path(o.out);
  // A staged tournament's folder: its stages' folders are packed with its staged.json.
  Expected<integrity::ArchiveSummary> written = integrity::write_archive(o.dir, out, staged::is_staged_folder(o.dir));
  if (!written) throw UsageError(written.error());
  fmt::print("wrote {}: {} files, {} bytes before compression, listed in {} (check it with: arena verify {})\n",
             out.string(), written->files, written->bytes, integrity::kChecksumList, out.string());
  return 0;
}

}  // namespace

void add_archive_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<ArchiveOptions>(
      "archive", "Write one .tar.gz of a results folder (config, journal, reports, checksums) for arena verify",
      archive);
  cmd->add_option("dir", o->dir, "The results folder, e.g. results/quick")->required();
  cmd->add_option("-o,--out", o->out, "The archive to write (default: <folder name>.tar.gz here)")
      ->check(cli::non_empty());
}

}  // namespace kalah::arena_app
