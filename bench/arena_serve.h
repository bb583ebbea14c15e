// The real `arena serve` for the benchmarks that measure it (sse_bench, live_bench): the `arena` executable of
// this build started over a results folder on a free loopback port, its CPU time and memory read from /proc,
// and the loopback connections of its clients. A bench that cannot do one of these says why and exits 1.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

namespace kalah::bench {

[[noreturn]] inline void serve_failed(const std::string& message) {
  fmt::print(stderr, "bench: {}\n", message);
  std::exit(1);
}

inline int connect_loopback(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    serve_failed(fmt::format("cannot connect to 127.0.0.1:{}", port));
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

inline void send_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
    if (n <= 0) serve_failed("send failed");
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

// `arena serve DIR` started on a free loopback port (its port read from the line it prints), with `extra`
// arguments after the folder; stopped (SIGTERM) and reaped when it goes.
struct ServeProcess {
  pid_t pid = -1;
  unsigned short port = 0;

  ServeProcess(const std::filesystem::path& dir, const std::vector<std::string>& extra,
               const std::filesystem::path& err) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) serve_failed("pipe");
    const std::string arena = KALAH_BINARY_DIR "/arena";
    std::vector<std::string> args{arena, "serve", dir.string(), "--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid = ::fork();
    if (pid < 0) serve_failed("fork");
    if (pid == 0) {
      ::dup2(out[1], 1);
      const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(err_fd, 2);
      ::execv(arena.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string said;
    char chunk[256];
    constexpr std::string_view kPrefix = "listening on http://127.0.0.1:";
    while (said.find('\n') == std::string::npos) {
      const ssize_t n = ::read(out[0], chunk, sizeof chunk);
      if (n <= 0) serve_failed("arena serve did not start; see " + err.string());
      said.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    const std::size_t at = said.find(kPrefix);
    if (at == std::string::npos) serve_failed("arena serve said: " + said);
    std::from_chars(said.data() + at + kPrefix.size(), said.data() + said.size(), port);
  }
  ~ServeProcess() {
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // utime + stime in seconds (/proc/PID/stat, fields 14 and 15).
  double cpu_seconds() const {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string_view rest(text);
    rest.remove_prefix(rest.rfind(')') + 2);  // after "pid (comm) "
    unsigned long long field[13] = {};
    for (int i = 0; i < 13; ++i) {
      const std::size_t space = rest.find(' ');
      std::from_chars(rest.data(), rest.data() + space, field[i]);
      rest.remove_prefix(space + 1);
    }
    // Fields 3.. of the file follow the name: utime is field 14, the 12th after the state (field 3).
    return static_cast<double>(field[11] + field[12]) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  }
  // A line of /proc/PID/status in MB ("VmHWM:", "VmRSS:").
  double memory_mb(std::string_view key) const {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
      if (line.starts_with(key)) return std::strtod(line.c_str() + key.size(), nullptr) / 1024.0;
    return 0;
  }
};

}  // namespace kalah::bench
