#include "arena/analysis/analyse.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>

#include <fmt/core.h>

#include "arena/journal/games_file.h"
#include "arena/journal/journal.h"
#include "referee/system/clean_text.h"
#include "referee/system/files.h"

namespace kalah::analysis {
namespace {

using Clock = std::chrono::steady_clock;

// analysis.jsonl opened for appending and locked: never through a link, a regular file only.
Expected<system::FileHandle> open_for_append(const std::filesystem::path& file) {
  system::FileHandle fd(
      ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
  if (!fd.is_open()) return Error{system::system_error_text(file, "cannot open for writing")};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Error{system::system_error_text(file, "cannot stat")};
  if (!S_ISREG(st.st_mode)) return Error{file.string() + ": not a regular file"};
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      return Error{file.string() + ": another `arena analyse` is writing it; wait for it to finish"};
    return Error{system::system_error_text(file, "cannot lock")};
  }
  return fd;
}

// The games of every journal of the folder, each id once, handed to `visit` in journal order.
Expected<std::size_t> for_each_game(const journal::StoredResults& stored, const journal::GameVisitor& visit) {
  journal::SeenIds seen;
  std::size_t games = 0;
  for (const journal::StoredJournal& j : stored.journals) {
    std::error_code ec;
    if (!std::filesystem::exists(j.games, ec)) continue;
    Expected<journal::ScanSummary> scan = journal::scan_games(j.games, visit, seen);
    if (!scan) return Error{scan.error()};
    games += scan->games;
  }
  return games;
}

// Records from the reading thread to the analysing ones, at most `capacity` waiting, so that a journal
// of any size is analysed in bounded memory.
class Queue {
 public:
  explicit Queue(std::size_t capacity) : capacity_(capacity) {}
  void push(GameRecord&& g) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return items_.size() < capacity_ || closed_; });
    if (closed_) return;
    items_.push_back(std::move(g));
    ready_.notify_one();
  }
  std::optional<GameRecord> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return std::nullopt;
    GameRecord g = std::move(items_.front());
    items_.pop_front();
    room_.notify_one();
    return g;
  }
  // No more pushes: pop() drains what is left, then returns nullopt; a waiting push() returns.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
    room_.notify_all();
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<GameRecord> items_;
  bool closed_ = false;
};

// analysis.jsonl opened for appending, with the ids of the games it holds put in `done` (only the ids, not
// their figures) and an unfinished last line (a run stopped mid-write) cut off, which `notes` then says.
Expected<system::FileHandle> open_analysis_file(const std::filesystem::path& file,
                                                std::unordered_set<std::string>& done,
                                                std::vector<std::string>& notes) {
  Expected<system::FileHandle> out = open_for_append(file);
  if (!out) return Error{out.error()};
  Expected<AnalysisLines> existing =
      read_analysis_lines(file, [&](GameAnalysis&& g, int) -> std::optional<std::string> {
        done.insert(std::move(g.id));
        return std::nullopt;
      });
  if (!existing) return Error{existing.error()};
  if (existing->torn_at) {
    if (::ftruncate(out->get(), static_cast<off_t>(*existing->torn_at)) != 0)
      return Error{system::system_error_text(file, "cannot cut off its last line")};
    notes.push_back(fmt::format("cut off an unfinished last line ({})", existing->torn_reason));
  }
  return out;
}

}  // namespace

Expected<AnalyseSummary> analyse_folder(const std::filesystem::path& dir, const AnalyseOptions& options) {
  const auto start = Clock::now();
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) return Error{stored.error()};
  AnalyseSummary summary;
  summary.warnings = stored->warnings;

  const std::filesystem::path file = options.output.empty() ? dir / kAnalysisFile : options.output;
  std::unordered_set<std::string> done;
  Expected<system::FileHandle> out = open_analysis_file(file, done, summary.notes);
  if (!out) return Error{out.error()};

  // First pass: how many games there are and how many are left, for the progress line.
  AnalyseProgress progress;
  SharedPositions shared;
  Expected<std::size_t> total = for_each_game(*stored, [&](GameRecord&& g) {
    shared.add(g);
    if (done.contains(g.id))
      ++summary.already;
    else
      ++progress.games_to_do;
  });
  if (!total) return Error{total.error()};
  summary.games = *total;

  SearchedPositions searched;
  AnalyseOptions with_shared = options;
  with_shared.analyser.shared = &shared;
  with_shared.analyser.searched = &searched;
  std::optional<Databases> own_databases;
  if (!options.databases) own_databases.emplace(with_shared.analyser);
  Databases& databases = options.databases ? *options.databases : *own_databases;
  const int threads = std::max(1, options.threads);
  // One queue per thread, a game going to the thread of its first plies: games that share an opening (the
  // two colours of a pair, lines of one book) meet the same hard early positions, which that thread's
  // table and memory then hold.
  std::vector<std::unique_ptr<Queue>> queues;
  for (int i = 0; i < threads; ++i) queues.push_back(std::make_unique<Queue>(64));
  auto queue_of = [&](const GameRecord& g) -> Queue& {
    const std::size_t plies = std::min<std::size_t>(g.moves.size(), std::max<std::size_t>(g.opening.size(), 8));
    std::string first;
    for (std::size_t i = 0; i < plies; ++i) first += static_cast<char>(g.moves[i].pit);
    return *queues[std::hash<std::string>{}(first) % queues.size()];
  };
  std::mutex write_mutex;
  std::optional<std::string> write_error;
  std::atomic<bool> failed{false};
  auto stopping = [&] { return failed.load() || (options.stop && options.stop->load()); };

  auto work = [&](Queue& queue) {
    Analyser analyser(with_shared.analyser, databases);
    while (std::optional<GameRecord> game = queue.pop()) {
      if (stopping()) continue;  // drain without analysing
      GameCost cost;
      const GameAnalysis a = analyser.analyse(*game, &cost);
      // A game whose search was cut short by the stop would hold nulls that a fresh run would not.
      if (stopping()) continue;
      std::lock_guard lock(write_mutex);
      if (auto error = system::write_all(out->get(), to_line(a), file)) {
        write_error = *error;
        failed = true;
        continue;
      }
      ++progress.games_done;
      progress.positions += cost.positions;
      progress.proved += cost.proved;
      progress.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (options.progress) options.progress(progress);
    }
  };
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) workers.emplace_back(work, std::ref(*queues[static_cast<std::size_t>(i)]));
  std::unordered_set<std::string> queued;  // an id in two journals (a merge) is analysed once
  std::deque<GameRecord> newest;           // with options.newest: the last games not analysed, at most that many
  Expected<std::size_t> second = for_each_game(*stored, [&](GameRecord&& g) {
    if (stopping() || done.contains(g.id) || !queued.insert(g.id).second) return;
    if (options.newest > 0) {
      newest.push_front(std::move(g));
      if (newest.size() > options.newest) newest.pop_back();
      return;
    }
    Queue& queue = queue_of(g);
    queue.push(std::move(g));
  });
  for (GameRecord& g : newest) queue_of(g).push(std::move(g));
  for (auto& queue : queues) queue->close();
  for (std::thread& t : workers) t.join();
  if (!second) return Error{second.error()};
  if (write_error) return Error{*write_error};
  if (::fdatasync(out->get()) != 0) return Error{system::system_error_text(file, "cannot sync")};

  summary.analysed = progress.games_done;
  summary.positions = progress.positions;
  summary.proved = progress.proved;
  summary.stopped = options.stop && options.stop->load();
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (std::string& d : databases.describe()) summary.notes.push_back("endgame database " + std::move(d));
  return summary;
}

Expected<AnalysisCheck> check_analysis(const std::filesystem::path& dir, std::uint64_t database_mb) {
  AnalysisCheck out;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(dir / kAnalysisFile, ec))) return out;
  out.present = true;
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) return Error{stored.error()};
  // The journals' games first, so that the analysis is checked against them as it streams past: a line for a
  // game that is not there, or with another number of plies, fails at once and is never kept (a crafted file
  // of such lines costs one line of memory, not the file's size).
  JournalPlies plies;
  Expected<std::size_t> listed =
      for_each_game(*stored, [&](GameRecord&& g) { plies.emplace(std::move(g.id), g.moves.size()); });
  if (!listed) return Error{listed.error()};
  std::map<std::string, GameAnalysis> lines;  // the first line of each game; a later one is not checked
  Expected<AnalysisLines> read =
      read_analysis_lines(dir / kAnalysisFile, [&](GameAnalysis&& a, int line) -> std::optional<std::string> {
        const auto game = plies.find(a.id);
        if (game == plies.end())
          return fmt::format("{}:{}: game '{}' is not in the journal", kAnalysisFile, line,
                             system::clean_text(a.id.substr(0, 200), false));
        if (a.value.size() != game->second)
          return fmt::format("{}:{}: game {} has {} plies but its analysis {}", kAnalysisFile, line, a.id, game->second,
                             a.value.size());
        std::string id = a.id;
        lines.try_emplace(std::move(id), std::move(a));
        return std::nullopt;
      });
  if (!read) return Error{read.error()};
  if (read->torn_at)
    return Error{read->torn_reason + " (an unfinished last line: `arena analyse` cuts it off and goes on)"};
  plies.clear();
  AnalyserOptions options;
  options.database_only = true;
  options.database_mb = database_mb;
  Databases databases(options);
  Analyser database(options, databases);
  std::optional<std::string> problem;
  Expected<std::size_t> scanned = for_each_game(*stored, [&](GameRecord&& g) {
    const auto it = lines.find(g.id);
    if (problem || it == lines.end()) return;
    const GameAnalysis& a = it->second;
    auto fail = [&](std::size_t ply, const std::string& what) {
      problem = fmt::format("{}: game {}, ply {}: {}", kAnalysisFile, g.id, ply + 1, what);
    };
    Position p = g.initial_position();
    for (std::size_t i = 0; i < g.moves.size() && !problem; ++i) {
      if (!is_legal(g.variant, p, g.moves[i])) return;  // the journal's own check reports the game
      const Position next = after(g.variant, p, g.moves[i]);
      const bool same_player = (next.to_move == p.to_move) != g.moves[i].is_swap();
      if (a.value[i]) {
        ++out.values;
        if (const std::optional<int> known = database.value(g.variant, p); known && !p.over) {
          ++out.database_checked;
          if (*known != *a.value[i])
            fail(i, fmt::format("value {}, but the endgame database gives {}", *a.value[i], *known));
        }
      }
      // The figure after the ply: the next ply's value, or the finished game's stores.
      const bool last = i + 1 == g.moves.size();
      const bool then_known = next.over || (!last && a.value[i + 1]);
      const int then = next.over ? store(g.variant, next, next.to_move) - store(g.variant, next, opponent(next.to_move))
                       : then_known ? *a.value[i + 1]
                                    : 0;
      const int kept = same_player ? then : -then;
      if (a.loss[i] && then_known && *a.value[i] - kept != *a.loss[i])
        fail(i, fmt::format("loss {} does not follow from value {} and the next position's {}", *a.loss[i], *a.value[i],
                            kept));
      else if (a.loss[i] && !then_known && !last)
        fail(i, "a loss is known but the next position's value is not");
      p = next;
    }
    ++out.games;
  });
  if (!scanned) return Error{scanned.error()};
  if (problem) return Error{*problem};
  return out;
}

}  // namespace kalah::analysis
