#include "arena/sandbox_build/sandbox_build.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <variant>

#include <fmt/core.h>

#include "referee/engine/sandbox.h"
#include "referee/process/engine_process.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"

namespace kalah::sandbox_build {
namespace fs = std::filesystem;

namespace {

constexpr long long kBuildLogKb = 1024;  // a build's output kept in its log
constexpr int kBuildProcesses = 256;     // RLIMIT_NPROC of a sandboxed build (root only): no fork bomb

// What a build's folder takes: its files' bytes, and kBytesPerEntry for every file, folder and link. An
// error when it passes build_disk_mb.
std::optional<std::string> over_disk_limit(const fs::path& dir, const BuildLimits& limits) {
  const std::uintmax_t limit = disk_limit_bytes(limits);
  std::uintmax_t used = 0;
  system::WalkOptions walk;
  walk.bounds = tree_bounds(limits);
  auto error = system::walk_untrusted_tree(dir, walk, [&](const system::TreeItem& item) -> std::optional<std::string> {
    used += item.size + kBytesPerEntry;
    if (used > limit) return std::string("over");
    return std::nullopt;
  });
  if (!error) return std::nullopt;
  return fmt::format("more than build_disk_mb = {} MiB (files, and {} KiB for each file, folder or link)",
                     limits.disk_mb, kBytesPerEntry >> 10);
}

void append(const fs::path& file, const std::string& text) { system::write_own_file(file, text, /*append=*/true); }

}  // namespace

std::uintmax_t disk_limit_bytes(const BuildLimits& limits) { return static_cast<std::uintmax_t>(limits.disk_mb) << 20; }

system::TreeBounds tree_bounds(const BuildLimits& limits) {
  system::TreeBounds b;
  b.max_bytes = disk_limit_bytes(limits);
  b.max_entries = b.max_bytes / kBytesPerEntry;
  return b;
}

std::optional<std::string> install_built_tree(const fs::path& from, const fs::path& target, const BuildLimits& limits,
                                              const fs::path& log) {
  if (auto error = system::remove_tree(target)) return "cannot replace the entry: " + *error;
  system::CopyOptions copy;
  copy.bounds = tree_bounds(limits);
  copy.read_only = true;
  if (::geteuid() == 0) copy.owner = std::pair{kEntriesOwnerUid, kEntriesOwnerUid};
  Expected<system::CopyReport> copied = system::copy_untrusted_tree(from, target, copy);
  if (!copied) return "cannot copy the built bot to " + target.string() + ": " + copied.error();
  for (const std::string& item : copied->left_out) append(log, "(not copied into the entry: " + item + ")\n");
  return std::nullopt;
}

BuildResult run_build(const BuildLimits& limits, const fs::path& source, const fs::path& target,
                      const std::string& command, const fs::path& log) {
  BuildResult out;
  EngineSpec spec;
  spec.name = "build";
  Expected<fs::path> sh = system::find_executable("sh", "/usr/bin:/bin", fs::current_path());
  spec.cmd = sh ? *sh : fs::path("/bin/sh");
  spec.args = {"-c", "exec 1>&2\n" + command};
  spec.sandbox = limits.sandbox;
  spec.limits.memory_mb = limits.memory_mb;
  // All the build's memory (its processes, /tmp) where the kernel's memory controller can be used; the
  // per-process RLIMIT_DATA otherwise (docs/CONTEST.md).
  spec.limits.memory_enforcement =
      memory_controller_unavailable() ? MemoryEnforcement::Rlimit : MemoryEnforcement::Cgroup;
  spec.limits.max_file_mb = limits.disk_mb;
  spec.private_dir_on_disk = true;  // the source is copied in before and the built folder out after
  spec.limits.max_output_kb = kBuildLogKb;
  if (limits.sandbox == SandboxMode::Bwrap && ::geteuid() == 0) spec.limits.max_processes = kBuildProcesses;
  fs::path plain_dir;  // without a sandbox: a folder of our own
  if (limits.sandbox == SandboxMode::None) {
    plain_dir = fs::temp_directory_path() / fmt::format("kalah-build-{}-{}", ::getpid(), target.filename().string());
    system::remove_tree(plain_dir);
    spec.dir = plain_dir;
  }
  append(log, fmt::format("$ {}\n(in a {} sandbox; limits: {} s, {} MiB memory, {} MiB disk)\n", command,
                          to_string(limits.sandbox), limits.timeout_s, limits.memory_mb, limits.disk_mb));
  Expected<Sandbox> box = Sandbox::prepare(spec, log);
  if (!box) {
    out.reason = "the build sandbox did not start: " + box.error();
    return out;
  }
  const fs::path work = plain_dir.empty() ? box->private_dir() : plain_dir;
  // The source, copied without its links' targets, special files or set-uid bits, owned by the build's uid
  // (the sandbox is not running yet, so nothing else is in the folder).
  system::CopyOptions into;
  into.bounds = tree_bounds(limits);
  if (box->spawn().run_as) into.owner = std::pair{box->spawn().run_as->uid, box->spawn().run_as->gid};
  ::rmdir(work.c_str());
  Expected<system::CopyReport> copied = system::copy_untrusted_tree(source, work, into);
  if (!copied) {
    out.reason = "cannot copy the submission for its build: " + copied.error();
    return out;
  }
  ::chmod(work.c_str(), 0700);
  for (const std::string& item : copied->left_out) append(log, "(not copied into the build: " + item + ")\n");

  const auto started = process::Clock::now();
  auto spawned = process::EngineProcess::spawn(box->spawn());
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) {
    out.reason = "the build did not start: " + error->message;
    return out;
  }
  auto& child = *std::get<std::unique_ptr<process::EngineProcess>>(spawned);
  const auto limit = started + std::chrono::seconds(limits.timeout_s);
  std::optional<process::ExitInfo> exit;
  for (;;) {
    exit = child.wait_for_exit(std::min(limit, process::Clock::now() + std::chrono::milliseconds(100)));
    if (exit) break;
    if (process::Clock::now() >= limit) {
      child.kill();
      out.reason = fmt::format("the build took longer than build_timeout_s = {} s and was stopped", limits.timeout_s);
      break;
    }
    if (auto over = over_disk_limit(work, limits)) {
      child.kill();
      out.reason = "the build wrote " + *over + " and was stopped";
      break;
    }
  }
  out.seconds = std::chrono::duration<double>(process::Clock::now() - started).count();
  if (exit) {
    const process::ExitInfo inner = engine_exit(limits.sandbox, *exit);
    if (!inner.exited() || inner.value != 0) {
      out.reason = "the build failed (" + inner.describe() + ")";
      if (inner.signaled() && inner.value == SIGXFSZ)
        out.reason = fmt::format("the build wrote a file larger than build_disk_mb = {} MiB", limits.disk_mb);
    }
  }
  append(log, fmt::format("\n[{} after {:.1f} s]\n", out.reason.empty() ? "built" : out.reason, out.seconds));
  // The whole sandbox is gone before its folder is read: nothing can change it under the copy.
  child.kill();
  if (out.reason.empty()) {
    if (auto over = over_disk_limit(work, limits)) {
      out.reason = "the build left " + *over;
    } else if (auto error = install_built_tree(work, target, limits, log)) {
      out.reason = *error;
    }
  }
  if (!plain_dir.empty()) system::remove_tree(plain_dir);
  out.ok = out.reason.empty();
  return out;
}

}  // namespace kalah::sandbox_build
