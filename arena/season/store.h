// Every revision an author uploads, kept immutable (docs/SEASON.md, "Files"): DIR/revisions/AUTHOR/N/ holds the
// file as it was received (read-only) and revision.json (its digest, size, kind and time). A revision is written
// into a hidden temporary folder, each file and the folder fsync'd, renamed to N and its parent fsync'd: after a
// crash at any moment a revision is there whole or not at all, and one whose upload was answered is there. The
// temporaries a killed server left are removed when the store is opened again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/season/upload.h"
#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kRevisionFile = "revision.json";
inline constexpr int kMaxRevisions = 10'000;  // per author

struct Revision {
  std::string author;
  int number = 0;  // 1, 2, ... per author
  std::string file;
  std::uintmax_t bytes = 0;
  std::string sha256;
  UploadSummary summary;
  std::string received_at;  // ISO 8601 UTC
  // From DIR/status/AUTHOR/N.json (pipeline.h), "queued" until a first status is recorded.
  std::string status = "queued";
  std::string reason;          // why it is not entered
  std::string bot;             // the contest's name of the revision's bot, once it is prepared
  std::string via = "upload";  // how it came: "upload" (POST /api/submissions) or "inbox" (the watched folder)
};

// A revision's status as the pipeline records it: replaced atomically and durably at each step.
struct StatusRecord {
  std::string status;  // building, build-failed, check-failed, gate-failed, entered
  std::string reason;
  std::string bot;
  std::string at;  // ISO 8601 UTC
};

class RevisionStore {
 public:
  // The store in `dir` (DIR/revisions), made when missing; removes the temporaries of a killed writer. Only one
  // process may use it at a time (the season's lock).
  static Expected<RevisionStore> open(const std::filesystem::path& dir);

  // Stores `content` as the author's next revision, come `via` "upload" or "inbox"; returns it once it is durable.
  Expected<Revision> add(const std::string& author, const std::string& file, std::string_view content,
                         const UploadSummary& summary, const std::string& via = "upload");
  // The author's revisions, oldest first (none when they uploaded nothing), each with its recorded status.
  Expected<std::vector<Revision>> list(const std::string& author) const;
  // The authors who uploaded anything, in name order.
  std::vector<std::string> authors() const;
  // Every author's revisions still to process (queued, or building when a server stopped), oldest first per author.
  std::vector<std::pair<std::string, int>> unfinished() const;
  // Where revision N of `author` is (its folder) and its status is recorded.
  std::filesystem::path folder(const std::string& author, int number) const;
  std::optional<std::string> record_status(const std::string& author, int number, const StatusRecord& status) const;

 private:
  explicit RevisionStore(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path status_file(const std::string& author, int number) const;
  std::filesystem::path dir_;
};

}  // namespace kalah::season
