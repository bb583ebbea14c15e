#include "referee/endgame/database.h"

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "referee/endgame/board.h"
#include "referee/endgame/dispatch.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::endgame {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// ---- building ---------------------------------------------------------------

template <int M>
class LevelBuilder {
 public:
  LevelBuilder(const Rules& rules, const CompositionIndex& index, std::uint8_t* data, int level)
      : rules_(rules), index_(index), data_(data), level_(level) {}

  // The mover's side of the positions of this level: every distribution of
  // 0..level seeds over M pits.
  static std::vector<std::array<std::uint8_t, M>> own_sides(int level) {
    std::vector<std::array<std::uint8_t, M>> sides;
    for (int a = 0; a <= level; ++a) {
      std::array<std::uint8_t, M> c{};
      c[M - 1] = static_cast<std::uint8_t>(a);
      for (;;) {
        sides.push_back(c);
        if (c[0] == a) break;
        if constexpr (M > 1) next_of(c.data());
      }
    }
    return sides;
  }

  // Fills the positions whose mover's side is one of `sides`, all
  // distributions of the other seeds over the opponent's side for each. In
  // this order the children of moves that pass the turn -- most moves -- lie
  // close together in the database (the mover's side after the move becomes
  // the child's most significant half), which matters more than where the
  // positions themselves are written.
  void fill_sides(const std::array<std::uint8_t, M>* sides, std::size_t count) {
    int n = 0;
    for (std::size_t s = 0; s < count; ++s) {
      Board<M> b;
      int own = 0;
      for (int i = 0; i < M; ++i) own += b.pits[i] = sides[s][i];
      const int other = level_ - own;
      b.pits[2 * M - 1] = static_cast<std::uint8_t>(other);
      b.seeds = static_cast<std::uint8_t>(level_);
      for (;;) {
        boards_[n] = b;
        ids_[n] = rank_of(index_, b);
        __builtin_prefetch(data_ + ids_[n], 1);
        expand(b, moves_[n]);
        if (++n == kBatch) {
          for (int p = 0; p < n; ++p) resolve(boards_[p], ids_[p], moves_[p]);
          n = 0;
        }
        if (b.pits[M] == other) break;
        next_of(b.pits.data() + M);
      }
    }
    for (int p = 0; p < n; ++p) resolve(boards_[p], ids_[p], moves_[p]);
  }

  // Fills [first, last) of this level. Positions go in batches: first every
  // move of every position in the batch, with the entries the children need
  // prefetched, then the values, so that the memory latency of the many
  // random reads overlaps.
  void fill(std::uint64_t first, std::uint64_t last) {
    Board<M> b;
    index_.unrank(first, b.pits.data());
    b.seeds = static_cast<std::uint8_t>(level_);
    for (std::uint64_t id = first; id < last;) {
      const int count = static_cast<int>(std::min<std::uint64_t>(kBatch, last - id));
      for (int p = 0; p < count; ++p) {
        boards_[p] = b;
        expand(b, moves_[p]);
        if (id + p + 1 < last) next(b);
      }
      for (int p = 0; p < count; ++p) resolve(boards_[p], id + p, moves_[p]);
      id += count;
    }
  }

 private:
  static constexpr int kBatch = 32;

  struct Moves {
    int n = 0;
    bool finished = false;
    int finished_value = 0;
    struct {
      Board<M> child;
      std::uint64_t id;
      int gain;
      bool again, over;
    } m[M];
  };

  // The next distribution of the same total in index order (see index.h): the
  // lowest prefix sum that can grow by one grows, and those below it restart at
  // 0. The distribution must not be the last (all seeds in the first pit).
  static void next_of(std::uint8_t* c) {
    int sum = 0;
    int j = 0;
    while (c[j + 1] == 0) sum += c[j++];
    sum += c[j];
    for (int i = 0; i < j; ++i) c[i] = 0;
    c[j] = static_cast<std::uint8_t>(sum + 1);
    --c[j + 1];
  }
  static void next(Board<M>& b) { next_of(b.pits.data()); }

  void expand(const Board<M>& b, Moves& out) {
    out.n = 0;
    out.finished = finished(rules_, b, out.finished_value);
    if (out.finished) return;
    for (int i = 0; i < M; ++i) {
      if (b.pits[i] == 0) continue;
      auto& mv = out.m[out.n++];
      const MoveResult r = play(rules_, b, i, mv.child);
      mv.gain = r.gain;
      mv.again = r.again;
      mv.over = r.over;
      if (!r.over) {
        mv.id = rank_of(index_, mv.child);
        __builtin_prefetch(data_ + mv.id);
      }
    }
  }

  int resolve(const Board<M>& b, std::uint64_t id, const Moves& moves) {
    std::atomic_ref<std::uint8_t> slot(data_[id]);
    const std::uint8_t known = slot.load(std::memory_order_relaxed);
    if (known != 0) return decode(known);
    int best = moves.finished_value;
    if (!moves.finished) {
      best = -1000;
      for (int j = 0; j < moves.n; ++j) {
        const auto& mv = moves.m[j];
        int v = mv.gain;
        if (!mv.over) {
          // A child with all seeds still in the pits is on this level (and
          // the turn has passed); every other child is on a finished level.
          const int cv = mv.child.seeds == level_ ? value_of(mv.child, mv.id) : decode(data_[mv.id]);
          v = mv.again ? v + cv : v - cv;
        }
        best = std::max(best, v);
      }
    }
    slot.store(static_cast<std::uint8_t>(best ^ 0x80), std::memory_order_relaxed);
    (void)b;
    return best;
  }

  // A position of this level met as a child: computed now if not yet known.
  int value_of(const Board<M>& b, std::uint64_t id) {
    const std::uint8_t known = std::atomic_ref<std::uint8_t>(data_[id]).load(std::memory_order_relaxed);
    if (known != 0) return decode(known);
    Moves moves;
    expand(b, moves);
    return resolve(b, id, moves);
  }

  // Stored bytes are value ^ 0x80 (0 = not known yet).
  static int decode(std::uint8_t byte) { return static_cast<std::int8_t>(byte ^ 0x80); }

  const Rules& rules_;
  const CompositionIndex& index_;
  std::uint8_t* data_;
  int level_;
  Board<M> boards_[kBatch];
  std::uint64_t ids_[kBatch];
  Moves moves_[kBatch];
};

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t pits;
  std::uint32_t capture;
  std::uint32_t ending;
  std::uint32_t remainder;
  std::uint32_t levels;
  std::uint64_t entries;
};
constexpr char kMagic[8] = {'K', 'A', 'L', 'A', 'H', 'D', 'B', '\x01'};
constexpr std::uint32_t kVersion = 2;  // 2: bytes hold value ^ 0x80

}  // namespace

std::string DbKey::name() const {
  return "p" + std::to_string(pits) + (capture == Capture::Empty ? "-empty" : "-standard") +
         (ending == Ending::NoMove ? "-no-move" : "-side-empty") + (remainder == Remainder::None ? "-none" : "-owner");
}

int levels_for_memory(int pits, std::uint64_t bytes, int max_levels) {
  max_levels = std::clamp(max_levels, 0, Database::kMaxLevels);
  const CompositionIndex index(2 * pits, max_levels);
  int k = -1;
  while (k < max_levels && index.offset(k + 2) <= bytes) ++k;
  return k;
}

std::uint64_t checksum(const void* data, std::uint64_t size) {
  // Word-at-a-time multiply-xorshift, then a final avalanche.
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ size;
  std::uint64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  std::uint64_t tail = 0;
  for (std::uint64_t j = 0; i + j < size; ++j) tail |= std::uint64_t(p[i + j]) << (8 * j);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 29;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 32;
  return h;
}

std::optional<int> final_margin(const Database& db, int levels, const Variant& v, const Position& p) {
  if (levels < 0 || p.pie != Pie::None || v.majority || !(db.key() == DbKey::of(v))) return std::nullopt;
  const int m = v.pits;
  const int own = p.to_move == Side::South ? 0 : m + 1;
  const int other = p.to_move == Side::South ? m + 1 : 0;
  // The database's order: the mover's pits, then the opponent's.
  std::uint8_t pits[2 * Variant::kMaxPits];
  int seeds = 0;
  for (int i = 0; i < m; ++i) {
    pits[i] = static_cast<std::uint8_t>(p.cells[own + i]);
    pits[m + i] = static_cast<std::uint8_t>(p.cells[other + i]);
    seeds += p.cells[own + i] + p.cells[other + i];
    if (seeds > levels) return std::nullopt;
  }
  const int now = store(v, p, p.to_move) - store(v, p, opponent(p.to_move));
  return now + db.value(db.index().rank(pits));
}

std::filesystem::path default_cache_dir() { return system::user_cache_dir(); }

Database::Database(DbKey key, int target)
    : key_(key),
      target_(std::clamp(target, 0, kMaxLevels)),
      index_(2 * key.pits, target_),
      data_(LargeArray<std::uint8_t>::make(index_.size())) {  // zero: all unknown
  stats_.entries = index_.size();
}

std::filesystem::path Database::file_in(const std::filesystem::path& dir) const {
  return dir / ("kalah-db-" + key_.name() + ".bin");
}

void Database::build(int threads, const std::atomic<bool>* cancel, const OnLevel& on_level) {
  const auto start = Clock::now();
  const Rules rules{
      key_.pits, 0, key_.capture == Capture::Empty, key_.ending == Ending::NoMove, key_.remainder == Remainder::None,
      false};
  threads = std::max(1, threads);
  for (int level = ready() + 1; level <= target_; ++level) {
    const std::uint64_t first = index_.offset(level), last = index_.offset(level + 1);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      dispatch_pits(key_.pits, [&]<int M>() {
        LevelBuilder<M> builder(rules, index_, data_.get(), level);
        const auto sides = LevelBuilder<M>::own_sides(level);
        // Chunks of mover's sides: a few thousand positions each, or more.
        constexpr std::size_t kChunk = 16;
        for (;;) {
          if (cancel && cancel->load(std::memory_order_relaxed)) return;
          const std::size_t a = next.fetch_add(kChunk);
          if (a >= sides.size()) return;
          builder.fill_sides(sides.data() + a, std::min(kChunk, sides.size() - a));
        }
      });
    };
    const int n = last - first > (1 << 16) ? threads : 1;
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    if (cancel && cancel->load()) break;
    ready_.store(level, std::memory_order_release);
    if (on_level) on_level(level);
  }
  stats_.levels = ready();
  stats_.build_seconds += seconds_since(start);
}

// The values of a cache file, `bytes` from `offset`, read by `threads` threads at once: the time goes
// to the kernel clearing fresh pages and copying, which two cores do in half the time.
bool Database::read_levels(int fd, std::uint64_t offset, std::uint64_t bytes, int threads) {
  const int n = bytes < (std::uint64_t{64} << 10) ? 1 : std::max(1, threads);
  const std::uint64_t chunk = (bytes / static_cast<std::uint64_t>(n) + 4095) / 4096 * 4096;
  std::atomic<bool> ok{true};
  auto work = [&](int t) {
    const std::uint64_t a = std::min(bytes, chunk * static_cast<std::uint64_t>(t));
    const std::uint64_t b = std::min(bytes, a + chunk);
    for (std::uint64_t at = a; at < b;) {
      const ssize_t got = ::pread(fd, data_.get() + at, b - at, static_cast<off_t>(offset + at));
      if (got <= 0) {
        ok = false;
        return;
      }
      at += static_cast<std::uint64_t>(got);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();
  read_ok_ = ok;
  return ok;
}

// Whether levels 0..levels match their checksums, the levels shared among `threads` threads (largest first).
bool Database::levels_match(int levels, const std::vector<std::uint64_t>& sums, int threads) {
  std::atomic<int> next{levels};
  std::atomic<int> bad{-1};
  auto work = [&] {
    for (int k = next.fetch_sub(1); k >= 0; k = next.fetch_sub(1)) {
      const std::uint64_t a = index_.offset(k), b = index_.offset(k + 1);
      if (checksum(data_.get() + a, b - a) != sums[k]) bad = k;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  bad_level_ = bad;
  return bad < 0;
}

bool Database::load(const std::filesystem::path& file, int threads) {
  const auto start = Clock::now();
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    stats_.note = "no cache file";
    return false;
  }
  auto fail = [&](const std::string& why) {
    stats_.note = "cache file " + file.string() + " " + why + ": ignored";
    return false;
  };
  // Untrusted bytes: never through a link, never a FIFO or a device; every read from this one descriptor.
  auto opened = system::open_regular_file(file, false);
  if (!opened) return fail("cannot be used (" + opened.error() + ")");
  const system::FileHandle fd(opened->first);
  FileHeader h{};
  if (::pread(fd.get(), &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) return fail("truncated (header)");
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kVersion) return fail("has a bad header");
  if (h.pits != static_cast<std::uint32_t>(key_.pits) || h.capture != static_cast<std::uint32_t>(key_.capture) ||
      h.ending != static_cast<std::uint32_t>(key_.ending) || h.remainder != static_cast<std::uint32_t>(key_.remainder))
    return fail("is for another variant");
  if (h.levels > kMaxLevels) return fail("has a bad header");
  const CompositionIndex file_index(2 * key_.pits, static_cast<int>(h.levels));
  if (h.entries != file_index.size()) return fail("has a bad header");
  std::vector<std::uint64_t> sums(h.levels + 1);
  const std::uint64_t sums_bytes = sums.size() * 8;
  if (::pread(fd.get(), sums.data(), sums_bytes, sizeof h) != static_cast<ssize_t>(sums_bytes))
    return fail("truncated (checksums)");
  // Every index a search reads is below the entries of the levels it uses, and those are all in the file.
  if (opened->second != sizeof h + sums_bytes + h.entries) return fail("truncated or too long");

  const int levels = std::min(target_, static_cast<int>(h.levels));
  const std::uint64_t bytes = index_.offset(levels + 1);
  if (!read_levels(fd.get(), sizeof h + sums_bytes, bytes, threads) || !levels_match(levels, sums, threads)) {
    std::fill_n(data_.get(), bytes, 0);
    return fail(!read_ok_ ? "truncated" : "corrupt (checksum of level " + std::to_string(bad_level_) + ")");
  }
  ready_.store(levels, std::memory_order_release);
  stats_.levels = stats_.loaded_levels = levels;
  stats_.load_seconds += seconds_since(start);
  stats_.file = file.string();
  stats_.note.clear();
  return true;
}

bool Database::save(const std::filesystem::path& file) const {
  const int levels = ready();
  if (levels < 0) return false;
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.pits = static_cast<std::uint32_t>(key_.pits);
  h.capture = static_cast<std::uint32_t>(key_.capture);
  h.ending = static_cast<std::uint32_t>(key_.ending);
  h.remainder = static_cast<std::uint32_t>(key_.remainder);
  h.levels = static_cast<std::uint32_t>(levels);
  h.entries = index_.offset(levels + 1);
  std::vector<std::uint64_t> sums(levels + 1);
  for (int k = 0; k <= levels; ++k)
    sums[k] = checksum(data_.get() + index_.offset(k), index_.offset(k + 1) - index_.offset(k));
  // Beside the target and renamed, so that a reader (another solver process) never sees half a file.
  const std::string_view parts[] = {
      {reinterpret_cast<const char*>(&h), sizeof h},
      {reinterpret_cast<const char*>(sums.data()), sums.size() * 8},
      {reinterpret_cast<const char*>(data_.get()), static_cast<std::size_t>(h.entries)},
  };
  // No fsync: a database lost to a power cut is rebuilt (and a damaged one fails its checksums).
  return !system::write_file_atomically(file, parts, system::Durability::Rebuildable);
}

void Database::load_or_build(const std::filesystem::path& dir, int threads, const std::atomic<bool>* cancel,
                             const OnLevel& on_level, int load_threads) {
  const std::filesystem::path file = dir.empty() ? std::filesystem::path() : file_in(dir);
  if (!dir.empty()) system::remove_stale_temporaries(dir);  // left by a solver killed while saving
  if (!file.empty()) load(file, load_threads > 0 ? load_threads : threads);
  if (ready() >= target_) return;
  if (on_level) on_level(ready());
  build(threads, cancel, on_level);
  if (!file.empty() && ready() > stats_.loaded_levels && save(file)) {
    stats_.saved = true;
    stats_.file = file.string();
  }
}

}  // namespace kalah::endgame
