#include "arena/season/store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

#include <boost/json.hpp>

#include "arena/integrity/sha256.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr std::string_view kIncoming = ".incoming-";
constexpr std::uintmax_t kMaxRevisionJson = 64u << 10;

// A revision folder's number: digits only, no leading zero, 1..kMaxRevisions.
std::optional<int> revision_number(const std::string& name) {
  int n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (ec != std::errc{} || end != name.data() + name.size() || name.front() == '0' || n < 1 || n > kMaxRevisions)
    return std::nullopt;
  return n;
}

// The numbers of the revision folders in `author_dir`, sorted; never through a link.
std::vector<int> revision_numbers(const fs::path& author_dir) {
  std::vector<int> out;
  std::error_code ec;
  std::size_t seen = 0;
  for (fs::directory_iterator it(author_dir, ec); !ec && it != fs::directory_iterator() && seen < 4 * kMaxRevisions;
       it.increment(ec), ++seen)
    if (it->symlink_status(ec).type() == fs::file_type::directory)
      if (const std::optional<int> n = revision_number(it->path().filename().string())) out.push_back(*n);
  std::sort(out.begin(), out.end());
  return out;
}

// Creates `path` (new, never through a link), writes `content`, makes it read-only and syncs it.
std::optional<std::string> write_new_file(const fs::path& path, std::string_view content) {
  system::FileHandle fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!fd.is_open()) return system::system_error_text(path, "cannot create");
  if (auto error = system::write_all(fd.get(), content, path)) return error;
  if (::fchmod(fd.get(), 0444) != 0) return system::system_error_text(path, "cannot make read-only");
  if (::fsync(fd.get()) != 0) return system::system_error_text(path, "cannot sync");
  return std::nullopt;
}

std::string revision_json(const Revision& r) {
  json::object o;
  o["author"] = r.author;
  o["revision"] = r.number;
  o["file"] = r.file;
  o["bytes"] = r.bytes;
  o["sha256"] = r.sha256;
  o["kind"] = to_string(r.summary.kind);
  o["files"] = r.summary.files;
  o["unpacked_bytes"] = r.summary.unpacked_bytes;
  o["received_at"] = r.received_at;
  o["via"] = r.via;
  return json::serialize(o) + "\n";
}

Expected<Revision> read_revision(const fs::path& folder) {
  Expected<std::string> text = system::read_regular_file(folder / kRevisionFile, kMaxRevisionJson);
  if (!text) return Error{text.error()};
  boost::system::error_code ec;
  const json::value v = json::parse(*text, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  Revision r;
  try {
    if (!o) throw std::invalid_argument("not an object");
    r.author = json::value_to<std::string>(o->at("author"));
    r.number = json::value_to<int>(o->at("revision"));
    r.file = json::value_to<std::string>(o->at("file"));
    r.bytes = json::value_to<std::uintmax_t>(o->at("bytes"));
    r.sha256 = json::value_to<std::string>(o->at("sha256"));
    const std::string kind = json::value_to<std::string>(o->at("kind"));
    r.summary.kind = kind == "zip" ? UploadKind::Zip : kind == "tar.gz" ? UploadKind::TarGz : UploadKind::Source;
    r.summary.files = json::value_to<std::size_t>(o->at("files"));
    r.summary.unpacked_bytes = json::value_to<std::uintmax_t>(o->at("unpacked_bytes"));
    r.received_at = json::value_to<std::string>(o->at("received_at"));
    // A revision stored before the watched folder came through an upload.
    if (const json::value* via = o->if_contains("via")) r.via = json::value_to<std::string>(*via);
  } catch (const std::exception&) {
    return Error{(folder / kRevisionFile).string() + ": not a revision's record"};
  }
  return r;
}

}  // namespace

Expected<RevisionStore> RevisionStore::open(const fs::path& dir) {
  if (auto error = system::make_own_folder(dir)) return Error{*error};
  std::error_code ec;
  for (fs::directory_iterator authors(dir, ec); !ec && authors != fs::directory_iterator(); authors.increment(ec)) {
    if (authors->symlink_status(ec).type() != fs::file_type::directory) continue;
    std::error_code inner;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(authors->path(), inner); !inner && it != fs::directory_iterator();
         it.increment(inner))
      if (it->path().filename().string().starts_with(kIncoming)) stale.push_back(it->path());
    for (const fs::path& p : stale)
      if (auto error = system::remove_tree(p)) return Error{*error};
  }
  return RevisionStore(dir);
}

Expected<Revision> RevisionStore::add(const std::string& author, const std::string& file, std::string_view content,
                                      const UploadSummary& summary, const std::string& via) {
  const fs::path author_dir = dir_ / author;
  std::error_code ec;
  const bool existed = fs::symlink_status(author_dir, ec).type() == fs::file_type::directory;
  if (auto error = system::make_own_folder(author_dir)) return Error{*error};
  if (!existed)
    if (auto error = system::sync_directory(dir_)) return Error{*error};
  const std::vector<int> numbers = revision_numbers(author_dir);
  Revision r{author,
             numbers.empty() ? 1 : numbers.back() + 1,
             file,
             content.size(),
             integrity::sha256_hex(content),
             summary,
             system::utc_now_iso8601(),
             "queued",
             "",
             "",
             via};
  if (r.number > kMaxRevisions) return Error{author + " has " + std::to_string(kMaxRevisions) + " revisions already"};
  const fs::path incoming = author_dir / (std::string(kIncoming) + std::to_string(r.number));
  if (auto error = system::remove_tree(incoming)) return Error{*error};
  if (!fs::create_directory(incoming, ec) || ec) return Error{system::system_error_text(incoming, "cannot create")};
  const fs::path final_dir = author_dir / std::to_string(r.number);
  std::optional<std::string> error = write_new_file(incoming / file, content);
  if (!error) error = write_new_file(incoming / kRevisionFile, revision_json(r));
  if (!error) error = system::sync_directory(incoming);
  if (!error && ::rename(incoming.c_str(), final_dir.c_str()) != 0)
    error = system::system_error_text(final_dir, "cannot rename the incoming revision to");
  if (!error) error = system::sync_directory(author_dir);
  if (error) {
    (void)system::remove_tree(incoming);
    return Error{*error};
  }
  return r;
}

fs::path RevisionStore::folder(const std::string& author, int number) const {
  return dir_ / author / std::to_string(number);
}

fs::path RevisionStore::status_file(const std::string& author, int number) const {
  return dir_.parent_path() / "status" / author / (std::to_string(number) + ".json");
}

std::optional<std::string> RevisionStore::record_status(const std::string& author, int number,
                                                        const StatusRecord& status) const {
  const fs::path file = status_file(author, number);
  for (const fs::path& folder : {file.parent_path().parent_path(), file.parent_path()})
    if (auto error = system::make_own_folder(folder)) return error;
  const json::object o{{"status", status.status}, {"reason", status.reason}, {"bot", status.bot}, {"at", status.at}};
  return system::write_file_atomically(file, json::serialize(o) + "\n");
}

Expected<std::vector<Revision>> RevisionStore::list(const std::string& author) const {
  std::vector<Revision> out;
  for (int n : revision_numbers(dir_ / author)) {
    Expected<Revision> r = read_revision(folder(author, n));
    if (!r) return Error{r.error()};
    Expected<std::string> status = system::read_regular_file(status_file(author, n), kMaxRevisionJson);
    boost::system::error_code ec;
    const json::value v = status ? json::parse(*status, ec) : json::value();
    if (const json::object* o = status && !ec ? v.if_object() : nullptr) {
      auto text = [o](const char* key) {
        const json::value* x = o->if_contains(key);
        return x && x->is_string() ? std::string(x->as_string()) : std::string();
      };
      Revision with = std::move(r).value();
      if (!text("status").empty()) with.status = text("status");
      with.reason = text("reason");
      with.bot = text("bot");
      out.push_back(std::move(with));
      continue;
    }
    out.push_back(std::move(r).value());
  }
  return out;
}

std::vector<std::string> RevisionStore::authors() const {
  std::vector<std::string> authors;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->symlink_status(ec).type() == fs::file_type::directory && !it->path().filename().string().starts_with("."))
      authors.push_back(it->path().filename().string());
  std::sort(authors.begin(), authors.end());
  return authors;
}

std::vector<std::pair<std::string, int>> RevisionStore::unfinished() const {
  std::vector<std::pair<std::string, int>> out;
  for (const std::string& author : authors()) {
    const Expected<std::vector<Revision>> revisions = list(author);
    if (!revisions) continue;
    for (const Revision& r : *revisions)
      if (r.status == "queued" || r.status == "building") out.emplace_back(author, r.number);
  }
  return out;
}

}  // namespace kalah::season
