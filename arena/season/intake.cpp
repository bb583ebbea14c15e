#include "arena/season/intake.h"

#include <unistd.h>

#include <boost/json.hpp>
#include <fmt/core.h>

#include "arena/season/init.h"
#include "arena/season/multipart.h"
#include "arena/season/pseudonyms.h"
#include "referee/system/clean_text.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {
namespace json = boost::json;
using serve::error_json;
using serve::Reply;

namespace {

std::string_view bearer_token(std::string_view authorization) {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size() || !authorization.starts_with(kBearer)) return {};
  return authorization.substr(kBearer.size());
}

// The last kMaxLogTail bytes of each log the contest wrote for the revision's bot: its author's to read.
constexpr std::size_t kMaxLogTail = 8u << 10;

json::object logs_of(const arena::Config& contest, const std::string& bot) {
  json::object logs;
  if (bot.empty()) return logs;
  for (const char* name : {"build.log", "check.log", "gate.log"}) {
    const std::filesystem::path file = contest.results_dir() / "logs" / bot / name;
    Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file, false);
    if (!opened) continue;
    system::FileHandle fd(opened->first);
    const std::uintmax_t size = opened->second, from = size > kMaxLogTail ? size - kMaxLogTail : 0;
    std::string tail;
    if (::lseek(fd.get(), static_cast<off_t>(from), SEEK_SET) < 0) continue;
    if (system::read_bounded(
            fd.get(), kMaxLogTail, [&](std::string_view piece) { tail += piece; }, file.string()))
      continue;
    logs[name] = system::clean_text(tail, true);
  }
  return logs;
}

json::object revision_object(const Revision& r, const arena::Config& contest) {
  return json::object{{"revision", r.number},
                      {"file", r.file},
                      {"bytes", r.bytes},
                      {"sha256", r.sha256},
                      {"kind", to_string(r.summary.kind)},
                      {"files", r.summary.files},
                      {"received_at", r.received_at},
                      {"status", r.status},
                      {"reason", r.reason},
                      {"bot", r.bot},
                      {"via", r.via},
                      {"logs", logs_of(contest, r.bot)}};
}

}  // namespace

SeasonIntake::SeasonIntake(SeasonConfig config, system::DirectoryLock lock, TokenTable tokens, RevisionStore store,
                           std::optional<FreezeRecord> frozen)
    : config_(std::move(config)),
      lock_(std::move(lock)),
      tokens_(std::move(tokens)),
      frozen_(std::move(frozen)),
      store_(std::move(store)),
      analyst_(config_),
      ladder_(config_, [this] { analyst_.game_recorded(); }),
      pipeline_(config_, store_, [this] { ladder_.entrants_changed(); }) {}

Expected<std::unique_ptr<SeasonIntake>> SeasonIntake::open(SeasonConfig config) {
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(config.dir);
  // The lock's own advice is a results folder's; a season's is one server at a time.
  if (!lock) return Error{"the season " + lock.error().substr(0, lock.error().find(';')) + ": one server per season"};
  Expected<TokenTable> tokens = TokenTable::read(config.dir / kTokenHashesFile);
  if (!tokens) return Error{tokens.error()};
  Expected<std::optional<FreezeRecord>> frozen = read_freeze(config.dir);
  if (!frozen) return Error{frozen.error()};
  Expected<RevisionStore> store = RevisionStore::open(config.dir / kRevisionsFolder);
  if (!store) return Error{store.error()};
  // Every author's public name before any revision is named (pseudonyms.h); a key changed mid-season is refused.
  Expected<std::map<std::string, std::string>> names = open_public_names(config, tokens->authors(), *store);
  if (!names) return Error{names.error()};
  config.pseudonym_of = std::move(names).value();
  std::unique_ptr<SeasonIntake> intake(new SeasonIntake(std::move(config), std::move(lock).value(),
                                                        std::move(tokens).value(), std::move(store).value(),
                                                        std::move(frozen).value()));
  // The analysis catches up with the ladder's journal, then follows its games.
  if (intake->config_.ladder_analysis) intake->analyst_.start();
  // The ladder resumes from its journal with the revisions entered so far.
  intake->ladder_.start();
  // What a stopped server left queued or building goes first, in the order it came.
  intake->pipeline_.start(intake->store_.unfinished());
  if (std::optional<std::string> error = intake->watch()) return Error{*error};
  return intake;
}

std::optional<std::string> SeasonIntake::watch() {
  const SeasonConfig& c = config_;
  if (c.watch.empty()) return std::nullopt;
  if (frozen_) {
    (void)system::write_own_file(c.dir / "season.log",
                                 system::utc_now_iso8601() + " inbox: the season is frozen since " +
                                     frozen_->frozen_at + " (arena season freeze): " + c.watch.string() +
                                     " is not taken in\n",
                                 /*append=*/true);
    return std::nullopt;
  }
  const std::vector<std::string> roster = tokens_.authors();
  Expected<Inbox> inbox = Inbox::open(c.watch, std::set<std::string>(roster.begin(), roster.end()));
  if (!inbox) return inbox.error();
  InboxTaker taker{
      .closed = [this] { return closed(); },
      .take = [this](const std::string& author, const std::string& file,
                     std::string_view content) { return take(author, file, content, "inbox"); },
  };
  watcher_ = std::make_unique<InboxWatcher>(config_, store_, std::move(inbox).value(), std::move(taker));
  watcher_->start();
  return std::nullopt;
}

std::size_t SeasonIntake::max_body() const { return config_.limits.max_upload_bytes + kMultipartOverhead; }

std::optional<Reply> SeasonIntake::authenticate(std::string_view authorization, const std::string& client,
                                                std::string& author) {
  const auto now = FailureLimiter::Clock::now();
  if (limiter_.blocked(client, now))
    return Reply{429, error_json(fmt::format("too many failed tokens from this address; wait {} s",
                                             FailureLimiter::kFailureWindow.count()))};
  const std::string_view token = bearer_token(authorization);
  std::optional<std::string> found = token.empty() ? std::nullopt : tokens_.author_of(token);
  if (!found) {
    limiter_.fail(client, now);
    return Reply{401,
                 error_json(token.empty() ? "a token is required: `Authorization: Bearer TOKEN`" : "unknown token")};
  }
  author = std::move(*found);
  return std::nullopt;
}

std::optional<Reply> SeasonIntake::admit(std::string_view authorization, const std::string& client) {
  std::string author;
  return admit_as(authorization, client, author);
}

std::optional<Reply> SeasonIntake::admit_as(std::string_view authorization, const std::string& client,
                                            std::string& author) {
  if (std::optional<Reply> refusal = authenticate(authorization, client, author)) return refusal;
  if (std::optional<std::string> why = closed()) return Reply{403, error_json(*why)};
  return std::nullopt;
}

std::optional<std::string> SeasonIntake::closed() const {
  if (frozen_)
    return "the season is frozen since " + frozen_->frozen_at +
           " (arena season freeze): uploads are closed; the final plays the revisions entered by then";
  if (config_.deadline && std::chrono::system_clock::now() >= *config_.deadline)
    return "the season's deadline, " + config_.deadline_text + ", has passed";
  return std::nullopt;
}

std::variant<Revision, Refusal> SeasonIntake::take(const std::string& author, const std::string& file,
                                                   std::string_view content, const std::string& via) {
  UploadSummary summary;
  if (std::optional<Refusal> refusal = inspect_upload(file, content, config_.limits, summary)) return *refusal;
  const std::lock_guard lock(taking_);
  Expected<Revision> stored = store_.add(author, file, content, summary, via);
  if (!stored) return Refusal{500, "the upload could not be stored: " + stored.error()};
  pipeline_.enqueue(author, stored->number);
  return std::move(stored).value();
}

Reply SeasonIntake::submit(std::string_view authorization, std::string_view content_type, std::string_view body,
                           const std::string& client) {
  std::string author;
  if (std::optional<Reply> refusal = admit_as(authorization, client, author)) return *refusal;
  Expected<FormFile> form = parse_form_file(content_type, body);
  if (!form) return Reply{400, error_json(form.error())};
  std::variant<Revision, Refusal> taken = take(author, form->filename, form->content, "upload");
  if (const Refusal* refusal = std::get_if<Refusal>(&taken)) return Reply{refusal->status, error_json(refusal->reason)};
  const Revision& stored = std::get<Revision>(taken);
  json::object o{{"author", author}, {"revision", stored.number}, {"status", stored.status}, {"sha256", stored.sha256}};
  return Reply{201, json::serialize(o)};
}

Reply SeasonIntake::revisions(const std::string& author, std::string_view authorization, const std::string& client) {
  std::string caller;
  if (std::optional<Reply> refusal = authenticate(authorization, client, caller)) return *refusal;
  // Another author's page is not found, whether that author exists or not.
  if (caller != author) return Reply{404, error_json("not found")};
  Expected<std::vector<Revision>> list = store_.list(author);
  if (!list) return Reply{500, error_json(list.error())};
  json::array revisions;
  for (const Revision& r : *list) revisions.push_back(revision_object(r, config_.contest));
  json::object page{{"author", author}};
  // The name the public pages show the author by, for them to find themselves there.
  if (config_.pseudonyms) page["pseudonym"] = config_.public_name(author);
  page["revisions"] = std::move(revisions);
  // The perfect-play analysis of the author's own ladder games: nobody else's.
  if (config_.ladder_analysis) page["analysis"] = analyst_.author_json(config_.public_name(author));
  return Reply{200, json::serialize(page)};
}

}  // namespace kalah::season
