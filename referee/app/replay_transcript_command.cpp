// `referee replay-transcript FILE --engine ...`: the side of a forfeited game that forfeited, played again by
// another (a fixed) engine against the recorded moves of the other side, through the same game loop, so
// that the engine receives what the arena sent (newgame, position, go with the recorded clocks).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/app/engine_args.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/game/transcript_file.h"
#include "referee/process/engine_process.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct ReplayTranscriptOptions {
  std::string file;
  std::vector<std::vector<std::string>> engines;  // one
  std::string comm_log;
};

// The side that did not forfeit: its recorded moves, with the time each took, so the clocks run as recorded.
class RecordedPlayer : public Player {
 public:
  explicit RecordedPlayer(const GameRecord& record, std::string name) : record_(record), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant&, const std::optional<Position>&, const TimeControl&) override {
    return std::nullopt;
  }
  Reply play(const std::vector<Move>& moves, const kep::Go&, std::chrono::milliseconds) override {
    const size_t ply = moves.size();
    if (ply >= record_.moves.size())
      return Reply{Fault{Termination::Crash, "the transcript has no more moves"}, {}, 0, {}};
    return Reply{std::nullopt, record_.moves[ply], recorded_time(record_, ply), {}};
  }

  static double recorded_time(const GameRecord& record, size_t ply) {
    const size_t i = ply - record.opening.size();
    return i < record.move_info.size() ? record.move_info[i].time_ms : 0.0;
  }

 private:
  const GameRecord& record_;
  std::string name_;
};

// The engine under test in the forfeiting engine's seat. Where the game has a recorded move, the engine's own
// choice is reported and the recorded one played (with its recorded time), so the game and its clocks follow
// the record; at the point of failure its own move is played. Its faults, late or illegal moves go to the game
// loop unchanged, which records them as the forfeits the arena would.
class ReplayedPlayer : public Player {
 public:
  ReplayedPlayer(std::unique_ptr<ProcessPlayer> engine, const GameRecord& record, std::string seat_name)
      : engine_(std::move(engine)), record_(record), name_(std::move(seat_name)) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start,
                                const TimeControl& time) override {
    std::optional<Fault> fault = engine_->new_game(v, start, time);
    if (!fault) fmt::print("start: {} is ready (kep, newgame, isready)\n", engine_->name());
    return fault;
  }
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override {
    Reply reply = engine_->play(moves, go, allowed);
    const size_t ply = moves.size();
    if (reply.fault || reply.elapsed_ms > static_cast<double>(allowed.count())) return reply;
    Position p = record_.initial_position();
    for (Move m : moves) apply(record_.variant, p, m);
    if (!is_legal(record_.variant, p, reply.move)) return reply;
    if (ply >= record_.moves.size()) {
      fmt::print("ply {}: {} {:.0f} ms (the point of failure: a legal move in time)\n", ply + 1, to_string(reply.move),
                 reply.elapsed_ms);
      return reply;
    }
    const Move recorded = record_.moves[ply];
    ++asked_;
    if (recorded == reply.move) ++same_;
    fmt::print("ply {}: {} {:.0f} ms, recorded {} ({})\n", ply + 1, to_string(reply.move), reply.elapsed_ms,
               to_string(recorded), recorded == reply.move ? "same" : "differs; the recorded move is played");
    return Reply{std::nullopt, recorded, RecordedPlayer::recorded_time(record_, ply), reply.info};
  }
  void forfeited() override { engine_->forfeited(); }
  void game_over(const std::vector<Move>& moves) override { engine_->game_over(moves); }

  int asked() const { return asked_; }
  int same() const { return same_; }

 private:
  std::unique_ptr<ProcessPlayer> engine_;
  const GameRecord& record_;
  std::string name_;
  int asked_ = 0;
  int same_ = 0;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) throw UsageError("cannot read transcript '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int run_replay_transcript(const ReplayTranscriptOptions& o) {
  Expected<TranscriptFile> parsed = parse_transcript(read_text(o.file));
  if (!parsed) throw UsageError(o.file + ": " + parsed.error());
  const TranscriptFile& file = *parsed;
  const GameRecord& record = file.record;
  if (!record.forfeit)
    throw UsageError(fmt::format("{}: game {} ended without a forfeit ({}): there is no failure to replay", o.file,
                                 record.id, to_string(record.termination)));
  const Forfeit& original = *record.forfeit;
  const int seat = original.engine == record.south ? 0 : original.engine == record.north ? 1 : -1;
  if (seat < 0) throw UsageError(o.file + ": the engine that forfeited, '" + original.engine + "', did not play");
  if (o.engines.size() != 1) throw UsageError("give one --engine: the engine to try in the forfeiting engine's seat");
  EngineSpec spec = parse_engine(o.engines[0], o.comm_log);
  if (spec.protocol != Protocol::Kep)
    throw UsageError("--engine: replay-transcript replays KEP games; the engine must speak KEP");

  // Where the original failure was: on the forfeiting engine's move after the recorded ones, or elsewhere
  // (its start, newgame) when that move was not its to make.
  Position end = record.initial_position();
  for (Move m : record.moves) apply(record.variant, end, m);
  const bool failed_on_move = !end.over && static_cast<int>(player_to_move(end)) == seat;
  const std::string where = failed_on_move ? fmt::format("on its move at ply {}", record.moves.size() + 1)
                                           : std::string("outside a move (start-up, newgame or between moves)");

  GameSettings s;
  s.id = record.id;
  s.round = record.round;
  s.variant = record.variant;
  s.start = record.start;
  s.opening = record.opening;
  s.time = file.time[0];
  if (!(file.time[1] == file.time[0])) s.second_time = file.time[1];
  s.max_plies = static_cast<int>(record.moves.size()) + (failed_on_move ? 1 : 0);

  const std::string other = seat == 0 ? record.north : record.south;
  fmt::print("game {}: {} ({}) forfeited ({}) {}: {}\n", record.id, original.engine, seat == 0 ? "South" : "North",
             to_string(original.reason), where, original.detail);
  fmt::print("replaying: {} plays {}'s side against the {} recorded moves of the game\n", spec.name, original.engine,
             record.moves.size());

  process::become_subreaper();
  const std::string engine_name = spec.name;
  ReplayedPlayer replayed(make_player(std::move(spec)), record, original.engine);
  RecordedPlayer recorded(record, other);
  const GameRecord again = seat == 0 ? play_game(replayed, recorded, s) : play_game(recorded, replayed, s);

  if (replayed.asked() > 0) fmt::print("moves: {} of {} as recorded\n", replayed.same(), replayed.asked());
  if (again.forfeit && again.forfeit->engine == original.engine) {
    const bool same_place = again.moves.size() == record.moves.size();
    fmt::print("failed: {} forfeited again ({}) at ply {}{}: {}\n", engine_name, to_string(again.forfeit->reason),
               again.moves.size() + 1, same_place ? ", where the original failed" : ", before the original failure",
               again.forfeit->detail);
    return 1;
  }
  if (again.forfeit)  // the recorded side ran out of moves: a transcript whose record does not match its game
    throw UsageError(o.file + ": the recorded moves do not reach the point of failure: " + again.forfeit->detail);
  fmt::print("passed: {} got past the point where {} forfeited ({}) {}\n", engine_name, original.engine,
             to_string(original.reason), where);
  return 0;
}

}  // namespace

void add_replay_transcript_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<ReplayTranscriptOptions>(
      "replay-transcript",
      "Replay a forfeited game from its transcript with another engine in the forfeiting engine's seat; exit 0 "
      "when it gets past the point of failure, 1 when it forfeits again",
      run_replay_transcript);
  cmd->add_option("file", o->file, "A transcript the arena wrote (<results>/transcripts/<game>.log)")->required();
  add_engine_option(cmd, o->engines, "the engine to try");
  add_log_option(cmd, o->comm_log, "the engine");
}

}  // namespace kalah::referee_app
