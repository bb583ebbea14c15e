// Text an engine or a build wrote, made safe to keep and to show: valid UTF-8 (an invalid byte becomes
// U+FFFD, visibly) and no control characters that a terminal would obey (ESC, BEL, backspace, C1 CSI,
// ...: each becomes the visible text `\x1b`, `\u009b`). Tab stays, and newline where the text is made of
// lines. Applied where engine bytes enter the arena (each protocol line, the stderr relay and tail),
// so that every report, transcript, log and terminal line downstream gets clean text.
#pragma once

#include <string>
#include <string_view>

namespace kalah::system {

// Whether `text` would come out of clean_text unchanged (a fast scan: plain ASCII text is the rule).
bool is_clean_text(std::string_view text, bool keep_newlines);

std::string clean_text(std::string_view text, bool keep_newlines);

// Clean text for a one-line message (a check's failure, a forfeit's detail) in about `limit` bytes: as it is
// when it fits; else its start, cut after a whole word, " ... ", and its last part after " | " whole (a
// detail joins the engine's stderr lines so, and the last line of a Python traceback is the error), when
// that part fits in `limit` on its own. Never cuts a word in two or a UTF-8 sequence.
std::string shorten_keeping_end(std::string_view text, std::size_t limit);

// The same for a stream cut into chunks anywhere: a UTF-8 sequence split between two chunks is joined,
// not replaced.
class TextCleaner {
 public:
  explicit TextCleaner(bool keep_newlines) : keep_newlines_(keep_newlines) {}
  std::string feed(std::string_view chunk);
  std::string finish();  // what an unfinished sequence at the very end becomes (U+FFFD)

 private:
  bool keep_newlines_;
  std::string pending_;  // the start of a sequence the last chunk ended in (at most 3 bytes)
};

}  // namespace kalah::system
