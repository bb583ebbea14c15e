// `arena contest build`: each submission folder is copied into a sandbox, built there with limits,
// copied out to <results>/entries/<name>/ and checked with `referee check`.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>

#include <fmt/core.h>

#include "arena/config/entries.h"
#include "arena/config/manifest.h"
#include "arena/contest/contest.h"
#include "referee/check/conformance.h"
#include "referee/engine/sandbox.h"
#include "referee/process/engine_process.h"
#include "referee/system/directory_lock.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"
#include "referee/system/utc_time.h"

namespace kalah::arena::contest {
namespace fs = std::filesystem;

namespace {

constexpr long long kBuildLogKb = 1024;  // a build's output kept in build.log
constexpr int kBuildProcesses = 256;     // RLIMIT_NPROC of a sandboxed build (root only): no fork bomb

// What changed in a folder: every file's relative path and content, in path order.
std::string folder_digest(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) || it->is_symlink(ec)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  std::uint64_t hash = fnv1a("");
  for (const fs::path& file : files) {
    hash = fnv1a(file.lexically_relative(dir).string() + '\0', hash);
    if (fs::is_symlink(file, ec)) {
      hash = fnv1a("-> " + fs::read_symlink(file, ec).string(), hash);
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
      hash = fnv1a(std::string_view(buffer, static_cast<std::size_t>(in.gcount())), hash);
  }
  return hex(hash);
}

std::uintmax_t folder_bytes(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

void chown_tree(const fs::path& dir, unsigned uid) {
  std::error_code ec;
  if (::lchown(dir.c_str(), uid, uid) != 0) return;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (::lchown(it->path().c_str(), uid, uid) != 0) return;
}

// The bot's folder readable by every uid (a sandboxed engine runs under one of its own), never writable.
void open_to_read(const fs::path& dir) {
  std::error_code ec;
  fs::permissions(dir,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                      fs::perms::others_exec,
                  ec);
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    const bool traversable =
        it->is_directory(ec) || (it->status(ec).permissions() & fs::perms::owner_exec) != fs::perms::none;
    fs::permissions(it->path(),
                    fs::perms::group_read | fs::perms::others_read |
                        (traversable ? fs::perms::group_exec | fs::perms::others_exec : fs::perms::none),
                    fs::perm_options::add, ec);
    fs::permissions(it->path(), fs::perms::group_write | fs::perms::others_write, fs::perm_options::remove, ec);
  }
}

void append(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::app);
  out << text;
}

struct BuildResult {
  bool ok = false;
  std::string reason;  // why not
  double seconds = 0;
};

// Runs `command` with /bin/sh in a copy of `source` inside the build sandbox, then copies the folder
// to `target` (replaced). The output goes to `log`.
BuildResult run_build(const SubmissionsConfig& sc, const fs::path& source, const fs::path& target,
                      const std::string& command, const fs::path& log) {
  BuildResult out;
  EngineSpec spec;
  spec.name = "build";
  Expected<fs::path> sh = system::find_executable("sh", "/usr/bin:/bin", fs::current_path());
  spec.cmd = sh ? *sh : fs::path("/bin/sh");
  spec.args = {"-c", "exec 1>&2\n" + command};
  spec.sandbox = sc.build_sandbox;
  spec.limits.memory_mb = sc.build_memory_mb;
  spec.limits.max_file_mb = sc.build_disk_mb;
  spec.limits.max_output_kb = kBuildLogKb;
  if (sc.build_sandbox == SandboxMode::Bwrap && ::geteuid() == 0) spec.limits.max_processes = kBuildProcesses;
  std::error_code ec;
  fs::path plain_dir;  // without a sandbox: a folder of our own
  if (sc.build_sandbox == SandboxMode::None) {
    plain_dir = fs::temp_directory_path() / fmt::format("kalah-build-{}-{}", ::getpid(), target.filename().string());
    fs::remove_all(plain_dir, ec);
    spec.dir = plain_dir;
  }
  append(log, fmt::format("$ {}\n(in a {} sandbox; limits: {} s, {} MiB memory, {} MiB disk)\n", command,
                          to_string(sc.build_sandbox), sc.build_timeout_s, sc.build_memory_mb, sc.build_disk_mb));
  Expected<Sandbox> box = Sandbox::prepare(spec, log);
  if (!box) {
    out.reason = "the build sandbox did not start: " + box.error();
    return out;
  }
  const fs::path work = plain_dir.empty() ? box->private_dir() : plain_dir;
  fs::copy(source, work, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    out.reason = "cannot copy the submission for its build: " + ec.message();
    return out;
  }
  if (box->spawn().run_as) chown_tree(work, box->spawn().run_as->uid);

  const auto started = process::Clock::now();
  auto spawned = process::EngineProcess::spawn(box->spawn());
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) {
    out.reason = "the build did not start: " + error->message;
    return out;
  }
  auto& child = *std::get<std::unique_ptr<process::EngineProcess>>(spawned);
  const auto limit = started + std::chrono::seconds(sc.build_timeout_s);
  const std::uintmax_t disk = static_cast<std::uintmax_t>(sc.build_disk_mb) << 20;
  std::optional<process::ExitInfo> exit;
  for (;;) {
    exit = child.wait_for_exit(std::min(limit, process::Clock::now() + std::chrono::milliseconds(100)));
    if (exit) break;
    if (process::Clock::now() >= limit) {
      child.kill();
      out.reason = fmt::format("the build took longer than build_timeout_s = {} s and was stopped", sc.build_timeout_s);
      break;
    }
    if (folder_bytes(work) > disk) {
      child.kill();
      out.reason = fmt::format("the build wrote more than build_disk_mb = {} MiB and was stopped", sc.build_disk_mb);
      break;
    }
  }
  out.seconds = std::chrono::duration<double>(process::Clock::now() - started).count();
  if (exit) {
    const process::ExitInfo inner = engine_exit(sc.build_sandbox, *exit);
    if (!inner.exited() || inner.value != 0) {
      out.reason = "the build failed (" + inner.describe() + ")";
      if (inner.signaled() && inner.value == SIGXFSZ)
        out.reason = fmt::format("the build wrote a file larger than build_disk_mb = {} MiB", sc.build_disk_mb);
    }
  }
  append(log, fmt::format("\n[{} after {:.1f} s]\n", out.reason.empty() ? "built" : out.reason, out.seconds));
  if (out.reason.empty()) {
    if (folder_bytes(work) > disk) {
      out.reason = fmt::format("the build left more than build_disk_mb = {} MiB", sc.build_disk_mb);
    } else {
      fs::remove_all(target, ec);
      fs::copy(work, target, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
      if (ec) out.reason = "cannot copy the built bot to " + target.string() + ": " + ec.message();
      open_to_read(target);
    }
  }
  if (!plain_dir.empty()) fs::remove_all(plain_dir, ec);
  out.ok = out.reason.empty();
  return out;
}

// The program and arguments of `run`, as they run from the bot's folder `dir`: a program with a '/'
// is a file of the bot, any other is looked up on PATH; an argument naming a file of the bot becomes its
// absolute path (a sandboxed engine's working folder is private).
Expected<std::pair<fs::path, std::vector<std::string>>> resolve_run(const Manifest& m, const fs::path& dir) {
  const std::string& program = m.run.front();
  fs::path cmd;
  std::error_code ec;
  if (program.find('/') != std::string::npos) {
    cmd = (dir / program).lexically_normal();
    const fs::path rel = cmd.lexically_relative(dir);
    if (rel.empty() || *rel.begin() == "..") return Error{"run: " + program + " lies outside the bot's folder"};
    if (!fs::is_regular_file(cmd, ec) || ::access(cmd.c_str(), X_OK) != 0)
      return Error{"run: " + program + " is not an executable file of the bot after its build"};
  } else {
    Expected<fs::path> found = system::find_executable(program, "/usr/local/bin:/usr/bin:/bin", dir);
    if (!found) return Error{"run: " + found.error()};
    cmd = *found;
  }
  std::vector<std::string> args;
  for (std::size_t i = 1; i < m.run.size(); ++i) {
    const fs::path file = (dir / m.run[i]).lexically_normal();
    const fs::path rel = file.lexically_relative(dir);
    const bool of_bot = !rel.empty() && *rel.begin() != ".." && fs::exists(file, ec);
    args.push_back(of_bot ? file.string() : m.run[i]);
  }
  return std::make_pair(cmd, args);
}

// `referee check` on the built bot, as it will run in the contest. Empty when it passes.
std::string check_bot(const EngineSpec& spec, const fs::path& log) {
  check::Settings settings;
  std::string failures;
  int failed = 0;
  std::string text;
  check::run_checks(spec, settings, [&](const check::Result& r) {
    text += fmt::format("{} {}{}{}\n", check::to_string(r.verdict), r.check, r.detail.empty() ? "" : ": ", r.detail);
    if (r.verdict == check::Verdict::Fail && failed++ == 0)
      failures = r.check + (r.forfeit ? std::string(" (") + to_string(*r.forfeit) + ")" : "") + ": " + r.detail;
  });
  std::ofstream(log) << text;
  if (failed == 0) return {};
  return fmt::format("referee check failed: {}{}", failures.substr(0, 300),
                     failed > 1 ? fmt::format(" (and {} more)", failed - 1) : std::string());
}

}  // namespace

Expected<BuildSummary> build_submissions(const Config& config, const Say& say) {
  const SubmissionsConfig& sc = *config.submissions;
  std::error_code ec;
  if (!fs::is_directory(sc.dir, ec)) return Error{"submissions.dir " + sc.dir.string() + " is not a folder"};
  const fs::path results = fs::absolute(config.results_dir(), ec);
  fs::create_directories(results / "entries", ec);
  if (ec) return Error{"cannot create " + (results / "entries").string() + ": " + ec.message()};
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(results);
  if (!lock) return Error{lock.error() + " (stop that run before building)"};
  Expected<Entries> read = read_entries(config.entries_file());
  if (!read) return Error{read.error()};
  Entries entries = std::move(read).value();

  std::vector<fs::path> folders;
  for (const fs::directory_entry& d : fs::directory_iterator(sc.dir, ec))
    if (d.is_directory(ec) && d.path().filename().string().front() != '.') folders.push_back(d.path());
  std::sort(folders.begin(), folders.end());

  // Every manifest first: a name two folders claim is refused for both (unless one already entered).
  std::map<std::string, Expected<Manifest>> manifests;
  std::map<std::string, std::vector<std::string>> folders_of_name;
  for (const fs::path& folder : folders) {
    const std::string key = folder.filename().string();
    manifests.emplace(key, read_manifest(folder / kManifestFile));
    if (manifests.at(key)) folders_of_name[manifests.at(key)->name].push_back(key);
  }
  auto record_of = [&](const std::string& folder) -> Submission& {
    for (Submission& s : entries.submissions)
      if (s.folder == folder) return s;
    Submission fresh;
    fresh.folder = folder;
    entries.submissions.push_back(std::move(fresh));
    return entries.submissions.back();
  };

  BuildSummary summary;
  for (const fs::path& folder : folders) {
    const std::string key = folder.filename().string();
    ++summary.submissions;
    Submission& s = record_of(key);
    auto refuse = [&](const std::string& reason) {
      if (s.ever_entered()) {
        // An entrant stays as it entered; what is wrong with its new version is only said.
        say(fmt::format("  {:<16} {} (kept as entered; the submission now: {})", s.name, to_string(s.status), reason));
        return;
      }
      s.status = SubmissionStatus::NotEntered;
      s.reason = reason;
      ++summary.not_entered;
      say(fmt::format("  {:<16} not entered: {}", s.name.empty() ? key + "/" : s.name, reason));
    };
    const Expected<Manifest>& manifest = manifests.at(key);
    if (!manifest) {
      refuse(manifest.error());
      continue;
    }
    const Manifest& m = *manifest;
    const std::vector<std::string>& claimants = folders_of_name[m.name];
    if (claimants.size() > 1) {
      const Submission* holder = entries.by_name(m.name);
      if (!(holder && holder->folder == key)) {
        std::string others;
        for (const std::string& f : claimants)
          if (f != key) others += (others.empty() ? "" : ", ") + f + "/";
        refuse(fmt::format("the name '{}' is also claimed by {}{}", m.name, others,
                           holder ? " (which entered first)" : "; rename one of them"));
        continue;
      }
    }
    if (const Submission* holder = entries.by_name(m.name); holder && holder->folder != key) {
      refuse(fmt::format("the name '{}' belongs to the entrant from {}/", m.name, holder->folder));
      continue;
    }
    const std::string digest = folder_digest(folder);
    if (s.source_digest == digest && !s.source_digest.empty() && s.name == m.name) {
      summary.entered += s.status == SubmissionStatus::NotEntered ? 0 : 1;
      summary.not_entered += s.status == SubmissionStatus::NotEntered ? 1 : 0;
      say(fmt::format("  {:<16} {} (unchanged since {})", m.name,
                      s.status == SubmissionStatus::NotEntered ? "not entered: " + s.reason : to_string(s.status),
                      s.built_at));
      continue;
    }
    if (s.ever_entered()) {
      refuse(
          fmt::format("it changed after it entered, and an entrant's games must all be played by one version; "
                      "enter the new version under another name"));
      ++summary.entered;
      continue;
    }
    s.name = m.name;
    s.author = m.author;
    s.language = m.language;
    s.protocol = m.protocol;
    s.source_digest = digest;
    s.built_at = system::utc_now_iso8601();
    const fs::path target = results / "entries" / m.name;
    const fs::path log = results / "entries" / (m.name + ".build.log");
    fs::remove(log, ec);
    BuildResult built;
    if (m.build) {
      built = run_build(sc, folder, target, *m.build, log);
    } else {
      fs::remove_all(target, ec);
      fs::copy(folder, target, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
      open_to_read(target);
      built.ok = !ec;
      if (ec) built.reason = "cannot copy it to " + target.string() + ": " + ec.message();
      append(log, "(nothing to build: the manifest has no build command)\n");
    }
    s.build_seconds = built.seconds;
    // The log lives in the bot's folder (a failed build leaves only the log there).
    fs::create_directories(target, ec);
    fs::rename(log, target / "build.log", ec);
    if (!built.ok) {
      refuse(built.reason + " (log: " + (target / "build.log").string() + ")");
      write_entries(config.entries_file(), entries);
      continue;
    }
    Expected<std::pair<fs::path, std::vector<std::string>>> run = resolve_run(m, target);
    if (!run) {
      refuse(run.error());
      write_entries(config.entries_file(), entries);
      continue;
    }
    s.cmd = run->first;
    s.args = run->second;
    if (sc.check) {
      EngineSpec spec;
      spec.name = m.name;
      spec.cmd = s.cmd;
      spec.cmd_as_written = s.cmd.string();
      spec.args = s.args;
      spec.dir = fs::absolute(target, ec);
      spec.protocol = m.protocol;
      spec.sandbox = config.tournament.sandbox;
      spec.limits = config.tournament.limits;
      const std::string failed = check_bot(spec, target / "check.log");
      if (!failed.empty()) {
        refuse(failed + " (all checks: " + (target / "check.log").string() + ")");
        write_entries(config.entries_file(), entries);
        continue;
      }
    }
    s.status = SubmissionStatus::Entered;
    s.reason.clear();
    s.order = entries.next_order();
    ++summary.entered;
    say(fmt::format("  {:<16} entered ({}{}{})", m.name, m.language.empty() ? "" : m.language + ", ",
                    m.build ? fmt::format("built in {:.1f} s", built.seconds) : "nothing to build",
                    sc.check ? ", referee check passed" : ""));
    if (auto error = write_entries(config.entries_file(), entries)) return Error{*error};
  }
  // A folder that is gone: its bot stays an entrant (its games are played) unless withdrawn.
  if (auto error = write_entries(config.entries_file(), entries)) return Error{*error};
  return summary;
}

}  // namespace kalah::arena::contest
