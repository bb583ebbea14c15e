#include "arena/config/match_flags.h"

#include <charconv>
#include <cmath>

#include "arena/config/command_line.h"
#include "referee/rules/spelling.h"

namespace kalah::arena::match_detail {

bool is_whole_number(std::string_view text) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::optional<double> decimal(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// KEY=VALUE with a non-empty key.
Expected<std::pair<std::string, std::string>> split_pair(const Flag& flag, const std::string& word) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return Error{flag.name + ": '" + word + "' is not KEY=VALUE"};
  return std::pair{word.substr(0, eq), word.substr(eq + 1)};
}

// A value as TOML, checked for its kind.
Expected<std::string> toml_value(const Flag& flag, const std::string& key, const std::string& value, Kind kind) {
  switch (kind) {
    case Kind::String: return toml_string(value);
    case Kind::Integer:
      if (!is_whole_number(value)) return Error{flag.name + ": " + key + "=" + value + ": expected a whole number"};
      return value;
    case Kind::Boolean:
      if (value == "true" || value == "on" || value == "yes") return std::string("true");
      if (value == "false" || value == "off" || value == "no") return std::string("false");
      return Error{flag.name + ": " + key + "=" + value + ": expected true or false"};
    case Kind::Number:
      if (!decimal(value)) return Error{flag.name + ": " + key + "=" + value + ": expected a number"};
      return value;
    case Kind::Seconds: {
      const std::optional<double> seconds = decimal(value);
      if (!seconds || *seconds <= 0)
        return Error{flag.name + ": " + key + "=" + value + ": expected seconds (a number > 0)"};
      return std::to_string(std::llround(*seconds * 1000));
    }
  }
  return Error{flag.name + ": " + key};
}

namespace {

// Every flag `arena match` takes, for "did you mean".
const std::vector<std::string> kFlagNames = {
    "-engine", "-each",   "-tournament", "-rounds",        "-games",  "-concurrency", "-openings", "-variant",
    "-sprt",   "-draw",   "-resign",     "-adjudicate",    "-event",  "-seed",        "-recover",  "-out",
    "-pgnout", "-repeat", "--clock",     "--print-config", "--fresh", "--help"};

}  // namespace

// What a flag of cutechess-cli or fastchess that `arena match` spells otherwise is here: "; use -seed N";
// else the flag it is nearest to, if it looks like a typo of one.
std::string habitual_flag_hint(const std::string& name) {
  static constexpr std::pair<std::string_view, std::string_view> kHabits[] = {
      {"-srand", "-seed N"},
      {"-ratinginterval", "rating_interval in [tournament] (arena match ... --print-config, then arena run)"},
      {"-maxmoves", "-adjudicate, or max_plies in [tournament]"},
      {"-tb", "-adjudicate database_seeds=K (the endgame database)"},
      {"-debug", "referee match --log FILE, or transcripts = \"all\" in [tournament]"},
      {"-resultformat", "the standings files of the results folder"},
  };
  for (const auto& [flag, instead] : kHabits)
    if (name == flag) return "; use " + std::string(instead);
  return did_you_mean(name, kFlagNames);
}

// The file of `-pgnout FILE` (cutechess-cli) or `-pgnout file=FILE [KEY=VALUE]...` (fastchess). The copy is
// written whole once the run ends (every game of the results folder, docs/CLI.md), and the PGN holds one
// comment per game, not per move: fastchess's keys that ask for what this file does are taken, those that
// ask for something else are refused with the reason.
Expected<std::string> pgnout_file(const Flag& flag) {
  std::optional<std::string> file;
  for (const std::string& word : flag.words) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) {
      if (word == "min" || word == "fi")
        return Error{flag.text() + ": '" + word +
                     "' is not taken: the PGN is written whole, with every tag, once the run ends (docs/CLI.md)"};
      if (file) return Error{flag.text() + ": give one file"};
      file = word;
      continue;
    }
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    const bool on = value == "true" || value == "on" || value == "yes";
    const bool off = value == "false" || value == "off" || value == "no";
    if (key == "file") {
      if (file) return Error{flag.text() + ": give one file"};
      if (value.empty()) return Error{flag.text() + ": file= needs a file name"};
      file = value;
    } else if (key == "append") {
      if (on)
        return Error{flag.text() +
                     ": append=true is not taken: the file is written whole once the run ends, every game of the "
                     "results folder (a resumed run's too), replacing what it held; leave append out or give "
                     "append=false"};
      if (!off) return Error{flag.text() + ": append=" + value + ": expected true or false"};
    } else if (key == "nodes" || key == "seldepth" || key == "nps" || key == "hashfull" || key == "tbhits" ||
               key == "timeleft" || key == "latency" || key == "pv" || key == "min") {
      if (on)
        return Error{flag.text() + ": " + key +
                     "=true is not taken: the PGN has no comment per move; each move's time and the engines' info "
                     "lines are in the journal (games.jsonl, docs/FORMATS.md)"};
      if (!off) return Error{flag.text() + ": " + key + "=" + value + ": expected true or false"};
    } else if (key == "notation") {
      return Error{flag.text() +
                   ": notation= is not taken: a Kalah ply is a pit number, written one way ({plies: S3 N1 ...})"};
    } else {
      return Error{flag.text() + ": unknown key '" + key +
                   "' (known: file, append=false; the cutechess form is -pgnout FILE)"};
    }
  }
  if (!file) return Error{flag.text() + ": give the file: -pgnout FILE or -pgnout file=FILE"};
  return *file;
}

std::optional<std::string> add_table(const Flag& flag, std::initializer_list<TableKey> known, Toml& out,
                                     std::set<std::string>& seen) {
  for (const std::string& word : flag.words) {
    Expected<std::pair<std::string, std::string>> kv = split_pair(flag, word);
    if (!kv) return kv.error();
    const auto& [key, value] = *kv;
    const TableKey* k = nullptr;
    for (const TableKey& x : known)
      if (key == x.flag) k = &x;
    if (!k) {
      std::string names;
      std::vector<std::string> words;
      for (const TableKey& x : known) {
        names += (names.empty() ? "" : ", ") + std::string(x.flag);
        words.emplace_back(x.flag);
      }
      return flag.name + ": unknown key '" + key + "'" + did_you_mean(key, words) + " (known: " + names + ")";
    }
    if (!seen.insert(k->toml).second) return flag.name + ": " + key + " is given twice";
    Expected<std::string> text = toml_value(flag, key, value, k->kind);
    if (!text) return text.error();
    out.line(std::string(k->toml) + " = " + *text, flag.text());
  }
  return std::nullopt;
}

// The flags whose KEY=VALUE words fill one TOML table; they may be given more than once.
bool is_table_flag(std::string_view name) {
  return name == "-openings" || name == "-variant" || name == "-sprt" || name == "-draw" || name == "-resign" ||
         name == "-adjudicate";
}

// The words of some flags as the inside of a TOML inline table: "movecount = 3, score = 20".
Expected<std::string> inline_table(const std::vector<Flag>& flags, std::initializer_list<TableKey> known,
                                   std::string& origin) {
  std::set<std::string> seen;
  Toml lines;
  for (const Flag& f : flags) {
    origin += (origin.empty() ? "" : " ") + f.text();
    if (auto problem = add_table(f, known, lines, seen)) return Error{*problem};
  }
  std::string inner;
  const std::string& text = lines.text();
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    inner += (inner.empty() ? "" : ", ") + text.substr(at, end - at);
    at = end + 1;
  }
  return inner;
}

}  // namespace kalah::arena::match_detail
