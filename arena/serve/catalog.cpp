#include "arena/serve/catalog.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include <boost/json.hpp>
#include <fmt/core.h>

#include "arena/config/config.h"
#include "arena/formats/staged/staged_record.h"
#include "arena/journal/journal.h"
#include "arena/report/report_service.h"
#include "referee/record/record_json.h"
#include "referee/system/directory_lock.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::serve {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string error_json(std::string_view message) {
  return json::serialize(json::object{{"error", json::string(message)}}) + "\n";
}

// The server's state of one tournament: named, not anonymous, since Catalog::State holds it.
namespace detail {

// Where a game's line is: the journal (by its index in the tournament's journals), its offset and length; and
// what the list of games says of it (its engines by their index in GameIndex::engines).
struct GameLine {
  std::size_t journal = 0;
  std::uintmax_t offset = 0;
  std::size_t length = 0;
  std::size_t position = 0;  // in GameIndex::order
  int round = 0;
  std::uint32_t south = 0, north = 0;
  Outcome result = Outcome::Ongoing;
  Termination termination = Termination::Normal;
};

// What a tournament's reports say, computed for one signature of its files.
struct Computed {
  std::string signature;
  std::string standings;  // standings.json's text; empty with an error
  std::string error;      // why its standings cannot be computed (for the server's log, never a client)
  std::string kind;       // "round-robin", "gauntlet", "swiss", "knockout", "adaptive", "sprt"; empty when unknown
  std::size_t games = 0;
  std::optional<std::size_t> planned;
  std::optional<std::string> leader;
};

struct GameIndex {
  std::string signature;
  std::vector<fs::path> journals;
  std::unordered_map<std::string, GameLine> lines;
  // The games in journal order (the map's elements, which stay where they are when it grows or is moved).
  std::vector<const std::pair<const std::string, GameLine>*> order;
  std::vector<std::string> engines;
  std::unordered_map<std::string, std::uint32_t> engine_ids;
  std::string error;

  std::uint32_t engine_id(const std::string& name) {
    const auto [at, added] = engine_ids.emplace(name, static_cast<std::uint32_t>(engines.size()));
    if (added) engines.push_back(name);
    return at->second;
  }
  void add(GameRecord&& record, const GameLine& where) {
    GameLine line = where;
    line.position = order.size();
    line.round = record.round;
    line.south = engine_id(record.south);
    line.north = engine_id(record.north);
    line.result = record.result;
    line.termination = record.termination;
    const auto [at, added] = lines.emplace(std::move(record.id), line);
    if (added) order.push_back(&*at);
  }
};

struct Tournament {
  std::string name;
  fs::path dir;
  fs::path cache;  // the private folder its reports are written into
  std::optional<Computed> computed;
  std::optional<GameIndex> index;
};

}  // namespace detail

namespace {

using namespace detail;
using Clock = std::chrono::steady_clock;

// What lstat says of `path`; none when there is nothing there.
std::optional<struct stat> lstat_of(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  return st;
}
bool is_real_folder(const fs::path& path) {
  const std::optional<struct stat> st = lstat_of(path);
  return st && S_ISDIR(st->st_mode);
}
bool is_regular(const fs::path& path) {
  const std::optional<struct stat> st = lstat_of(path);
  return st && S_ISREG(st->st_mode);
}

// A tournament's results folder: it holds its tournament.json, a journal or the shards of a sharded run.
bool is_results_folder(const fs::path& dir) {
  return is_regular(dir / journal::kMetaFile) || is_regular(dir / journal::kGamesFile) ||
         is_real_folder(dir / "shards");
}

// A staged tournament's folder (arena/formats/staged): no journal of its own, a tournament folder per stage.
bool is_staged_folder(const fs::path& dir) { return is_regular(dir / staged::kRecordFile); }

// The name a tournament is listed by: its folder's, and a stage's after its staged tournament's ("final.stage-1").
std::string listed_name(const fs::path& dir) {
  const fs::path parent = dir.parent_path();
  if (is_staged_folder(parent)) return parent.filename().string() + "." + dir.filename().string();
  return dir.filename().string();
}

// The sizes and modification times of every file a tournament's documents are computed from: equal
// signatures, equal documents.
std::string signature_of(const fs::path& dir) {
  std::string signature;
  for (const fs::path& folder : journal_folders(dir))
    for (const char* file : {journal::kGamesFile, journal::kMetaFile, "analysis.jsonl", "entries.json"}) {
      const std::optional<struct stat> st = lstat_of(folder / file);
      signature += fmt::format("{}/{}:", folder.string(), file);
      if (st)
        signature += fmt::format("{}:{}:{}.{}:{};", st->st_mode, st->st_size, st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
                                 st->st_ino);
      else
        signature += "-;";
    }
  return signature;
}

// The inodes of the files someone holds a flock(2) on (/proc/locks): a results folder whose arena.lock is
// among them is being played (system::DirectoryLock). Looked at, never taken: a probe that took the lock for a
// moment could make an `arena run` starting at that moment refuse the folder as in use.
std::set<ino_t> locked_inodes() {
  std::set<ino_t> inodes;
  std::ifstream in("/proc/locks");
  std::string line;
  for (int n = 0; n < 100000 && std::getline(in, line); ++n) {
    if (line.find("FLOCK") == std::string::npos) continue;
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      // MAJOR:MINOR:INODE
      const std::size_t first = word.find(':'), last = word.rfind(':');
      if (first == std::string::npos || first == last || first == 0) continue;
      try {
        inodes.insert(static_cast<ino_t>(std::stoull(word.substr(last + 1))));
      } catch (const std::exception&) {
      }
      break;
    }
  }
  return inodes;
}

bool folder_locked(const fs::path& dir, const std::set<ino_t>& locked) {
  for (const fs::path& folder : journal_folders(dir)) {
    const fs::path lock = folder / system::kLockFile;
    if (const std::optional<struct stat> st = lstat_of(lock); st && S_ISREG(st->st_mode) && locked.contains(st->st_ino))
      return true;
  }
  return false;
}

// The games a tournament plans when its description says: a sharded run's shards count them; a round robin
// plays every pairing `rounds` colour-swapped pairs; an SPRT with a limit at most that many pairs.
std::optional<std::size_t> planned_games(const report::LoadedReport& loaded) {
  const journal::StoredResults& stored = loaded.stored;
  const arena::TournamentDescription& d = loaded.description;
  if (stored.shard_count > 0) {
    if (!stored.missing_shards.empty()) return std::nullopt;
    std::size_t games = 0;
    for (const journal::StoredJournal& j : stored.journals) {
      if (!j.shard || j.shard->games <= 0) return std::nullopt;
      games += static_cast<std::size_t>(j.shard->games);
    }
    return games;
  }
  const std::size_t n = stored.meta.engines.size();
  if (d.type && arena::kind_of(*d.type).every_pair && d.rounds && !d.contest && n >= 2)
    return n * (n - 1) / 2 * static_cast<std::size_t>(*d.rounds) * 2;
  if (d.sprt_match && d.sprt && d.sprt->max_pairs > 0) return static_cast<std::size_t>(d.sprt->max_pairs) * 2;
  return std::nullopt;
}

std::string kind_of(const arena::TournamentDescription& d) {
  if (d.sprt_match) return "sprt";
  return d.type ? arena::to_string(*d.type) : "";
}

// The standings of `dir` as `arena report DIR` writes them: the report service's input of the folder, its
// reports written into `cache`, and standings.json read back.
Computed compute(const fs::path& dir, const fs::path& cache, std::string signature) {
  Computed c;
  c.signature = std::move(signature);
  Expected<report::LoadedReport> loaded = report::load_report_input(dir);
  if (!loaded) {
    c.error = loaded.error();
    return c;
  }
  c.kind = kind_of(loaded->description);
  c.planned = planned_games(*loaded);
  if (auto error = system::make_own_folder(cache)) {
    c.error = *error;
    return c;
  }
  Expected<report::RewrittenReports> written =
      report::write_loaded_reports(*loaded, {.out = cache, .sprt_state = false});
  if (!written) {
    c.error = written.error();
    return c;
  }
  Expected<std::string> text = system::read_regular_file(cache / report::kReportFiles[1], kMaxStandingsBytes);
  if (!text) {
    c.error = text.error();
    return c;
  }
  c.standings = std::move(text).value();
  c.games = written->summary.games;
  if (c.games > 0 && !written->summary.standings.engines.empty())
    c.leader = written->summary.standings.engines.front().name;
  return c;
}

// Every game line of a tournament's journals by id, as the reports count them: the first line of an id in
// journal order, complete lines only (a line being written is left for the next look).
GameIndex index_games(const fs::path& dir, std::string signature) {
  GameIndex index;
  index.signature = std::move(signature);
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) {
    index.error = stored.error();
    return index;
  }
  for (const journal::StoredJournal& j : stored->journals) {
    const std::size_t number = index.journals.size();
    index.journals.push_back(j.games);
    std::uintmax_t offset = 0;
    if (!is_regular(j.games)) continue;
    std::optional<std::string> failed =
        journal::read_journal_lines(j.games, [&](std::string_view text, bool terminated) {
          if (terminated && !text.empty()) {
            if (Expected<GameRecord> record = record_from_json(text))
              index.add(std::move(record).value(), GameLine{number, offset, text.size()});
          }
          offset += text.size() + (terminated ? 1 : 0);
          return true;
        });
    if (failed) {
      index.error = *failed;
      return index;
    }
  }
  return index;
}

// The bytes of one game's line, read again from its journal (never through a link, bounded by the line).
Expected<std::string> read_line(const fs::path& file, const GameLine& line) {
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file, /*follow_link=*/false);
  if (!opened) return Error{opened.error()};
  system::FileHandle fd(opened->first);
  std::string text(line.length, '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pread(fd.get(), text.data() + done, text.size() - done, static_cast<off_t>(line.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{file.string() + ": the game's line is no longer there"};
    done += static_cast<std::size_t>(n);
  }
  return text;
}

}  // namespace

std::vector<fs::path> journal_folders(const fs::path& dir) {
  std::vector<fs::path> folders{dir};
  if (!is_real_folder(dir / "shards")) return folders;
  std::error_code ec;
  std::vector<fs::path> shards;
  for (fs::directory_iterator it(dir / "shards", ec), end; !ec && it != end && shards.size() < kMaxFolderEntries;
       it.increment(ec))
    if (is_real_folder(it->path())) shards.push_back(it->path());
  std::sort(shards.begin(), shards.end());
  folders.insert(folders.end(), shards.begin(), shards.end());
  return folders;
}

struct Catalog::State {
  using Tournament = detail::Tournament;
  std::vector<fs::path> dirs;
  fs::path cache;
  std::vector<Tournament> tournaments;  // in the order they were first found
  std::optional<Clock::time_point> scanned;
  std::size_t next_cache = 0;

  Tournament* find(const std::string& name) {
    for (Tournament& t : tournaments)
      if (t.name == name) return &t;
    return nullptr;
  }

  // Every tournament folder under the DIRs, in DIR order and, within a DIR, in name order; a folder reached
  // twice (a DIR named twice, or inside another DIR named) once, where it is first reached.
  std::vector<fs::path> discover() const {
    std::vector<fs::path> found;
    std::set<std::pair<dev_t, ino_t>> seen;
    const auto take = [&](const fs::path& dir) {
      if (const std::optional<struct stat> st = lstat_of(dir); st && seen.emplace(st->st_dev, st->st_ino).second)
        found.push_back(dir);
    };
    // The tournament folders among a folder's children, in name order; a staged tournament's, its stages'.
    const auto take_children = [&](const fs::path& dir, const auto& self) -> void {
      std::vector<fs::path> children;
      std::error_code ec;
      std::size_t entries = 0;
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end && entries < kMaxFolderEntries;
           it.increment(ec), ++entries)
        if (is_real_folder(it->path()) && (is_results_folder(it->path()) || is_staged_folder(it->path())))
          children.push_back(it->path());
      std::sort(children.begin(), children.end());
      for (const fs::path& child : children)
        if (is_results_folder(child))
          take(child);
        else if (!is_staged_folder(dir))  // one level of stages: a stage holds no staged tournament
          self(child, self);
    };
    for (const fs::path& dir : dirs) {
      if (!is_real_folder(dir)) continue;
      if (is_results_folder(dir)) {
        take(dir);
        continue;
      }
      take_children(dir, take_children);
    }
    return found;
  }

  // A new tournament's name: its folder's, else the first of NAME~2, NAME~3, ... that no other holds.
  std::string free_name(const std::string& base) const {
    const auto taken = [&](const std::string& name) {
      return std::any_of(tournaments.begin(), tournaments.end(), [&](const Tournament& t) { return t.name == name; });
    };
    if (!taken(base)) return base;
    for (int n = 2;; ++n)
      if (std::string name = base + "~" + std::to_string(n); !taken(name)) return name;
  }

  void rescan() {
    const std::vector<fs::path> found = discover();
    // A tournament whose folder is gone is no longer listed; its name is free again.
    std::erase_if(tournaments,
                  [&](const Tournament& t) { return std::find(found.begin(), found.end(), t.dir) == found.end(); });
    for (const fs::path& dir : found) {
      if (std::any_of(tournaments.begin(), tournaments.end(), [&](const Tournament& t) { return t.dir == dir; }))
        continue;
      Tournament t;
      t.name = free_name(listed_name(dir));
      t.dir = dir;
      t.cache = cache / ("t" + std::to_string(++next_cache));
      tournaments.push_back(std::move(t));
    }
  }

  const Computed& computed(Tournament& t) {
    std::string signature = signature_of(t.dir);
    if (!t.computed || t.computed->signature != signature) {
      t.computed = compute(t.dir, t.cache, std::move(signature));
      if (!t.computed->error.empty())
        fmt::print(stderr, "arena serve: {}: cannot compute its standings: {}\n", t.name, t.computed->error);
    }
    return *t.computed;
  }

  const GameIndex& index(Tournament& t) {
    std::string signature = signature_of(t.dir);
    if (!t.index || t.index->signature != signature) {
      t.index = index_games(t.dir, std::move(signature));
      if (!t.index->error.empty())
        fmt::print(stderr, "arena serve: {}: cannot read its games: {}\n", t.name, t.index->error);
    }
    return *t.index;
  }
};

Catalog::Catalog(std::unique_ptr<State> state) : state_(std::move(state)) {}
Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
Catalog::~Catalog() = default;

Expected<Catalog> Catalog::open(const std::vector<fs::path>& dirs, fs::path cache) {
  auto state = std::make_unique<State>();
  for (const fs::path& given : dirs) {
    // "results/", "results" and "./results" are one folder, named "results"; "." is named as its folder is.
    std::error_code ec;
    fs::path dir = fs::absolute(given, ec).lexically_normal();
    if (ec) return Error{given.string() + ": " + ec.message()};
    if (!dir.has_filename() && dir.has_parent_path() && dir.parent_path() != dir) dir = dir.parent_path();
    const std::optional<struct stat> st = lstat_of(dir);
    if (!st) return Error{given.string() + ": no such folder"};
    if (S_ISLNK(st->st_mode))
      return Error{given.string() + ": a symbolic link; name the folder itself (links are never followed)"};
    if (!S_ISDIR(st->st_mode)) return Error{given.string() + ": not a folder"};
    state->dirs.push_back(std::move(dir));
  }
  state->cache = std::move(cache);
  Catalog catalog(std::move(state));
  catalog.refresh(true);
  return catalog;
}

void Catalog::refresh(bool now) {
  const Clock::time_point time = Clock::now();
  if (!now && state_->scanned && time - *state_->scanned < kRescanInterval) return;
  state_->scanned = time;
  state_->rescan();
}

std::vector<std::pair<std::string, fs::path>> Catalog::names() const {
  std::vector<std::pair<std::string, fs::path>> out;
  for (const Tournament& t : state_->tournaments) out.emplace_back(t.name, t.dir);
  return out;
}

Reply Catalog::tournaments() {
  refresh();
  const std::set<ino_t> locked = locked_inodes();
  json::array list;
  for (Tournament& t : state_->tournaments) {
    const Computed& c = state_->computed(t);
    json::object o;
    o["name"] = t.name;
    o["kind"] = c.kind.empty() ? json::value(nullptr) : json::value(c.kind);
    o["games"] = c.games;
    o["planned"] = c.planned ? json::value(*c.planned) : json::value(nullptr);
    o["running"] = folder_locked(t.dir, locked);
    o["leader"] = c.leader ? json::value(*c.leader) : json::value(nullptr);
    if (!c.error.empty()) o["error"] = "its results cannot be read";
    list.push_back(std::move(o));
  }
  return {200, json::serialize(json::object{{"tournaments", std::move(list)}}) + "\n"};
}

Reply Catalog::standings(const std::string& name) {
  refresh();
  Tournament* t = state_->find(name);
  if (!t) return {404, error_json("no tournament of that name")};
  const Computed& c = state_->computed(*t);
  if (!c.error.empty()) return {503, error_json("its results cannot be read now")};
  return {200, c.standings};
}

Reply Catalog::games(const std::string& name, const std::optional<std::string>& after, std::size_t limit) {
  refresh();
  Tournament* t = state_->find(name);
  if (!t) return {404, error_json("no tournament of that name")};
  const GameIndex& index = state_->index(*t);
  if (!index.error.empty()) return {503, error_json("its journals cannot be read now")};
  std::size_t first = 0;
  if (after) {
    const auto found = index.lines.find(*after);
    if (found == index.lines.end()) return {400, error_json("after: no game of that id in this tournament")};
    first = found->second.position + 1;
  }
  json::array games;
  const std::size_t end = std::min(index.order.size(), first + limit);
  for (std::size_t i = first; i < end; ++i) {
    const auto& [id, line] = *index.order[i];
    games.push_back(json::object{{"id", id},
                                 {"round", line.round},
                                 {"south", index.engines[line.south]},
                                 {"north", index.engines[line.north]},
                                 {"result", to_string(line.result)},
                                 {"termination", to_string(line.termination)}});
  }
  json::object out{{"tournament", t->name}, {"total", index.order.size()}, {"games", std::move(games)}};
  out["next"] =
      end < index.order.size() && end > first ? json::value(index.order[end - 1]->first) : json::value(nullptr);
  return {200, json::serialize(out) + "\n"};
}

Reply Catalog::game(const std::string& name, const std::string& id) {
  refresh();
  Tournament* t = state_->find(name);
  if (!t) return {404, error_json("no tournament of that name")};
  const GameIndex& index = state_->index(*t);
  const auto found = index.lines.find(id);
  if (found == index.lines.end()) return {404, error_json("no game of that id in this tournament")};
  Expected<std::string> line = read_line(index.journals[found->second.journal], found->second);
  if (!line) {
    fmt::print(stderr, "arena serve: {}: {}\n", t->name, line.error());
    return {503, error_json("its journal changed; ask again")};
  }
  return {200, std::move(line).value() + "\n"};
}

Reply Catalog::analysed_game(const std::string& name, const std::string& id) {
  Reply line = game(name, id);
  if (line.status != 200) return line;
  const Expected<GameRecord> record = record_from_json(line.body);
  if (!record) return line;
  const std::optional<analysis::GameAnalysis> analysed = analysis_of(name, *record);
  if (!analysed) return line;
  // Spliced into the line as it is in the journal (its figures as written, not as a second serialiser would).
  std::string text = std::move(line.body);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || text.back() != '}') return {200, text + "\n"};
  std::string analysis = analysis::to_line(*analysed);
  if (!analysis.empty() && analysis.back() == '\n') analysis.pop_back();
  text.pop_back();
  return {200, text + ",\"analysis\":" + analysis + "}\n"};
}

std::optional<analysis::GameAnalysis> Catalog::analysis_of(const std::string& name, const GameRecord& game) {
  Tournament* t = state_->find(name);
  if (!t) return std::nullopt;
  const analysis::JournalPlies plies{{game.id, game.moves.size()}};
  Expected<analysis::AnalysisFile> read = analysis::read_analysis(t->dir / analysis::kAnalysisFile, plies);
  if (!read) {
    fmt::print(stderr, "arena serve: {}: cannot read its analysis: {}\n", t->name, read.error());
    return std::nullopt;
  }
  const auto found = read->games.find(game.id);
  if (found == read->games.end()) return std::nullopt;
  return found->second;
}

std::optional<analysis::GameJudgement> Catalog::judgement(const std::string& name, const GameRecord& game) {
  const std::optional<analysis::GameAnalysis> analysed = analysis_of(name, game);
  if (!analysed) return std::nullopt;
  Expected<analysis::GameJudgement> judged = analysis::judge_game(game, *analysed);
  if (!judged) return std::nullopt;
  return std::move(judged).value();
}

}  // namespace kalah::serve
