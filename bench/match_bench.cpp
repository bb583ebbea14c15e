// The referee's cost per ply end to end: the whole `referee match` command (start-up, engine starts, the
// journal, every game) between two kalah-random bots, next to a pipe ping-pong between two processes, in
// one run and alternating, so that both see the same machine. Given several referee executables (the
// build of another commit), runs them in turn too and compares them side by side. A third figure, "bare",
// is the same bot driven by blocking write/read from this program (the position and go, the bestmove;
// no deadlines, checks or records): what the bot itself adds to a pipe round trip, the floor for the
// referee with this bot. A fourth, "arena", is the tournament path with its defaults (`arena match`, one
// pairing, concurrency 1, transcripts kept for forfeits, reports written at the end): its figure is the
// wall time until the last game is in its journal (the start-up and engine starts in, as for the referee,
// the reports written after the games out), and the whole run's too.
//
// Each referee and the arena also play a run of 2 games right before their long run, and the difference of
// the two is divided by the difference of their plies: the cost of one more ply, with what a run pays
// once (loading the executable, reading the config, creating the results folder and syncing it, starting the
// engines, the last game's sync) taken out. Both figures are printed: the whole command's and the per-ply
// path's ("marginal").
//
//   match_bench [--games N] [--trips N] [--rounds N] [--bot PATH] [--movetime MS] [--arena PATH|none]
//               [REFEREE...]
//
// Plies are counted from the journal the referee writes (the length of each line's "moves"). The CPU
// columns are the referee process's own (user + system, from /proc/<pid>/stat while it is a zombie, so
// its engines are not counted) and its engines' (the children it reaped).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <fmt/core.h>

#include "bench/ping_pong.h"
#include "referee/rules/position.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int games = 300;
  int trips = 100000;
  int rounds = 3;
  long long movetime = 1000;
  std::string bot = KALAH_BINARY_DIR "/bots/kalah-random";
  std::string arena = KALAH_BINARY_DIR "/arena";  // empty: not timed
  std::vector<std::string> referees;
};

struct MatchRun {
  double wall_us = 0;
  double referee_cpu_us = 0;  // the referee process alone
  double engines_cpu_us = 0;  // the engines it started and reaped
  double play_wall_us = 0;    // until the journal's last write (its mtime): the reports written after not in
  long long plies = 0;
};

[[noreturn]] void fail(const std::string& why) {
  fmt::print(stderr, "match_bench: {}\n", why);
  std::exit(1);
}

// Fields 14-17 of /proc/<pid>/stat: utime, stime, cutime, cstime, in clock ticks.
std::pair<double, double> own_and_children_cpu_us(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t after_name = stat.rfind(')');
  if (after_name == std::string::npos) fail("cannot read /proc/" + std::to_string(pid) + "/stat");
  std::vector<long long> fields;  // from field 3 (state) on
  std::size_t at = after_name + 2;
  while (at < stat.size()) {
    const std::size_t end = std::min(stat.find(' ', at), stat.size());
    fields.push_back(std::atoll(stat.c_str() + at));
    at = end + 1;
  }
  if (fields.size() < 15) fail("short /proc/<pid>/stat");
  const double tick_us = 1e6 / static_cast<double>(sysconf(_SC_CLK_TCK));
  return {static_cast<double>(fields[11] + fields[12]) * tick_us,
          static_cast<double>(fields[13] + fields[14]) * tick_us};
}

long long plies_in(const std::string& journal) {
  std::ifstream in(journal);
  long long plies = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    boost::system::error_code ec;
    const boost::json::value v = boost::json::parse(line, ec);
    if (ec || !v.is_object() || !v.as_object().contains("moves")) fail("not a journal line: " + line.substr(0, 80));
    if (v.as_object().contains("forfeit") && !v.at("forfeit").is_null())
      fail("a game was forfeited: " + line.substr(0, 200));
    plies += static_cast<long long>(v.at("moves").as_array().size());
  }
  return plies;
}

// Runs `args` (stdout and stderr to /dev/null), which must exit 0 and leave the game records in
// `journal`; the wall time is until it exits, the CPU times are read before it is reaped.
MatchRun run_timed(const std::vector<std::string>& args, const std::string& journal) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const auto t0 = Clock::now();
  const auto t0_real = std::chrono::system_clock::now();
  const pid_t pid = fork();
  if (pid < 0) fail("fork failed");
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);  // the summary line or the standings
    dup2(null, 2);  // the arena's warning that the games repeat without openings
    execv(argv[0], argv.data());
    _exit(127);
  }
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0) fail("waitid failed");
  const auto t1 = Clock::now();
  const auto [own, children] = own_and_children_cpu_us(pid);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail(args[0] + " failed (status " + std::to_string(status) + ")");
  MatchRun r;
  r.wall_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
  r.referee_cpu_us = own;
  r.engines_cpu_us = children;
  // The file system stamps a write with a coarse clock (a few ms): well under 1 us over 10 000 plies.
  struct stat journal_stat {};
  if (stat(journal.c_str(), &journal_stat) != 0) fail("no journal " + journal);
  const auto written =
      std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::seconds(journal_stat.st_mtim.tv_sec) + std::chrono::nanoseconds(journal_stat.st_mtim.tv_nsec)));
  r.play_wall_us = std::chrono::duration<double, std::micro>(written - t0_real).count();
  r.plies = plies_in(journal);
  if (r.plies == 0) fail("no plies in the journal of " + args[0]);
  return r;
}

MatchRun run_match(const Options& o, const std::string& referee, int games) {
  const std::string journal = fmt::format("/tmp/match_bench.{}.jsonl", getpid());
  std::remove(journal.c_str());
  const MatchRun r = run_timed(
      {referee, "match", "--engine", "cmd=" + o.bot, "name=a", "--engine", "cmd=" + o.bot, "name=b", "--variant",
       "pits=6 seeds=4", "--games", std::to_string(games), "--movetime", std::to_string(o.movetime), "--out", journal},
      journal);
  std::remove(journal.c_str());
  return r;
}

// `arena match` between the same two bots, `games` games (an even number: colour-swapped pairs), its
// defaults otherwise; the results folder is removed afterwards.
MatchRun run_arena(const Options& o, int games) {
  const std::string out = fmt::format("/tmp/match_bench.{}.arena", getpid());
  std::filesystem::remove_all(out);
  const MatchRun r = run_timed({o.arena,
                                "match",
                                "-engine",
                                "cmd=" + o.bot,
                                "name=a",
                                "-engine",
                                "cmd=" + o.bot,
                                "name=b",
                                "-each",
                                fmt::format("st={}", static_cast<double>(o.movetime) / 1000),
                                "-rounds",
                                std::to_string(games / 2),
                                "-games",
                                "2",
                                "-variant",
                                "pits=6",
                                "seeds=4",
                                "-event",
                                "bench",
                                "-out",
                                out},
                               out + "/bench/games.jsonl");
  std::filesystem::remove_all(out);
  return r;
}

// Plays `games` games of the bot against itself from one process, the requests as the referee words
// them; returns µs per ply (the handshake and the process start not counted).
double bare_us_per_ply(const Options& o) {
  int to_bot[2], from_bot[2];
  if (pipe(to_bot) != 0 || pipe(from_bot) != 0) fail("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) fail("fork failed");
  if (pid == 0) {
    dup2(to_bot[0], 0);
    dup2(from_bot[1], 1);
    for (int fd : {to_bot[0], to_bot[1], from_bot[0], from_bot[1]}) close(fd);
    execl(o.bot.c_str(), o.bot.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to_bot[0]);
  close(from_bot[1]);
  std::string pending;
  auto say = [&](const std::string& text) {
    if (write(to_bot[1], text.data(), text.size()) != static_cast<ssize_t>(text.size())) fail("bot stopped reading");
  };
  auto hear = [&] {
    for (;;) {
      if (const std::size_t nl = pending.find('\n'); nl != std::string::npos) {
        std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        return line;
      }
      char chunk[4096];
      const ssize_t n = read(from_bot[0], chunk, sizeof chunk);
      if (n <= 0) fail("bot closed its output");
      pending.append(chunk, static_cast<std::size_t>(n));
    }
  };
  say("kep\n");
  while (hear() != "kepok") {
  }
  const kalah::Variant variant;  // pits=6 seeds=4
  long long plies = 0;
  const auto t0 = Clock::now();
  for (int g = 0; g < o.games; ++g) {
    say("newgame " + to_string(variant) + "\nisready\n");
    while (hear() != "readyok") {
    }
    kalah::Position position = start_position(variant);
    std::string moves;
    while (!position.over) {
      say("position startpos" + (moves.empty() ? "" : " moves" + moves) + "\ngo movetime " +
          std::to_string(o.movetime) + "\n");
      std::string line;
      while (!(line = hear()).starts_with("bestmove ")) {
      }
      const kalah::Expected<kalah::Move> move = kalah::parse_move(line.substr(9));
      if (!move || !is_legal(variant, position, *move)) fail("bot played " + line);
      apply(variant, position, *move);
      moves += " " + to_string(*move);
      ++plies;
    }
  }
  const auto t1 = Clock::now();
  say("quit\n");
  close(to_bot[1]);
  waitpid(pid, nullptr, 0);
  close(from_bot[0]);
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(plies);
}

// The cost of a ply with the run's fixed costs taken out: the long run less the short one, per ply more.
constexpr int kShortGames = 2;  // the short run whose cost is subtracted from the long one's

double marginal_us(const MatchRun& whole, const MatchRun& brief, double MatchRun::*wall) {
  const long long plies = whole.plies - brief.plies;
  if (plies <= 0) fail("the short run played as many plies as the long one: use more --games");
  return (whole.*wall - brief.*wall) / static_cast<double>(plies);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) fail(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--games") {
      o.games = std::atoi(value().c_str());
    } else if (a == "--trips") {
      o.trips = std::atoi(value().c_str());
    } else if (a == "--rounds") {
      o.rounds = std::atoi(value().c_str());
    } else if (a == "--movetime") {
      o.movetime = std::atoll(value().c_str());
    } else if (a == "--bot") {
      o.bot = value();
    } else if (a == "--arena") {
      o.arena = value();
      if (o.arena == "none") o.arena.clear();
    } else if (a.starts_with("--")) {
      fail("unknown option " + a +
           " (usage: match_bench [--games N] [--trips N] [--rounds N] [--bot PATH] [--movetime MS] "
           "[--arena PATH|none] [REFEREE...])");
    } else {
      o.referees.push_back(a);
    }
  }
  if (o.referees.empty()) o.referees.push_back(KALAH_BINARY_DIR "/referee");
  if (o.games < 1 || o.trips < 1 || o.rounds < 1 || o.movetime < 1) fail("counts must be positive");
  if (o.games < kShortGames * 4) fail("--games must be at least 8: the marginal figure subtracts a run of 2 games");
  if (!o.arena.empty() && (o.games < 4 || o.games % 2 != 0))
    fail("--games must be even and at least 4 to time the arena (or give --arena none)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::size_t n = o.referees.size();
  const bool with_arena = !o.arena.empty();
  std::vector<double> pipe, bare;
  // Per contender (the referees, then the arena), per round: the long run and the short one before it.
  const std::size_t contenders = n + (with_arena ? 1 : 0);
  std::vector<std::vector<MatchRun>> runs(contenders), briefs(contenders);
  // The figure a contender is judged by: the referee's whole command, the arena's until its journal's last write.
  const auto wall_of = [&](std::size_t i) { return i < n ? &MatchRun::wall_us : &MatchRun::play_wall_us; };
  const auto name_of = [&](std::size_t i) { return i < n ? fmt::format("[{}]", i) : std::string("arena"); };
  fmt::print("{} games of kalah-random against itself, --movetime {}; pipe ping-pong of {} round trips\n", o.games,
             o.movetime, o.trips);
  for (std::size_t i = 0; i < n; ++i) fmt::print("  [{}] {}\n", i, o.referees[i]);
  if (with_arena) fmt::print("  arena: {} match, until the last game is in the journal\n", o.arena);
  fmt::print("  marginal: (the run of {} games - a run of {}) / (its plies - theirs), start-up and end out\n", o.games,
             kShortGames);
  for (int round = 0; round < o.rounds; ++round) {
    pipe.push_back(kalah::bench::ping_pong_us(o.trips));
    bare.push_back(bare_us_per_ply(o));
    std::string line =
        fmt::format("round {}: pipe {:6.2f} us/trip, bare {:6.2f} us/ply", round + 1, pipe.back(), bare.back());
    // Each round starts with a different contender (the arena being the last of them), so that none
    // always runs right after the ping-pong.
    for (std::size_t k = 0; k < contenders; ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(round)) % contenders;
      const auto play = [&](int games) { return i < n ? run_match(o, o.referees[i], games) : run_arena(o, games); };
      briefs[i].push_back(play(kShortGames));
      runs[i].push_back(play(o.games));
    }
    for (std::size_t i = 0; i < contenders; ++i) {
      const MatchRun& r = runs[i].back();
      const double plies = static_cast<double>(r.plies);
      const double us = r.*wall_of(i) / plies;
      const double marginal = marginal_us(r, briefs[i].back(), wall_of(i));
      line += fmt::format(" | {} {:6.2f} us/ply ({:.2f}x pipe), marginal {:6.2f} ({:.2f}x); cpu {} {:5.2f}", name_of(i),
                          us, us / pipe.back(), marginal, marginal / pipe.back(), i < n ? "referee" : "arena",
                          r.referee_cpu_us / plies);
      if (i < n) line += fmt::format(", engines {:5.2f}", r.engines_cpu_us / plies);
      if (i == n) line += fmt::format(", whole run {:6.2f} us/ply", r.wall_us / plies);
    }
    fmt::print("{}\n", line);
    std::fflush(stdout);
  }
  const auto at = [](int round) { return static_cast<std::size_t>(round); };
  std::vector<double> bare_ratio;
  for (int round = 0; round < o.rounds; ++round) bare_ratio.push_back(bare[at(round)] / pipe[at(round)]);
  fmt::print("median of {} rounds: pipe {:.2f} us/trip; bare {:.2f} us/ply, {:.2f}x the pipe round trip\n", o.rounds,
             median(pipe), median(bare), median(bare_ratio));
  for (std::size_t i = 0; i < contenders; ++i) {
    std::vector<double> per_ply, ratio, versus_bare, cpu, versus_first, marginal, marginal_ratio, whole;
    for (int round = 0; round < o.rounds; ++round) {
      const MatchRun& r = runs[i][at(round)];
      const double us = r.*wall_of(i) / static_cast<double>(r.plies);
      per_ply.push_back(us);
      ratio.push_back(us / pipe[at(round)]);
      versus_bare.push_back(us / bare[at(round)]);
      cpu.push_back(r.referee_cpu_us / static_cast<double>(r.plies));
      marginal.push_back(marginal_us(r, briefs[i][at(round)], wall_of(i)));
      marginal_ratio.push_back(marginal.back() / pipe[at(round)]);
      whole.push_back(r.wall_us / static_cast<double>(r.plies));
      if (n > 0) {
        const MatchRun& first = runs[0][at(round)];
        versus_first.push_back(us / (first.wall_us / static_cast<double>(first.plies)));
      }
    }
    std::string line = fmt::format(
        "  {} {:.2f} us/ply ({} plies), {:.2f}x the pipe round trip, {:.2f}x bare; marginal {:.2f} us/ply, "
        "{:.2f}x the pipe round trip; {} cpu {:.2f} us/ply",
        name_of(i), median(per_ply), runs[i].back().plies, median(ratio), median(versus_bare), median(marginal),
        median(marginal_ratio), i < n ? "referee" : "arena", median(cpu));
    if (i == n) line += fmt::format("; whole run {:.2f} us/ply", median(whole));
    if (i > 0 && n > 0) line += fmt::format(", {:.2f}x [0]", median(versus_first));
    fmt::print("{}\n", line);
  }
  return 0;
}
