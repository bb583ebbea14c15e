// Archives made for the season's tests (season_test, season_e2e_test): a .tar.gz or a .zip in memory with any entry
// a hostile author could put there (a link, a FIFO, a device, a path with `..`), written with libarchive.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <string>
#include <utility>
#include <vector>

namespace kalah::test {

struct ArchiveEntry {
  ArchiveEntry(std::string path_, std::string content_ = "", unsigned type_ = AE_IFREG, std::string link_ = "",
               bool hard_ = false)
      : path(std::move(path_)), content(std::move(content_)), type(type_), link(std::move(link_)), hard(hard_) {}
  std::string path;
  std::string content;  // a regular file's
  unsigned type = AE_IFREG;
  std::string link;  // AE_IFLNK: the target; a hard link when `hard`
  bool hard = false;
};

inline la_ssize_t append_to_string(struct archive*, void* out, const void* data, size_t size) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
  return static_cast<la_ssize_t>(size);
}

// The archive's bytes: a gzip'ed tar (`zip` false) or a zip.
inline std::string make_archive(const std::vector<ArchiveEntry>& entries, bool zip = false) {
  std::string out;
  struct archive* a = archive_write_new();
  if (zip) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    archive_write_add_filter_gzip(a);
  }
  archive_write_set_bytes_in_last_block(a, 1);
  archive_write_open(a, &out, nullptr, append_to_string, nullptr);
  for (const ArchiveEntry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, e.type == AE_IFDIR ? 0755 : 06755);  // set-uid and set-gid: never kept
    if (e.hard) archive_entry_set_hardlink(entry, e.link.c_str());
    if (e.type == AE_IFLNK) archive_entry_set_symlink(entry, e.link.c_str());
    archive_entry_set_size(entry, e.type == AE_IFREG && !e.hard ? static_cast<la_int64_t>(e.content.size()) : 0);
    archive_write_header(a, entry);
    if (e.type == AE_IFREG && !e.hard) archive_write_data(a, e.content.data(), e.content.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

}  // namespace kalah::test
