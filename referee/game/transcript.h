// The protocol transcript of one game: every line exchanged with both engines, each with the
// milliseconds since the game began, kept in memory (capped) until the game is over, and the tail of
// each engine's stderr in that game. The arena writes it to a file when `[tournament] transcripts`
// asks (docs/FORMATS.md, "Transcripts"); `referee match --log` writes its lines the same way.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace kalah {

class Transcript {
 public:
  // A game's lines beyond this many bytes are cut from the middle: the first kHeadBytes (the
  // handshake and the first moves) and the latest lines (where a forfeit happens) are kept.
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 20;
  static constexpr std::size_t kHeadBytes = std::size_t{256} << 10;
  // An engine's stderr kept per game: its last bytes.
  static constexpr std::size_t kStderrTailBytes = std::size_t{16} << 10;

  Transcript() : epoch_(std::chrono::steady_clock::now()) {}

  // One line as `referee match --log` and a transcript write it: "     12 NAME > TEXT\n", the time
  // right-aligned in 7 columns, `>` referee to engine, `<` engine to referee.
  static std::string format_line(std::chrono::milliseconds since, std::string_view engine, char direction,
                                 std::string_view text);

  // Adds one line (`text` without its '\n'), timed from the construction of this transcript.
  void add(std::string_view engine, char direction, std::string_view text);

  // The last bytes an engine wrote to its stderr in this game; `total` is how many it wrote in all.
  // Several calls for one engine (a restart within the game) add up.
  void add_stderr(const std::string& engine, std::string_view text, unsigned long long total);

  struct StderrTail {
    std::string engine;
    std::string text;              // its last kStderrTailBytes at most
    unsigned long long total = 0;  // bytes written in the game
  };
  const std::vector<StderrTail>& stderr_tails() const { return stderr_; }

  // The lines, in order, with one "[kalah-arena: N lines (B bytes) not kept]" line where the middle was cut.
  std::string lines_text() const;

 private:
  std::chrono::steady_clock::time_point epoch_;
  std::string head_;              // the first lines, up to kHeadBytes
  std::deque<std::string> tail_;  // the lines after the head, the oldest dropped past kMaxBytes
  std::size_t tail_bytes_ = 0;
  long long dropped_lines_ = 0;
  unsigned long long dropped_bytes_ = 0;
  std::vector<StderrTail> stderr_;
};

}  // namespace kalah
