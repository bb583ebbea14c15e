#include "arena/season/freeze.h"

#include <boost/json.hpp>
#include <fmt/core.h>

#include "arena/contest/entries.h"
#include "arena/season/init.h"
#include "arena/season/store.h"
#include "arena/season/tokens.h"
#include "referee/system/directory_lock.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr std::uintmax_t kMaxFreezeBytes = 4u << 20;

json::object author_json(const FrozenAuthor& a) {
  json::object o{{"author", a.author}};
  if (a.in_final()) {
    o["revision"] = a.revision;
    o["engine"] = a.engine;
    o["sha256"] = a.sha256;
    o["source_digest"] = a.source_digest;
  } else {
    o["revision"] = nullptr;
    o["reason"] = a.reason;
  }
  json::array unprocessed;
  for (int n : a.unprocessed) unprocessed.push_back(n);
  o["unprocessed"] = std::move(unprocessed);
  return o;
}

std::string text_of(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

FrozenAuthor author_from(const json::value& v) {
  const json::object& o = v.as_object();
  FrozenAuthor a;
  a.author = json::value_to<std::string>(o.at("author"));
  if (!o.at("revision").is_null()) {
    a.revision = json::value_to<int>(o.at("revision"));
    a.engine = json::value_to<std::string>(o.at("engine"));
    a.sha256 = json::value_to<std::string>(o.at("sha256"));
    a.source_digest = json::value_to<std::string>(o.at("source_digest"));
    if (a.revision < 1 || a.engine.empty()) throw std::invalid_argument("a revision of the final without its engine");
  }
  a.reason = text_of(o, "reason");
  a.unprocessed = json::value_to<std::vector<int>>(o.at("unprocessed"));
  return a;
}

// `author` as the freeze finds them: their last entered revision, if the contest has it entered too.
Expected<FrozenAuthor> frozen_author(const RevisionStore& store, arena::Entries& entries, const std::string& author) {
  Expected<std::vector<Revision>> revisions = store.list(author);
  if (!revisions) return Error{revisions.error()};
  FrozenAuthor out;
  out.author = author;
  const Revision* last = nullptr;
  for (const Revision& r : *revisions) {
    if (r.status == "entered") last = &r;
    if (r.status == "queued" || r.status == "building") out.unprocessed.push_back(r.number);
  }
  if (!last) {
    out.reason = revisions->empty() ? "no upload" : "no entered revision";
    return out;
  }
  const arena::Submission* s = entries.by_name(last->bot);
  if (!s || !s->ever_entered()) {
    out.reason = last->bot + " is not among the contest's entrants (its entries.json)";
    return out;
  }
  if (s->status != arena::SubmissionStatus::Entered) {
    out.reason = fmt::format("{} is {} in the contest: {}", last->bot, to_string(s->status), s->reason);
    return out;
  }
  out.revision = last->number;
  out.engine = last->bot;
  out.sha256 = last->sha256;
  out.source_digest = s->source_digest;
  return out;
}

std::string entry_text(const FrozenAuthor& a) { return a.in_final() ? a.engine : "not in the final"; }

// The first way `now` differs from the record `then`, for the refusal of a second freeze.
std::string difference(const FreezeRecord& then, const FreezeRecord& now) {
  if (then.final != now.final) return fmt::format("the final was declared \"{}\", now \"{}\"", then.final, now.final);
  for (std::size_t i = 0; i < then.authors.size() && i < now.authors.size(); ++i)
    if (!then.authors[i].same_entry(now.authors[i]))
      return fmt::format("{}: {} then, {} now", then.authors[i].author, entry_text(then.authors[i]),
                         entry_text(now.authors[i]));
  return "the authors (tokens.sha256) are not the same";
}

}  // namespace

bool FrozenAuthor::same_entry(const FrozenAuthor& o) const {
  return author == o.author && revision == o.revision && engine == o.engine && sha256 == o.sha256 &&
         source_digest == o.source_digest;
}

std::vector<const FrozenAuthor*> FreezeRecord::finalists() const {
  std::vector<const FrozenAuthor*> out;
  for (const FrozenAuthor& a : authors)
    if (a.in_final()) out.push_back(&a);
  return out;
}

bool FreezeRecord::same_final(const FreezeRecord& o) const {
  if (final != o.final || authors.size() != o.authors.size()) return false;
  for (std::size_t i = 0; i < authors.size(); ++i)
    if (!authors[i].same_entry(o.authors[i])) return false;
  return true;
}

std::string freeze_to_text(const FreezeRecord& r) {
  const json::object head{{"format", r.format},
                          {"frozen_at", r.frozen_at},
                          {"deadline", r.deadline.empty() ? json::value(nullptr) : json::value(r.deadline)},
                          {"before_deadline", r.before_deadline},
                          {"final", r.final}};
  // One author a line, so that the record reads (and diffs) as a list.
  std::string text = json::serialize(head);
  text.pop_back();
  text += ",\"authors\":[\n";
  for (std::size_t i = 0; i < r.authors.size(); ++i)
    text += json::serialize(author_json(r.authors[i])) + (i + 1 < r.authors.size() ? ",\n" : "\n");
  return text + "]}\n";
}

Expected<FreezeRecord> freeze_from_text(std::string_view text, const std::string& where) {
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  FreezeRecord r;
  try {
    if (!o) throw std::invalid_argument("not an object");
    r.format = json::value_to<int>(o->at("format"));
    if (r.format != kFreezeFormat)
      return Error{fmt::format("{}: a freeze record of format {}, not {}", where, r.format, kFreezeFormat)};
    r.frozen_at = json::value_to<std::string>(o->at("frozen_at"));
    r.deadline = text_of(*o, "deadline");
    r.before_deadline = json::value_to<bool>(o->at("before_deadline"));
    r.final = json::value_to<std::string>(o->at("final"));
    for (const json::value& a : o->at("authors").as_array()) r.authors.push_back(author_from(a));
  } catch (const std::exception&) {
    return Error{where + ": not a season's freeze record (arena season freeze writes it)"};
  }
  return r;
}

Expected<std::optional<FreezeRecord>> read_freeze(const fs::path& dir) {
  const fs::path file = dir / kFreezeFile;
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() == fs::file_type::not_found) return std::optional<FreezeRecord>();
  Expected<std::string> text = system::read_regular_file(file, kMaxFreezeBytes);
  if (!text) return Error{text.error()};
  Expected<FreezeRecord> record = freeze_from_text(*text, file.string());
  if (!record) return Error{record.error()};
  return std::optional<FreezeRecord>(std::move(record).value());
}

Expected<FreezeRecord> freeze_record(const SeasonConfig& season, const std::string& now) {
  Expected<TokenTable> tokens = TokenTable::read(season.dir / kTokenHashesFile);
  if (!tokens) return Error{tokens.error()};
  Expected<RevisionStore> store = RevisionStore::open(season.dir / kRevisionsFolder);
  if (!store) return Error{store.error()};
  Expected<arena::Entries> read = arena::read_entries(season.contest.entries_file());
  if (!read) return Error{read.error()};
  arena::Entries entries = std::move(read).value();
  FreezeRecord record;
  record.frozen_at = now;
  record.deadline = season.deadline_text;
  record.before_deadline = season.deadline && std::chrono::system_clock::now() < *season.deadline;
  record.final = describe_final(season);
  for (const std::string& author : tokens->authors()) {
    Expected<FrozenAuthor> frozen = frozen_author(*store, entries, author);
    if (!frozen) return Error{frozen.error()};
    record.authors.push_back(std::move(frozen).value());
  }
  return record;
}

Expected<Freeze> freeze_season(const SeasonConfig& season) {
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(season.dir);
  if (!lock)
    return Error{"the season " + lock.error().substr(0, lock.error().find(';')) +
                 ": stop its server first (the freeze fixes what the server has entered)"};
  Expected<FreezeRecord> now = freeze_record(season, system::utc_now_iso8601());
  if (!now) return Error{now.error()};
  Expected<std::optional<FreezeRecord>> existing = read_freeze(season.dir);
  if (!existing) return Error{existing.error()};
  if (*existing) {
    if ((*existing)->same_final(*now)) return Freeze{std::move(**existing), false};
    return Error{fmt::format("the season was frozen at {} ({}) with another final: {}; a season is frozen once",
                             (*existing)->frozen_at, (season.dir / kFreezeFile).string(),
                             difference(**existing, *now))};
  }
  if (auto error = system::write_file_atomically(season.dir / kFreezeFile, freeze_to_text(*now))) return Error{*error};
  return Freeze{std::move(now).value(), true};
}

}  // namespace kalah::season
