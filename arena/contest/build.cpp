// `arena contest build`: each submission folder is built in the build sandbox with the contest's limits
// (arena/sandbox_build), copied out to <results>/entries/<name>/ and checked with `referee check`.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>

#include <fmt/core.h>

#include "arena/contest/contest.h"
#include "arena/contest/entries.h"
#include "arena/contest/gate.h"
#include "arena/contest/manifest.h"
#include "arena/journal/seed_secret_file.h"
#include "arena/sandbox_build/sandbox_build.h"
#include "referee/check/conformance.h"
#include "referee/engine/sandbox.h"
#include "referee/process/engine_process.h"
#include "referee/process/tool_run.h"
#include "referee/system/clean_text.h"
#include "referee/system/confusables.h"
#include "referee/system/directory_lock.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::arena::contest {
namespace fs = std::filesystem;

namespace {

// What changed in a folder: every entry's relative path, kind and content (a link's target), in path
// order. An error when the folder is not one, or is larger than the build may make. A submission is the
// student's: read as untrusted (no link followed, no FIFO or device opened, nothing past `bounds`).
Expected<std::string> folder_digest(const fs::path& dir, const system::TreeBounds& bounds) {
  std::uint64_t hash = fnv1a("");
  system::WalkOptions walk;
  walk.bounds = bounds;
  walk.open_files = true;
  auto error = system::walk_untrusted_tree(dir, walk, [&](const system::TreeItem& item) -> std::optional<std::string> {
    hash = fnv1a(item.path + '\0' + system::to_string(item.kind) + '\0', hash);
    if (item.kind == system::TreeItem::Kind::Link) hash = fnv1a("-> " + item.link, hash);
    if (item.kind != system::TreeItem::Kind::File) return std::nullopt;
    return system::read_bounded(
        item.fd, item.size, [&](std::string_view piece) { hash = fnv1a(piece, hash); }, item.path);
  });
  if (error) return Error{*error};
  return hex(hash);
}

void append(const fs::path& file, const std::string& text) { system::write_own_file(file, text, /*append=*/true); }

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
    // Looked at, never followed: a link here could name any file of the machine.
    const fs::file_status status = fs::symlink_status(cmd, ec);
    if (fs::is_symlink(status)) return Error{"run: " + program + " is a symbolic link; name the program itself"};
    if (!fs::is_regular_file(status) || (status.permissions() & fs::perms::owner_exec) == fs::perms::none)
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
    const bool of_bot = !rel.empty() && *rel.begin() != ".." && fs::exists(fs::symlink_status(file, ec));
    args.push_back(of_bot ? file.string() : m.run[i]);
  }
  return std::make_pair(cmd, args);
}

// The first line a program of the system (an interpreter the `run` of a bot names: python3) writes for
// --version, on stdout or stderr: how the organiser learns which one the sandbox runs (the system's, found
// in /usr/local/bin, /usr/bin or /bin, not the one their own shell finds). Empty when it does not answer with
// success in time.
std::string program_version(const fs::path& program) {
  process::SpawnSpec spec;
  spec.command = program.string();
  spec.args = {"--version"};
  spec.relay_stderr = true;
  spec.stderr_tail_bytes = 1024;
  const process::ToolRun run = process::run_tool(spec, process::Clock::now() + std::chrono::seconds(10));
  if (!run.succeeded()) return {};  // dash knows no --version: "Illegal option" is not a version
  std::string said = run.out.find_first_not_of(" \n") != std::string::npos ? run.out : run.err_tail;
  said.erase(0, said.find_first_not_of(" \r\n"));
  said = said.substr(0, std::min<std::size_t>(said.find_first_of("\r\n"), 100));
  return system::clean_text(said, false);
}

// The built bot as it plays in the contest (add_entrants() gives it the same): in the entrants' sandbox,
// with the limits and restart policy of [tournament].
EngineSpec entrant_spec(const Config& config, const Submission& s) {
  EngineSpec spec;
  spec.name = s.name;
  spec.cmd = s.cmd;
  spec.cmd_as_written = s.cmd.string();
  spec.args = s.args;
  std::error_code ec;
  spec.dir = fs::absolute(config.results_dir() / "entries" / s.name, ec);
  spec.protocol = s.protocol;
  spec.restart = config.tournament.restart;
  spec.sandbox = config.submissions->entrant_sandbox;
  spec.keep_sandbox = config.tournament.keep_sandbox;
  spec.limits = config.tournament.limits;
  if (spec.sandbox == SandboxMode::Bwrap && spec.limits.max_output_kb == 0)
    spec.limits.max_output_kb = kSandboxOutputKb;
  return spec;
}

// `referee check` on the built bot, as it will run in the contest. Empty when it passes.
std::string check_bot(const EngineSpec& spec, const fs::path& log) {
  check::Settings settings;
  settings.skip_bench = "a contest never asks for it (arena sprt --bench does)";
  std::string failures;
  int failed = 0;
  std::string text;
  check::run_checks(spec, settings, [&](const check::Result& r) {
    text += fmt::format("{} {}{}{}\n", check::to_string(r.verdict), r.check, r.detail.empty() ? "" : ": ", r.detail);
    if (r.verdict == check::Verdict::Fail && failed++ == 0)
      failures = r.check + (r.forfeit ? std::string(" (") + to_string(*r.forfeit) + ")" : "") + ": " + r.detail;
  });
  system::write_own_file(log, text);
  if (failed == 0) return {};
  return fmt::format("referee check failed: {}{}", system::shorten_keeping_end(failures, 300),
                     failed > 1 ? fmt::format(" (and {} more)", failed - 1) : std::string());
}

// One `arena contest build`: the results folder, its entries and gate, and what was done so far.
class SubmissionsBuild {
 public:
  SubmissionsBuild(const Config& config, const Say& say, fs::path results, Entries entries)
      : config_(config),
        sc_(*config.submissions),
        say_(say),
        results_(std::move(results)),
        entries_(std::move(entries)) {}

  // Prepares the sanity gate (at the first bot that reaches it). An error when the results folder's secret
  // cannot be read or made.
  std::optional<std::string> prepare_gate() {
    if (!sc_.gate) return std::nullopt;
    // The results folder's secret, made here when the contest's first run has not made it yet: the gate's
    // seeds and positions are drawn with it (docs/PROTOCOL.md, "Seeds").
    Expected<SeedSecret> secret = journal::load_or_make_seed_secret(results_);
    if (!secret) return secret.error();
    gate_.emplace(config_, *secret);
    return std::nullopt;
  }

  // Every manifest first: a name two folders claim is refused for both (unless one already entered), and so
  // are two names that look alike (one skeleton, system::confusable: "bot1" and "botl").
  void read_manifests(const std::vector<fs::path>& folders) {
    for (const fs::path& folder : folders) {
      const std::string key = folder.filename().string();
      manifests_.emplace(key, read_manifest(folder / kManifestFile));
      if (manifests_.at(key)) folders_of_skeleton_[system::skeleton(manifests_.at(key)->name)].push_back(key);
    }
  }

  // One submission folder, from its manifest to its entry. An error only for what stops the whole step.
  std::optional<std::string> build(const fs::path& folder);

  // The entries as they are now, written to entries.json.
  std::optional<std::string> write() { return write_entries(config_.entries_file(), entries_); }

  const BuildSummary& summary() const { return summary_; }

 private:
  Submission& record_of(const std::string& folder) {
    for (Submission& s : entries_.submissions)
      if (s.folder == folder) return s;
    Submission fresh;
    fresh.folder = folder;
    entries_.submissions.push_back(std::move(fresh));
    return entries_.submissions.back();
  }

  void refuse(Submission& s, const std::string& key, const std::string& said_reason, const std::string& evidence = "");
  // Why the manifest's name cannot enter (a house bot's, another folder's, an entrant's), or nothing;
  // `house`: the clash is with a house bot (an entrant refused for it still counts as entered).
  std::optional<std::string> name_clash(const std::string& key, const Manifest& m, bool& house);
  std::optional<std::string> gate_and_enter(Submission& s, const std::string& key, const Manifest& m,
                                            const fs::path& logs, const std::string& how);
  std::optional<std::string> build_changed(Submission& s, const std::string& key, const fs::path& folder,
                                           const Manifest& m, const std::string& digest);

  const Config& config_;
  const SubmissionsConfig& sc_;
  const Say& say_;
  const fs::path results_;
  Entries entries_;
  std::optional<Gate> gate_;
  std::map<std::string, Expected<Manifest>> manifests_;
  std::map<std::string, std::vector<std::string>> folders_of_skeleton_;
  BuildSummary summary_;
};

// `evidence`: where the organiser reads more ("all checks: /path/check.log"), said on the terminal only: the
// reason goes into entries.json and the reports, which link the submission's page instead, with the paths
// of the results folder (a traceback's file of the entry) and of the submissions (a manifest's) relative
// to their folders, never the organiser's machine.
void SubmissionsBuild::refuse(Submission& s, const std::string& key, const std::string& said_reason,
                              const std::string& evidence) {
  const std::string said = evidence.empty() ? said_reason : said_reason + " (" + evidence + ")";
  std::string reason = said_reason;
  std::error_code ec;
  for (const fs::path& folder : {results_, fs::absolute(sc_.dir, ec).lexically_normal(), sc_.dir}) {
    const std::string prefix = (folder / "").string();
    if (prefix.size() > 1)
      for (std::size_t at = reason.find(prefix); at != std::string::npos; at = reason.find(prefix, at))
        reason.erase(at, prefix.size());
  }
  if (s.ever_entered()) {
    // An entrant stays as it entered; what is wrong with its new version is only said.
    say_(fmt::format("  {:<16} {} (kept as entered; the submission now: {})", s.name, to_string(s.status), said));
    return;
  }
  s.status = SubmissionStatus::NotEntered;
  s.reason = reason;
  ++summary_.not_entered;
  say_(fmt::format("  {:<16} not entered: {}", s.name.empty() ? key + "/" : s.name, said));
}

std::optional<std::string> SubmissionsBuild::name_clash(const std::string& key, const Manifest& m, bool& house) {
  // A house bot's name, or one that looks like it: the entrant would pass for the house bot in every table,
  // and `arena run` could not tell their games apart (docs/CONTEST.md, "Names").
  house = false;
  if (auto bot = std::find_if(config_.engines.begin(), config_.engines.end(),
                              [&](const EngineSpec& e) { return system::confusable(e.name, m.name); });
      bot != config_.engines.end()) {
    house = true;
    return bot->name == m.name
               ? fmt::format("the name '{}' is the name of an [[engine]] of the config (a house bot); rename the bot",
                             m.name)
               : fmt::format("the name '{}' looks like '{}', an [[engine]] of the config (a house bot); rename the bot",
                             m.name, bot->name);
  }
  const std::vector<std::string>& claimants = folders_of_skeleton_[system::skeleton(m.name)];
  if (claimants.size() > 1) {
    const Submission* holder = entries_.looking_like(m.name);
    if (!(holder && holder->folder == key)) {
      std::string others;
      for (const std::string& f : claimants)
        if (f != key) others += (others.empty() ? "" : ", ") + f + "/";
      return fmt::format("the name '{}' is also claimed{} by {}{}", m.name,
                         std::all_of(claimants.begin(), claimants.end(),
                                     [&](const std::string& f) { return manifests_.at(f)->name == m.name; })
                             ? ""
                             : ", or one that looks like it,",
                         others, holder ? " (which entered first)" : "; rename one of them");
    }
  }
  if (const Submission* holder = entries_.looking_like(m.name); holder && holder->folder != key)
    return holder->name == m.name ? fmt::format("the name '{}' belongs to the entrant from {}/", m.name, holder->folder)
                                  : fmt::format("the name '{}' looks like '{}', the entrant from {}/", m.name,
                                                holder->name, holder->folder);
  return std::nullopt;
}

// The gate and the entry, once the bot is built (and checked): a bot kept out goes on as not entered.
std::optional<std::string> SubmissionsBuild::gate_and_enter(Submission& s, const std::string& key, const Manifest& m,
                                                            const fs::path& logs, const std::string& how) {
  std::string gated;
  s.gate.reset();
  if (gate_) {
    Expected<GateResult> result = gate_->run(entrant_spec(config_, s), logs / "gate.log", say_);
    if (!result) return result.error();
    s.gate = std::move(result).value();
    if (!s.gate->passed()) {
      refuse(s, key, s.gate->failure(), "every game and position: " + (logs / "gate.log").string());
      return write();
    }
    gated = ", gate passed: " + s.gate->figures();
  }
  s.status = SubmissionStatus::Entered;
  s.reason.clear();
  s.order = entries_.next_order();
  ++summary_.entered;
  say_(fmt::format("  {:<16} entered ({}{})", m.name, how, gated));
  return write();
}

std::optional<std::string> SubmissionsBuild::build(const fs::path& folder) {
  const std::string key = folder.filename().string();
  ++summary_.submissions;
  Submission& s = record_of(key);
  const Expected<Manifest>& manifest = manifests_.at(key);
  if (!manifest) {
    refuse(s, key, manifest.error());
    return std::nullopt;
  }
  const Manifest& m = *manifest;
  bool house = false;
  if (std::optional<std::string> clash = name_clash(key, m, house)) {
    refuse(s, key, *clash);
    if (house && s.ever_entered()) ++summary_.entered;
    return std::nullopt;
  }
  const Expected<std::string> read_digest = folder_digest(folder, sandbox_build::tree_bounds(sc_.build_limits));
  if (!read_digest) {
    refuse(s, key, "the submission cannot be read: " + read_digest.error());
    return std::nullopt;
  }
  const std::string& digest = *read_digest;
  const bool unchanged = s.source_digest == digest && !s.source_digest.empty() && s.name == m.name;
  // Kept out by a gate that has changed since (or is gone): gated again, not built again.
  if (unchanged && s.status == SubmissionStatus::NotEntered && s.gate && !s.gate->passed() &&
      (!gate_ || s.gate->key != gate_key(config_)))
    return gate_and_enter(s, key, m, results_ / "logs" / m.name,
                          gate_ ? "built " + s.built_at + ", gated again: the gate changed"
                                : "built " + s.built_at + ", the gate is gone");
  if (unchanged) {
    summary_.entered += s.status == SubmissionStatus::NotEntered ? 0 : 1;
    summary_.not_entered += s.status == SubmissionStatus::NotEntered ? 1 : 0;
    say_(fmt::format("  {:<16} {} (unchanged since {})", m.name,
                     s.status == SubmissionStatus::NotEntered ? "not entered: " + s.reason : to_string(s.status),
                     s.built_at));
    return std::nullopt;
  }
  if (s.ever_entered()) {
    refuse(s, key,
           "it changed after it entered, and an entrant's games must all be played by one version; "
           "enter the new version under another name");
    ++summary_.entered;
    return std::nullopt;
  }
  return build_changed(s, key, folder, m, digest);
}

// A new or changed submission: built, its program found, checked, gated and entered.
std::optional<std::string> SubmissionsBuild::build_changed(Submission& s, const std::string& key,
                                                           const fs::path& folder, const Manifest& m,
                                                           const std::string& digest) {
  s.name = m.name;
  s.author = m.author;
  s.language = m.language;
  s.protocol = m.protocol;
  s.source_digest = digest;
  s.built_at = system::utc_now_iso8601();
  s.gate.reset();  // of the version before
  const fs::path target = results_ / "entries" / m.name;
  // The arena's own files about an entrant live beside the entries, where no submission can put
  // anything (a build.log or check.log it ships is just one of its files).
  const fs::path logs = results_ / "logs" / m.name;
  if (auto error = system::remove_tree(logs)) return *error;
  std::error_code ec;
  fs::create_directories(logs, ec);
  if (ec) return "cannot create " + logs.string() + ": " + ec.message();
  const fs::path log = logs / "build.log";
  sandbox_build::BuildResult built;
  if (m.build) {
    built = sandbox_build::run_build(sc_.build_limits, folder, target, *m.build, log);
  } else {
    append(log, "(nothing to build: the manifest has no build command)\n");
    if (auto error = sandbox_build::install_built_tree(folder, target, sc_.build_limits, log)) built.reason = *error;
    built.ok = built.reason.empty();
  }
  s.build_seconds = built.seconds;
  // A bot kept out here: its entries written at once (the written error, if any, goes unsaid, as before).
  auto kept_out = [&](const std::string& reason, const std::string& evidence) {
    refuse(s, key, reason, evidence);
    write();
    return std::nullopt;
  };
  if (!built.ok) return kept_out(built.reason, "log: " + log.string());
  Expected<std::pair<fs::path, std::vector<std::string>>> run = resolve_run(m, target);
  if (!run) return kept_out(run.error(), "");
  s.cmd = run->first;
  s.args = run->second;
  // A program of the system runs the bot (an interpreter): which one, and its version, in the output and
  // build.log (docs/CONTEST.md, "Submissions").
  std::string runner;
  if (m.run.front().find('/') == std::string::npos) {
    const std::string version = program_version(s.cmd);
    runner = s.cmd.string() + (version.empty() ? "" : " = " + version);
    append(log, "(the sandbox runs " + runner + ")\n");
  }
  if (sc_.check) {
    const std::string failed = check_bot(entrant_spec(config_, s), logs / "check.log");
    if (!failed.empty()) return kept_out(failed, "all checks: " + (logs / "check.log").string());
  }
  return gate_and_enter(s, key, m, logs,
                        fmt::format("{}{}{}{}", m.language.empty() ? "" : m.language + ", ",
                                    runner.empty() ? "" : "run by " + runner + ", ",
                                    m.build ? fmt::format("built in {:.1f} s", built.seconds) : "nothing to build",
                                    sc_.check ? ", referee check passed" : ""));
}

// The submission folders, in name order; a folder whose name is not plain text is said and left out.
std::vector<fs::path> submission_folders(const fs::path& dir, const Say& say) {
  std::vector<fs::path> folders;
  std::error_code ec;
  for (const fs::directory_entry& d : fs::directory_iterator(dir, ec))
    if (d.symlink_status(ec).type() == fs::file_type::directory && d.path().filename().string().front() != '.') {
      // A folder's name goes into entries.json, the reports and the terminal: plain text only.
      const std::string name = d.path().filename().string();
      if (system::clean_text(name, false) != name || system::has_hidden_controls(name)) {
        say(
            fmt::format("  {:<16} not entered: its folder name is not plain UTF-8 text (control characters, bidi "
                        "or zero-width controls, or invalid bytes); rename the folder",
                        system::show_hidden_controls(system::clean_text(name, false)) + "/"));
        continue;
      }
      folders.push_back(d.path());
    }
  std::sort(folders.begin(), folders.end());
  return folders;
}

}  // namespace

Expected<BuildSummary> build_submissions(const Config& config, const Say& say) {
  const SubmissionsConfig& sc = *config.submissions;
  std::error_code ec;
  if (!fs::is_directory(sc.dir, ec)) return Error{"submissions.dir " + sc.dir.string() + " is not a folder"};
  const fs::path results = fs::absolute(config.results_dir(), ec);
  fs::create_directories(results / "entries", ec);
  if (ec) return Error{"cannot create " + (results / "entries").string() + ": " + ec.message()};
  {
    // The entries must be reachable by the uids the entrants play under: say so before building anything.
    EngineSpec probe;
    probe.sandbox = sc.entrant_sandbox;
    probe.dir = results / "entries";
    if (auto problem = sandbox_reach_problem(probe)) return Error{"the contest's entries: " + *problem};
  }
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(results);
  if (!lock) return Error{lock.error() + " (stop that run before building)"};
  Expected<Entries> read = read_entries(config.entries_file());
  if (!read) return Error{read.error()};

  const std::vector<fs::path> folders = submission_folders(sc.dir, say);
  SubmissionsBuild run(config, say, results, std::move(read).value());
  run.read_manifests(folders);
  if (auto error = run.prepare_gate()) return Error{*error};
  for (const fs::path& folder : folders)
    if (auto error = run.build(folder)) return Error{*error};
  // A folder that is gone: its bot stays an entrant (its games are played) unless withdrawn.
  if (auto error = run.write()) return Error{*error};
  return run.summary();
}

}  // namespace kalah::arena::contest
