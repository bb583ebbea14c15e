#include "referee/engine/engine_player.h"

#include <algorithm>
#include <csignal>

#include <fmt/core.h>

#include "referee/engine/kgp_engine.h"
#include "referee/engine/mankalah_player.h"
#include "referee/process/engine_process.h"
#include "referee/protocol/options.h"
#include "referee/system/clean_text.h"
#include "referee/system/confusables.h"

namespace kalah {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string ms(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

// The --log file's times count from the first line any engine of this process logs.
std::chrono::milliseconds since_first_log() {
  static const SteadyClock::time_point first = SteadyClock::now();
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - first);
}

}  // namespace

// ---- ProcessPlayer --------------------------------------------------------

ProcessPlayer::ProcessPlayer(EngineSpec spec) : spec_(std::move(spec)) {
  if (!spec_.comm_log.empty()) {
    comm_log_ = std::fopen(spec_.comm_log.c_str(), "a");
    // Line-buffered appends keep the lines of several engines in order.
    if (comm_log_) std::setvbuf(comm_log_, nullptr, _IOLBF, 0);
  }
}

ProcessPlayer::~ProcessPlayer() {
  stop();
  if (comm_log_) std::fclose(comm_log_);
}

void ProcessPlayer::log(char direction, std::string_view line) {
  if (!comm_log_ && !transcript_) return;
  for (size_t start = 0; start <= line.size();) {
    const size_t end = std::min(line.find('\n', start), line.size());
    const std::string_view text = line.substr(start, end - start);
    if (comm_log_)
      std::fputs(Transcript::format_line(since_first_log(), spec_.name, direction, text).c_str(), comm_log_);
    if (transcript_) transcript_->add(spec_.name, direction, text);
    start = end + 1;
  }
}

void ProcessPlayer::keep_stderr_tail() {
  if (!process_ || spec_.stderr_tail_bytes == 0) return;
  process::EngineProcess::StderrTail tail = process_->take_stderr_tail();
  remember_stderr(tail.text);
  if (!transcript_) return;  // written between games: it belongs to no game
  tail_.text += tail.text;
  if (tail_.text.size() > spec_.stderr_tail_bytes) tail_.text.erase(0, tail_.text.size() - spec_.stderr_tail_bytes);
  tail_.total += tail.total;
}

void ProcessPlayer::remember_stderr(std::string_view text) {
  recent_stderr_ += text;
  if (recent_stderr_.size() > 2 * kForfeitStderrBytes)
    recent_stderr_.erase(0, recent_stderr_.size() - 2 * kForfeitStderrBytes);
}

std::string ProcessPlayer::stderr_tail() {
  keep_stderr_tail();
  std::string text = system::clean_text(recent_stderr_, true);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() <= kForfeitStderrBytes) return text;
  // Cut at the front, from the start of a line where one starts in what is kept (else of a character).
  constexpr std::string_view kCut = "...";
  std::size_t from = text.size() - (kForfeitStderrBytes - kCut.size());
  if (const std::size_t line = text.find('\n', from); line != std::string::npos && line + 1 < text.size())
    from = line + 1;
  while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) ++from;
  return std::string(kCut) + text.substr(from);
}

std::string ProcessPlayer::stderr_ending() {
  if (!process_ || spec_.stderr_tail_bytes == 0) return {};
  process::EngineProcess::StderrTail taken = process_->take_stderr_tail();
  remember_stderr(taken.text);
  std::string text = taken.text;
  if (transcript_) {
    tail_.text += taken.text;
    if (tail_.text.size() > spec_.stderr_tail_bytes) tail_.text.erase(0, tail_.text.size() - spec_.stderr_tail_bytes);
    tail_.total += taken.total;
    text = tail_.text;
  }
  // The last lines, joined with " | ", cut at the front to the bound.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return {};
  if (text.size() > kStderrEndingBytes) {
    text.erase(0, text.size() - kStderrEndingBytes);
    const std::size_t line = text.find('\n');
    text.erase(0, line != std::string::npos && line + 1 < text.size() ? line + 1 : 0);
    text.insert(0, "...");
  }
  std::string joined;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) joined += (joined.empty() ? "" : " | ") + std::string(line);
    start = end + 1;
  }
  return "; its stderr ends: \"" + system::clean_text(joined, false) + "\"";
}

void ProcessPlayer::attach(Transcript* transcript) {
  keep_stderr_tail();
  if (transcript_ && (tail_.total > 0 || !tail_.text.empty()))
    transcript_->add_stderr(spec_.name, system::clean_text(tail_.text, true), tail_.total);
  tail_ = {};
  transcript_ = transcript;
}

bool ProcessPlayer::send(const std::string& text, Deadline deadline) {
  log('>', text);
  return process_->write_line(text, deadline);
}

int ProcessPlayer::read(Deadline deadline) {
  const process::Status status = process_->read_line(deadline, line_);
  // Engine bytes enter here: from now on valid UTF-8 without terminal controls (referee/system/clean_text.h).
  if (!system::is_clean_text(line_, false)) line_ = system::clean_text(line_, false);
  if (status == process::Status::Ok) log('<', line_);
  return static_cast<int>(status);
}

void ProcessPlayer::abort() {
  std::lock_guard lock(kill_switch_mutex_);
  kill_switch_.fire();
}

void ProcessPlayer::set_kill_switch(process::KillSwitch kill_switch) {
  std::lock_guard lock(kill_switch_mutex_);
  kill_switch_ = std::move(kill_switch);
}

void ProcessPlayer::stop() {
  if (!process_) return;
  set_kill_switch({});
  if (spec_.protocol == Protocol::Kep) log('>', "quit");
  process_->shutdown(spec_.quit_grace);
  keep_stderr_tail();
  process_.reset();
  sandbox_.reset();
  if (comm_log_) std::fflush(comm_log_);
}

std::optional<process::ExitInfo> ProcessPlayer::quit_and_wait(std::chrono::milliseconds grace) {
  if (!process_) return std::nullopt;
  const Deadline deadline = SteadyClock::now() + grace;
  std::optional<process::ExitInfo> exit;
  if (send("quit", deadline)) exit = process_->wait_for_exit(deadline);
  if (exit && exit->killed_by_arena) exit.reset();
  stop();
  return exit;
}

void ProcessPlayer::kill_now() {
  set_kill_switch({});
  if (process_) process_->kill();
  keep_stderr_tail();
  process_.reset();
  sandbox_.reset();
}

void ProcessPlayer::forfeited() {
  // The engine may be hung, half-way through a line, or still searching:
  // nothing it says can be trusted for the next game.
  kill_now();
}

std::string ProcessPlayer::describe_exit() {
  if (!process_) return "not running";
  const auto exit = process_->wait_for_exit(SteadyClock::now() + std::chrono::milliseconds(500));
  return exit ? engine_exit(spec_.sandbox, *exit).describe() : "still running";
}

Fault ProcessPlayer::output_fault(const char* while_doing) {
  return Fault{Termination::Output, fmt::format("wrote more than its max_output_kb = {} KB to stderr in this game {}",
                                                spec_.limits.max_output_kb, while_doing)};
}

Fault ProcessPlayer::crash_fault(const char* while_doing, bool writing) {
  auto exit = process_->wait_for_exit(SteadyClock::now() + std::chrono::milliseconds(500));
  if (exit) exit = engine_exit(spec_.sandbox, *exit);
  const EngineLimits& l = spec_.limits;
  if (sandbox_ && sandbox_->killed_for_memory())
    return Fault{Termination::Memory,
                 fmt::format("{}: killed by the kernel's memory controller: it held more than memory_mb = {} (all its "
                             "processes, shared memory and tmpfs files together) {}",
                             exit ? exit->describe() : std::string("killed"), l.memory_mb, while_doing)};
  if (exit && exit->signaled() && exit->value == SIGXFSZ)
    return Fault{Termination::FileSize, fmt::format("{}: it wrote past its file-size limit (max_file_mb = {}) {}",
                                                    exit->describe(), l.max_file_mb, while_doing)};
  std::string detail = exit      ? exit->describe()
                       : writing ? (process_->input_closed() ? "closed its input (stdin) but kept running"
                                                             : "stopped reading its input (stdin) but kept running")
                                 : "closed its output (stdout) but kept running";
  // The limits that may have ended it, which the kernel does not name (a failed allocation or fork).
  if (l.memory_mb > 0 || l.max_processes > 0)
    detail += fmt::format(" (limits set: memory_mb = {}, max_processes = {})", l.memory_mb, l.max_processes);
  return Fault{Termination::Crash, detail + " " + while_doing};
}

std::optional<Fault> ProcessPlayer::spawn(std::optional<std::chrono::milliseconds> startup) {
  stop();
  ++starts_;
  recent_stderr_.clear();  // a new process: a fault quotes its own stderr
  const EngineSpec& started = startup ? with_kgp_startup(spec_, *startup) : spec_;
  Expected<Sandbox> box = Sandbox::prepare(started, spec_.stderr_file, clock_kind_ == ClockKind::Cpu);
  if (!box) return Fault{Termination::Startup, box.error()};
  sandbox_.emplace(std::move(box).value());
  auto spawned = process::EngineProcess::spawn(sandbox_->spawn());
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) return Fault{Termination::Startup, error->message};
  process_ = std::move(std::get<std::unique_ptr<process::EngineProcess>>(spawned));
  set_kill_switch(process_->kill_switch());
  return std::nullopt;
}

void ProcessPlayer::use_clock(const TimeControl& time) {
  clock_kind_ = time.clock;
  if (!process_ || !sandbox_) return;
  if (time.clock == ClockKind::Cpu)
    clock_ = std::make_unique<CpuClock>(sandbox_->cpu_meter(process_->pid()), usable_cpus(spec_.cpus),
                                        std::chrono::milliseconds(time.margin_ms));
  else
    clock_ = std::make_unique<WallClock>();
}

Reply ProcessPlayer::await_move(MoveClock& clock, const std::function<bool(Reply&)>& parse) {
  Reply reply;
  auto timed = [&] {
    reply.elapsed_ms = clock.charged_ms();
    reply.wall_ms = clock.wall_ms();
    return std::move(reply);
  };
  for (;;) {
    const auto status = static_cast<process::Status>(read(clock.next_check()));
    switch (status) {
      case process::Status::Ok: break;
      case process::Status::Timeout: {
        std::optional<Fault> late = clock.over_time();
        if (!late) continue;  // a CPU clock looked and the engine still has time
        // An engine that closed its stdin could never have been told to move: not a time forfeit.
        reply.fault = process_->input_closed() ? crash_fault("(while thinking)", true) : std::move(*late);
        return timed();
      }
      case process::Status::TooLong:
        reply.fault = Fault{Termination::Protocol, "line too long: " + kep::shorten(line_)};
        return timed();
      case process::Status::Eof:
      case process::Status::Error: reply.fault = crash_fault("(while thinking)"); return timed();
      case process::Status::OutputLimit: reply.fault = output_fault("(while thinking)"); return timed();
    }
    if (parse(reply)) return timed();
  }
}

// ---- EnginePlayer (KEP) ---------------------------------------------------

std::optional<Fault> EnginePlayer::start(std::chrono::milliseconds startup) {
  if (std::optional<Fault> f = spawn(startup)) return f;
  const Deadline deadline = SteadyClock::now() + startup;
  // A start-up failure quotes the end of the engine's stderr: where a bot that dies at once says why.
  auto fail = [&](std::string why) {
    why += stderr_ending();
    kill_now();
    return Fault{Termination::Startup, std::move(why)};
  };
  if (!send("kep", deadline)) {
    // An engine that dies at once: whether this write or the read below notices first is a race, so its
    // end reads the same either way (a run stops on the same start-up failure repeated: docs/PROTOCOL.md).
    const std::string exit = describe_exit();
    return fail((process_->running() ? "could not write to the engine: " : "eof before kepok: ") + exit);
  }
  id_name_.clear();
  id_author_.clear();
  declared_options_.clear();
  malformed_lines_.clear();
  // What an engine says before kepok is kept (its options, features, name): bounded, so that an engine
  // cannot make the arena hold gigabytes (docs/SECURITY.md).
  std::size_t said = 0;
  for (;;) {
    const auto status = static_cast<process::Status>(read(deadline));
    if (status == process::Status::Timeout) return fail("no kepok within " + ms(startup));
    if (status == process::Status::OutputLimit) {
      kill_now();
      return output_fault("(before kepok)");
    }
    if (status != process::Status::Ok)
      return fail(std::string(process::to_string(status)) + " before kepok: " + describe_exit());
    said += line_.size() + 1;
    if (said > kMaxHandshakeBytes)
      return fail(fmt::format("wrote more than {} KiB before kepok", kMaxHandshakeBytes >> 10));
    kep::EngineMessage m = kep::parse_engine_line(line_);
    if (auto* id = std::get_if<kep::IdName>(&m)) id_name_ = id->name;
    if (auto* author = std::get_if<kep::IdAuthor>(&m)) id_author_ = author->author;
    if (auto* feature = std::get_if<kep::Feature>(&m)) features_.push_back(feature->name);
    if (auto* option = std::get_if<kep::OptionDecl>(&m)) declared_options_.push_back(std::move(*option));
    if (auto* malformed = std::get_if<kep::Malformed>(&m)) malformed_lines_.push_back(std::move(*malformed));
    if (std::holds_alternative<kep::KepOk>(m)) break;
    // Banners, option declarations and anything unknown are fine before kepok.
  }
  for (const auto& [name, value] : spec_.options) {
    if (!send(kep::format(kep::SetOption{name, value}), deadline)) return fail("could not set option " + name);
  }
  return std::nullopt;
}

std::string EnginePlayer::identity() const {
  // Clipped: it goes into reports, and an engine may say anything (but no bidi or zero-width control, which
  // would make it show as other text: docs/CONFIG.md, "Engine names").
  std::string text = id_name_.substr(0, 100);
  if (!id_author_.empty()) text += (text.empty() ? "by " : " by ") + id_author_.substr(0, 100);
  return system::without_hidden_controls(text);
}

void EnginePlayer::game_over(const std::vector<Move>& /*moves*/) {
  if (spec_.restart == RestartPolicy::Always) stop();
}

std::vector<std::string> EnginePlayer::option_problems() const {
  std::vector<std::string> problems;
  std::string declared;
  for (const kep::OptionDecl& o : declared_options_) declared += (declared.empty() ? "" : ", ") + kep::describe(o);
  for (const EngineOption& o : spec_.options)
    if (std::string why = kep::setting_problem(declared_options_, o.name, o.value); !why.empty())
      problems.push_back(why + " (it declares " + (declared.empty() ? "no options" : declared) + ")");
  return problems;
}

bool EnginePlayer::has_feature(std::string_view name) const {
  return std::find(features_.begin(), features_.end(), name) != features_.end();
}

std::optional<Fault> EnginePlayer::new_game(const Variant& v, const std::optional<Position>& start_at,
                                            const TimeControl& time) {
  if (process_ && (spec_.restart == RestartPolicy::Always || !process_->running())) stop();
  use_clock(time);
  if (!process_) {
    features_.clear();
    if (std::optional<Fault> f = start(std::chrono::milliseconds(time.startup_ms))) return f;
    use_clock(time);
  } else {
    process_->reset_output_budget();  // max_output_kb is per game; a new process counts its start-up too
  }
  start_ = start_at ? to_start_notation(v, *start_at) : std::string();
  // Checked before the run where the arena can (docs/PROTOCOL.md, "Start positions"); here too for
  // a game started some other way.
  if (start_at && !has_feature("positions"))
    return Fault{Termination::Startup,
                 "the game starts from a position and the engine did not announce 'feature positions'"};
  if (clock_) clock_->begin_game();
  const std::chrono::milliseconds ping(time.ping_ms);
  const Deadline deadline = SteadyClock::now() + ping;
  const std::optional<std::uint32_t> seed = has_feature("seed") ? seed_ : std::nullopt;
  const std::optional<ClockKind> clock = has_feature("clock") ? std::optional(time.clock) : std::nullopt;
  if (!send(kep::format(kep::NewGame{v, seed, clock}) + "\nisready", deadline))
    return crash_fault("(on newgame)", true);
  return await_ready(deadline, ping);
}

std::optional<Fault> EnginePlayer::ping(std::chrono::milliseconds ping) {
  if (!process_) return Fault{Termination::Crash, "not running"};
  const Deadline deadline = SteadyClock::now() + ping;
  if (!send("isready", deadline)) return crash_fault("(on isready)", true);
  return await_ready(deadline, ping);
}

std::optional<Fault> EnginePlayer::await_ready(Deadline deadline, std::chrono::milliseconds ping) {
  for (;;) {
    const auto status = static_cast<process::Status>(read(deadline));
    if (status == process::Status::Timeout)
      return process_->input_closed() ? crash_fault("(waiting for readyok)", true)
                                      : Fault{Termination::Protocol, "no readyok within " + ms(ping)};
    if (status == process::Status::OutputLimit) return output_fault("(waiting for readyok)");
    if (status != process::Status::Ok) return crash_fault("(waiting for readyok)");
    if (std::holds_alternative<kep::ReadyOk>(kep::parse_engine_line(line_))) return std::nullopt;
  }
}

std::optional<Fault> EnginePlayer::drain_unasked() {
  // What the engine said since its last answer, it said unasked: a bestmove among it would be taken for
  // the answer to the next request (a stale move). Info and blank lines are harmless.
  for (;;) {
    if (static_cast<process::Status>(read(SteadyClock::now())) != process::Status::Ok) return std::nullopt;
    if (std::holds_alternative<kep::BestMove>(kep::parse_engine_line(line_)))
      return Fault{Termination::Protocol, "bestmove before it was asked (a stale answer): " + kep::shorten(line_)};
  }
}

namespace {

// `go` as the engine is sent it: the delay only to an engine that announced `feature delay`.
std::string go_text(kep::Go go, bool takes_delay) {
  if (!takes_delay) go.delay.reset();
  return kep::format(go);
}

}  // namespace

Reply EnginePlayer::play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) {
  if (!process_) return Reply{Fault{Termination::Crash, "not running"}, {}, 0, {}};
  // One write per ply: the position and the go command together.
  const std::string request = kep::format(kep::PositionCmd{start_, moves}) + "\n" + go_text(go, has_feature("delay"));
  if (std::optional<Fault> stale = drain_unasked()) return Reply{std::move(stale), {}, 0, {}};
  clock_->start(allowed);
  if (!send(request, clock_->wall_deadline())) return Reply{crash_fault("(on go)", true), {}, 0, {}};
  return await_bestmove(*clock_);
}

Reply EnginePlayer::play_until_stop(const std::vector<Move>& moves, const kep::Go& go,
                                    std::chrono::milliseconds stop_after, std::chrono::milliseconds allowed,
                                    bool& stop_sent) {
  stop_sent = false;
  if (!process_) return Reply{Fault{Termination::Crash, "not running"}, {}, 0, {}};
  const std::string request = kep::format(kep::PositionCmd{start_, moves}) + "\n" + go_text(go, has_feature("delay"));
  if (std::optional<Fault> stale = drain_unasked()) return Reply{std::move(stale), {}, 0, {}};
  WallClock before_stop;
  before_stop.start(stop_after);
  if (!send(request, before_stop.wall_deadline())) return Reply{crash_fault("(on go)", true), {}, 0, {}};
  Reply early = await_bestmove(before_stop);
  // Anything but the search still running (a move, garbage, a crash) is the answer.
  if (!early.fault || early.fault->kind != Termination::Time || process_->input_closed()) return early;
  WallClock after_stop;
  after_stop.start(allowed);
  stop_sent = true;
  if (!send(kep::format(kep::Stop{}), after_stop.wall_deadline()))
    return Reply{crash_fault("(on stop)", true), {}, 0, {}};
  Reply reply = await_bestmove(after_stop);
  if (reply.fault && reply.fault->kind == Termination::Time)
    reply.fault->detail = "no bestmove within " + ms(allowed) + " after stop";
  return reply;
}

EnginePlayer::BenchReply EnginePlayer::bench(std::chrono::milliseconds allowed) {
  BenchReply reply;
  auto fail = [&](Fault fault) {
    reply.fault = std::move(fault);
    return reply;
  };
  if (!process_) return fail(Fault{Termination::Crash, "not running"});
  if (std::optional<Fault> stale = drain_unasked()) return fail(std::move(*stale));
  const Deadline start = SteadyClock::now();
  const Deadline deadline = start + allowed;
  if (!send(kep::format(kep::Bench{}), deadline)) return fail(crash_fault("(on bench)", true));
  // Bounded as the handshake is: an engine cannot make the arena read forever or hold what it says.
  std::size_t said = 0;
  for (;;) {
    const auto status = static_cast<process::Status>(read(deadline));
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
    switch (status) {
      case process::Status::Ok: break;
      case process::Status::Timeout:
        return fail(process_->input_closed()
                        ? crash_fault("(on bench)", true)
                        : Fault{Termination::Protocol, "no 'bench nodes <count>' within " + ms(allowed)});
      case process::Status::TooLong: return fail(Fault{Termination::Protocol, "line too long: " + kep::shorten(line_)});
      case process::Status::Eof:
      case process::Status::Error: return fail(crash_fault("(on bench)"));
      case process::Status::OutputLimit: return fail(output_fault("(on bench)"));
    }
    said += line_.size() + 1;
    if (said > kMaxHandshakeBytes)
      return fail(Fault{Termination::Protocol,
                        fmt::format("wrote more than {} KiB without answering bench", kMaxHandshakeBytes >> 10)});
    kep::EngineMessage m = kep::parse_engine_line(line_);
    if (auto* result = std::get_if<kep::BenchResult>(&m)) {
      reply.result = *result;
      return reply;
    }
    if (auto* malformed = std::get_if<kep::Malformed>(&m))
      return fail(Fault{Termination::Protocol, malformed->why + ": " + kep::shorten(line_)});
    if (std::holds_alternative<kep::Info>(m) || line_.find_first_not_of(" \t\r") == std::string::npos) continue;
    return fail(Fault{Termination::Protocol, "expected 'bench nodes <count>', got: " + kep::shorten(line_)});
  }
}

Reply EnginePlayer::await_bestmove(MoveClock& clock) {
  return await_move(clock, [&](Reply& reply) {
    kep::EngineMessage m = kep::parse_engine_line(line_);
    if (auto* best = std::get_if<kep::BestMove>(&m)) {
      reply.move = best->move;
      return true;
    }
    if (auto* info = std::get_if<kep::Info>(&m)) {
      if (info->depth || info->score || info->nodes) reply.info = std::move(*info);
      return false;
    }
    if (line_.find_first_not_of(" \t\r") == std::string::npos) return false;
    // Between go and bestmove only info lines may come: anything else is where a move was due.
    reply.fault = Fault{Termination::Protocol, "expected bestmove, got: " + kep::shorten(line_)};
    return true;
  });
}

std::unique_ptr<ProcessPlayer> make_player(EngineSpec spec) {
  if (spec.protocol == Protocol::Mankalah) return std::make_unique<MankalahPlayer>(std::move(spec));
  return std::make_unique<EnginePlayer>(std::move(spec));
}

}  // namespace kalah
