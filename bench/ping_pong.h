// The floor of one ply: a short line each way through pipes between two processes, blocking
// `read`/`write`. Shared by ply_bench and match_bench, so that both compare with the same thing.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

namespace kalah::bench {

// Parent and child exchange "ping\n"/"pong\n" `n` times; returns µs per round trip.
inline double ping_pong_us(int n) {
  int to_child[2], to_parent[2];
  if (pipe(to_child) != 0 || pipe(to_parent) != 0) std::abort();
  const pid_t pid = fork();
  if (pid < 0) std::abort();
  if (pid == 0) {
    char buf[64];
    for (int i = 0; i < n; ++i) {
      if (read(to_child[0], buf, sizeof buf) <= 0) _exit(1);
      if (write(to_parent[1], "pong\n", 5) != 5) _exit(1);
    }
    _exit(0);
  }
  char buf[64];
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    if (write(to_child[1], "ping\n", 5) != 5 || read(to_parent[0], buf, sizeof buf) <= 0) std::abort();
  }
  const auto t1 = std::chrono::steady_clock::now();
  waitpid(pid, nullptr, 0);
  for (int fd : {to_child[0], to_child[1], to_parent[0], to_parent[1]}) close(fd);
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
}

}  // namespace kalah::bench
