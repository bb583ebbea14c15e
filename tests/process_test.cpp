// End-to-end tests of referee/process against real executables: tests/engines/bad_engine (one flag per
// misbehaviour), tests/engines/instant_engine, and /bin/sh for raw byte streams.
//
// Timing asserts are loose upper bounds only (a 50 ms deadline must be noticed well within 2 s).
// Past 400 lines: one scenario per misbehaviour and per cleanup rule of docs/PROCESSES.md.
#include "referee/process/engine_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "referee/process/forked_work.h"
#include "referee/process/tool_run.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::process {
namespace {

using namespace std::chrono_literals;

const std::string kBadEngine = KALAH_BINARY_DIR "/tests/engines/bad_engine";
const std::string kInstantEngine = KALAH_BINARY_DIR "/tests/engines/instant_engine";
constexpr auto kPatience = 5s;  // for lines that must arrive: only a broken test ever waits this long

Deadline after(Clock::duration d) { return Clock::now() + d; }

std::unique_ptr<EngineProcess> spawn_ok(const SpawnSpec& spec) {
  auto result = EngineProcess::spawn(spec);
  if (auto* err = std::get_if<SpawnError>(&result)) {
    ADD_FAILURE() << "spawn failed: " << err->message;
    return nullptr;
  }
  return std::move(std::get<std::unique_ptr<EngineProcess>>(result));
}

std::unique_ptr<EngineProcess> bad_engine(std::vector<std::string> args) {
  SpawnSpec spec;
  spec.command = kBadEngine;
  spec.args = std::move(args);
  return spawn_ok(spec);
}

std::unique_ptr<EngineProcess> shell(const std::string& script) {
  SpawnSpec spec;
  spec.command = "sh";  // a bare name: looked up in PATH
  spec.args = {"-c", script};
  return spawn_ok(spec);
}

std::string expect_line(EngineProcess& engine) {
  ReadResult r = engine.read_line(after(kPatience));
  EXPECT_EQ(r.status, Status::Ok) << to_string(r.status) << " '" << r.line << "'";
  return r.line;
}

// kep → ... kepok; returns the `info string` lines seen before `id name`.
std::vector<std::string> handshake(EngineProcess& engine) {
  EXPECT_TRUE(engine.write_line("kep", after(kPatience)));
  std::vector<std::string> infos;
  for (int i = 0; i < 10; ++i) {
    ReadResult r = engine.read_line(after(kPatience));
    if (r.status != Status::Ok) {
      ADD_FAILURE() << "handshake: " << to_string(r.status);
      break;
    }
    if (r.line == "kepok") break;
    if (r.line.rfind("info string ", 0) == 0) infos.push_back(r.line.substr(12));
  }
  return infos;
}

// ---- /proc helpers -----------------------------------------------------------------------------------

struct ProcStat {
  pid_t pid = 0;
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
};

std::optional<ProcStat> read_stat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so parse after the last ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  ProcStat st;
  st.pid = pid;
  std::istringstream rest(text.substr(close + 1));
  rest >> st.state >> st.ppid >> st.pgrp;
  return st;
}

std::vector<ProcStat> all_processes() {
  std::vector<ProcStat> out;
  DIR* dir = ::opendir("/proc");
  while (const dirent* e = dir ? ::readdir(dir) : nullptr) {
    const pid_t pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    if (auto st = read_stat(pid)) out.push_back(*st);
  }
  if (dir) ::closedir(dir);
  return out;
}

std::vector<ProcStat> children_of_this_process() {
  std::vector<ProcStat> out;
  for (const auto& p : all_processes()) {
    if (p.ppid == ::getpid()) out.push_back(p);
  }
  return out;
}

std::vector<ProcStat> members_of_group(pid_t pgrp) {
  std::vector<ProcStat> out;
  for (const auto& p : all_processes()) {
    if (p.pgrp == pgrp) out.push_back(p);
  }
  return out;
}

std::string describe(const std::vector<ProcStat>& ps) {
  std::string s;
  for (const auto& p : ps) s += std::to_string(p.pid) + "(" + p.state + ") ";
  return s;
}

int count_open_fds() {
  int n = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  while (const dirent* e = dir ? ::readdir(dir) : nullptr) {
    if (e->d_name[0] != '.') ++n;
  }
  if (dir) ::closedir(dir);
  return n - 1;  // the directory's own descriptor
}

// ---- values ------------------------------------------------------------------------------------------

TEST(ExitInfo, DescribesExitCodesAndSignals) {
  EXPECT_EQ(ExitInfo::from_wait_status(3 << 8).describe(), "exited with code 3");
  EXPECT_EQ(ExitInfo::from_wait_status(0).describe(), "exited with code 0");
  EXPECT_EQ(ExitInfo::from_wait_status(SIGKILL).describe(), "killed by signal 9 (SIGKILL)");
  EXPECT_EQ(ExitInfo::from_wait_status(SIGABRT | 0x80).describe(), "killed by signal 6 (SIGABRT), core dumped");
  EXPECT_TRUE(ExitInfo::from_wait_status(3 << 8).exited());
  EXPECT_TRUE(ExitInfo::from_wait_status(SIGKILL).signaled());
}

// ---- lines -------------------------------------------------------------------------------------------

TEST(Process, HandshakeLinesComeOutOneAtATime) {
  auto engine = bad_engine({});
  ASSERT_TRUE(engine);
  EXPECT_GT(engine->pid(), 0);
  ASSERT_TRUE(engine->write_line("kep", after(kPatience)));
  // The engine writes these three lines with one write(): they arrive in one chunk.
  EXPECT_EQ(expect_line(*engine), "id name bad");
  EXPECT_EQ(expect_line(*engine), "id author kalah-arena tests");
  EXPECT_EQ(expect_line(*engine), "kepok");
  ASSERT_TRUE(engine->write_line("isready", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "readyok");
  EXPECT_TRUE(engine->running());
  EXPECT_FALSE(engine->exit_status());

  engine->shutdown(2s);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->describe(), "exited with code 0");
  EXPECT_FALSE(exit->killed_by_arena);
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

TEST(Process, BestmoveTakesTheMovesInTurn) {
  auto engine = bad_engine({"--moves", "3,5"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  for (const char* expected : {"bestmove 3", "bestmove 5", "bestmove 3"}) {
    ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
    EXPECT_EQ(expect_line(*engine), expected);
  }
}

TEST(Process, WriteLinesSendsSeveralLinesInOrder) {
  auto engine = bad_engine({"--moves", "4"});
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->write_lines({"position startpos", "go movetime 10"}, after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "bestmove 4");
  // More lines than one gather write takes.
  const std::vector<std::string_view> many(19, "isready");
  ASSERT_TRUE(engine->write_lines(many, after(kPatience)));
  for (int i = 0; i < 19; ++i) EXPECT_EQ(expect_line(*engine), "readyok") << i;
  EXPECT_EQ(engine->read_line(after(50ms)).status, Status::Timeout);
}

TEST(Process, StripsTrailingCarriageReturn) {
  auto engine = bad_engine({"--crlf"});
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->write_line("isready", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "readyok");
}

TEST(Process, ReadIntoReusesTheCallersString) {
  auto engine = bad_engine({});
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->write_line("kep", after(kPatience)));
  std::string line = "stale contents";
  EXPECT_EQ(engine->read_line(after(kPatience), line), Status::Ok);
  EXPECT_EQ(line, "id name bad");
}

TEST(Process, UnterminatedLastFragmentComesWithEof) {
  auto engine = shell("printf abc");
  ASSERT_TRUE(engine);
  ReadResult r = engine->read_line(after(kPatience));
  EXPECT_EQ(r.status, Status::Eof);
  EXPECT_EQ(r.line, "abc");
  r = engine->read_line(after(kPatience));
  EXPECT_EQ(r.status, Status::Eof);
  EXPECT_EQ(r.line, "");
  auto exit = engine->wait_for_exit(after(kPatience));
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->describe(), "exited with code 0");
}

// ---- deadlines ---------------------------------------------------------------------------------------

TEST(Process, ReadTimeoutIsDetectedWithinDeadline) {
  auto engine = bad_engine({"--hang-on-go", "1"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  const auto start = Clock::now();
  ReadResult r = engine->read_line(start + 50ms);
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(r.status, Status::Timeout);
  EXPECT_GE(elapsed, 50ms);
  EXPECT_LT(elapsed, 2s);
  // The engine still reads and answers other commands.
  ASSERT_TRUE(engine->write_line("isready", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "readyok");
}

TEST(Process, DeadlineInThePastStillReturnsBufferedLines) {
  auto engine = bad_engine({});
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->write_line("kep", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "id name bad");
  // The rest of the handshake is buffered: even an expired deadline gets it.
  EXPECT_EQ(engine->read_line(Clock::now() - 1s).line, "id author kalah-arena tests");
}

TEST(Process, LateLineIsKeptForTheNextRead) {
  auto engine = bad_engine({"--slow", "300"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  EXPECT_EQ(engine->read_line(after(50ms)).status, Status::Timeout);
  EXPECT_EQ(expect_line(*engine), "bestmove 1");
}

TEST(Process, PartialLineSurvivesATimeout) {
  auto engine = shell("printf abc; sleep 0.3; printf 'def\\nghi\\n'");
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->read_line(after(50ms)).status, Status::Timeout);
  EXPECT_EQ(expect_line(*engine), "abcdef");
  EXPECT_EQ(expect_line(*engine), "ghi");
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
}

TEST(Process, WriteToAnEngineThatDoesNotReadTimesOut) {
  auto engine = bad_engine({"--close-stdout"});  // sleeps after the handshake, reading nothing
  ASSERT_TRUE(engine);
  handshake(*engine);
  const std::string huge(1 << 20, 'y');  // far more than a pipe holds
  const auto start = Clock::now();
  EXPECT_FALSE(engine->write_line(huge, start + 100ms));
  EXPECT_LT(Clock::now() - start, 2s);
}

// ---- misbehaviour ------------------------------------------------------------------------------------

TEST(Process, CrashAtStartGivesEofAndExitCode) {
  auto engine = bad_engine({"--crash-at-start"});
  ASSERT_TRUE(engine);
  engine->write_line("kep", after(kPatience));  // may already fail: the engine may be gone
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  auto exit = engine->wait_for_exit(after(kPatience));
  ASSERT_TRUE(exit);
  EXPECT_TRUE(exit->exited());
  EXPECT_EQ(exit->value, 3);
  EXPECT_EQ(exit->describe(), "exited with code 3");
  EXPECT_FALSE(exit->killed_by_arena);
}

TEST(Process, CrashOnGoGivesEofAndSignal) {
  auto engine = bad_engine({"--crash-on-go", "2"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "bestmove 1");
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  auto exit = engine->wait_for_exit(after(kPatience));
  ASSERT_TRUE(exit);
  EXPECT_TRUE(exit->signaled());
  EXPECT_EQ(exit->value, SIGABRT);
  EXPECT_EQ(exit->describe(), "killed by signal 6 (SIGABRT)");
  EXPECT_FALSE(exit->killed_by_arena);
}

TEST(Process, IllegalAndGarbageRepliesAreJustLines) {
  auto illegal = bad_engine({"--illegal"});
  auto garbage = bad_engine({"--garbage"});
  ASSERT_TRUE(illegal && garbage);
  ASSERT_TRUE(illegal->write_line("go movetime 10", after(kPatience)));
  ASSERT_TRUE(garbage->write_line("go movetime 10", after(kPatience)));
  EXPECT_EQ(expect_line(*illegal), "bestmove 99");
  EXPECT_EQ(expect_line(*garbage), "hello world");
}

TEST(Process, EndlessLineIsTooLong) {
  auto engine = bad_engine({"--endless-line"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  const auto start = Clock::now();
  ReadResult r = engine->read_line(after(kPatience));
  EXPECT_EQ(r.status, Status::TooLong);
  EXPECT_LT(Clock::now() - start, 2s);
  EXPECT_EQ(r.line, std::string(256, 'x'));
  // Still endless: the skipped rest never ends either.
  EXPECT_EQ(engine->read_line(after(100ms)).status, Status::Timeout);
  engine->shutdown(100ms);
  EXPECT_TRUE(engine->exit_status());
}

TEST(Process, TooLongLineIsSkippedUpToItsNewline) {
  SpawnSpec spec;
  spec.command = kBadEngine;
  spec.max_line_bytes = 11;
  auto engine = spawn_ok(spec);
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->write_line("kep", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "id name bad");  // exactly at the cap
  ReadResult r = engine->read_line(after(kPatience));
  EXPECT_EQ(r.status, Status::TooLong);
  EXPECT_EQ(r.line, "id author ka");  // the cap + 1 bytes that proved it too long (cut at 256)
  EXPECT_EQ(expect_line(*engine), "kepok");
}

TEST(Process, ClosedStdoutIsEofWhileTheProcessRuns) {
  auto engine = bad_engine({"--close-stdout"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  EXPECT_FALSE(engine->exit_status());
  EXPECT_FALSE(engine->wait_for_exit(after(50ms)));
  const auto start = Clock::now();
  engine->shutdown(100ms);
  EXPECT_LT(Clock::now() - start, 2s);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->describe(), "killed by signal 9 (SIGKILL)");
  EXPECT_TRUE(exit->killed_by_arena);
}

TEST(Process, EngineIgnoringSigtermAndQuitIsKilledByShutdown) {
  auto engine = bad_engine({"--ignore-sigterm"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  const auto start = Clock::now();
  engine->shutdown(100ms);
  EXPECT_LT(Clock::now() - start, 2s);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->value, SIGKILL);
  EXPECT_TRUE(exit->killed_by_arena);
  EXPECT_FALSE(read_stat(engine->pid())) << "leader still in /proc";
}

TEST(Process, ShutdownClosesStdinSoAnEngineIgnoringQuitExits) {
  auto engine = bad_engine({"--ignore-quit"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  engine->shutdown(kPatience);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->describe(), "exited with code 0");
  EXPECT_FALSE(exit->killed_by_arena);
}

TEST(Process, KillIsImmediateAndIdempotent) {
  auto engine = bad_engine({"--ignore-sigterm"});
  ASSERT_TRUE(engine);
  handshake(*engine);
  engine->kill();
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->value, SIGKILL);
  EXPECT_TRUE(exit->killed_by_arena);
  engine->kill();
  engine->shutdown(1s);
  EXPECT_EQ(engine->exit_status(), exit);
  EXPECT_FALSE(engine->write_line("isready", after(100ms)));
  EXPECT_EQ(engine->read_line(after(100ms)).status, Status::Error);
}

TEST(Process, WriteToADeadEngineReturnsFalse) {
  auto engine = bad_engine({"--crash-at-start"});
  ASSERT_TRUE(engine);
  ASSERT_TRUE(engine->wait_for_exit(after(kPatience)));
  // Without SIGPIPE ignored, this would kill the test process.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(engine->write_line("isready", after(100ms)));
}

TEST(Process, DestructorReapsTheEngine) {
  auto engine = bad_engine({"--ignore-sigterm"});
  ASSERT_TRUE(engine);
  const pid_t pid = engine->pid();
  engine.reset();
  EXPECT_FALSE(read_stat(pid)) << "engine still in /proc";
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

// ---- process groups ----------------------------------------------------------------------------------

pid_t grandchild_of(const std::vector<std::string>& infos) {
  for (const auto& info : infos) {
    if (info.rfind("grandchild ", 0) == 0) return std::atoi(info.c_str() + 11);
  }
  return 0;
}

TEST(Process, GrandchildIsKilledWithTheEngine) {
  ASSERT_TRUE(become_subreaper());  // so that this process, not init, inherits and reaps the orphan
  auto engine = bad_engine({"--grandchild"});
  ASSERT_TRUE(engine);
  const pid_t leader = engine->pid();
  const pid_t grandchild = grandchild_of(handshake(*engine));
  ASSERT_GT(grandchild, 0);
  ASSERT_TRUE(read_stat(grandchild));
  EXPECT_EQ(read_stat(grandchild)->pgrp, leader);

  engine->shutdown(2s);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->describe(), "exited with code 0");  // the leader quit; the grandchild was killed
  EXPECT_TRUE(members_of_group(leader).empty()) << describe(members_of_group(leader));
  EXPECT_FALSE(read_stat(grandchild)) << "grandchild still in /proc";
  EXPECT_FALSE(read_stat(leader)) << "leader still in /proc (zombie?)";
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

TEST(Process, CrashWithAGrandchildHoldingThePipeIsEofNotTimeout) {
  ASSERT_TRUE(become_subreaper());
  auto engine = bad_engine({"--grandchild", "--crash-on-go", "1"});
  ASSERT_TRUE(engine);
  const pid_t leader = engine->pid();
  const pid_t grandchild = grandchild_of(handshake(*engine));
  ASSERT_GT(grandchild, 0);
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  const auto start = Clock::now();
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  EXPECT_LT(Clock::now() - start, 2s);
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->value, SIGABRT);
  EXPECT_TRUE(members_of_group(leader).empty()) << describe(members_of_group(leader));
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

// The signal thread interrupting a run kills engines through their KillSwitch while the worker that
// owns them is blocked in a read: the read ends at once and the whole group is gone.
TEST(Process, KillSwitchEndsABlockedReadFromAnotherThread) {
  ASSERT_TRUE(become_subreaper());
  auto engine = bad_engine({"--grandchild", "--hang-on-go", "1"});
  ASSERT_TRUE(engine);
  const pid_t leader = engine->pid();
  const pid_t grandchild = grandchild_of(handshake(*engine));
  ASSERT_GT(grandchild, 0);
  const KillSwitch kill = engine->kill_switch();
  ASSERT_TRUE(engine->write_line("go movetime 10", after(kPatience)));
  std::thread interrupter([&kill] { kill.fire(); });
  const auto start = Clock::now();
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  EXPECT_LT(Clock::now() - start, 2s);
  interrupter.join();
  auto exit = engine->exit_status();
  ASSERT_TRUE(exit);
  EXPECT_TRUE(exit->signaled());
  EXPECT_EQ(exit->value, SIGKILL);
  EXPECT_TRUE(members_of_group(leader).empty()) << describe(members_of_group(leader));
  EXPECT_FALSE(read_stat(grandchild)) << "grandchild still in /proc";
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

// A switch kept past its engine's end names that process only: firing it later hits nobody, not
// whichever process got the pid next.
TEST(Process, KillSwitchOfAReapedEngineSignalsNobody) {
  auto first = bad_engine({});
  ASSERT_TRUE(first);
  handshake(*first);
  const KillSwitch stale = first->kill_switch();
  first->shutdown(2s);
  ASSERT_TRUE(first->exit_status());
  auto second = bad_engine({});
  ASSERT_TRUE(second);
  handshake(*second);
  stale.fire();
  ASSERT_TRUE(second->write_line("isready", after(kPatience)));
  EXPECT_EQ(expect_line(*second), "readyok");
  EXPECT_TRUE(second->running());
  second->shutdown(2s);
}

// ---- descriptors, directories, stderr ----------------------------------------------------------------

TEST(Process, ChildSeesOnlyStandardDescriptors) {
  // Descriptors of the arena without close-on-exec: they must not reach the engine anyway.
  const int leaky_file = ::open("/dev/null", O_RDONLY);
  int leaky_pipe[2];
  ASSERT_EQ(::pipe(leaky_pipe), 0);
  auto engine = bad_engine({"--print-fds"});
  ASSERT_TRUE(engine);
  const auto infos = handshake(*engine);
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_EQ(infos[0], "fds 0,1,2");
  ::close(leaky_file);
  ::close(leaky_pipe[0]);
  ::close(leaky_pipe[1]);
}

TEST(Process, WorkingDirectoryAndStderrLog) {
  system::TempFolder dir("kalah-process-test");
  SpawnSpec spec;
  spec.command = kBadEngine;
  spec.args = {"--print-cwd"};
  spec.working_dir = dir.path().string();
  spec.stderr_log_path = (dir.path() / "engine.log").string();
  auto engine = spawn_ok(spec);
  ASSERT_TRUE(engine);
  const auto infos = handshake(*engine);
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_EQ(infos[0], "cwd " + std::filesystem::canonical(dir.path()).string());
  engine->shutdown(2s);
  EXPECT_NE(test::read_file(spec.stderr_log_path).find("bad_engine: started"), std::string::npos);
}

TEST(Process, StderrFloodDoesNotBlockTheEngine) {
  auto engine = bad_engine({"--stderr-flood"});  // 1 MiB to stderr before the handshake; /dev/null
  ASSERT_TRUE(engine);
  handshake(*engine);
  ASSERT_TRUE(engine->write_line("isready", after(kPatience)));
  EXPECT_EQ(expect_line(*engine), "readyok");
}

// ---- the stderr relay (SpawnSpec::relay_stderr) ---------------------------------------------------------

SpawnSpec relayed(const system::TempFolder& dir, std::vector<std::string> args, unsigned long long cap) {
  SpawnSpec spec;
  spec.command = "sh";
  spec.args = std::move(args);
  spec.stderr_log_path = (dir.path() / "engine.log").string();
  spec.relay_stderr = true;
  spec.max_stderr_bytes = cap;
  return spec;
}

TEST(Process, RelayedStderrReachesTheLogIncludingTheLastWords) {
  system::TempFolder dir("kalah-process-test");
  auto engine = spawn_ok(relayed(dir, {"-c", "echo early >&2; echo ready; read x; echo last words >&2; exit 4"}, 0));
  ASSERT_TRUE(engine);
  EXPECT_EQ(expect_line(*engine), "ready");
  ASSERT_TRUE(engine->write_line("go", after(kPatience)));
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::Eof);
  engine->shutdown(1s);
  EXPECT_EQ(test::read_file(dir.path() / "engine.log"), "early\nlast words\n");
}

TEST(Process, RelayedStderrPastItsCapEndsTheReadAndIsCutInTheLog) {
  system::TempFolder dir("kalah-process-test");
  // 1 MiB to stderr, then a line on stdout that must not be taken for an answer.
  auto engine = spawn_ok(relayed(dir, {"-c", "head -c 1048576 /dev/zero | tr '\\0' e >&2; echo bestmove 1"}, 1000));
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::OutputLimit);
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::OutputLimit) << "until the budget is reset";
  engine->kill();
  const std::string log = test::read_file(dir.path() / "engine.log");
  EXPECT_EQ(log.substr(0, 1000), std::string(1000, 'e'));
  EXPECT_EQ(log.substr(1000),
            "\n[kalah-arena: this engine wrote more than 1000 bytes to stderr in one game; the rest is not kept]\n");
}

TEST(Process, TheStderrBudgetIsPerGame) {
  system::TempFolder dir("kalah-process-test");
  // 600 bytes per request: two requests pass a 1000-byte cap, unless the budget is reset between them.
  auto engine = spawn_ok(relayed(
      dir, {"-c", "while read x; do head -c 600 /dev/zero | tr '\\0' e >&2; sleep 0.05; echo done; done"}, 1000));
  ASSERT_TRUE(engine);
  for (int game = 0; game < 3; ++game) {
    engine->reset_output_budget();
    ASSERT_TRUE(engine->write_line("go", after(kPatience)));
    EXPECT_EQ(expect_line(*engine), "done") << "game " << game;
  }
  ASSERT_TRUE(engine->write_line("go", after(kPatience)));  // no reset: 600 + 600 bytes
  EXPECT_EQ(engine->read_line(after(kPatience)).status, Status::OutputLimit);
  engine->kill();
}

TEST(Process, ARelayedLogIsNotCountedAgainstTheEnginesFileLimit) {
  system::TempFolder dir("kalah-process-test");
  std::ofstream(dir.path() / "engine.log") << std::string(200'000, 'o');
  SpawnSpec spec = relayed(dir, {"-c", "head -c 100000 /dev/zero | tr '\\0' e >&2; echo alive"}, 0);
  spec.limits.file_bytes = 50'000;  // the log is four times bigger already
  auto engine = spawn_ok(spec);
  ASSERT_TRUE(engine);
  EXPECT_EQ(expect_line(*engine), "alive");
  const auto exit = engine->wait_for_exit(after(kPatience));
  ASSERT_TRUE(exit);
  EXPECT_TRUE(exit->exited()) << exit->describe();
  engine->shutdown(1s);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "engine.log"), 300'000u);
}

// ---- spawn errors ------------------------------------------------------------------------------------

std::string spawn_error(const SpawnSpec& spec) {
  auto result = EngineProcess::spawn(spec);
  if (auto* err = std::get_if<SpawnError>(&result)) return err->message;
  ADD_FAILURE() << "spawn of '" << spec.command << "' succeeded";
  return "";
}

TEST(Process, MissingOrNonExecutableFileIsASpawnError) {
  system::TempFolder dir("kalah-process-test");
  const std::string plain = (dir.path() / "plain.txt").string();
  std::ofstream(plain) << "not a program\n";
  ::chmod(plain.c_str(), 0644);

  SpawnSpec spec;
  spec.command = "/nonexistent/kalah/engine";
  EXPECT_NE(spawn_error(spec).find("'/nonexistent/kalah/engine' not found"), std::string::npos);
  spec.command = dir.path().string();
  EXPECT_NE(spawn_error(spec).find("is a directory"), std::string::npos);
  spec.command = plain;
  EXPECT_NE(spawn_error(spec).find("not executable"), std::string::npos);
  spec.command = "kalah-no-such-engine-anywhere";
  EXPECT_NE(spawn_error(spec).find("not found in PATH"), std::string::npos);
  spec.command = kBadEngine;
  spec.working_dir = "/nonexistent/kalah";
  EXPECT_NE(spawn_error(spec).find("working directory"), std::string::npos);
  spec.working_dir.clear();
  spec.stderr_log_path = "/nonexistent/kalah/engine.log";
  EXPECT_NE(spawn_error(spec).find("stderr log"), std::string::npos);
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

TEST(Process, FailedExecIsASpawnErrorAndLeavesNoZombie) {
  // Passes the checks made before the fork (a regular executable file), fails in execve: the forked
  // child exists and must be reaped by the launcher's error hook.
  system::TempFolder dir("kalah-process-test");
  const std::string bogus = (dir.path() / "bogus").string();
  std::ofstream(bogus) << "\x01\x02\x03 not an executable format\n";
  ::chmod(bogus.c_str(), 0755);
  SpawnSpec spec;
  spec.command = bogus;
  const std::string message = spawn_error(spec);
  EXPECT_NE(message.find("cannot start engine"), std::string::npos) << message;
  EXPECT_NE(message.find("format"), std::string::npos) << message;  // ENOEXEC: "Exec format error"
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

// ---- many processes ----------------------------------------------------------------------------------

TEST(Process, ManySpawnCyclesLeaveNoZombiesAndNoDescriptors) {
  SpawnSpec spec;
  spec.command = kInstantEngine;
  auto cycle = [&] {
    auto engine = spawn_ok(spec);
    ASSERT_TRUE(engine);
    handshake(*engine);
    engine->shutdown(2s);
    auto exit = engine->exit_status();
    ASSERT_TRUE(exit);
    EXPECT_EQ(exit->describe(), "exited with code 0");
  };
  cycle();  // warm-up: lazily opened descriptors of the test process itself
  const int fds_before = count_open_fds();
  for (int i = 0; i < 200; ++i) {
    cycle();
    if (HasFailure()) break;
  }
  EXPECT_EQ(count_open_fds(), fds_before);
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

TEST(Process, ConcurrentSpawnsLeakNoDescriptorsIntoEachOther) {
  // Each child lists its descriptors: a pipe of a spawn running in another thread must not show up.
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto engine = bad_engine({"--print-fds"});
        if (!engine) return;
        const auto infos = handshake(*engine);
        EXPECT_EQ(infos, std::vector<std::string>{"fds 0,1,2"});
        engine->shutdown(2s);
        if (engine->exit_status() && engine->exit_status()->describe() == "exited with code 0") ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(good.load(), 100);
  EXPECT_TRUE(children_of_this_process().empty()) << describe(children_of_this_process());
}

TEST(Process, InstantEngineAnswersTheFirstNonEmptyPit) {
  SpawnSpec spec;
  spec.command = kInstantEngine;
  auto engine = spawn_ok(spec);
  ASSERT_TRUE(engine);
  handshake(*engine);
  // After South 1 and North 1 it is South's turn and South's pit 1 is empty.
  const std::pair<const char*, const char*> cases[] = {
      {"position startpos", "bestmove 1"},
      {"position startpos moves 1 1", "bestmove 2"},
      // South 2 (5 seeds) ends in South's store: South moves again, with pits 1 and 2 empty.
      {"position startpos moves 1 1 2", "bestmove 3"},
  };
  for (const auto& [position, expected] : cases) {
    ASSERT_TRUE(engine->write_lines({position, "go movetime 10"}, after(kPatience)));
    EXPECT_EQ(expect_line(*engine), expected) << position;
  }
}

// run_tool: a helper program run to its end, its stdout whole, its stderr's tail, its exit.
TEST(ProcessTool, RunsToTheEndAndKeepsStdoutTheStderrTailAndTheExit) {
  SpawnSpec spec;
  spec.command = "/bin/sh";
  spec.args = {"-c", "echo one; echo two; printf last; echo complaint >&2; exit 3"};
  spec.relay_stderr = true;
  spec.stderr_tail_bytes = 1024;
  const ToolRun run = run_tool(spec, Clock::now() + std::chrono::seconds(30));
  EXPECT_EQ(run.outcome, ToolRun::Outcome::Exited);
  EXPECT_EQ(run.out, "one\ntwo\nlast");
  EXPECT_EQ(run.err_tail, "complaint\n");
  ASSERT_TRUE(run.exit);
  EXPECT_EQ(run.exit->value, 3);
  EXPECT_FALSE(run.succeeded());

  spec.args = {"-c", "echo fine"};
  EXPECT_TRUE(run_tool(spec, Clock::now() + std::chrono::seconds(30)).succeeded());
}

TEST(ProcessTool, ATimeoutKillsItAndAMissingProgramCannotStart) {
  SpawnSpec spec;
  spec.command = "/bin/sh";
  spec.args = {"-c", "echo started; exec sleep 30"};
  const auto begun = Clock::now();
  const ToolRun slow = run_tool(spec, begun + std::chrono::milliseconds(300));
  EXPECT_EQ(slow.outcome, ToolRun::Outcome::Timeout);
  EXPECT_EQ(slow.out, "started\n");
  EXPECT_LT(Clock::now() - begun, std::chrono::seconds(10));

  spec.command = "/nonexistent/tool";
  const ToolRun missing = run_tool(spec, Clock::now() + std::chrono::seconds(5));
  EXPECT_EQ(missing.outcome, ToolRun::Outcome::CouldNotStart);
  EXPECT_FALSE(missing.detail.empty());
}

}  // namespace
}  // namespace kalah::process

// process::run_forked: the work's exit code, the signal that ended it, or the limit that stopped it, the
// child reaped in every case (arena verify and arena report run under it).
TEST(ForkedWork, GivesTheExitCodeTheSignalOrTheLimitAndReapsTheChild) {
  using Outcome = kalah::process::ForkedWork::Outcome;
  const auto exited = kalah::process::run_forked(std::chrono::seconds(30), [] { return 7; });
  EXPECT_EQ(exited.outcome, Outcome::Exited);
  EXPECT_EQ(exited.code, 7);

  const auto signalled = kalah::process::run_forked(std::chrono::seconds(30), [] {
    std::raise(SIGTERM);
    return 0;
  });
  EXPECT_EQ(signalled.outcome, Outcome::Signalled);
  EXPECT_EQ(signalled.code, SIGTERM);

  const auto started = std::chrono::steady_clock::now();
  const auto stopped = kalah::process::run_forked(std::chrono::milliseconds(200), [] {
    ::sleep(30);
    return 0;
  });
  EXPECT_EQ(stopped.outcome, Outcome::TimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << "no child is left to reap";
}
