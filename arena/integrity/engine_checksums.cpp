#include "arena/integrity/engine_checksums.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/core.h>

#include "arena/integrity/sha256.h"
#include "referee/system/untrusted_files.h"

namespace kalah::integrity {
namespace {

namespace fs = std::filesystem;

// Not part of what an engine is: version control, editor files and Python's byte-code caches, which the
// interpreter writes next to the scripts while the engine plays.
bool skipped_name(const fs::path& p) {
  const std::string name = p.filename().string();
  return (!name.empty() && name[0] == '.') || name == "__pycache__" || p.extension() == ".pyc";
}

struct Covered {
  std::vector<fs::path> files;                   // regular files the command names, absolute
  std::map<fs::path, std::string> tree_digests;  // the files of the engine's folder, read during the walk
  std::optional<std::string> problem;
};

// The files a "files" text covers, or why they are too many to digest. A folder's files are read as
// they are found, without following a link or opening anything but a regular file (an engine's folder
// may be a contest entry, which a student made).
Covered covered_files(const std::string& files_text) {
  Covered out;
  std::vector<fs::path> skips;
  std::vector<fs::path> trees;
  std::istringstream lines(files_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("file ", 0) == 0) out.files.emplace_back(line.substr(5));
    if (line.rfind("tree ", 0) == 0) trees.emplace_back(line.substr(5));
    if (line.rfind("skip ", 0) == 0) skips.emplace_back(line.substr(5));
  }
  auto is_skipped = [&](const fs::path& p) {
    return std::any_of(skips.begin(), skips.end(), [&](const fs::path& s) {
      const auto [end, rest] = std::mismatch(s.begin(), s.end(), p.begin(), p.end());
      return end == s.end();  // `s` itself or a folder holding `p`
    });
  };
  std::size_t files = 0;
  for (const fs::path& tree : trees) {
    system::WalkOptions walk;
    walk.bounds.max_bytes = kMaxTreeBytes;
    walk.bounds.max_entries = 4 * kMaxTreeFiles;
    walk.open_files = true;
    walk.leave_out = [&](const system::TreeItem& item) {
      const fs::path p = tree / item.path;
      return skipped_name(p) || is_skipped(p);
    };
    auto error =
        system::walk_untrusted_tree(tree, walk, [&](const system::TreeItem& item) -> std::optional<std::string> {
          if (item.kind != system::TreeItem::Kind::File) return std::nullopt;
          if (++files > kMaxTreeFiles) return std::string("too many files");
          Sha256 sha;
          if (auto e = system::read_bounded(
                  item.fd, kMaxTreeBytes, [&](std::string_view piece) { sha.update(piece); }, item.path))
            return e;
          out.tree_digests[tree / item.path] = sha.hex();
          return std::nullopt;
        });
    if (error) {
      out.problem = fmt::format("{} cannot be digested: {} (at most {} files or {} MiB)", tree.string(),
                                error->substr(0, 300), kMaxTreeFiles, kMaxTreeBytes >> 20);
      return out;
    }
  }
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  return out;
}

// Every file a "files" text covers with its digest, by path; an error naming why they are too many to digest,
// or an empty error when a file cannot be read.
using FileDigests = std::map<fs::path, std::string>;
Expected<FileDigests> file_digests(const std::string& files_text) {
  const Covered covered = covered_files(files_text);
  if (covered.problem) return Error{*covered.problem};
  FileDigests digests = covered.tree_digests;
  for (const fs::path& file : covered.files) {
    const Expected<std::string> digest = sha256_file(file, /*follow_link=*/true);
    if (!digest) return Error{""};
    digests[file] = *digest;
  }
  return digests;
}

// The lines "<sha256>  <path>" of `digests`, sha256sum's format. `plain_names_only`: without the paths holding a
// newline or a backslash, which sha256sum would need escaped.
std::string sums_text(const FileDigests& digests, bool plain_names_only) {
  std::string list;
  for (const auto& [file, digest] : digests)
    if (!plain_names_only || file.string().find_first_of("\n\\") == std::string::npos)
      list += digest + "  " + file.string() + "\n";
  return list;
}

std::string digest_or_reason(const Expected<std::string>& digest) {
  return digest ? *digest : kNotRecorded + digest.error();
}

}  // namespace

std::optional<std::string> files_digest(const std::string& files_text) {
  const Expected<FileDigests> digests = file_digests(files_text);
  if (!digests) return digests.error().empty() ? std::nullopt : std::optional(kNotRecorded + digests.error());
  return sha256_hex(sums_text(*digests, false));
}

std::map<std::string, arena::EngineDigests> engine_checksums(const std::vector<EngineSpec>& engines,
                                                             const std::filesystem::path& results_dir) {
  std::map<std::string, arena::EngineDigests> out;
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  const fs::path results = fs::absolute(results_dir, ec).lexically_normal();
  for (const EngineSpec& e : engines) {
    arena::EngineDigests& digests = out[e.name];
    digests.executable = e.cmd.string();
    digests.sha256 = digest_or_reason(sha256_file(e.cmd, /*follow_link=*/true));
    // A script the command runs: an argument naming a regular file, as the engine (in its `dir`) sees it;
    // not a log it is told to write (*.log, or anything in the results folder), which changes as it plays.
    std::string files, tree;
    const fs::path base = e.dir.empty() ? here : e.dir;
    for (const std::string& arg : e.args) {
      if (arg.empty() || arg[0] == '-') continue;
      const fs::path p = fs::absolute(fs::path(arg).is_absolute() ? fs::path(arg) : base / arg, ec).lexically_normal();
      const auto [end, rest] = std::mismatch(results.begin(), results.end(), p.begin(), p.end());
      const bool in_results = !results.empty() && end == results.end();
      // A file in the engine's folder is looked at without following a link (the folder may be a
      // student's); one the organiser names elsewhere may be a link.
      const fs::path dir = e.dir.empty() ? fs::path() : fs::absolute(e.dir, ec).lexically_normal();
      const auto [dir_end, dir_rest] = std::mismatch(dir.begin(), dir.end(), p.begin(), p.end());
      const bool in_dir = !dir.empty() && dir_end == dir.end();
      const bool regular = in_dir ? fs::is_regular_file(fs::symlink_status(p, ec)) : fs::is_regular_file(p, ec);
      if (regular && !fs::equivalent(p, e.cmd, ec) && p.extension() != ".log" && !in_results)
        files += "file " + p.string() + "\n";
    }
    // The arena's own working folder (every engine's without a `dir`) is not the engine's.
    if (!e.dir.empty() && !fs::equivalent(e.dir, here, ec)) {
      const fs::path folder = fs::absolute(e.dir, ec).lexically_normal();
      tree += "tree " + folder.string() + "\n";
      // The results, when they are inside the engine's folder (not the folder of an entry inside the results).
      const auto [end, rest] = std::mismatch(folder.begin(), folder.end(), results.begin(), results.end());
      if (end == folder.end() && rest != results.end()) tree += "skip " + results.string() + "\n";
      // Logs the arena writes while the engine plays, when they are inside its folder; a path with a
      // {shard} or {game} placeholder stands for its whole folder.
      for (const fs::path& log : {e.stderr_file, e.comm_log}) {
        if (log.empty()) continue;
        fs::path abs = fs::absolute(log, ec).lexically_normal();
        if (abs.string().find('{') != std::string::npos) abs = abs.parent_path();
        tree += "skip " + abs.string() + "\n";
      }
    }
    FileDigests own;  // the bot's own files, for file_sums
    for (const auto& [text, covered, digest_of] : {std::tuple{files, &digests.files, &digests.files_sha256},
                                                   std::tuple{tree, &digests.dir, &digests.dir_sha256}}) {
      if (text.empty()) continue;
      *covered = text;
      const Expected<FileDigests> read = file_digests(text);
      if (read) {
        *digest_of = sha256_hex(sums_text(*read, false));
        own.insert(read->begin(), read->end());
      } else {
        *digest_of = kNotRecorded + (read.error().empty() ? std::string("a file could not be read") : read.error());
      }
    }
    // Every file of the bot itself, one sha256sum line each: what ENGINES.sha256 pins beside the executable
    // (for an interpreted bot, the interpreter), so that `sha256sum -c` checks its script and folder too. A
    // name sha256sum would need escaped is left out (the digests above cover it).
    if (!own.empty()) digests.file_sums = sums_text(own, true);
  }
  return out;
}

EngineChanges changed_engines(const std::vector<std::string>& names, const arena::TournamentDescription& stored,
                              const std::map<std::string, arena::EngineDigests>& now) {
  using Digest = std::optional<std::string> arena::EngineDigests::*;
  enum class What { Executable, Files, Folder };
  EngineChanges out;
  for (const std::string& name : names) {
    const auto found = now.find(name);
    if (found == now.end()) continue;
    const arena::EngineDigests &before = stored.engine(name).digests, &after = found->second;
    for (const auto& [digest, what] : {std::pair<Digest, What>{&arena::EngineDigests::sha256, What::Executable},
                                       std::pair<Digest, What>{&arena::EngineDigests::files_sha256, What::Files},
                                       std::pair<Digest, What>{&arena::EngineDigests::dir_sha256, What::Folder}}) {
      const std::optional<std::string>&old_digest = before.*digest, &new_digest = after.*digest;
      if (!old_digest || !new_digest || *old_digest == *new_digest) continue;
      const std::string text = what == What::Executable
                                   ? "executable" + (after.executable ? " " + *after.executable : "")
                               : what == What::Folder ? "folder (" + arena::digest_setting(name, digest) + ")"
                                                      : "files (" + arena::digest_setting(name, digest) + ")";
      std::string line = fmt::format("engine '{}': its {} changed since this tournament started: recorded {}, now {}",
                                     name, text, *old_digest, *new_digest);
      (what == What::Folder ? out.folders : out.engines).push_back(std::move(line));
    }
  }
  return out;
}

}  // namespace kalah::integrity
