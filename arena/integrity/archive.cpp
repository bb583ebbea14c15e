#include "arena/integrity/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/core.h>

#include "arena/integrity/engine_checksums.h"
#include "arena/integrity/sha256.h"
#include "arena/journal/journal.h"
#include "arena/report/reports.h"
#include "referee/game/transcript_file.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::integrity {
namespace {

// libarchive's last error, or `fallback` when it has none (archive_error_string() is then null: a
// truncated gzip stream gives that).
std::string archive_error(struct archive* a, const char* fallback) {
  const char* why = archive_error_string(a);
  return why ? why : fallback;
}

namespace fs = std::filesystem;

struct ReadFree {
  void operator()(struct archive* a) const { archive_read_free(a); }
};
struct WriteFree {
  void operator()(struct archive* a) const { archive_write_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

// Whether a file of the results folder, by its path relative to it, goes into the archive.
bool archived(const fs::path& relative) {
  const std::vector<fs::path> parts(relative.begin(), relative.end());
  if (parts.empty()) return false;
  for (const fs::path& part : parts)
    if (part.string().starts_with(".")) return false;  // an atomic write's temporary, or hidden
  const std::string first = parts.front().string(), name = parts.back().string();
  if (first == "slurm") return false;  // scripts and task logs of this machine's cluster
  if (first == "live") return false;   // the plies of the games that were in flight (arena serve): no record
  // A contest entry: its manifest, not its sources or what the build made; its build log, referee check
  // and sanity gate, which the arena writes beside the entries (logs/<name>/) and the reports link to.
  if (first == "entries") return parts.size() == 3 && name == "bot.toml";
  if (first == "logs") return parts.size() == 3 && (name == "build.log" || name == "check.log" || name == "gate.log");
  if (name == "arena.lock" || name.ends_with(".tar.gz")) return false;
  // What --fresh moved aside: <file>.bak, <file>.bak2, ...
  const std::size_t bak = name.rfind(".bak");
  return bak == std::string::npos || name.find_first_not_of("0123456789", bak + 4) != std::string::npos;
}

// ENGINES.sha256: "<sha256>  <executable>" per engine that has a digest, then each of the files of the bot
// itself (its script, its folder: an interpreted bot's executable is the interpreter) not listed before, in
// sha256sum's format, from the settings the run recorded.
std::string engine_checksum_list(const fs::path& results_dir) {
  std::string out;
  Expected<journal::StoredResults> stored = journal::read_results(results_dir);
  if (!stored) return out;
  const Expected<arena::TournamentDescription> description = arena::description_from_settings(stored->meta.settings);
  if (!description) return out;
  std::set<std::string> listed;
  for (const std::string& name : stored->meta.engines) {
    const arena::EngineDigests& recorded = description->engine(name).digests;
    if (!recorded.sha256 || !recorded.executable || recorded.sha256->starts_with(kNotRecorded)) continue;
    out += *recorded.sha256 + "  " + *recorded.executable + "\n";
    listed.insert(*recorded.sha256 + "  " + *recorded.executable);  // a compiled bot's program is in its folder too
    std::istringstream sums(recorded.file_sums.value_or(""));
    for (std::string line; std::getline(sums, line);)
      // Only what reads as a sha256sum line: the settings are the results folder's, not ours.
      if (line.size() > 66 && line.compare(64, 2, "  ") == 0 && line.find_first_not_of("0123456789abcdef") == 64 &&
          listed.insert(line).second)
        out += line + "\n";
  }
  return out;
}

// A path inside the archive's folder as safe to create: relative, no `..`, `.` or empty parts.
bool safe_path(const std::string& path) {
  if (path.empty() || path.front() == '/' || path.size() > 4096) return false;
  for (const fs::path& part : fs::path(path))
    if (part == ".." || part == "." || part.empty()) return false;
  return true;
}

}  // namespace

std::vector<std::string> archived_files(const fs::path& results_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(results_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    // Regular files only, never through a link: an archive holds what is in the folder itself.
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const fs::path relative = it->path().lexically_relative(results_dir);
    if (archived(relative)) out.push_back(relative.generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

constexpr std::uintmax_t kMaxTranscriptBytes = 32u << 20;  // as the reports read one

// One entry to write: a file of the results folder (streamed from disk) or a list made here.
struct Entry {
  std::string name;
  std::uintmax_t size = 0;
  std::string digest;
  std::optional<std::string> content;  // a list; none: the file results_dir/name
};

la_ssize_t write_to_file(struct archive*, void* file, const void* data, size_t size) {
  auto* out = static_cast<system::AtomicFile*>(file);
  if (out->write(std::string_view(static_cast<const char*>(data), size))) return -1;
  return static_cast<la_ssize_t>(size);
}

// The digest and size of a file read once: what the archive holds is exactly these bytes (a journal
// that grows meanwhile is archived up to here).
Expected<Entry> measure(const fs::path& dir, const std::string& name) {
  std::ifstream in(dir / name, std::ios::binary);
  if (!in) return Error{(dir / name).string() + ": cannot read"};
  Entry e{name, 0, "", std::nullopt};
  Sha256 sha;
  std::array<char, 1 << 16> buffer;
  while (in) {
    in.read(buffer.data(), buffer.size());
    const auto n = static_cast<std::size_t>(in.gcount());
    sha.update(std::string_view(buffer.data(), n));
    e.size += n;
  }
  if (in.bad()) return Error{(dir / name).string() + ": cannot read"};
  e.digest = sha.hex();
  return e;
}

}  // namespace

Expected<ArchiveSummary> write_archive(const fs::path& results_dir, const fs::path& out, bool journals_below) {
  std::error_code ec;
  if (!fs::is_directory(results_dir, ec)) return Error{results_dir.string() + ": not a folder"};
  const fs::path absolute = fs::absolute(results_dir, ec).lexically_normal();
  std::string top = absolute.filename().string();
  if (top.empty()) top = absolute.parent_path().filename().string();
  const std::vector<std::string> files = archived_files(results_dir);
  if (!journals_below && std::find(files.begin(), files.end(), journal::kGamesFile) == files.end() &&
      std::none_of(files.begin(), files.end(), [](const std::string& f) { return f.starts_with("shards/"); }))
    return Error{results_dir.string() + ": no games.jsonl: not a results folder"};

  auto listed = [](std::string name, std::string content) {
    return Entry{std::move(name), content.size(), sha256_hex(content), std::move(content)};
  };
  std::vector<Entry> entries;
  for (const std::string& name : files) {
    // A transcript of an arena before issue 36 holds every engine's stderr tail: only the forfeiter's is
    // published (docs/FORMATS.md, "Transcripts").
    const fs::path relative(name);
    if (relative.parent_path().filename() == "transcripts" && relative.extension() == ".log") {
      Expected<std::string> text = system::read_regular_file(results_dir / name, kMaxTranscriptBytes);
      if (text) {
        std::string kept = without_opponents_stderr(*text);
        if (kept != *text) {
          entries.push_back(listed(name, std::move(kept)));
          continue;
        }
      }
    }
    Expected<Entry> e = measure(results_dir, name);
    if (!e) return Error{e.error()};
    entries.push_back(std::move(e).value());
  }
  if (std::string engines = engine_checksum_list(results_dir); !engines.empty())
    entries.push_back(listed(kEngineChecksums, std::move(engines)));
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  std::string sums;
  for (const Entry& e : entries) sums += e.digest + "  " + e.name + "\n";
  entries.push_back(listed(kChecksumList, std::move(sums)));

  system::AtomicFile file;
  if (std::optional<std::string> error = system::AtomicFile::create(out, file)) return Error{*error};
  std::unique_ptr<struct archive, WriteFree> a(archive_write_new());
  auto check = [&](int status) -> std::optional<std::string> {
    if (status >= ARCHIVE_WARN) return std::nullopt;
    const char* why = archive_error_string(a.get());
    return out.string() + ": " + (why ? why : "cannot write the archive");
  };
  std::optional<std::string> error = check(archive_write_set_format_pax_restricted(a.get()));
  if (!error) error = check(archive_write_add_filter_gzip(a.get()));
  // No time in the gzip header: the same results make the same bytes.
  if (!error) error = check(archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr));
  // The compressed stream as it is, not padded to tar's 10240-byte blocks.
  if (!error) error = check(archive_write_set_bytes_in_last_block(a.get(), 1));
  if (!error) error = check(archive_write_open(a.get(), &file, nullptr, write_to_file, nullptr));
  ArchiveSummary summary;
  for (const Entry& e : entries) {
    if (error) break;
    std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
    archive_entry_set_pathname(entry.get(), (top + "/" + e.name).c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(e.size));
    archive_entry_set_mtime(entry.get(), 0, 0);
    archive_entry_set_uid(entry.get(), 0);
    archive_entry_set_gid(entry.get(), 0);
    error = check(archive_write_header(a.get(), entry.get()));
    auto put = [&](std::string_view data) {
      if (!error && !data.empty() &&
          archive_write_data(a.get(), data.data(), data.size()) != static_cast<la_ssize_t>(data.size()))
        error = check(ARCHIVE_FATAL);
    };
    if (e.content) {
      put(*e.content);
    } else {
      std::ifstream in(results_dir / e.name, std::ios::binary);
      std::array<char, 1 << 16> buffer;
      for (std::uintmax_t left = e.size; left > 0 && !error;) {
        in.read(buffer.data(), static_cast<std::streamsize>(std::min<std::uintmax_t>(left, buffer.size())));
        const auto n = static_cast<std::size_t>(in.gcount());
        if (n == 0) error = (results_dir / e.name).string() + ": changed while it was being archived";
        put(std::string_view(buffer.data(), n));
        left -= n;
      }
    }
    ++summary.files;
    summary.bytes += e.size;
  }
  if (!error) error = check(archive_write_close(a.get()));
  a.reset();
  if (!error) error = file.commit(system::Durability::Durable);
  if (error) return Error{*error};
  return summary;
}

Expected<fs::path> extract_archive(const fs::path& file, const fs::path& into) {
  std::unique_ptr<struct archive, ReadFree> a(archive_read_new());
  archive_read_support_filter_gzip(a.get());
  archive_read_support_format_tar(a.get());
  auto failure = [&](const std::string& what) { return Error{file.string() + ": " + what}; };
  if (archive_read_open_filename(a.get(), file.c_str(), 1 << 16) != ARCHIVE_OK)
    return failure("cannot read it as a .tar.gz: " + archive_error(a.get(), "unreadable"));
  std::string top;
  std::size_t count = 0;
  std::uintmax_t total = 0;
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) return failure("not a readable .tar.gz: " + archive_error(a.get(), "unreadable"));
    const char* raw = archive_entry_pathname(entry);
    // Tools write folders as "dir/" and may start every path with "./".
    std::string path = raw ? raw : "";
    while (path.starts_with("./")) path.erase(0, 2);
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    if (++count > kMaxArchiveEntries) return failure(fmt::format("more than {} entries", kMaxArchiveEntries));
    if (!safe_path(path)) return failure("unsafe entry '" + path.substr(0, 200) + "': an absolute path or a '..'");
    const mode_t type = archive_entry_filetype(entry);
    if (archive_entry_hardlink(entry) || (type != AE_IFREG && type != AE_IFDIR))
      return failure("unsafe entry '" + path.substr(0, 200) + "': not a regular file or a folder (a link or device)");
    const std::string first = fs::path(path).begin()->string();
    if (top.empty()) top = first;
    if (first != top) return failure("entries under more than one top folder ('" + top + "', '" + first + "')");
    const fs::path target = into / path;
    std::error_code ec;
    if (type == AE_IFDIR) {
      fs::create_directories(target, ec);
      if (ec) return failure(target.string() + ": " + ec.message());
      continue;
    }
    if (fs::path(path).parent_path().empty()) return failure("a file '" + path + "' outside the archive's folder");
    fs::create_directories(target.parent_path(), ec);
    if (ec) return failure(target.parent_path().string() + ": " + ec.message());
    // O_EXCL|O_NOFOLLOW: an entry never replaces another or writes through a link.
    system::FileHandle out(::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!out.is_open()) return failure("entry '" + path + "': " + system::system_error_text(target, "cannot create"));
    std::array<char, 1 << 16> buffer;
    for (;;) {
      const la_ssize_t n = archive_read_data(a.get(), buffer.data(), buffer.size());
      if (n == 0) break;
      if (n < 0) return failure(std::string("entry '") + path + "': " + archive_error(a.get(), "cannot read its data"));
      total += static_cast<std::uintmax_t>(n);
      if (total > kMaxArchiveBytes) return failure(fmt::format("more than {} GiB in all", kMaxArchiveBytes >> 30));
      if (auto error =
              system::write_all(out.get(), std::string_view(buffer.data(), static_cast<std::size_t>(n)), target))
        return failure(*error);
    }
  }
  if (top.empty()) return failure("an empty archive");
  return into / top;
}

}  // namespace kalah::integrity
