#include "arena/journal/games_file.h"

#include <unordered_map>

#include "referee/record/record_json.h"
#include "referee/system/files.h"

namespace kalah::journal {
namespace {

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

struct Line {
  std::string_view text;
  std::uintmax_t offset = 0;
  int number = 0;
  bool terminated = false;  // followed by '\n'
};

std::vector<Line> split_lines(std::string_view content) {
  std::vector<Line> lines;
  std::size_t start = 0;
  int number = 0;
  while (start < content.size()) {
    const std::size_t end = content.find('\n', start);
    Line line;
    line.number = ++number;
    line.offset = start;
    line.terminated = end != std::string_view::npos;
    line.text = content.substr(start, (line.terminated ? end : content.size()) - start);
    lines.push_back(line);
    start = line.terminated ? end + 1 : content.size();
  }
  return lines;
}

}  // namespace

Expected<GamesFile> parse_games(std::string_view content, const std::string& file_name) {
  const std::vector<Line> lines = split_lines(content);
  // The last line that holds anything: the only one a killed write can have torn.
  std::size_t last = lines.size();
  while (last > 0 && is_blank(lines[last - 1].text)) --last;

  GamesFile out;
  std::unordered_map<std::string, int> first_line;  // id -> line number
  for (std::size_t i = 0; i < last; ++i) {
    const Line& line = lines[i];
    if (is_blank(line.text)) continue;
    Expected<GameRecord> record = record_from_json(line.text);
    if (!record) {
      if (i + 1 == last) {
        out.torn = TornLine{line.number, line.offset, record.error()};
        break;
      }
      return Error{file_name + ":" + std::to_string(line.number) + ": " + record.error() +
                   " (only the last line may be incomplete; fix or remove this line)"};
    }
    if (i + 1 == last && !line.terminated) out.missing_final_newline = true;
    auto [it, inserted] = first_line.emplace(record->id, line.number);
    if (!inserted) {
      out.warnings.push_back(file_name + ":" + std::to_string(line.number) + ": game '" + record->id +
                             "' is already on line " + std::to_string(it->second) + "; this copy is ignored");
      continue;
    }
    out.games.push_back(std::move(record).value());
  }
  return out;
}

Expected<GamesFile> read_games(const std::filesystem::path& file) {
  std::string content;
  if (auto error = system::read_file(file, content)) return Error{*error};
  return parse_games(content, file.string());
}

}  // namespace kalah::journal
