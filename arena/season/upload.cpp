#include "arena/season/upload.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "referee/system/files.h"

namespace kalah::season {
namespace {

struct ReadFree {
  void operator()(struct archive* a) const { archive_read_free(a); }
};

bool ends_with(std::string_view name, std::string_view tail) {
  if (name.size() <= tail.size()) return false;
  for (std::size_t i = 0; i < tail.size(); ++i) {
    char c = name[name.size() - tail.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != tail[i]) return false;
  }
  return true;
}

// An entry's path as safe to create below a folder: relative, no `..`, `.` or empty parts, no control byte.
bool safe_entry_path(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);  // a folder's trailing slash
  if (path.empty() || path.front() == '/' || path.size() > 1024) return false;
  for (char c : path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\') return false;
  for (const std::filesystem::path& part : std::filesystem::path(std::string(path)))
    if (part == ".." || part == "." || part.empty()) return false;
  return true;
}

std::string shown_path(const char* path) {
  std::string out;
  for (const char* c = path; *c && out.size() < 100; ++c)
    out += static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f ? '?' : *c;
  return '"' + out + '"';
}

// The kind of a non-regular entry, for messages.
const char* entry_kind(const archive_entry* entry) {
  if (archive_entry_hardlink(const_cast<archive_entry*>(entry))) return "a hard link";
  switch (archive_entry_filetype(const_cast<archive_entry*>(entry))) {
    case AE_IFLNK: return "a symbolic link";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFIFO: return "a FIFO";
    case AE_IFSOCK: return "a socket";
    default: return "not a regular file or a folder";
  }
}

// Creates the regular file `path` (new, never through a link), mode 0644 whatever the archive said.
std::optional<std::string> create_file(const std::filesystem::path& path, system::FileHandle& out) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return path.parent_path().string() + ": cannot create: " + ec.message();
  out = system::FileHandle(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!out.is_open()) return system::system_error_text(path, "cannot create");
  return std::nullopt;
}

// A path of the archive that would be a file and a folder at once if `key` (a folder or not) were added to `paths`
// (each earlier entry: is it a folder): a file among its parents, or, for a file, an earlier entry below it.
std::optional<std::string> file_folder_clash(const std::map<std::string, bool>& paths, const std::string& key,
                                             bool folder) {
  for (std::size_t slash = key.find('/'); slash != std::string::npos; slash = key.find('/', slash + 1))
    if (auto parent = paths.find(key.substr(0, slash)); parent != paths.end() && !parent->second) return parent->first;
  if (!folder)
    if (auto below = paths.lower_bound(key + '/'); below != paths.end() && below->first.starts_with(key + '/'))
      return key;
  return std::nullopt;
}

// Reads the archive through, checking every rule; with `into`, writes its folders and files there as well.
std::optional<Refusal> inspect_archive(UploadKind kind, std::string_view content, const UploadLimits& limits,
                                       UploadSummary& summary, const std::filesystem::path* into) {
  std::unique_ptr<struct archive, ReadFree> a(archive_read_new());
  if (kind == UploadKind::TarGz) {
    archive_read_support_filter_gzip(a.get());
    archive_read_support_format_tar(a.get());
  } else {
    archive_read_support_format_zip(a.get());
  }
  const auto unreadable = [&](const char* fallback) {
    const char* why = archive_error_string(a.get());
    return Refusal{422, std::string("the archive cannot be read: ") + (why ? why : fallback)};
  };
  if (archive_read_open_memory(a.get(), content.data(), content.size()) != ARCHIVE_OK)
    return unreadable("not an archive of its kind");
  std::map<std::string, bool> paths;  // every entry so far: is it a folder
  std::array<char, 1 << 16> buffer;
  for (std::size_t entries = 0;; ++entries) {
    archive_entry* entry = nullptr;
    const int status = archive_read_next_header(a.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK) return unreadable("a damaged entry");
    if (entries >= limits.max_files)
      return Refusal{422, "the archive has more than " + std::to_string(limits.max_files) + " entries (max_files)"};
    const char* path = archive_entry_pathname(entry);
    if (!path || !safe_entry_path(path))
      return Refusal{422, "the archive's entry " + std::string(path ? shown_path(path) : "without a name") +
                              " is not a relative path without '..' and control characters"};
    const auto type = archive_entry_filetype(entry);
    if (archive_entry_hardlink(entry) || (type != AE_IFREG && type != AE_IFDIR))
      return Refusal{422, "the archive's entry " + shown_path(path) + " is " + entry_kind(entry) +
                              ": only regular files and folders are taken"};
    std::string key(path);
    while (key.ends_with('/')) key.pop_back();
    if (paths.contains(key)) return Refusal{422, "the archive holds " + shown_path(path) + " twice"};
    if (std::optional<std::string> clash = file_folder_clash(paths, key, type == AE_IFDIR))
      return Refusal{422, "the archive's " + shown_path(clash->c_str()) + " is both a file and a folder"};
    paths.emplace(key, type == AE_IFDIR);
    std::error_code ec;
    if (type == AE_IFDIR && into) std::filesystem::create_directories(*into / key, ec);
    if (ec) return Refusal{500, (*into / key).string() + ": cannot create: " + ec.message()};
    if (type == AE_IFDIR) continue;
    ++summary.files;
    system::FileHandle out;
    if (into)
      if (std::optional<std::string> error = create_file(*into / key, out)) return Refusal{500, *error};
    // The bytes are counted as they come: a declared size is never trusted.
    for (;;) {
      const la_ssize_t n = archive_read_data(a.get(), buffer.data(), buffer.size());
      if (n < 0) return unreadable("damaged data");
      if (n == 0) break;
      summary.unpacked_bytes += static_cast<std::uintmax_t>(n);
      if (into)
        if (auto error =
                system::write_all(out.get(), std::string_view(buffer.data(), static_cast<std::size_t>(n)), *into / key))
          return Refusal{500, *error};
      if (summary.unpacked_bytes > limits.max_unpacked_bytes)
        return Refusal{413, "the archive's files are larger than " + std::to_string(limits.max_unpacked_bytes >> 10) +
                                " KiB together, unpacked (max_unpacked_kb)"};
    }
  }
  if (summary.files == 0) return Refusal{422, "the archive holds no file"};
  return std::nullopt;
}

}  // namespace

const char* to_string(UploadKind kind) {
  switch (kind) {
    case UploadKind::Source: return "source";
    case UploadKind::TarGz: return "tar.gz";
    case UploadKind::Zip: return "zip";
  }
  return "?";
}

std::optional<UploadKind> upload_kind(std::string_view filename) {
  if (ends_with(filename, ".tar.gz") || ends_with(filename, ".tgz")) return UploadKind::TarGz;
  if (ends_with(filename, ".zip")) return UploadKind::Zip;
  for (std::string_view source : {".py", ".c", ".cc", ".cpp", ".cxx"})
    if (ends_with(filename, source)) return UploadKind::Source;
  return std::nullopt;
}

bool valid_file_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  const auto alnum = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alnum(name.front())) return false;
  for (char c : name)
    if (!alnum(c) && c != '.' && c != '_' && c != '+' && c != '-') return false;
  return true;
}

std::optional<Refusal> inspect_upload(std::string_view filename, std::string_view content, const UploadLimits& limits,
                                      UploadSummary& summary) {
  return unpack_upload(filename, content, limits, summary, nullptr);
}

std::optional<Refusal> unpack_upload(std::string_view filename, std::string_view content, const UploadLimits& limits,
                                     UploadSummary& summary, const std::filesystem::path* into) {
  summary = UploadSummary{};
  if (!valid_file_name(filename))
    return Refusal{400,
                   "the file's name must be 1 to 128 letters, digits, '.', '_', '+' or '-', starting with a "
                   "letter or a digit"};
  const std::optional<UploadKind> kind = upload_kind(filename);
  if (!kind) return Refusal{415, "an upload is one source file (.py, .c, .cc, .cpp, .cxx), a .tar.gz (.tgz) or a .zip"};
  if (content.size() > limits.max_upload_bytes)
    return Refusal{413,
                   "the file is larger than " + std::to_string(limits.max_upload_bytes >> 10) + " KiB (max_upload_kb)"};
  if (content.empty()) return Refusal{422, "the file is empty"};
  summary.kind = *kind;
  if (*kind != UploadKind::Source) return inspect_archive(*kind, content, limits, summary, into);
  if (content.find('\0') != std::string_view::npos) return Refusal{422, "a source file holds a NUL byte: not text"};
  summary.files = 1;
  summary.unpacked_bytes = content.size();
  system::FileHandle out;
  if (into) {
    if (std::optional<std::string> error = create_file(*into / std::string(filename), out)) return Refusal{500, *error};
    if (auto error = system::write_all(out.get(), content, *into / std::string(filename))) return Refusal{500, *error};
  }
  return std::nullopt;
}

}  // namespace kalah::season
