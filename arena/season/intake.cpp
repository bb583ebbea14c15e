#include "arena/season/intake.h"

#include <boost/json.hpp>
#include <fmt/core.h>

#include "arena/season/init.h"
#include "arena/season/multipart.h"

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

json::object revision_object(const Revision& r) {
  return json::object{{"revision", r.number},
                      {"file", r.file},
                      {"bytes", r.bytes},
                      {"sha256", r.sha256},
                      {"kind", to_string(r.summary.kind)},
                      {"files", r.summary.files},
                      {"received_at", r.received_at},
                      {"status", r.status}};
}

}  // namespace

SeasonIntake::SeasonIntake(SeasonConfig config, system::DirectoryLock lock, TokenTable tokens, RevisionStore store)
    : config_(std::move(config)), lock_(std::move(lock)), tokens_(std::move(tokens)), store_(std::move(store)) {}

Expected<std::unique_ptr<SeasonIntake>> SeasonIntake::open(SeasonConfig config) {
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(config.dir);
  // The lock's own advice is a results folder's; a season's is one server at a time.
  if (!lock) return Error{"the season " + lock.error().substr(0, lock.error().find(';')) + ": one server per season"};
  Expected<TokenTable> tokens = TokenTable::read(config.dir / kTokenHashesFile);
  if (!tokens) return Error{tokens.error()};
  Expected<RevisionStore> store = RevisionStore::open(config.dir / kRevisionsFolder);
  if (!store) return Error{store.error()};
  return std::unique_ptr<SeasonIntake>(new SeasonIntake(std::move(config), std::move(lock).value(),
                                                        std::move(tokens).value(), std::move(store).value()));
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
  if (config_.deadline && std::chrono::system_clock::now() >= *config_.deadline)
    return Reply{403, error_json("the season's deadline, " + config_.deadline_text + ", has passed")};
  return std::nullopt;
}

Reply SeasonIntake::submit(std::string_view authorization, std::string_view content_type, std::string_view body,
                           const std::string& client) {
  std::string author;
  if (std::optional<Reply> refusal = admit_as(authorization, client, author)) return *refusal;
  Expected<FormFile> form = parse_form_file(content_type, body);
  if (!form) return Reply{400, error_json(form.error())};
  UploadSummary summary;
  if (std::optional<Refusal> refusal = inspect_upload(form->filename, form->content, config_.limits, summary))
    return Reply{refusal->status, error_json(refusal->reason)};
  Expected<Revision> stored = store_.add(author, form->filename, form->content, summary);
  if (!stored) return Reply{500, error_json("the upload could not be stored: " + stored.error())};
  json::object o{
      {"author", author}, {"revision", stored->number}, {"status", stored->status}, {"sha256", stored->sha256}};
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
  for (const Revision& r : *list) revisions.push_back(revision_object(r));
  return Reply{200, json::serialize(json::object{{"author", author}, {"revisions", std::move(revisions)}})};
}

}  // namespace kalah::season
