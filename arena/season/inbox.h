// The watched submissions folder as the files there are seen (docs/SEASON.md, "A watched folder"): INBOX/AUTHOR/FILE,
// dropped by an organiser's sync, read as hostile. A look lists each roster author's folder (opened relative to the
// inbox's fd, never through a link), tells apart what is ready — a regular file whose device, inode, size and
// modification time are the same as at the previous look — from what is refused at sight (a link, a FIFO, a device, a
// socket, a folder, a file with other hard links), never opening anything but a listed regular file. Names starting
// with '.' are in progress (rsync's temporaries, a writer's rename-into-place) and not looked at, except the files
// this code claimed itself (kClaimPrefix). Unknown author folders and anything else at the top are reported, once.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::season {

// A file being taken is first renamed to this prefix and its name, so that a new file of the same name dropped
// meanwhile is never the one removed; a server killed while it took one finds it there at its next start.
inline constexpr const char* kClaimPrefix = ".arena-taking-";
// Where refused files go, with their reason beside them: INBOX/.refused/AUTHOR/STAMP-FILE and STAMP-FILE.why.
inline constexpr const char* kRefusedFolder = ".refused";
// The entries of one folder looked at (the inbox's authors, an author's files); beyond them, a report.
inline constexpr std::size_t kMaxInboxEntries = 1000;

struct InboxFile {
  std::string author;
  std::string name;   // in the author's folder (a claimed file's with kClaimPrefix)
  std::string file;   // the name it came as: `name` without kClaimPrefix
  struct stat st {};  // as fstatat saw it, never following a link
  bool claimed() const { return name != file; }
};

// What one look found.
struct InboxLook {
  std::vector<InboxFile> ready;  // claimed ones first, then oldest first (modification time, then name)
  std::vector<std::pair<InboxFile, std::string>> refused;  // at sight, with the reason
  std::vector<std::string> reports;                        // each said once while it stays as it is
};

class Inbox {
 public:
  // The inbox at `root` (made when missing; a link as `root` itself is the organiser's and followed), for `authors`.
  static Expected<Inbox> open(const std::filesystem::path& root, std::set<std::string> authors);

  InboxLook look();
  // Renames a ready file to its claimed name; the claimed file, or an error (a claimed file of that name is there).
  Expected<InboxFile> claim(const InboxFile& file) const;
  // A claimed file's first `max_bytes` bytes, when it is still the file listed and did not change while it was read.
  Expected<std::string> read(const InboxFile& file, std::uintmax_t max_bytes) const;
  // Removes a file once taken (or once found taken before).
  std::optional<std::string> remove(const InboxFile& file) const;
  // Moves a file (of any kind, never opened) to INBOX/.refused/AUTHOR/ with its reason beside it: where it went.
  Expected<std::string> refuse(const InboxFile& file, const std::string& reason) const;

  const std::filesystem::path& root() const { return root_; }
  // "INBOX/alice/bot.py" for messages, control bytes shown as '?'.
  std::string shown(const InboxFile& file) const;

 private:
  Inbox(std::filesystem::path root, std::set<std::string> authors)
      : root_(std::move(root)), authors_(std::move(authors)) {}
  void look_at_author(int inbox_fd, const std::string& author, InboxLook& out,
                      std::map<std::string, struct stat>& seen);
  void report(InboxLook& out, const std::string& key, const std::string& text);

  std::filesystem::path root_;
  std::set<std::string> authors_;
  std::map<std::string, struct stat> previous_;  // "AUTHOR/NAME" -> the regular file the last look saw there
  std::set<std::string> reported_;               // what was reported and is still there as it was
  std::set<std::string> reported_now_;
};

}  // namespace kalah::season
