#include "arena/flow/progress.h"

#include <unistd.h>

#include <fmt/core.h>

#include "arena/rating/standings.h"
#include "arena/report/reporters.h"

namespace kalah::arena {

namespace {

std::string duration(double seconds) {
  const long long s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
  return fmt::format("{}m{:02}s", s / 60, s % 60);
}

}  // namespace

std::string pace_text(int games, double seconds) {
  if (games <= 0 || seconds <= 0) return "- games/s";
  const double per_second = games / seconds;
  if (per_second >= 1) return fmt::format("{:.1f} games/s", per_second);
  if (per_second * 60 >= 1) return fmt::format("{:.1f} games/min", per_second * 60);
  return fmt::format("{:.1f} min/game", seconds / 60 / games);
}

Progress::Progress(int total, const rating::StandingsBuilder& done, int progress_interval, int rating_interval,
                   std::FILE* out)
    : total_(total),
      done_(done.games()),
      done_at_start_(done.games()),
      progress_interval_(progress_interval),
      rating_interval_(rating_interval),
      out_(out),
      tty_(::isatty(::fileno(out)) != 0) {}

std::string Progress::line(const rating::StandingsBuilder& all) const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const int new_games = done_ - done_at_start_;
  const double rate = elapsed > 0 ? new_games / elapsed : 0;
  std::string leader = "-";
  double best = -1;
  for (std::size_t i = 0; i < all.names().size(); ++i)
    if (all.points(i) > best) best = all.points(i), leader = all.names()[i];
  std::string eta = "-";
  if (total_ > 0 && rate > 0) eta = duration((total_ - done_) / rate);
  const std::string of = total_ > 0 ? fmt::format("{}/{}", done_, total_) : fmt::format("{}", done_);
  return fmt::format("games {} | {} | elapsed {} | eta {} | leader {} ({:g} pts)", of, pace_text(new_games, elapsed),
                     duration(elapsed), eta, leader, best < 0 ? 0 : best);
}

void Progress::game_done(const GameRecord&, const rating::StandingsBuilder& all) {
  ++done_;
  const bool plain_due = progress_interval_ > 0 && (done_ - done_at_start_) % progress_interval_ == 0;
  if (tty_) {
    fmt::print(out_, "\r\033[K{}", line(all));
  } else if (plain_due) {
    fmt::print(out_, "{}\n", line(all));
    printed_ = done_;
  }
  if (rating_interval_ > 0 && done_ % rating_interval_ == 0) {
    if (tty_) fmt::print(out_, "\n");
    fmt::print(out_, "{}\n", report::format_standings_table(all.standings()));
  }
  std::fflush(out_);
}

void Progress::finish(const rating::StandingsBuilder& all) {
  if (!tty_ && printed_ == done_) return;  // the last plain line said it all
  fmt::print(out_, "{}{}\n", tty_ ? "\r\033[K" : "", line(all));
  std::fflush(out_);
}

}  // namespace kalah::arena
