#include "arena/serve/live_feed.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "arena/journal/journal.h"
#include "arena/runner/live_file.h"
#include "arena/serve/catalog.h"
#include "referee/record/json_text.h"
#include "referee/record/record_json.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::serve {

namespace fs = std::filesystem;
namespace json = boost::json;
namespace live = arena::live;

std::string sse_frame(std::string_view id, std::string_view kind, std::string_view data) {
  return fmt::format("id: {}\nevent: {}\ndata: {}\n\n", id, kind, data);
}

std::string event_id(std::uint64_t epoch, std::uint64_t seq) { return fmt::format("{:016x}-{}", epoch, seq); }

std::optional<std::uint64_t> resumed_seq(std::string_view last_event_id, std::uint64_t epoch) {
  const std::string prefix = fmt::format("{:016x}-", epoch);
  if (!last_event_id.starts_with(prefix)) return std::nullopt;
  const std::string_view digits = last_event_id.substr(prefix.size());
  if (digits.empty() || digits.size() > 19) return std::nullopt;
  std::uint64_t seq = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    seq = seq * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return seq;
}

bool is_live_file_name(std::string_view name) {
  // "<shard>-worker-<N>.jsonl", <shard> "all" or "I-of-N"; nothing else is read.
  constexpr std::string_view kSuffix = ".jsonl";
  if (name.size() > 64 || !name.ends_with(kSuffix)) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '.'; }) &&
         name.find("-worker-") != std::string_view::npos && name.front() != '.';
}

// The game a live file holds now: the last of its games read (a worker appends its games one after the other).
struct LiveFeed::Game {
  std::string key, id, south, north;
  std::uintmax_t offset = 0;  // of the first line not read yet
  bool ended = false;
  std::vector<EventPtr> plies;
  std::string file_key;  // the key of the file's first line: another one there, the file was written anew
  // What every ply event of the game repeats, as JSON text: `{"game":ID,"ply":` and both names; made at its first.
  struct Json {
    std::string prefix, south, north;
  };
  std::shared_ptr<const Json> json{};
  ino_t inode = 0;  // the file's: another one at the name, the file moved to NAME.jsonl.1
  dev_t device = 0;
};

struct LiveFeed::Journal {
  fs::path path;
  ino_t inode = 0;
  std::uintmax_t offset = 0;  // of the first line not read yet
};

namespace {

// Up to `length` bytes of `fd` from `offset` (fewer at its end); none when it cannot be read.
std::optional<std::string> read_at(int fd, std::uintmax_t offset, std::size_t length) {
  std::string text(length, '\0');
  std::size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd, text.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

// How far back from a journal's end its last complete line is looked for when a feed starts.
constexpr std::uintmax_t kJournalTailBytes = 1u << 20;

void append_int(std::string& out, int x) {
  const fmt::format_int digits(x);
  out.append(digits.data(), digits.size());
}

void append_time(std::string& out, const std::optional<double>& ms) {
  if (ms)
    out += json_number(*ms);
  else
    out += "null";
}

// A ply event's data: the bytes json_text() writes for the object {"game","ply","move","mover","player",
// "clocks_ms","elapsed_ms"} (serve_live_test holds the two to one another), written without building the object:
// a server writes one per ply it reads. `game_prefix` is `{"game":<the game's id>,"ply":`, `mover` the mover's
// name as a JSON string: both made once a game (Game::Json).
std::string ply_data(const live::Ply& p, const std::string& game_prefix, const std::string& mover) {
  std::string out;
  out.reserve(96 + game_prefix.size() + mover.size());
  out += game_prefix;
  append_int(out, p.ply);
  out += ",\"move\":";
  if (p.move == 0)
    out += "\"swap\"";
  else
    append_int(out, p.move);
  out += ",\"mover\":";
  out += mover;
  out += ",\"player\":";
  append_int(out, p.mover);
  out += ",\"clocks_ms\":[";
  append_time(out, p.clocks_ms[0]);
  out += ',';
  append_time(out, p.clocks_ms[1]);
  out += "],\"elapsed_ms\":";
  append_time(out, p.elapsed_ms);
  out += '}';
  return out;
}

}  // namespace

void LiveFeed::start() {
  // The games already in the journals are no events: each journal is read on from after its last complete line.
  for (const fs::path& file : journal_files()) {
    auto journal = std::make_shared<Journal>(Journal{file, 0, 0});
    journals_.emplace(file, journal);
    Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file, false);
    if (!opened) continue;
    system::FileHandle fd(opened->first);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) continue;
    journal->inode = st.st_ino;
    const std::uintmax_t size = opened->second;
    const std::uintmax_t tail = std::min<std::uintmax_t>(size, kJournalTailBytes);
    const std::optional<std::string> text = read_at(fd.get(), size - tail, static_cast<std::size_t>(tail));
    const std::size_t newline = text ? text->rfind('\n') : std::string::npos;
    journal->offset = newline == std::string::npos ? size : size - tail + newline + 1;
  }
  look_live();
}

EventPtr LiveFeed::add(std::string kind, std::string data) {
  auto event = std::make_shared<Event>();
  event->seq = ++seq_;
  event->kind = std::move(kind);
  event->data = std::move(data);
  // sse_frame(event_id(epoch_, seq), kind, data), written by appends: a server makes one per ply it reads.
  if (id_prefix_.empty()) id_prefix_ = "id: " + event_id(epoch_, 0).substr(0, 17);
  const fmt::format_int seq(event->seq);
  std::string& frame = event->frame;
  frame.reserve(id_prefix_.size() + seq.size() + 8 + event->kind.size() + 7 + event->data.size() + 2);
  frame += id_prefix_;
  frame.append(seq.data(), seq.size());
  frame += "\nevent: ";
  frame += event->kind;
  frame += "\ndata: ";
  frame += event->data;
  frame += "\n\n";
  retained_.push_back(event);
  if (retained_.size() > kRetainedEvents) retained_.pop_front();
  return event;
}

void LiveFeed::drop(const std::string& file) { games_.erase(file); }

std::vector<EventPtr> LiveFeed::look_live(const std::optional<std::string>& name) {
  std::vector<EventPtr> out;
  if (name) {
    if (is_live_file_name(*name)) read_live_file(*name, out);
    return out;
  }
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir_ / live::kFolder, ec), end; !ec && it != end && names.size() < kMaxLiveFiles;
       it.increment(ec))
    if (std::string file = it->path().filename().string(); is_live_file_name(file)) names.push_back(std::move(file));
  std::sort(names.begin(), names.end());
  // A file no longer there holds no game in flight; what was not read of it yet, when it was moved to NAME.jsonl.1
  // (a file system without hard links: the new file is not there yet), is read there first.
  for (auto it = games_.begin(); it != games_.end();)
    if (std::binary_search(names.begin(), names.end(), it->first)) {
      ++it;
    } else {
      read_rotated(dir_ / live::kFolder / (it->first + live::kRotatedSuffix), it->second, out);
      it = games_.erase(it);
    }
  for (const std::string& file : names) read_live_file(file, out);
  return out;
}

void LiveFeed::read_live_file(const std::string& name, std::vector<EventPtr>& out) {
  const fs::path live_folder = dir_ / live::kFolder;
  // The live folder itself must be a folder, not a link; the file a regular file, never through a link.
  struct stat st {};
  if (::lstat(live_folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return drop(name);
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(live_folder / name, false);
  if (!opened) {
    // Moved to NAME.jsonl.1, the new file not there yet (a file system without hard links): the rest read there.
    if (auto known = games_.find(name); known != games_.end())
      read_rotated(live_folder / (name + live::kRotatedSuffix), known->second, out);
    return drop(name);
  }
  system::FileHandle fd(opened->first);
  const std::uintmax_t size = opened->second;
  if (size > live::kMaxFileBytes + live::kMaxLineBytes || ::fstat(fd.get(), &st) != 0) return drop(name);
  std::shared_ptr<Game>& known = games_[name];
  const bool same_file = known && known->inode == st.st_ino && known->device == st.st_dev;
  // A new file: the one read before was moved to NAME.jsonl.1, where the lines not read yet are read first (before
  // the new file's header is looked for: it may not be written yet).
  if (known && !same_file) read_rotated(live_folder / (name + live::kRotatedSuffix), known, out);
  // The header says which game the file holds now: another key than the one known, another game.
  const std::optional<std::string> head =
      read_at(fd.get(), 0, static_cast<std::size_t>(std::min<std::uintmax_t>(size, live::kMaxLineBytes + 1)));
  const std::size_t newline = head ? head->find('\n') : std::string::npos;
  if (newline == std::string::npos) return drop(name);
  const live::Line first = live::parse_line(std::string_view(*head).substr(0, newline));
  const live::Header* header = std::get_if<live::Header>(&first);
  if (!header) return drop(name);
  std::shared_ptr<Game>& game = known;
  if (!same_file || game->file_key != header->key) {
    game = std::make_shared<Game>(
        Game{header->key, header->game, header->south, header->north, newline + 1, false, {}, header->key});
    game->inode = st.st_ino;
    game->device = st.st_dev;
  }
  read_lines(fd.get(), size, game, out);
}

void LiveFeed::read_rotated(const fs::path& path, std::shared_ptr<Game>& game, std::vector<EventPtr>& out) {
  // Read only when it is the very file read before (its inode), a regular file, not through a link, bounded.
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(path, false);
  if (!opened) return;
  system::FileHandle fd(opened->first);
  struct stat st {};
  if (opened->second > live::kMaxFileBytes + live::kMaxLineBytes || ::fstat(fd.get(), &st) != 0 ||
      st.st_ino != game->inode || st.st_dev != game->device)
    return;
  read_lines(fd.get(), opened->second, game, out);
}

void LiveFeed::read_lines(int fd, std::uintmax_t size, std::shared_ptr<Game>& game, std::vector<EventPtr>& out) {
  if (size <= game->offset) return;
  const std::optional<std::string> text = read_at(fd, game->offset, static_cast<std::size_t>(size - game->offset));
  if (!text) return;
  std::size_t at = 0;
  for (std::size_t end; (end = text->find('\n', at)) != std::string::npos; at = end + 1) {
    const live::Line line = live::parse_line(std::string_view(*text).substr(at, end - at));
    // The worker's next game, appended after this one: read on into it.
    if (const live::Header* next = std::get_if<live::Header>(&line); next && next->key != game->key) {
      const Game& last = *game;
      auto following = std::make_shared<Game>(
          Game{next->key, next->game, next->south, next->north, last.offset + end + 1 - at, false, {}, last.file_key});
      following->inode = last.inode;
      following->device = last.device;
      game = std::move(following);
      continue;
    }
    const std::string* key = std::visit(
        [](const auto& l) -> const std::string* {
          if constexpr (std::is_same_v<std::decay_t<decltype(l)>, live::Invalid>)
            return nullptr;
          else
            return &l.key;
        },
        line);
    // Another game's ply or end: the file was written anew under this read; the next look reads it.
    if (key && *key != game->key) break;
    game->offset += end + 1 - at;
    if (const live::Ply* ply = std::get_if<live::Ply>(&line);
        ply && !game->ended && ply->ply == static_cast<int>(game->plies.size()) && !finished_.contains(game->id)) {
      if (!game->json) {
        auto json = std::make_shared<Game::Json>(Game::Json{"{\"game\":", {}, {}});
        append_json_string(json->prefix, game->id);
        json->prefix += ",\"ply\":";
        append_json_string(json->south, game->south);
        append_json_string(json->north, game->north);
        game->json = std::move(json);
      }
      const std::string& mover = ply->mover == 0 ? game->json->south : game->json->north;
      game->plies.push_back(add("ply", ply_data(*ply, game->json->prefix, mover)));
      out.push_back(game->plies.back());
    } else if (std::holds_alternative<live::End>(line)) {
      game->ended = true;
      game->plies.clear();
    }
  }
}

std::vector<fs::path> LiveFeed::journal_files() const {
  std::vector<fs::path> files;
  for (const fs::path& folder : journal_folders(dir_)) files.push_back(folder / journal::kGamesFile);
  return files;
}

std::vector<EventPtr> LiveFeed::look_journals() {
  std::vector<EventPtr> out;
  for (const fs::path& file : journal_files()) {
    std::shared_ptr<Journal>& journal = journals_[file];
    if (!journal) journal = std::make_shared<Journal>(Journal{file, 0, 0});  // a shard that appeared: from its start
    read_journal(*journal, out);
  }
  return out;
}

void LiveFeed::read_journal(Journal& journal, std::vector<EventPtr>& out) {
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(journal.path, false);
  if (!opened) return;
  system::FileHandle fd(opened->first);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return;
  // A journal replaced or cut shorter: read on from its end, never again from its start.
  if (journal.inode != 0 && (st.st_ino != journal.inode || opened->second < journal.offset)) {
    journal.offset = opened->second;
    journal.inode = st.st_ino;
    return;
  }
  journal.inode = st.st_ino;
  const std::uintmax_t length = std::min<std::uintmax_t>(opened->second - journal.offset, kMaxJournalBytesPerLook);
  const std::optional<std::string> text = read_at(fd.get(), journal.offset, static_cast<std::size_t>(length));
  if (!text) return;
  std::size_t at = 0;
  for (std::size_t end; (end = text->find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string_view line = std::string_view(*text).substr(at, end - at);
    json::error_code ec;
    const json::value value = json::parse(line, ec);
    if (ec) continue;
    Expected<GameRecord> record = record_from_json(value);
    if (!record || !finished_.insert(record->id).second) continue;
    // The game is no longer in flight: its live file's plies are not sent to new clients any more.
    for (auto& [file, game] : games_)
      if (game->id == record->id) game->plies.clear();
    out.push_back(add("game", json_text(value)));
  }
  // A journal longer than one look allows, with a line longer than that: passed over.
  journal.offset += at == 0 && length == kMaxJournalBytesPerLook ? length : at;
}

std::vector<EventPtr> LiveFeed::standings(std::string_view standings_json) {
  json::error_code ec;
  const json::value value = json::parse(standings_json, ec);
  if (ec) return {};
  std::string text = json_text(value);
  if (text == standings_) return {};
  standings_ = text;
  standings_event_ = add("standings", std::move(text));
  return {standings_event_};
}

std::vector<EventPtr> LiveFeed::replay(std::optional<std::uint64_t> after) const {
  // Every event after `after` is still held when the oldest held is the one right after it (or nothing
  // happened since).
  if (after && *after <= seq_ && (*after == seq_ || (!retained_.empty() && retained_.front()->seq <= *after + 1))) {
    std::vector<EventPtr> out;
    for (const EventPtr& e : retained_)
      if (e->seq > *after) out.push_back(e);
    return out;
  }
  std::vector<EventPtr> out;
  for (const auto& [file, game] : games_) out.insert(out.end(), game->plies.begin(), game->plies.end());
  if (standings_event_) out.push_back(standings_event_);
  std::sort(out.begin(), out.end(), [](const EventPtr& a, const EventPtr& b) { return a->seq < b->seq; });
  return out;
}

std::vector<std::string> LiveFeed::games_in_flight() const {
  std::vector<std::string> ids;
  for (const auto& [file, game] : games_)
    if (!game->ended && !game->plies.empty()) ids.push_back(game->id);
  return ids;
}

}  // namespace kalah::serve
