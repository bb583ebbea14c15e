// A game's transcript as a file (docs/FORMATS.md, "Transcripts"): a header of `#` lines that holds the
// game's journal record and each side's time control, the protocol lines, and the stderr tail of the
// engine that forfeited (never its opponent's) in a marked section. Written by the arena (`[tournament] transcripts`),
// read by the bot pages and by `referee replay-transcript`.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "referee/game/game.h"
#include "referee/game/transcript.h"
#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah {

inline constexpr int kTranscriptFormat = 1;

// The file's text for a finished game played under `settings`: of the transcript's stderr tails, only the
// forfeiting engine's; none for a game without a forfeit.
std::string transcript_text(const GameRecord& record, const GameSettings& settings, const Transcript& transcript);

// `text`, a transcript file, with the stderr sections of every engine but the forfeiter's taken out: what an
// arena before issue 36 kept (every engine's tail) made what it keeps now (`arena archive` packs that). Text
// that does not read as a transcript comes back as it is.
std::string without_opponents_stderr(std::string_view text);

struct TranscriptFile {
  GameRecord record;
  TimeControl time[2];  // of the engine that started South, and of the one that started North
  std::string lines;    // the protocol lines as written, one per line
  struct Stderr {
    std::string engine;
    unsigned long long total = 0;  // bytes written in the game
    std::string text;              // the last of them
  };
  std::vector<Stderr> stderr_tails;
};

// Reads the text of a transcript file; the error names the line that is wrong.
Expected<TranscriptFile> parse_transcript(std::string_view text);

}  // namespace kalah
