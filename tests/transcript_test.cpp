// The in-memory transcript of a game and its file: the cap keeps the start and the end, the stderr tail keeps
// the last bytes, and a file written for a game reads back to the same record, time controls and lines.
#include <gtest/gtest.h>

#include <string>

#include "referee/game/transcript.h"
#include "referee/game/transcript_file.h"
#include "tests/game_records.h"

namespace kalah {
namespace {

TEST(Transcript, LinesCarryTheTimeTheEngineAndTheDirection) {
  EXPECT_EQ(Transcript::format_line(std::chrono::milliseconds(12), "alpha beta", '>', "go movetime 100"),
            "     12 alpha beta > go movetime 100\n");
  Transcript t;
  t.add("alpha", '<', "bestmove 3");
  EXPECT_TRUE(t.lines_text().ends_with(" alpha < bestmove 3\n")) << t.lines_text();
}

TEST(Transcript, AGameBeyondTheCapKeepsItsStartAndItsEndAndSaysWhatWasCut) {
  Transcript t;
  t.add("alpha", '>', "kep");
  const std::string info(1000, 'i');
  const int lines = 3000;  // about 3 MB of info lines
  for (int i = 0; i < lines; ++i) t.add("alpha", '<', "info string " + std::to_string(i) + " " + info);
  t.add("alpha", '<', "bestmove 3");
  const std::string text = t.lines_text();
  EXPECT_LE(text.size(), Transcript::kMaxBytes + 200);
  EXPECT_NE(text.find(" alpha > kep\n"), std::string::npos);
  EXPECT_TRUE(text.ends_with(" alpha < bestmove 3\n"));
  EXPECT_NE(text.find("lines ("), std::string::npos);
  EXPECT_NE(text.find("bytes) not kept]"), std::string::npos);
}

TEST(Transcript, TheStderrTailKeepsTheLastBytesAndCountsThemAll) {
  Transcript t;
  t.add_stderr("alpha", std::string(Transcript::kStderrTailBytes, 'a'), Transcript::kStderrTailBytes);
  t.add_stderr("alpha", "last words\n", 11);  // a restart within the game: one section still
  ASSERT_EQ(t.stderr_tails().size(), 1u);
  EXPECT_EQ(t.stderr_tails()[0].text.size(), Transcript::kStderrTailBytes);
  EXPECT_TRUE(t.stderr_tails()[0].text.ends_with("last words\n"));
  EXPECT_EQ(t.stderr_tails()[0].total, Transcript::kStderrTailBytes + 11);
}

TEST(TranscriptFile, AGameWrittenReadsBackWithItsRecordClocksLinesAndStderr) {
  GameRecord r = test::record_of("r1-0v1-p0-g0", "alpha", "beta <b>", {Move::at(3), Move::at(4)});
  r.round = 1;
  r.move_info = {{10, {}, {}, {}, {}}, {12, {}, {}, {}, {}}};
  r.result = Outcome::FirstWins;
  r.termination = Termination::Crash;
  r.forfeit = Forfeit{"beta <b>", Termination::Crash, "exited with code 3 (while thinking)"};
  GameSettings s;
  s.time.base_ms = 2000;
  s.time.inc_ms = 50;
  s.time.delay_ms = 300;
  s.time.delay = DelayKind::Bronstein;
  TimeControl odds;
  odds.mode = TimeControl::Mode::MoveTime;
  odds.movetime_ms = 250;
  odds.clock = ClockKind::Cpu;  // a replay runs on the same clock
  odds.margin_ms = 70;
  odds.startup_ms = 3000;
  odds.ping_ms = 4000;
  odds.hard_limit_ms = 9000;
  s.second_time = odds;
  Transcript t;
  t.add("alpha", '>', "kep");
  t.add_stderr("beta <b>", "# not a header\n| nor a line\nno newline at the end", 45);

  const std::string text = transcript_text(r, s, t);
  Expected<TranscriptFile> back = parse_transcript(text);
  ASSERT_TRUE(back) << back.error() << "\n" << text;
  EXPECT_EQ(back->record.id, r.id);
  EXPECT_EQ(back->record.moves, r.moves);
  EXPECT_EQ(back->record.forfeit->engine, "beta <b>");
  EXPECT_EQ(back->time[0], s.time);
  EXPECT_EQ(back->time[1], odds);
  EXPECT_EQ(back->lines, t.lines_text());
  ASSERT_EQ(back->stderr_tails.size(), 1u);
  EXPECT_EQ(back->stderr_tails[0].engine, "beta <b>");
  EXPECT_EQ(back->stderr_tails[0].text, "# not a header\n| nor a line\nno newline at the end");
  EXPECT_EQ(back->stderr_tails[0].total, 45u);

  // Every field of the one list is written, each once, and the clock only when it is not the wall's; a field
  // added later (the delay) only when it is set.
  const std::size_t from = text.find("# timing south");
  const std::string south = text.substr(from, text.find('\n', from) - from);
  for (const TimeField& f : kTimeFields)
    EXPECT_NE(south.find(" " + std::string(f.key) + "="), std::string::npos) << f.key;
  EXPECT_NE(south.find(" delay=bronstein"), std::string::npos) << south;
  EXPECT_EQ(south.find("clock="), std::string::npos) << south;
  const std::size_t north_from = text.find("# timing north");
  const std::string north = text.substr(north_from, text.find('\n', north_from) - north_from);
  EXPECT_EQ(north.find("delay"), std::string::npos) << north;
  EXPECT_NE(text.find("clock=cpu"), std::string::npos) << text;
}

TEST(TranscriptFile, ATimingLineOfAnEarlierArenaStillReads) {
  // Before the CPU clock: another order, no clock.
  GameRecord r = test::record_of("g1", "a", "b", {Move::at(3)});
  r.move_info = {{10, {}, {}, {}, {}}};
  r.result = Outcome::Draw;
  std::string text = transcript_text(r, GameSettings{}, Transcript{});
  const std::string old_line =
      "mode=movetime base_ms=2000 inc_ms=50 moves=0 movetime_ms=300 depth=0 nodes=0 margin_ms=50 "
      "hard_limit_ms=60000 startup_ms=5000 ping_ms=5000";
  for (const char* side : {"# timing south ", "# timing north "}) {
    const std::size_t at = text.find(side) + std::string_view(side).size();
    text.replace(at, text.find('\n', at) - at, old_line);
  }
  Expected<TranscriptFile> back = parse_transcript(text);
  ASSERT_TRUE(back) << back.error() << "\n" << text;
  EXPECT_EQ(back->time[0].mode, TimeControl::Mode::MoveTime);
  EXPECT_EQ(back->time[0].movetime_ms, 300);
  EXPECT_EQ(back->time[1].clock, ClockKind::Wall);
}

// A bot that forfeits on purpose must not get its opponent's stderr written down (issue 36): the file keeps
// the forfeiter's own tail only, and a game without a forfeit keeps none.
TEST(TranscriptFile, OnlyTheForfeitersOwnStderrIsWrittenNeverItsOpponents) {
  GameRecord r = test::record_of("g1", "victim", "leaker", {Move::at(3)});
  r.move_info = {{10, {}, {}, {}, {}}};
  r.result = Outcome::FirstWins;
  r.termination = Termination::Crash;
  r.forfeit = Forfeit{"leaker", Termination::Crash, "exited with code 3 (while thinking)"};
  Transcript t;
  t.add_stderr("victim", "my opening book is at /secret\n", 31);
  t.add_stderr("leaker", "bye", 3);
  const std::string text = transcript_text(r, GameSettings{}, t);
  EXPECT_EQ(text.find("/secret"), std::string::npos) << text;
  EXPECT_EQ(text.find("# stderr victim"), std::string::npos) << text;
  Expected<TranscriptFile> back = parse_transcript(text);
  ASSERT_TRUE(back) << back.error() << "\n" << text;
  ASSERT_EQ(back->stderr_tails.size(), 1u);
  EXPECT_EQ(back->stderr_tails[0].engine, "leaker");
  EXPECT_EQ(back->stderr_tails[0].text, "bye");

  r.forfeit.reset();
  r.termination = Termination::Normal;
  const std::string played = transcript_text(r, GameSettings{}, t);
  EXPECT_EQ(played.find("# stderr "), std::string::npos) << played;
}

// A transcript an arena before issue 36 wrote holds every engine's stderr: `arena archive` packs it with the
// forfeiter's alone, every other line as it was.
TEST(TranscriptFile, AnOlderTranscriptLosesItsOpponentsStderrOnly) {
  GameRecord r = test::record_of("g1", "victim", "leaker: two", {Move::at(3)});
  r.move_info = {{10, {}, {}, {}, {}}};
  r.result = Outcome::FirstWins;
  r.termination = Termination::Crash;
  r.forfeit = Forfeit{"leaker: two", Termination::Crash, "exited with code 3 (while thinking)"};
  Transcript t;
  t.add("victim", '<', "bestmove 3");
  t.add_stderr("leaker: two", "bye\n| not a line", 16);
  const std::string now = transcript_text(r, GameSettings{}, t);
  EXPECT_EQ(without_opponents_stderr(now), now);
  std::string old = now;
  old.insert(old.find("# stderr leaker"), "# stderr victim: 9 bytes in this game, the last 9 kept\n| /secret\n| \n");
  old.insert(old.rfind("# end\n"), "# stderr victim: 3 bytes in this game, the last 3 kept\n| ab\n");
  ASSERT_TRUE(parse_transcript(old));
  EXPECT_EQ(without_opponents_stderr(old), now);
  // A game without a forfeit keeps no stderr; what is not a transcript is left alone.
  r.forfeit.reset();
  r.termination = Termination::Normal;
  std::string played = transcript_text(r, GameSettings{}, Transcript{});
  std::string played_old = played;
  played_old.insert(played_old.rfind("# end\n"), "# stderr victim: 3 bytes in this game, the last 3 kept\n| ab\n");
  EXPECT_EQ(without_opponents_stderr(played_old), played);
  EXPECT_EQ(without_opponents_stderr("# stderr x: 1\n| y\n"), "# stderr x: 1\n| y\n");
}

TEST(TranscriptFile, WhatIsNotATranscriptIsRefusedNamingTheProblem) {
  EXPECT_FALSE(parse_transcript(""));
  Expected<TranscriptFile> other = parse_transcript("[tournament]\nname = \"x\"\n");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error(), "line 1: not a Kalah Arena transcript");
  Expected<TranscriptFile> newer = parse_transcript("# kalah-arena transcript 9\n");
  ASSERT_FALSE(newer);
  EXPECT_NE(newer.error().find("format 9"), std::string::npos) << newer.error();
  GameRecord r;
  r.id = "g";
  r.result = Outcome::Draw;
  const std::string text = transcript_text(r, GameSettings{}, Transcript{});
  Expected<TranscriptFile> cut = parse_transcript(text.substr(0, text.size() - 6));
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().find("cut short"), std::string::npos) << cut.error();
}

}  // namespace
}  // namespace kalah
