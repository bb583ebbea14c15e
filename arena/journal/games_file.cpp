#include "arena/journal/games_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "referee/record/record_json.h"
#include "referee/system/files.h"

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

// Feeds `chunk` to `scanner` line by line; the unterminated rest stays in `partial`.
std::optional<std::string> feed(Scanner& scanner, std::string& partial, std::string_view chunk) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = chunk.find('\n', start);
    if (end == std::string_view::npos) break;
    std::optional<std::string> error;
    if (partial.empty()) {
      error = scanner.line(chunk.substr(start, end - start), true);
    } else {
      partial.append(chunk.substr(start, end - start));
      error = scanner.line(partial, true);
      partial.clear();
    }
    if (error) return error;
    start = end + 1;
  }
  partial.append(chunk.substr(start));
  return std::nullopt;
}

}  // namespace

std::optional<SeenIds::Seen> SeenIds::first_seen(const std::string& id, const std::string& file, int line) {
  if (files_.empty() || files_.back() != file) files_.push_back(file);
  auto [it, inserted] = ids_.try_emplace(id, static_cast<int>(files_.size()) - 1, line);
  if (inserted) return std::nullopt;
  return Seen{files_[static_cast<std::size_t>(it->second.first)], it->second.second};
}

Expected<ScanSummary> scan_games_text(std::string_view content, const std::string& file_name, const GameVisitor& visit,
                                      SeenIds& seen) {
  Scanner scanner(file_name, visit, seen);
  std::string partial;
  if (auto error = feed(scanner, partial, content)) return Error{*error};
  if (!partial.empty())
    if (auto error = scanner.line(partial, false)) return Error{*error};
  return scanner.finish();
}

Expected<ScanSummary> scan_games(const std::filesystem::path& file, const GameVisitor& visit, SeenIds& seen) {
  system::FileHandle fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.is_open()) return Error{system::system_error_text(file, "cannot open")};
  const std::string name = file.string();
  Scanner scanner(name, visit, seen);
  std::string partial;
  std::string buffer(1 << 20, '\0');
  while (true) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{system::system_error_text(file, "cannot read")};
    if (n == 0) break;
    if (auto error = feed(scanner, partial, std::string_view(buffer.data(), static_cast<std::size_t>(n))))
      return Error{*error};
  }
  if (!partial.empty())
    if (auto error = scanner.line(partial, false)) return Error{*error};
  return scanner.finish();
}

Expected<std::size_t> JournalTail::read_new(const GameVisitor& visit) {
  system::FileHandle fd(::open(file_.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.is_open()) {
    if (errno == ENOENT) return std::size_t{0};
    return Error{system::system_error_text(file_, "cannot open")};
  }
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
