// An engine that answers the KEP handshake, then tries one thing an untrusted engine must not be able to do, reports on
// stderr what happened ("hostile: <attempt>: <result>"), then becomes instant_engine (exec'd from its own folder) and
// plays normally. The sandbox tests (tests/sandbox_e2e_test.cpp) run it under the arena and check that each attempt
// fails or ends in the right forfeit.
//
//   hostile_engine connect PORT       TCP connect to 127.0.0.1:PORT
//   hostile_engine write PATH         create PATH and write to it
//   hostile_engine read PATH          open PATH (a file or a folder) for reading
//   hostile_engine fork-bomb          fork until it fails; the children sleep
//   hostile_engine alloc MB           allocate and touch MB megabytes; exits 3 if it cannot
//   hostile_engine file MB            write MB megabytes into ./big
//   hostile_engine kill-parent        SIGKILL its parent and every process it may signal
//   hostile_engine stderr MB          write MB megabytes to stderr (to fill the organiser's disk through the log)
//   hostile_engine affinity           report the CPUs it may run on (for the pinning test)
//   hostile_engine widen-affinity     ask for every CPU (sched_setaffinity), then report the CPUs it may run on
//   hostile_engine fill DIR,DIR,...   in each folder, write 1 MB files until 64 MB or an error; report each
//   hostile_engine cgroup             report each line of /proc/self/cgroup (the groups the arena put it in)
//   hostile_engine busy N             start N processes that spin forever (they die with its process group),
//                                     each saying once on which CPUs it ran
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void report(const std::string& attempt, const std::string& result) {
  std::fprintf(stderr, "hostile: %s: %s\n", attempt.c_str(), result.c_str());
  std::fflush(stderr);
}

std::string outcome(bool ok) { return ok ? "SUCCEEDED" : std::string("failed: ") + std::strerror(errno); }

void attempt(const std::string& what, const char* arg) {
  if (what == "connect") {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<uint16_t>(std::atoi(arg)));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    report("connect",
           fd < 0 ? outcome(false) : outcome(::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0));
  } else if (what == "write") {
    const int fd = ::open(arg, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    report(std::string("write ") + arg, outcome(fd >= 0 && ::write(fd, "pwned\n", 6) == 6));
  } else if (what == "cgroup") {  // the control groups it is in, one report a line of /proc/self/cgroup
    std::FILE* f = std::fopen("/proc/self/cgroup", "r");
    char line[512];
    while (f && std::fgets(line, sizeof line, f)) {
      std::string text = line;
      if (!text.empty() && text.back() == '\n') text.pop_back();
      report("cgroup", text);
    }
    if (f) std::fclose(f);
  } else if (what == "read") {
    report(std::string("read ") + arg, outcome(::open(arg, O_RDONLY) >= 0));
  } else if (what == "fork-bomb") {
    int children = 0;
    while (children < 10000) {
      const pid_t pid = ::fork();
      if (pid < 0) break;
      if (pid == 0) {
        ::pause();
        ::_exit(0);
      }
      ++children;
    }
    report("fork-bomb", "stopped after " + std::to_string(children) + " children: " + std::strerror(errno));
  } else if (what == "alloc") {
    const std::size_t bytes = static_cast<std::size_t>(std::atoll(arg)) << 20;
    char* p = static_cast<char*>(std::malloc(bytes));
    if (p == nullptr) {
      report("alloc", "failed: " + std::string(std::strerror(errno)));
      std::exit(3);
    }
    for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    report("alloc", "SUCCEEDED");
  } else if (what == "shm") {  // shared memory, which RLIMIT_DATA does not count
    const std::size_t bytes = static_cast<std::size_t>(std::atoll(arg)) << 20;
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      report("shm", "failed: " + std::string(std::strerror(errno)));
      std::exit(3);
    }
    for (std::size_t i = 0; i < bytes; i += 4096) static_cast<char*>(p)[i] = 1;
    report("shm", "SUCCEEDED");
  } else if (what == "file") {
    const int fd = ::open("big", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char> block(1 << 20, 'x');
    long long written = 0;
    for (int i = 0; fd >= 0 && i < std::atoi(arg); ++i) {
      if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) break;
      written += 1;
    }
    report("file", "wrote " + std::to_string(written) + " MB: " + std::strerror(errno));
  } else if (what == "stderr") {
    report("stderr", "writing " + std::string(arg) + " MB");
    const std::string block(1 << 20, 'e');
    long long written = 0;
    for (int i = 0; i < std::atoi(arg); ++i) {
      if (::write(2, block.data(), block.size()) != static_cast<ssize_t>(block.size())) break;
      written += 1;
    }
    report("stderr", "wrote " + std::to_string(written) + " MB");
  } else if (what == "kill-parent") {
    const pid_t parent = ::getppid();
    const bool parent_killed = parent > 1 && ::kill(parent, SIGKILL) == 0;
    report("kill-parent " + std::to_string(parent), outcome(parent_killed));
    // Everything it may signal except itself (kill(-1) spares the caller).
    report("kill-all", outcome(::kill(-1, SIGKILL) == 0));
  } else if (what == "busy") {
    int started = 0;
    const std::string parent = std::to_string(::getpid());
    for (int i = 0; i < std::atoi(arg); ++i) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        // Spins (the barrier keeps the loop from being removed) and says on which CPU, once per CPU it is
        // seen on, so that a test can check where the spinners ran without timing anything.
        unsigned long long seen = 0;
        for (unsigned long spin = 0;; ++spin) {
          asm volatile("" ::: "memory");
          if ((spin & 0xfffff) != 0) continue;
          const int cpu = ::sched_getcpu();
          if (cpu < 0 || cpu >= 64 || (seen & (1ULL << cpu)) != 0) continue;
          seen |= 1ULL << cpu;
          report("busy", "spinner of " + parent + " ran on CPU " + std::to_string(cpu));
        }
      }
      if (pid > 0) ++started;
    }
    report("busy", std::to_string(started) + " spinning processes");
  } else if (what == "fill") {
    const std::vector<char> block(1 << 20, 'f');
    std::string dirs = arg;
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(',', start), dirs.size());
      const std::string dir = dirs.substr(start, end - start);
      start = end + 1;
      int written = 0;
      errno = 0;
      for (; written < 64; ++written) {
        const std::string name = dir + "/fill-" + std::to_string(written);
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const bool ok = fd >= 0 && ::write(fd, block.data(), block.size()) == static_cast<ssize_t>(block.size());
        if (fd >= 0) ::close(fd);
        if (!ok) break;
      }
      report("fill " + dir, "wrote " + std::to_string(written) + " MB: " + std::strerror(errno));
      for (int i = 0; i <= written; ++i) ::unlink((dir + "/fill-" + std::to_string(i)).c_str());
    }
  } else if (what == "affinity" || what == "widen-affinity") {  // where it may run, for the pinning tests
    if (what == "widen-affinity") {
      cpu_set_t all;
      CPU_ZERO(&all);
      for (int c = 0; c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
      ::sched_setaffinity(0, sizeof all, &all);  // the kernel keeps what it may of it
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    std::string cpus;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
    report(what, cpus);
  } else {
    report(what, "unknown attempt");
  }
}

}  // namespace

// Reads one line from stdin a byte at a time, so that nothing meant for instant_engine is consumed.
bool read_line(std::string& line) {
  line.clear();
  char c = 0;
  while (true) {
    if (::read(0, &c, 1) != 1) return false;
    if (c == '\n') return true;
    line += c;
  }
}

int main(int argc, char** argv) {
  // The handshake first, so that what follows happens to an engine that has started properly.
  std::string line;
  while (true) {
    if (!read_line(line)) return 0;
    if (line.rfind("kep", 0) == 0) break;
  }
  // Before kepok: 64 MiB of option declarations (the arena must stop listening long before).
  if (argc >= 2 && std::string(argv[1]) == "flood-handshake") {
    std::string block;
    for (int i = 0; i < 1024; ++i) block += "option name Flood" + std::to_string(i) + " type check default true\n";
    for (std::size_t written = 0; written < (std::size_t{64} << 20); written += block.size())
      if (std::fwrite(block.data(), 1, block.size(), stdout) != block.size()) return 0;
  }
  // Bytes a terminal would obey and bytes that are not UTF-8, in its name, on stdout and on stderr; then it
  // crashes at its first move so that its game leaves a transcript.
  if (argc >= 2 && std::string(argv[1]) == "dirty") {
    std::printf("id name dirty\x1b[31m\xff\nkepok\n");
    std::printf(
        "info string \x1b]0;owned\x07 \xc3\x28 \xc2\x9b"
        "2J\n");
    std::fflush(stdout);
    std::fprintf(stderr, "\x1b[2J\x1b[31mred \xe2\x82 cut \xf0\x9f\x98\x80 smile\n");
    std::fflush(stderr);
    std::string ignored;
    while (read_line(ignored)) {
      if (ignored == "isready") std::printf("readyok\n");
      std::fflush(stdout);
      if (ignored.rfind("go", 0) == 0) std::abort();
    }
    return 0;
  }
  std::printf("id name hostile\nkepok\n");
  std::fflush(stdout);
  if (argc >= 2) attempt(argv[1], argc >= 3 ? argv[2] : "");
  std::string self = argv[0];
  const std::string instant = self.substr(0, self.rfind('/') + 1) + "instant_engine";
  char* args[] = {const_cast<char*>(instant.c_str()), nullptr};
  ::execv(instant.c_str(), args);
  report("exec " + instant, outcome(false));
  return 127;
}
