// A season's submission endpoints behind `arena serve --season` (docs/SEASON.md, docs/SERVE.md): the authors'
// tokens (their digests), the failed attempts per client, the upload checked whole and stored durably before it is
// acknowledged, and each author's own revisions. Holds the season's lock (DIR/arena.lock) while it lives: a second
// server on the same season is refused. Each stored revision goes on to the pipeline (pipeline.h), and the entered
// ones play on the season's ladder (ladder.h), started here with the season and stopped with it. A frozen season
// (freeze.h: DIR/freeze.json, read at the start; no freeze is made while a server holds the lock) refuses uploads.
// With [season] watch, the watched folder's files are taken in by the same code as an upload (watcher.h). The ladder's
// games are analysed behind it all (ladder_analyst.h), and each author's page shows the analysis of their own games.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "arena/season/freeze.h"
#include "arena/season/ladder.h"
#include "arena/season/ladder_analyst.h"
#include "arena/season/pipeline.h"
#include "arena/season/rate_limit.h"
#include "arena/season/season_config.h"
#include "arena/season/store.h"
#include "arena/season/tokens.h"
#include "arena/season/watcher.h"
#include "arena/serve/server.h"
#include "referee/system/directory_lock.h"

namespace kalah::season {

// A multipart body's own bytes around the file: a bound of its headers and boundaries.
inline constexpr std::size_t kMultipartOverhead = 16u << 10;

class SeasonIntake final : public serve::Intake {
 public:
  // Locks the season's folder, reads its token digests, its freeze record if any, and opens its revisions. Errors:
  // the season in use by another process (naming it), an unreadable tokens.sha256 or freeze.json, an unwritable
  // revisions folder.
  static Expected<std::unique_ptr<SeasonIntake>> open(SeasonConfig config);

  std::size_t max_body() const override;
  std::optional<serve::Reply> admit(std::string_view authorization, const std::string& client) override;
  serve::Reply submit(std::string_view authorization, std::string_view content_type, std::string_view body,
                      const std::string& client) override;
  serve::Reply revisions(const std::string& author, std::string_view authorization, const std::string& client) override;

  const SeasonConfig& config() const { return config_; }
  std::size_t authors() const { return tokens_.size(); }
  const std::optional<FreezeRecord>& frozen() const { return frozen_; }
  // Whether the watched folder is taken in (config().watch, not frozen).
  bool watching() const { return watcher_ != nullptr; }

  // A file of `author` as an upload and the watched folder both take it in: checked whole (inspect_upload), stored
  // durably as the author's next revision, come `via` "upload" or "inbox", and queued for the pipeline. Its
  // refusal with the HTTP status that says why, or the revision.
  std::variant<Revision, Refusal> take(const std::string& author, const std::string& file, std::string_view content,
                                       const std::string& via);
  // Why nothing is taken in now: the season is frozen, or its deadline has passed.
  std::optional<std::string> closed() const;

 private:
  SeasonIntake(SeasonConfig config, system::DirectoryLock lock, TokenTable tokens, RevisionStore store,
               std::optional<FreezeRecord> frozen);
  // The author of the request's `Authorization: Bearer TOKEN`, or its refusal (429 over the failures, 401).
  std::optional<serve::Reply> authenticate(std::string_view authorization, const std::string& client,
                                           std::string& author);
  // Starts the watcher of config().watch unless the season is frozen (said in season.log); an error when the
  // watched folder cannot be made or opened.
  std::optional<std::string> watch();
  // authenticate(), then the freeze and the deadline (403 once the season is frozen or the deadline has passed).
  std::optional<serve::Reply> admit_as(std::string_view authorization, const std::string& client, std::string& author);

  SeasonConfig config_;
  system::DirectoryLock lock_;
  TokenTable tokens_;
  std::optional<FreezeRecord> frozen_;
  RevisionStore store_;
  FailureLimiter limiter_;
  LadderAnalyst analyst_;  // analyses the ladder's games; told by the ladder, so it goes after it
  Ladder ladder_;          // plays all term; told by the pipeline when a revision entered
  Pipeline pipeline_;      // it stops (finishing the revision in work) before the ladder and the store it uses go
  std::mutex taking_;      // one revision stored at a time: an upload's and the watched folder's take turns
  std::unique_ptr<InboxWatcher> watcher_;  // last: it stops (finishing the file in work) before what it feeds
};

}  // namespace kalah::season
