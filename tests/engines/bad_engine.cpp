// A misbehaving KEP engine for the end-to-end tests: one flag per misbehaviour.
//
// Without flags it is a well-behaved but board-less engine: it answers `kep` (id name bad, kepok),
// `isready` (readyok), ignores `newgame`/`position`/`setoption`/`stop`, and answers `go` with
// `bestmove <pit>`, taking the pits in turn from --moves (default "1", cycled). It knows no rules, so a
// test that needs legal moves picks a --moves list that is legal in its scenario, or uses instant_engine.
//
//   --crash-at-start       exit with code 3 before reading anything
//   --crash-on-go N        abort() (SIGABRT, no core file) on the N-th go
//   --hang-on-go N         from the N-th go on, never answer a go (but keep reading and answering)
//   --slow MS              sleep MS milliseconds before every bestmove
//   --burn MS              use MS milliseconds of CPU (a busy loop) before every bestmove
//   --burn-thread MS       the same in a thread of its own, started on go and ended before the bestmove (as the
//                          bundled bots search)
//   --report-cpu           write "cpu <ms>" to stderr before every bestmove: the CPU time its process used
//                          since it read the go (CLOCK_PROCESS_CPUTIME_ID), its own accounting of the move
//   --clock-feature        announce `feature clock` in the handshake (newgame then ends with clock=...)
//   --illegal              answer bestmove 99
//   --garbage              answer "hello world" instead of a bestmove
//   --endless-line         on go, write 'x' forever without a newline
//   --close-stdout         after the handshake close fd 1, then sleep forever
//   --close-stdin          after the handshake close fd 0, then sleep forever
//   --ignore-sigterm       ignore SIGTERM and SIGINT; never quit (neither on quit nor at end of input)
//   --ignore-quit          ignore quit (but exit 0 at end of input)
//   --grandchild           fork a child that sleeps forever holding the pipes; on kep report
//                          "info string grandchild <pid>"
//   --print-fds            on kep report "info string fds 0,1,2" (its open descriptors)
//   --print-cwd            on kep report "info string cwd <dir>"
//   --stderr-flood         write 1 MiB to stderr at start (must not block when stderr is drained)
//   --crlf                 end lines with "\r\n"
//   --positions            announce `feature positions` in the handshake (it still keeps no board)
//   --bench-nodes A,B,...  announce `feature bench` and answer each `bench` with `bench nodes <n>`, the counts in
//                          turn; the environment variable BAD_ENGINE_BENCH_NODES, when set, gives the one count
//                          instead (a rebuilt engine, for a test that must keep the command line)
//   --bench-reply TEXT     announce `feature bench` and answer each `bench` with the line TEXT
//   --bench-hang           announce `feature bench` and never answer `bench` (but keep reading and answering)
//   --moves A,B,...        the pits to answer in turn
//   --stderr-on-go TEXT    write TEXT and a newline to stderr on every go (before anything else it does)
//   --id-name HEX          announce `id name TEXT` instead of `id name bad`, TEXT the bytes written in hex (a
//                          name that lies, with bidi controls or look-alike letters, kept out of its arguments,
//                          which the reports show as the organiser wrote them)
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Options {
  bool crash_at_start = false;
  int crash_on_go = 0;
  int hang_on_go = 0;
  int slow_ms = 0;
  int burn_ms = 0;
  int burn_thread_ms = 0;
  bool report_cpu = false;
  bool clock_feature = false;
  bool illegal = false;
  bool garbage = false;
  bool endless_line = false;
  bool close_stdout = false;
  bool close_stdin = false;
  bool ignore_sigterm = false;
  bool ignore_quit = false;
  bool grandchild = false;
  bool print_fds = false;
  bool print_cwd = false;
  bool stderr_flood = false;
  bool crlf = false;
  bool stale_bestmove = false;  // a bestmove right after readyok, before anyone asked
  bool positions = false;
  bool bench_hang = false;
  std::vector<int> bench_nodes;
  std::string bench_reply;
  std::vector<int> moves{1};
  std::string stderr_on_go;
  std::string id_name = "bad";
};

[[noreturn]] void usage(const char* arg) {
  std::fprintf(stderr, "bad_engine: bad argument '%s'\n", arg);
  std::exit(2);
}

// The switches and the options that take a number, by their command-line names.
template <class T>
using Flag = std::pair<std::string_view, T Options::*>;
// A table, laid out as one.
// clang-format off
const Flag<bool> kSwitches[] = {
    {"--crash-at-start", &Options::crash_at_start}, {"--illegal", &Options::illegal}, {"--garbage", &Options::garbage},
    {"--endless-line", &Options::endless_line}, {"--close-stdout", &Options::close_stdout},
    {"--close-stdin", &Options::close_stdin},
    {"--ignore-sigterm", &Options::ignore_sigterm}, {"--ignore-quit", &Options::ignore_quit},
    {"--grandchild", &Options::grandchild}, {"--print-fds", &Options::print_fds}, {"--print-cwd", &Options::print_cwd},
    {"--stderr-flood", &Options::stderr_flood}, {"--crlf", &Options::crlf}, {"--stale-bestmove", &Options::stale_bestmove},
    {"--positions", &Options::positions}, {"--clock-feature", &Options::clock_feature},
    {"--bench-hang", &Options::bench_hang}, {"--report-cpu", &Options::report_cpu}};
const Flag<int> kNumbers[] = {
    {"--crash-on-go", &Options::crash_on_go}, {"--hang-on-go", &Options::hang_on_go}, {"--slow", &Options::slow_ms},
    {"--burn", &Options::burn_ms}, {"--burn-thread", &Options::burn_thread_ms}};
// clang-format on

// "--moves 3,1,2": the pits to play in turn.
std::vector<int> parse_moves(const char* text) {
  std::vector<int> moves;
  for (const char* p = text; *p != '\0';) {
    char* end = nullptr;
    moves.push_back(static_cast<int>(std::strtol(p, &end, 10)));
    if (end == p) usage(text);
    p = (*end == ',') ? end + 1 : end;
  }
  if (moves.empty()) usage(text);
  return moves;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (const auto s = std::find_if(std::begin(kSwitches), std::end(kSwitches), [&](auto& e) { return e.first == a; });
        s != std::end(kSwitches)) {
      o.*(s->second) = true;
    } else if (const auto n =
                   std::find_if(std::begin(kNumbers), std::end(kNumbers), [&](auto& e) { return e.first == a; });
               n != std::end(kNumbers) && has_value) {
      o.*(n->second) = std::atoi(argv[++i]);
    } else if (a == "--moves" && has_value) {
      o.moves = parse_moves(argv[++i]);
    } else if (a == "--bench-nodes" && has_value) {
      o.bench_nodes = parse_moves(argv[++i]);
    } else if (a == "--bench-reply" && has_value) {
      o.bench_reply = argv[++i];
    } else if (a == "--stderr-on-go" && has_value) {
      o.stderr_on_go = std::string(argv[++i]) + "\n";
    } else if (a == "--id-name" && has_value) {
      const std::string hex = argv[++i];
      o.id_name.clear();
      for (std::size_t k = 0; k + 1 < hex.size(); k += 2)
        o.id_name += static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
    } else {
      usage(argv[i]);
    }
  }
  return o;
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::exit(1);  // the reader is gone (with SIGPIPE at its default we would be dead already)
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// The CPU time this process has used, in ms.
double process_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Spins until this process has used `ms` more milliseconds of CPU.
void burn_cpu(int ms) {
  const auto used_ms = process_cpu_ms;
  const double until = used_ms() + ms;
  volatile unsigned sink = 0;
  while (used_ms() < until)
    for (unsigned i = 0; i < 1000; ++i) sink = sink + i;
}

[[noreturn]] void sleep_forever() {
  for (;;) ::pause();
}

// The descriptors open in this process, without the one used to list them.
std::string open_fds() {
  std::string list;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return "?";
  std::vector<int> fds;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const int fd = std::atoi(e->d_name);
    if (fd != ::dirfd(dir)) fds.push_back(fd);
  }
  ::closedir(dir);
  std::sort(fds.begin(), fds.end());
  for (int fd : fds) list += (list.empty() ? "" : ",") + std::to_string(fd);
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  const std::string eol = opt.crlf ? "\r\n" : "\n";
  auto say = [&](const std::string& text) {
    const std::string line = text + eol;
    write_all(1, line.data(), line.size());
  };

  // No core files from --crash-on-go.
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  std::fprintf(stderr, "bad_engine: started\n");
  if (opt.stderr_flood) {
    const std::string chunk(64 * 1024, 'e');
    for (int i = 0; i < 16; ++i) write_all(2, chunk.data(), chunk.size());
  }
  if (opt.crash_at_start) {
    // As a Python bot that misses a module says it (the arena must pass this on: docs/PROTOCOL.md).
    std::fprintf(stderr,
                 "Traceback (most recent call last):\n  File \"bot.py\", line 3, in <module>\n"
                 "ModuleNotFoundError: No module named 'numpy'\n");
    return 3;
  }
  if (opt.ignore_sigterm) {
    ::signal(SIGTERM, SIG_IGN);
    ::signal(SIGINT, SIG_IGN);
  }
  pid_t grandchild = 0;
  if (opt.grandchild) {
    grandchild = ::fork();
    if (grandchild == 0) sleep_forever();  // holds fds 0, 1, 2 (the arena's pipes) open
  }

  std::ios::sync_with_stdio(false);
  std::string line;
  int gos = 0;
  std::size_t next_move = 0;
  std::size_t benches = 0;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string verb = line.substr(0, line.find(' '));
    if (verb == "kep") {
      std::string reply;
      if (opt.grandchild) reply += "info string grandchild " + std::to_string(grandchild) + eol;
      if (opt.print_fds) reply += "info string fds " + open_fds() + eol;
      if (opt.print_cwd) {
        char cwd[4096];
        reply += std::string("info string cwd ") + (::getcwd(cwd, sizeof cwd) ? cwd : "?") + eol;
      }
      // One write for the whole reply: the reader gets several lines in one chunk.
      reply += "id name " + opt.id_name + eol + "id author kalah-arena tests" + eol;
      if (opt.positions) reply += "feature positions" + eol;
      if (opt.clock_feature) reply += "feature clock" + eol;
      if (opt.bench_hang || !opt.bench_nodes.empty() || !opt.bench_reply.empty()) reply += "feature bench" + eol;
      reply += "kepok" + eol;
      write_all(1, reply.data(), reply.size());
      if (opt.close_stdout) {
        ::close(1);
        sleep_forever();
      }
      if (opt.close_stdin) {
        ::close(0);
        sleep_forever();
      }
    } else if (verb == "isready") {
      say("readyok");
      if (opt.stale_bestmove) say("bestmove 1");
    } else if (verb == "go") {
      const double go_cpu_ms = process_cpu_ms();
      ++gos;
      if (!opt.stderr_on_go.empty()) write_all(2, opt.stderr_on_go.data(), opt.stderr_on_go.size());
      if (opt.crash_on_go > 0 && gos == opt.crash_on_go) std::abort();
      if (opt.hang_on_go > 0 && gos >= opt.hang_on_go) continue;
      if (opt.endless_line) {
        const std::string chunk(4096, 'x');
        for (;;) write_all(1, chunk.data(), chunk.size());
      }
      if (opt.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(opt.slow_ms));
      if (opt.burn_ms > 0) burn_cpu(opt.burn_ms);
      if (opt.burn_thread_ms > 0) std::thread([&] { burn_cpu(opt.burn_thread_ms); }).join();
      if (opt.report_cpu) {
        char text[64];
        const int n = std::snprintf(text, sizeof text, "cpu %.3f\n", process_cpu_ms() - go_cpu_ms);
        write_all(2, text, static_cast<std::size_t>(n));
      }
      if (opt.garbage) {
        say("hello world");
      } else if (opt.illegal) {
        say("bestmove 99");
      } else {
        say("bestmove " + std::to_string(opt.moves[next_move]));
        next_move = (next_move + 1) % opt.moves.size();
      }
    } else if (line == "bench") {
      if (opt.bench_hang) continue;
      if (!opt.bench_reply.empty()) {
        say(opt.bench_reply);
      } else if (const char* rebuilt = std::getenv("BAD_ENGINE_BENCH_NODES")) {
        say(std::string("bench nodes ") + rebuilt);
      } else if (!opt.bench_nodes.empty()) {
        say("bench nodes " + std::to_string(opt.bench_nodes[benches++ % opt.bench_nodes.size()]));
      }
    } else if (verb == "quit") {
      if (!opt.ignore_quit && !opt.ignore_sigterm) return 0;
    }
    // newgame, position, setoption, stop and anything else: silently accepted.
  }
  if (opt.ignore_sigterm) sleep_forever();
  return 0;
}
