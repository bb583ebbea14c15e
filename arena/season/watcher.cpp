#include "arena/season/watcher.h"

#include <algorithm>

#include "arena/integrity/sha256.h"
#include "arena/season/pipeline.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {

InboxWatcher::InboxWatcher(const SeasonConfig& config, const RevisionStore& store, Inbox inbox, InboxTaker taker)
    : config_(config), store_(store), inbox_(std::move(inbox)), taker_(std::move(taker)) {}

InboxWatcher::~InboxWatcher() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void InboxWatcher::start() {
  thread_ = std::thread([this] {
    for (;;) {
      look_once();
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, kLookInterval, [this] { return stopping_; })) return;
    }
  });
}

void InboxWatcher::log(const std::string& line) {
  (void)system::write_own_file(config_.dir / "season.log", system::utc_now_iso8601() + " inbox: " + line + "\n",
                               /*append=*/true);
}

void InboxWatcher::log_failure(const std::string& key, const std::string& line) {
  failures_now_.insert(key);
  if (!failures_.contains(key)) log(line);
}

void InboxWatcher::look_once() {
  if (std::optional<std::string> closed = taker_.closed ? taker_.closed() : std::nullopt) {
    if (!closed_said_) log(*closed + ": " + inbox_.root().string() + " is not taken in");
    closed_said_ = true;
    return;
  }
  closed_said_ = false;
  failures_now_.clear();
  InboxLook look = inbox_.look();
  for (const std::string& report : look.reports) log(report);
  for (const auto& [file, reason] : look.refused) {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    refuse(file, reason);
  }
  for (const InboxFile& ready : look.ready) {
    const std::lock_guard lock(mutex_);  // a stop waits for the file in work
    if (stopping_) return;
    take(ready);
  }
  failures_ = std::move(failures_now_);
}

void InboxWatcher::refuse(const InboxFile& file, const std::string& reason) {
  Expected<std::string> moved = inbox_.refuse(file, reason);
  if (moved)
    log(inbox_.shown(file) + " refused: " + reason + " (moved to " + *moved + ", the reason beside it in .why)");
  else
    log_failure(file.author + "/" + file.name + "/" + std::to_string(file.st.st_ino),
                inbox_.shown(file) + " refused: " + reason + "; it stays there: " + moved.error());
}

std::optional<Revision> InboxWatcher::latest_from_inbox(const std::string& author) const {
  Expected<std::vector<Revision>> revisions = store_.list(author);
  if (!revisions) return std::nullopt;
  const auto found =
      std::find_if(revisions->rbegin(), revisions->rend(), [](const Revision& r) { return r.via == "inbox"; });
  if (found == revisions->rend()) return std::nullopt;
  return *found;
}

void InboxWatcher::take(const InboxFile& ready) {
  const std::string key = ready.author + "/" + ready.name + "/" + std::to_string(ready.st.st_ino);
  Expected<InboxFile> claimed = inbox_.claim(ready);
  // Another file of its name was swapped in between the look and the claim: it waits for the next looks.
  if (claimed && (claimed->st.st_ino != ready.st.st_ino || claimed->st.st_dev != ready.st.st_dev)) return;
  // One more byte than an upload may have: a larger file is refused by the upload's own check.
  Expected<std::string> content = claimed ? inbox_.read(*claimed, config_.limits.max_upload_bytes + 1)
                                          : Expected<std::string>(Error{claimed.error()});
  if (!content) return log_failure(key, inbox_.shown(ready) + " not taken yet: " + content.error());
  const std::string sha256 = integrity::sha256_hex(*content);
  if (const std::optional<Revision> latest = latest_from_inbox(ready.author);
      latest && latest->file == ready.file && latest->sha256 == sha256) {
    // What a server stopped between storing it and removing the file left.
    if (auto error = inbox_.remove(*claimed)) return log_failure(key, *error);
    return log(inbox_.shown(ready) + " is " + revision_bot(ready.author, latest->number) +
               " already (the same name and SHA-256 as the author's latest revision from the inbox): removed");
  }
  std::variant<Revision, Refusal> taken = taker_.take(ready.author, ready.file, *content);
  if (const Refusal* refusal = std::get_if<Refusal>(&taken)) {
    if (refusal->status >= 500) return log_failure(key, inbox_.shown(ready) + " not taken yet: " + refusal->reason);
    return refuse(*claimed, refusal->reason);
  }
  const Revision& r = std::get<Revision>(taken);
  std::optional<std::string> error = inbox_.remove(*claimed);
  log(inbox_.shown(ready) + " taken as " + revision_bot(r.author, r.number) + " (revision " + std::to_string(r.number) +
      ", sha256 " + r.sha256 + ")" + (error ? "; not removed: " + *error : ""));
}

}  // namespace kalah::season
