#include "arena/journal/games_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "referee/record/record_json.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::journal {
namespace {

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// Turns a stream of bytes into records. Lines are fed one at a time; a line that does not parse
// is held back until the next non-blank line shows that it was not the last one.
class Scanner {
 public:
  Scanner(const std::string& file_name, const GameVisitor& visit, SeenIds& seen)
      : file_name_(file_name), visit_(visit), seen_(seen) {}

  // One line without its '\n'; `terminated` says whether a '\n' followed it.
  std::optional<std::string> line(std::string_view text, bool terminated) {
    const int number = ++line_number_;
    const std::uintmax_t offset = offset_;
    offset_ += text.size() + (terminated ? 1 : 0);
    if (is_blank(text)) return std::nullopt;
    if (held_)
      return file_name_ + ":" + std::to_string(held_->line) + ": " + held_->error +
             " (only the last line may be incomplete; fix or remove this line)";
    last_unterminated_ = !terminated;
    Expected<GameRecord> record = record_from_json(text);
    if (!record) {
      held_ = TornLine{number, offset, record.error()};
      return std::nullopt;
    }
    if (std::optional<SeenIds::Seen> where = seen_.first_seen(record->id, file_name_, number)) {
      if (where->file != file_name_) {
        ++summary_.elsewhere;
        return std::nullopt;
      }
      ++summary_.duplicates;
      summary_.warnings.push_back(file_name_ + ":" + std::to_string(number) + ": game '" + record->id +
                                  "' is already on line " + std::to_string(where->line) + "; this copy is ignored");
      return std::nullopt;
    }
    ++summary_.games;
    visit_(std::move(record).value());
    return std::nullopt;
  }

  ScanSummary finish() {
    summary_.torn = held_;
    summary_.missing_final_newline = !held_ && last_unterminated_;
    return std::move(summary_);
  }

 private:
  const std::string& file_name_;
  const GameVisitor& visit_;
  SeenIds& seen_;
  ScanSummary summary_;
  std::optional<TornLine> held_;
  bool last_unterminated_ = false;  // of the last non-blank line
  int line_number_ = 0;
  std::uintmax_t offset_ = 0;
};

}  // namespace

std::optional<SeenIds::Seen> SeenIds::first_seen(const std::string& id, const std::string& file, int line) {
  if (files_.empty() || files_.back() != file) files_.push_back(file);
  auto [it, inserted] = ids_.try_emplace(id, static_cast<int>(files_.size()) - 1, line);
  if (inserted) return std::nullopt;
  return Seen{files_[static_cast<std::size_t>(it->second.first)], it->second.second};
}

namespace {

// Splits text into lines, holding the unterminated rest until more arrives; stops once `line` says so.
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<bool(std::string_view, bool)>& line) : line_(line) {}

  // False once the reader asked to stop, or the rest grew past kMaxJournalLine.
  bool feed(std::string_view chunk) {
    std::size_t start = 0;
    for (std::size_t end; going_ && (end = chunk.find('\n', start)) != std::string_view::npos; start = end + 1) {
      if (partial_.empty()) {
        going_ = line_(chunk.substr(start, end - start), true);
      } else {
        partial_.append(chunk.substr(start, end - start));
        going_ = line_(partial_, true);
        partial_.clear();
      }
    }
    if (!going_) return false;
    partial_.append(chunk.substr(start));
    too_long_ = partial_.size() > kMaxJournalLine;
    return !too_long_;
  }
  void finish() {
    if (going_ && !too_long_ && !partial_.empty()) line_(partial_, false);
  }
  bool too_long() const { return too_long_; }

 private:
  const std::function<bool(std::string_view, bool)>& line_;
  std::string partial_;
  bool going_ = true, too_long_ = false;
};

}  // namespace

std::optional<std::string> read_journal_lines(const std::filesystem::path& file,
                                              const std::function<bool(std::string_view, bool)>& line) {
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file, /*follow_link=*/false);
  if (!opened) return opened.error();
  system::FileHandle fd(opened->first);
  LineSplitter splitter(line);
  std::string buffer(1 << 20, '\0');
  while (true) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return system::system_error_text(file, "cannot read");
    if (n == 0) break;
    if (!splitter.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)))) break;
  }
  if (splitter.too_long())
    return file.string() + ": a line longer than " + std::to_string(kMaxJournalLine >> 20) +
           " MiB: not a journal the arena wrote";
  splitter.finish();
  return std::nullopt;
}

Expected<ScanSummary> scan_games_text(std::string_view content, const std::string& file_name, const GameVisitor& visit,
                                      SeenIds& seen) {
  Scanner scanner(file_name, visit, seen);
  std::optional<std::string> error;
  const std::function<bool(std::string_view, bool)> take = [&](std::string_view text, bool terminated) {
    error = scanner.line(text, terminated);
    return !error;
  };
  LineSplitter splitter(take);
  splitter.feed(content);
  splitter.finish();
  if (error) return Error{*error};
  if (splitter.too_long())
    return Error{file_name + ": a line longer than " + std::to_string(kMaxJournalLine >> 20) + " MiB"};
  return scanner.finish();
}

Expected<ScanSummary> scan_games(const std::filesystem::path& file, const GameVisitor& visit, SeenIds& seen) {
  const std::string name = file.string();
  Scanner scanner(name, visit, seen);
  std::optional<std::string> error;
  if (auto failed = read_journal_lines(file, [&](std::string_view text, bool terminated) {
        error = scanner.line(text, terminated);
        return !error;
      }))
    return Error{*failed};
  if (error) return Error{*error};
  return scanner.finish();
}

Expected<std::size_t> JournalTail::read_new(const GameVisitor& visit) {
  // Another shard's journal, which this run did not write: never through a link, never a FIFO.
  Expected<std::pair<int, std::uintmax_t>> opened = system::open_regular_file(file_, /*follow_link=*/false);
  if (!opened) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(file_, ec))) return std::size_t{0};
    return Error{opened.error()};
  }
  system::FileHandle fd(opened->first);
  std::string text;
  std::string buffer(1 << 16, '\0');
  for (off_t at = static_cast<off_t>(offset_);;) {
    const ssize_t n = ::pread(fd.get(), buffer.data(), buffer.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{system::system_error_text(file_, "cannot read")};
    if (n == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(n));
    at += n;
  }
  std::size_t handed = 0;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string_view line = std::string_view(text).substr(start, end - start);
    if (!is_blank(line)) {
      Expected<GameRecord> record = record_from_json(line);
      if (!record) break;  // torn: read again from here next time
      visit(std::move(record).value());
      ++handed;
    }
    offset_ += end + 1 - start;
  }
  return handed;
}

namespace {

Expected<GamesFile> collect(const std::function<Expected<ScanSummary>(const GameVisitor&, SeenIds&)>& scan) {
  GamesFile out;
  SeenIds seen;
  Expected<ScanSummary> summary = scan([&](GameRecord&& r) { out.games.push_back(std::move(r)); }, seen);
  if (!summary) return Error{summary.error()};
  out.warnings = std::move(summary->warnings);
  out.torn = std::move(summary->torn);
  out.missing_final_newline = summary->missing_final_newline;
  return out;
}

}  // namespace

Expected<GamesFile> parse_games(std::string_view content, const std::string& file_name) {
  return collect([&](const GameVisitor& v, SeenIds& s) { return scan_games_text(content, file_name, v, s); });
}

Expected<GamesFile> read_games(const std::filesystem::path& file) {
  return collect([&](const GameVisitor& v, SeenIds& s) { return scan_games(file, v, s); });
}

}  // namespace kalah::journal
