#include "referee/game/transcript.h"

#include <algorithm>

#include <fmt/format.h>

namespace kalah {

namespace {
constexpr std::string_view kLineFormat = "{:>7} {} {} {}\n";
}  // namespace

std::string Transcript::format_line(std::chrono::milliseconds since, std::string_view engine, char direction,
                                    std::string_view text) {
  return fmt::format(kLineFormat, since.count(), engine, direction, text);
}

void Transcript::add(std::string_view engine, char direction, std::string_view text) {
  const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - epoch_);
  std::string line;
  if (tail_.empty()) {
    // Formatted in place, as format_line does: a game's lines are on the path of every ply, and nearly every game
    // fits in the head. (By hand around fmt::format_int: fmt::format_to into a string needs a function of libfmt that
    // clang's sanitizer builds fail to link.)
    const std::size_t before = head_.size();
    const fmt::format_int ms(since.count());
    if (ms.size() < 7) head_.append(7 - ms.size(), ' ');
    head_.append(ms.data(), ms.size());
    head_ += ' ';
    head_ += engine;
    head_ += ' ';
    head_ += direction;
    head_ += ' ';
    head_ += text;
    head_ += '\n';
    if (head_.size() <= kHeadBytes) return;
    line = head_.substr(before);
    head_.resize(before);
  } else {
    line = format_line(since, engine, direction, text);
  }
  tail_bytes_ += line.size();
  tail_.push_back(std::move(line));
  while (tail_bytes_ > kMaxBytes - kHeadBytes && tail_.size() > 1) {
    tail_bytes_ -= tail_.front().size();
    dropped_bytes_ += tail_.front().size();
    ++dropped_lines_;
    tail_.pop_front();
  }
}

void Transcript::add_stderr(const std::string& engine, std::string_view text, unsigned long long total) {
  auto it = std::find_if(stderr_.begin(), stderr_.end(), [&](const StderrTail& t) { return t.engine == engine; });
  if (it == stderr_.end()) it = stderr_.insert(stderr_.end(), StderrTail{engine, {}, 0});
  it->text += text;
  if (it->text.size() > kStderrTailBytes) it->text.erase(0, it->text.size() - kStderrTailBytes);
  it->total += total;
}

std::string Transcript::lines_text() const {
  std::string text = head_;
  if (dropped_lines_ > 0)
    text += fmt::format("[kalah-arena: {} lines ({} bytes) not kept]\n", dropped_lines_, dropped_bytes_);
  for (const std::string& line : tail_) text += line;
  return text;
}

}  // namespace kalah
