// Reading a games.jsonl journal (docs/FORMATS.md). Read-only: Journal::open
// decides what to do with a torn last line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::journal {

// The last line of the file when it cannot be a finished write: it does not
// parse (a run killed in the middle of a write, or a crash that left zeros).
struct TornLine {
  int line = 0;               // 1-based
  std::uintmax_t offset = 0;  // where it starts: the file's good prefix ends here
  std::string error;          // why it does not parse
};

struct GamesFile {
  std::vector<GameRecord> games;       // file order; the first line of each id only
  std::vector<std::string> warnings;   // duplicate ids ("games.jsonl:12: ...")
  std::optional<TornLine> torn;        // an unparsable last line (not in `games`)
  bool missing_final_newline = false;  // the last line parsed but has no '\n' after it
};

// Every line must hold one record (record_from_json); blank lines are skipped.
// A bad line before the last one is an error "games.jsonl:LINE: message";
// a bad last line is reported in `torn` instead.
Expected<GamesFile> parse_games(std::string_view content, const std::string& file_name);

// parse_games on a file; an error if it cannot be read.
Expected<GamesFile> read_games(const std::filesystem::path& file);

}  // namespace kalah::journal
