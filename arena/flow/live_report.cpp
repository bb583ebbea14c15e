#include "arena/flow/live_report.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "arena/report/form_report.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "referee/system/files.h"

namespace kalah::arena {

std::string live_note(int games, int total_games, std::chrono::milliseconds every) {
  const std::string of = total_games > 0 ? fmt::format("{} of {}", games, total_games) : std::to_string(games);
  const double seconds = static_cast<double>(every.count()) / 1000;
  return fmt::format("Live: {} games so far; rewritten every {:g} s until the run ends (reload to update).", of,
                     seconds);
}

LiveReport::LiveReport(std::filesystem::path dir, std::string event, int total_games, std::chrono::milliseconds every,
                       const rating::StandingsBuilder& all, std::mutex& lock)
    : dir_(std::move(dir)), event_(std::move(event)), total_games_(total_games), every_(every), all_(all), lock_(lock) {
  // Ctrl-C and SIGTERM are the InterruptWatcher's (arena/flow/interrupts.h), which may start after this
  // thread: it is born with them blocked (a new thread inherits the mask), so the kernel never picks it
  // to take one.
  sigset_t interrupts, before;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &interrupts, &before);
  thread_ = std::thread([this] { loop(); });
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

LiveReport::~LiveReport() { stop(); }

void LiveReport::add(const GameRecord& record) {
  recent_.push_back(record);
  if (recent_.size() > report::kViewerGames) recent_.pop_front();
  if (!form_names_.empty())
    results_[record.id] = record.result == Outcome::FirstWins ? 1.0 : record.result == Outcome::Draw ? 0.5 : 0.0;
  changed_ = true;
}

void LiveReport::stop() {
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LiveReport::loop() {
  std::unique_lock lock(wake_mutex_);
  while (!wake_.wait_for(lock, every_, [this] { return stopping_; })) {
    lock.unlock();
    rewrite();
    lock.lock();
  }
}

void LiveReport::rewrite() {
  // A copy under the lock (counts per engine and pair, and the embedded games), the rest outside it,
  // so the workers wait for a copy, never for a fit or a file.
  std::optional<rating::StandingsBuilder> snapshot;
  std::vector<GameRecord> shown;
  int total = 0;
  report::Context context;
  std::optional<report::TournamentForm> form;
  {
    std::lock_guard lock(lock_);
    if (!changed_) return;
    changed_ = false;
    snapshot.emplace(all_);
    shown.assign(recent_.begin(), recent_.end());
    total = total_games_;
    context = context_;
    // Replayed under the lock: a few rounds of pairing, far less than a fit.
    if (!form_names_.empty()) form = report::tournament_form(form_description_, form_names_, results_);
  }
  const rating::Standings s = snapshot->standings(rating::Intervals::With);
  const report::Notes notes = {live_note(snapshot->games(), total, every_)};
  const std::pair<const char*, std::string> files[] = {
      {"standings.md", report::standings_markdown(s, event_, notes, context, form ? form_markdown(*form) : "")},
      {"standings.json", report::standings_json(s, event_, notes, form ? form_json(*form) : "")},
      {"standings.csv", report::standings_csv(s)},
      {"report.html", report::report_html(s, shown, event_, notes, static_cast<std::size_t>(snapshot->games()), context,
                                          {}, form ? form_html(*form) : "")},
  };
  for (const auto& [name, text] : files) {
    // The final reports replace these when the run ends; a failed live rewrite loses nothing.
    if (std::optional<std::string> error =
            system::write_file_atomically(dir_ / name, text, system::Durability::Rebuildable)) {
      fmt::print(stderr, "arena: warning: live report: {}\n", *error);
      return;
    }
  }
  ++rewrites_;
  // The page's text and the replays were tens of megabytes for a moment. Give them back to the system:
  // every engine start forks this process, and a fork costs in proportion to its memory (PERFORMANCE.md).
  ::malloc_trim(0);
}

}  // namespace kalah::arena
