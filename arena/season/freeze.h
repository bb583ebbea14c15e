// The end of a season's intake (docs/SEASON.md, "Deadline and final"): `arena season freeze` fixes each author's
// last entered revision in DIR/freeze.json, written once, atomically and durably, while it holds the season's lock
// (so never while a server runs). From then on the server refuses uploads (intake.h), and `arena season final`
// plays exactly the revisions the record names (final.h). A second freeze is refused unless it would record the
// same final; the first record is then kept as it is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/season/season_config.h"
#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kFreezeFile = "freeze.json";
inline constexpr int kFreezeFormat = 1;

// One author of the roster as the freeze found them.
struct FrozenAuthor {
  std::string author;
  int revision = 0;              // the last entered revision; 0: not in the final
  std::string engine;            // its bot, "alice-r2" (the engine's name in the final)
  std::string sha256;            // of the upload (DIR/revisions/AUTHOR/N/revision.json)
  std::string source_digest;     // of the submission folder it was built from (the contest's entries.json)
  std::string reason;            // why not in the final
  std::vector<int> unprocessed;  // revisions still queued or building: not in the final

  bool in_final() const { return revision > 0; }
  // Whether both put the same revision into the final (the author, the revision, its engine and its digests).
  bool same_entry(const FrozenAuthor& other) const;
};

struct FreezeRecord {
  int format = kFreezeFormat;
  std::string frozen_at;              // ISO 8601 UTC
  std::string deadline;               // the season's, ISO 8601 UTC; empty without one
  bool before_deadline = false;       // frozen while the deadline was still ahead
  std::string final;                  // describe_final() of the season at the freeze
  std::vector<FrozenAuthor> authors;  // every author of tokens.sha256, in its order

  std::vector<const FrozenAuthor*> finalists() const;
  // Whether both records hold the same final: its declaration and every author's entry (not the time).
  bool same_final(const FreezeRecord& other) const;
};

std::string freeze_to_text(const FreezeRecord& record);
// `where` names the file in messages.
Expected<FreezeRecord> freeze_from_text(std::string_view text, const std::string& where);
// DIR/freeze.json of the season in `dir`; nullopt when the season is not frozen.
Expected<std::optional<FreezeRecord>> read_freeze(const std::filesystem::path& dir);

// What a freeze of `season` would record now (the season's lock is the caller's): each author's last revision whose
// status is `entered`, checked against the contest's entries.json.
Expected<FreezeRecord> freeze_record(const SeasonConfig& season, const std::string& now);

struct Freeze {
  FreezeRecord record;   // as written, or as it was when the season was frozen already
  bool written = false;  // false: the season was frozen already with the same final
};

// Takes the season's lock (refused while a server holds it, naming it), then writes DIR/freeze.json, or finds it
// there with the same final. Errors: the lock, a record of another final (naming the first difference), a revision
// store or entries.json that cannot be read, a record that cannot be written.
Expected<Freeze> freeze_season(const SeasonConfig& season);

}  // namespace kalah::season
