#include "arena/runner/runner.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "arena/runner/live_file.h"
#include "arena/runner/pinning.h"
#include "referee/engine/engine_player.h"
#include "referee/game/transcript_file.h"
#include "referee/system/files.h"

namespace kalah::arena {

PlayerFactory process_players() {
  return [](const EngineSpec& spec) -> std::unique_ptr<Player> { return make_player(spec); };
}

Runner::Runner(const Config& config, journal::Journal& journal, GameSource& source, OnGame on_game,
               PlayerFactory make_player)
    : config_(config),
      journal_(journal),
      source_(source),
      on_game_(std::move(on_game)),
      make_player_(std::move(make_player)),
      start_watch_(config) {}

std::shared_ptr<const endgame::Database> adjudication_database(const Config& config, int threads, std::string* note) {
  const int seeds = config.tournament.adjudicate.database_seeds;
  if (seeds < 0 || config.variant.majority) return nullptr;
  // From the variant's start no position has more seeds in its pits than the variant has seeds (a
  // start position may hold more).
  const int levels = config.uses_positions() ? seeds : std::min(seeds, config.variant.total_seeds());
  auto db = std::make_shared<endgame::Database>(endgame::DbKey::of(config.variant), levels);
  db->load_or_build(endgame::default_cache_dir(), threads);
  if (note) {
    const endgame::DbStats& st = db->stats();
    *note = fmt::format("endgame database for adjudication: {} seeds, {:.1f} MiB", db->ready(),
                        static_cast<double>(st.entries) / (1 << 20));
    if (st.loaded_levels >= 0)
      *note += fmt::format(", up to {} seeds read from {} in {:.1f} s", st.loaded_levels, st.file, st.load_seconds);
    if (st.build_seconds > 0) *note += fmt::format(", built in {:.1f} s", st.build_seconds);
    if (st.saved) *note += ", saved to " + st.file;
  }
  return db;
}

GameSettings Runner::settings_for(const Config& config, const GameSpec& spec, const SeedSecret& secret,
                                  std::shared_ptr<const endgame::Database> database) {
  GameSettings s;
  s.id = spec.id;
  s.round = spec.round;
  s.variant = config.variant;
  s.time = config.engines[spec.south].time.value_or(config.time);
  if (const TimeControl& north = config.engines[spec.north].time.value_or(config.time); !(north == s.time))
    s.second_time = north;
  s.start = spec.start;
  s.opening = spec.opening;
  s.max_plies = config.tournament.max_plies;
  // From the results folder's secret and the game's id: the same wherever, whenever and by whichever process
  // the game is played, and nothing an engine can tie to its opponent (docs/PROTOCOL.md, "Seeds").
  s.seed = secret.seed_for(spec.id);
  const AdjudicationConfig& a = config.tournament.adjudicate;
  s.adjudicate.store_majority = a.store_majority;
  s.adjudicate.draw = a.draw;
  s.adjudicate.resign = a.resign;
  if (database && a.database_seeds >= 0) {
    s.adjudicate.database_seeds = a.database_seeds;
    s.adjudicate.database = std::move(database);
  }
  return s;
}

Player& Runner::player(Engines& cache, int engine, int keep, const std::string& game_id, int slot) {
  auto it = cache.find(engine);
  if (it != cache.end()) return *it->second;
  // Keep a worker's engines alive across its games, but not without bound: in
  // a large round robin, quit the others (never the opponent of this game,
  // `keep`) before starting a fifth.
  constexpr size_t kMaxEnginesPerWorker = 4;
  for (auto i = cache.begin(); i != cache.end() && cache.size() >= kMaxEnginesPerWorker;)
    i = i->first == keep ? std::next(i) : cache.erase(i);
  EngineSpec spec = config_.engine_for_game(engine, game_id);
  if (static_cast<std::size_t>(slot) < slot_cpus_.size()) spec.cpus = slot_cpus_[static_cast<std::size_t>(slot)];
  return *cache.emplace(engine, make_player_(spec)).first->second;
}

void Runner::work(int slot) {
  // The thread that times this slot's games runs on the slot's CPUs too: unpinned, it could be woken on
  // a CPU that a hog in another slot keeps busy and read an answer late (a time forfeit the engine did
  // not cause). Linux applies sched_setaffinity(0, ...) to the calling thread only.
  if (static_cast<std::size_t>(slot) < slot_cpus_.size()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : slot_cpus_[static_cast<std::size_t>(slot)])
      if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
    ::sched_setaffinity(0, sizeof set, &set);
  }
  Engines engines;
  // The plies of this worker's games, as they are played, for `arena serve` (live_file.h): best effort.
  live::Publisher live(config_.results_dir(), config_.shard, slot);
  while (!stop_) {
    std::optional<GameSpec> spec;
    {
      std::unique_lock lock(mutex_);
      while (!stop_ && !(spec = source_.next()) && source_.more_later()) wake_.wait(lock);
    }
    if (!spec || stop_) break;
    Player& south = player(engines, spec->south, spec->north, spec->id, slot);
    Player& north = player(engines, spec->north, spec->south, spec->id, slot);
    {
      std::lock_guard lock(mutex_);
      if (stop_) break;
      active_.insert(&south);
      active_.insert(&north);
    }
    // The transcript lives for this one game: the players write into it only until they are detached.
    const TranscriptMode transcripts = config_.tournament.transcripts;
    Transcript transcript;
    if (transcripts != TranscriptMode::None) {
      south.attach(&transcript);
      north.attach(&transcript);
    }
    GameSettings settings = settings_for(config_, *spec, secret_, database_);
    live.start(spec->id, south.name(), north.name());
    settings.watch = &live;
    GameRecord record = play_game(south, north, settings);
    settings.watch = nullptr;
    live.end(!stop_);
    // The game's last plies and its end reach the live file before its line reaches the journal: a server that
    // reads the journal line has its plies (it sends no ply of a game after the game), which a batch written up to
    // kBatch later would not be (docs/SERVE.md, "The live files"). One write a game.
    live.flush();
    if (transcripts != TranscriptMode::None) {
      south.attach(nullptr);
      north.attach(nullptr);
    }
    std::string identities[2] = {south.identity(), north.identity()};
    std::lock_guard lock(mutex_);
    if (!identities[0].empty()) result_.identities.emplace(south.name(), std::move(identities[0]));
    if (!identities[1].empty()) result_.identities.emplace(north.name(), std::move(identities[1]));
    active_.erase(&south);
    active_.erase(&north);
    // A game cut short by an interrupt is not a result: it is played again on resume.
    if (stop_) break;
    if (!record_played(*spec, std::move(record), std::move(settings), std::move(transcript))) break;
  }
  // A worker that leaves early (an interrupt cut its game short) wakes the others, which leave too.
  wake_.notify_all();
  // The engines quit (grace period, then SIGKILL) when `engines` goes out of scope.
}

bool Runner::record_played(const GameSpec& spec, GameRecord record, GameSettings settings, Transcript transcript) {
  // Written under the lock (the journal's order), made durable and reported by the committer thread
  // (commit()); this worker goes on to its next game meanwhile.
  Expected<std::size_t> written = journal_.write(record);
  if (!written) {
    fail(written.error());
    return false;
  }
  // The source learns of the game at once, so that what it hands out next follows from every game
  // written, in the journal's order, as it did when each game was synced first; nobody outside the
  // runner hears of the game before it is on the disk.
  source_.finished(spec, record);
  // The game limit is reached when the games are written, not when they are reported: another worker's
  // game that ends while this one is being synced must find the run stopped, or it would be one too many.
  if (game_limit_ > 0 && ++written_this_run_ >= game_limit_ && !stop_) {
    stop_ = true;
    result_.limited = true;
    for (Player* p : active_) p->abort();
  }
  if (std::optional<std::string> why = start_watch_.add(spec, record); why && !stop_) {
    // Like an interrupt: the games in flight are cut short (played again on resume), nothing more starts.
    stop_ = true;
    result_.engine_failure = std::move(*why);
    for (Player* p : active_) p->abort();
  }
  written_.push_back({*written, spec, std::move(record), std::move(settings), std::move(transcript)});
  // The committer is woken for the first game after a sync and when the run stops; the games in its window
  // wait for it without a wake-up each.
  if (committer_idle_ || stop_) written_changed_.notify_one();
  wake_.notify_all();
  return true;
}

void Runner::fail(const std::string& error) {
  if (result_.error.empty()) result_.error = error;
  failed_ = true;
  stop_ = true;
  for (Player* p : active_) p->abort();
  wake_.notify_all();
  written_changed_.notify_one();
}

void Runner::commit() {
  // Group commit with a window: while games keep coming, one fdatasync every kSyncEvery at most covers all the
  // games written in it. A sync costs the kernel and the disk the same for one game as for twenty, and it runs
  // beside the games on the same cores; a game's report waits for it up to kSyncEvery (the progress line, the
  // live standings), never a game's play. The end of the run or an interrupt syncs at once.
  constexpr auto kSyncEvery = std::chrono::milliseconds(25);
  std::unique_lock lock(mutex_);
  auto last_sync = std::chrono::steady_clock::time_point{};
  while (true) {
    committer_idle_ = true;
    written_changed_.wait(lock, [&] { return !written_.empty() || workers_done_; });
    committer_idle_ = false;
    written_changed_.wait_until(lock, last_sync + kSyncEvery, [&] { return workers_done_ || stop_; });
    if (written_.empty()) return;
    std::deque<Written> batch;
    batch.swap(written_);
    // After a failed write or sync nothing more is reported: the run stops with the error.
    if (failed_) continue;
    // One fdatasync for every game written so far (group commit), outside the lock: the workers write
    // their next games meanwhile, to be covered by the next sync.
    lock.unlock();
    const std::optional<std::string> unsynced = journal_.sync_through(batch.back().count);
    last_sync = std::chrono::steady_clock::now();
    lock.lock();
    if (unsynced) {
      fail(*unsynced);
      continue;
    }
    for (Written& game : batch) {
      ++result_.played;
      const TranscriptMode transcripts = config_.tournament.transcripts;
      if (transcripts == TranscriptMode::All || (transcripts == TranscriptMode::Forfeits && game.record.forfeit))
        write_transcript(game.record, game.settings, game.transcript);
      source_.reported(game.spec, game.record);
      if (on_game_) on_game_(game.spec, game.record);
    }
  }
}

void Runner::write_transcript(const GameRecord& record, const GameSettings& settings, const Transcript& transcript) {
  // A transcript that cannot be written loses the authors' feedback, not the game: the run goes on and
  // says so once at its end.
  const std::filesystem::path dir = config_.results_dir() / "transcripts";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::optional<std::string> error =
      ec ? std::optional<std::string>(dir.string() + ": cannot create the transcripts folder: " + ec.message())
         : system::write_file_atomically(dir / (record.id + ".log"), transcript_text(record, settings, transcript),
                                         system::Durability::Rebuildable);
  if (error && result_.transcript_error.empty()) result_.transcript_error = *error;
}

RunResult Runner::run(int concurrency) {
  std::vector<std::thread> workers;
  if (Expected<std::vector<std::vector<int>>> slots = cpu_slots(config_)) slot_cpus_ = std::move(slots).value();
  live::remove_stale(config_.results_dir(), config_.shard);
  std::thread committer([this] { commit(); });
  for (int i = 0; i < std::max(1, concurrency); ++i)
    workers.emplace_back([this, i] { elsewhere_.play ? work_elsewhere() : work(i); });
  for (std::thread& t : workers) t.join();
  {
    std::lock_guard lock(mutex_);
    workers_done_ = true;
    written_changed_.notify_one();
  }
  committer.join();
  result_.interrupted = stop_ && result_.error.empty() && result_.engine_failure.empty();
  result_.never_started = start_watch_.never_started();
  return result_;
}

void Runner::interrupt() {
  std::lock_guard lock(mutex_);
  stop_ = true;
  wake_.notify_all();
  written_changed_.notify_one();  // what is written is synced and reported without waiting out the window
  // The players of the games in flight give up at once (an engine is killed through its own
  // pidfd, never by a pid that may have been reused); the workers then reap them.
  for (Player* p : active_) p->abort();
  if (elsewhere_.abort) elsewhere_.abort();
}

}  // namespace kalah::arena
