#include "referee/game/transcript_file.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/core.h>

#include "referee/record/record_json.h"

namespace kalah {

namespace {

constexpr std::string_view kMagic = "# kalah-arena transcript ";
constexpr std::string_view kRecord = "# record ";
constexpr std::string_view kTiming = "# timing ";
constexpr std::string_view kStderr = "# stderr ";
constexpr std::string_view kStderrLine = "| ";

// Every field of a time control (kTimeFields, then the mode and the clock), so that a replay runs under the
// same limits. Read back in any order; a transcript from before the clock existed has no `clock` (wall).
std::string timing_text(const TimeControl& t) {
  std::string text = fmt::format("mode={}", to_string(t.mode));
  for (const TimeField& f : kTimeFields)
    if (!f.only_when_set || f.get(t) != 0) text += fmt::format(" {}={}", f.key, f.get(t));
  if (t.delay_ms != 0) text += fmt::format(" delay={}", to_string(t.delay));
  if (t.clock != ClockKind::Wall) text += fmt::format(" clock={}", to_string(t.clock));
  return text;
}

std::optional<TimeControl> parse_timing(std::string_view text) {
  TimeControl t;
  std::size_t seen = 0;
  for (std::string_view rest = text; !rest.empty();) {
    const size_t space = rest.find(' ');
    const std::string_view word = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    const std::string_view key = word.substr(0, eq);
    const std::string_view value = word.substr(eq + 1);
    if (key == "mode") {
      const std::optional<TimeControl::Mode> mode = parse_time_mode(value);
      if (!mode) return std::nullopt;
      t.mode = *mode;
      ++seen;
      continue;
    }
    if (key == "clock") {
      const std::optional<ClockKind> clock = parse_clock_kind(value);
      if (!clock) return std::nullopt;
      t.clock = *clock;
      continue;
    }
    if (key == "delay") {
      const std::optional<DelayKind> delay = parse_delay_kind(value);
      if (!delay) return std::nullopt;
      t.delay = *delay;
      continue;
    }
    const auto field =
        std::find_if(kTimeFields.begin(), kTimeFields.end(), [&](const TimeField& f) { return f.key == key; });
    if (field == kTimeFields.end()) return std::nullopt;
    long long n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
    field->set(t, n);
    seen += field->only_when_set ? 0 : 1;
  }
  const auto always =
      std::count_if(kTimeFields.begin(), kTimeFields.end(), [](const TimeField& f) { return !f.only_when_set; });
  if (seen != static_cast<std::size_t>(always) + 1) return std::nullopt;
  return t;
}

std::string result_text(const GameRecord& r) {
  const char* score = r.result == Outcome::FirstWins ? "1-0" : r.result == Outcome::SecondWins ? "0-1" : "1/2-1/2";
  std::string text = fmt::format("{} {}", score, to_string(r.termination));
  if (r.forfeit)
    text += fmt::format(": {} forfeited ({}): {}", r.forfeit->engine, to_string(r.forfeit->reason), r.forfeit->detail);
  return text;
}

}  // namespace

std::string transcript_text(const GameRecord& record, const GameSettings& settings, const Transcript& transcript) {
  std::string text = fmt::format("{}{}\n", kMagic, kTranscriptFormat);
  text += fmt::format("# game {}, round {}: {} (South) vs {} (North)\n", record.id, record.round, record.south,
                      record.north);
  text += fmt::format("# result {}\n", result_text(record));
  text += fmt::format("{}south {}\n", kTiming, timing_text(settings.time_of(0)));
  text += fmt::format("{}north {}\n", kTiming, timing_text(settings.time_of(1)));
  text += fmt::format("{}{}\n", kRecord, to_json_line(record));
  text += "# protocol: milliseconds since the game began, engine, > to the engine or < from it, the line\n";
  text += transcript.lines_text();
  for (const Transcript::StderrTail& tail : transcript.stderr_tails()) {
    // Only the forfeiter's own: an engine that loses on purpose must not get its opponent's stderr (its
    // debugging, its secrets) into a file that is archived and published (docs/FORMATS.md, "Transcripts").
    if (!record.forfeit || tail.engine != record.forfeit->engine) continue;
    const std::string_view kept = tail.text;
    text +=
        fmt::format("{}{}: {} bytes in this game, the last {} kept\n", kStderr, tail.engine, tail.total, kept.size());
    for (size_t start = 0; start < kept.size();) {
      const size_t end = std::min(kept.find('\n', start), kept.size());
      text += fmt::format("{}{}\n", kStderrLine, kept.substr(start, end - start));
      start = end + 1;
    }
  }
  text += "# end\n";
  return text;
}

std::string without_opponents_stderr(std::string_view text) {
  Expected<TranscriptFile> parsed = parse_transcript(text);
  if (!parsed) return std::string(text);
  const std::optional<std::string> keep =
      parsed->record.forfeit ? std::optional<std::string>(parsed->record.forfeit->engine) : std::nullopt;
  std::string out;
  out.reserve(text.size());
  bool dropping = false;  // inside the stderr section of an engine that did not forfeit
  for (size_t start = 0; start < text.size();) {
    const size_t stop = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, stop - start);
    const std::string_view with_end = text.substr(start, std::min(stop + 1, text.size()) - start);
    start = stop + 1;
    if (line.substr(0, kStderr.size()) == kStderr) {
      const std::string_view rest = line.substr(kStderr.size());
      dropping = !keep || rest.substr(0, rest.rfind(": ")) != *keep;
    } else if (line.substr(0, kStderrLine.size()) != kStderrLine) {
      dropping = false;
    }
    if (!dropping) out += with_end;
  }
  return out;
}

Expected<TranscriptFile> parse_transcript(std::string_view text) {
  TranscriptFile file;
  bool magic = false, record = false, timing[2] = {false, false}, end = false;
  TranscriptFile::Stderr* tail = nullptr;
  std::size_t kept = 0;  // of the current stderr section
  int number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t stop = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, stop - start);
    start = stop + 1;
    ++number;
    auto fail = [&](std::string_view why) { return Error{fmt::format("line {}: {}", number, why)}; };
    if (number == 1) {
      if (line.substr(0, kMagic.size()) != kMagic) return fail("not a Kalah Arena transcript");
      if (line.substr(kMagic.size()) != std::to_string(kTranscriptFormat))
        return fail(fmt::format("a transcript of format {}; this build reads format {}", line.substr(kMagic.size()),
                                kTranscriptFormat));
      magic = true;
      continue;
    }
    if (line.substr(0, kRecord.size()) == kRecord) {
      Expected<GameRecord> r = record_from_json(line.substr(kRecord.size()));
      if (!r) return fail("the game record: " + r.error());
      file.record = std::move(r).value();
      record = true;
    } else if (line.substr(0, kTiming.size()) == kTiming) {
      const std::string_view rest = line.substr(kTiming.size());
      const int seat = rest.substr(0, 6) == "south " ? 0 : rest.substr(0, 6) == "north " ? 1 : -1;
      std::optional<TimeControl> t = seat < 0 ? std::nullopt : parse_timing(rest.substr(6));
      if (!t) return fail("a timing line must be '# timing south|north mode=... base_ms=... (every field)'");
      file.time[seat] = *t;
      timing[seat] = true;
    } else if (line.substr(0, kStderr.size()) == kStderr) {
      const std::string_view rest = line.substr(kStderr.size());
      const size_t colon = rest.rfind(": ");
      if (colon == std::string_view::npos) return fail("a stderr section must start '# stderr NAME: N bytes ...'");
      file.stderr_tails.push_back({std::string(rest.substr(0, colon)), 0, {}});
      tail = &file.stderr_tails.back();
      // "N bytes in this game, the last K kept"
      const std::string_view counts = rest.substr(colon + 2);
      const auto [after_total, ec] = std::from_chars(counts.data(), counts.data() + counts.size(), tail->total);
      const std::string_view last = " bytes in this game, the last ";
      const std::string_view more(after_total, static_cast<size_t>(counts.data() + counts.size() - after_total));
      if (ec != std::errc() || more.substr(0, last.size()) != last) return fail("a stderr section must say its sizes");
      std::from_chars(more.data() + last.size(), more.data() + more.size(), kept);
    } else if (line.substr(0, kStderrLine.size()) == kStderrLine && tail) {
      tail->text += line.substr(kStderrLine.size());
      tail->text += '\n';
      // The newline that closes a last line the engine left open is not its own.
      if (tail->text.size() > kept) tail->text.resize(kept);
    } else if (line == "# end") {
      end = true;
    } else if (!line.starts_with("#")) {
      file.lines += line;
      file.lines += '\n';
    }
  }
  if (!magic) return Error{"empty file: not a Kalah Arena transcript"};
  if (!record) return Error{"no '# record' line: the game is not in this transcript"};
  if (!timing[0] || !timing[1]) return Error{"no '# timing' line for each side"};
  if (!end) return Error{"no '# end' line: the transcript was cut short"};
  return file;
}

}  // namespace kalah
