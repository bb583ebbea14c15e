#include "arena/config/match_line.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/core.h>

#include "arena/config/command_line.h"
#include "referee/rules/spelling.h"

namespace kalah::arena {
namespace {

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

// One flag as given: "-engine" and its words up to the next flag.
struct Flag {
  std::string name;
  std::vector<std::string> words;
  std::string text() const {
    std::string t = name;
    for (const std::string& w : words) t += " " + w;
    return t;
  }
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// The TOML text with the flag behind every line.
class Toml {
 public:
  void line(const std::string& text, const std::string& origin) {
    toml_ += text + "\n";
    origins_.push_back(origin);
  }
  std::string& text() { return toml_; }
  std::vector<std::string>& origins() { return origins_; }

 private:
  std::string toml_;
  std::vector<std::string> origins_;
};

// What a key=value of -engine / -each becomes in TOML: the key and how its value is written.
enum class Kind { String, Integer, Boolean, Number, Seconds };  // Seconds: written as whole milliseconds
struct EngineKey {
  const char* flag;
  const char* toml;
  Kind kind;
  bool time;  // goes into the engine's time control
};
constexpr EngineKey kEngineKeys[] = {
    {"cmd", "cmd", Kind::String, false},
    {"name", "name", Kind::String, false},
    {"dir", "dir", Kind::String, false},
    {"proto", "protocol", Kind::String, false},
    {"protocol", "protocol", Kind::String, false},
    {"restart", "restart", Kind::String, false},
    {"stderr", "stderr", Kind::String, false},
    {"sandbox", "sandbox", Kind::String, false},
    {"keep_sandbox", "keep_sandbox", Kind::Boolean, false},
    {"memory_mb", "memory_mb", Kind::Integer, false},
    {"memory_enforcement", "memory_enforcement", Kind::String, false},
    {"max_file_mb", "max_file_mb", Kind::Integer, false},
    {"max_processes", "max_processes", Kind::Integer, false},
    {"max_output_kb", "max_output_kb", Kind::Integer, false},
    {"tc", "tc", Kind::String, true},
    {"st", "movetime_ms", Kind::Seconds, true},
    {"depth", "depth", Kind::Integer, true},
    {"nodes", "nodes", Kind::Integer, true},
    {"timemargin", "margin_ms", Kind::Integer, true},
};

const EngineKey* engine_key(std::string_view key) {
  for (const EngineKey& k : kEngineKeys)
    if (key == k.flag) return &k;
  return nullptr;
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

// Every key=value of an -engine (after the -each ones), checked; `arg` and `option.*` collect.
struct EngineFlags {
  std::string origin;
  std::vector<std::string> args;
  KeyValues options;  // option.NAME=VALUE, in order, later ones replacing earlier ones
  std::map<std::string, std::pair<std::string, std::string>> keys;  // TOML key -> (value, origin)
  std::map<std::string, std::pair<std::string, std::string>> time;  // TOML time key -> (value, origin)
};

// Every flag `arena match` takes, for "did you mean".
const std::vector<std::string> kFlagNames = {
    "-engine", "-each",   "-tournament", "-rounds",        "-games",  "-concurrency", "-openings", "-variant",
    "-sprt",   "-draw",   "-resign",     "-adjudicate",    "-event",  "-seed",        "-recover",  "-out",
    "-pgnout", "-repeat", "--clock",     "--print-config", "--fresh", "--help"};

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

std::optional<std::string> add_engine_words(const Flag& flag, EngineFlags& e) {
  for (const std::string& word : flag.words) {
    Expected<std::pair<std::string, std::string>> kv = split_pair(flag, word);
    if (!kv) return kv.error();
    const auto& [key, value] = *kv;
    if (key == "arg") {
      e.args.push_back(value);
      continue;
    }
    if (key.rfind("option.", 0) == 0) {
      const std::string name = key.substr(7);
      if (name.empty()) return flag.name + ": '" + word + "': option.NAME=VALUE needs a NAME";
      std::erase_if(e.options, [&](const auto& o) { return o.first == name; });
      e.options.emplace_back(name, value);
      continue;
    }
    const EngineKey* k = engine_key(key);
    if (!k) {
      std::string known = "arg, option.NAME";
      std::vector<std::string> names = {"arg"};
      for (const EngineKey& x : kEngineKeys) {
        known += std::string(", ") + x.flag;
        names.emplace_back(x.flag);
      }
      return flag.name + ": unknown key '" + key + "'" + did_you_mean(key, names) + " (known: " + known + ")";
    }
    // cutechess-cli's restart=on|off: a fresh process for every game, or only after a crash.
    const std::string given = key != "restart" ? value : value == "on" ? "always" : value == "off" ? "on-crash" : value;
    Expected<std::string> text = toml_value(flag, key, given, k->kind);
    if (!text) return text.error();
    (k->time ? e.time : e.keys)[k->toml] = {*text, flag.text()};
  }
  return std::nullopt;
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

// The words of `-variant pits=6 seeds=4 ...`, `-openings ...`, `-sprt ...`, `-draw ...`, `-resign ...` as
// TOML lines of one table.
struct TableKey {
  const char* flag;
  const char* toml;
  Kind kind;
};

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

std::string base_name(const std::string& cmd) {
  const std::string stem = std::filesystem::path(cmd).filename().string();
  return stem.empty() ? cmd : stem;
}

}  // namespace

Expected<MatchLine> parse_match_line(const std::vector<std::string>& args) {
  MatchLine out;
  std::vector<Flag> flags;
  for (const std::string& arg : args) {
    if (arg.size() > 1 && arg[0] == '-' && !is_whole_number(arg)) {
      flags.push_back({arg, {}});
    } else {
      if (flags.empty()) return Error{"'" + arg + "': expected a flag such as -engine (see arena match --help)"};
      flags.back().words.push_back(arg);
    }
  }

  Toml t;
  std::vector<EngineFlags> engines;
  std::vector<Flag> each;
  std::map<std::string, Flag> single;  // flags given at most once, by name
  std::vector<Flag> openings, variant, sprt, draw, resign, adjudicate;
  std::optional<Flag> clock;  // --clock wall|cpu: [time] clock
  auto no_words = [](const Flag& f) -> std::optional<std::string> {
    if (!f.words.empty()) return f.name + " takes no value, got '" + f.words.front() + "'";
    return std::nullopt;
  };
  auto one_word = [](const Flag& f) -> std::optional<std::string> {
    if (f.words.size() != 1) return f.name + " takes one value, got " + std::to_string(f.words.size());
    return std::nullopt;
  };
  for (const Flag& f : flags) {
    std::optional<std::string> problem;
    if (f.name == "--print-config" || f.name == "--fresh" || f.name == "-h" || f.name == "--help") {
      problem = no_words(f);
      (f.name == "--print-config" ? out.print_config : f.name == "--fresh" ? out.fresh : out.help) = true;
    } else if (f.name == "--clock") {
      problem = one_word(f);
      clock = f;
    } else if (f.name == "-engine") {
      if (f.words.empty()) problem = "-engine needs cmd=COMMAND and more KEY=VALUE words";
      engines.push_back({f.text(), {}, {}, {}, {}});
    } else if (f.name == "-each") {
      if (f.words.empty()) problem = "-each needs KEY=VALUE words";
      each.push_back(f);
    } else if (is_table_flag(f.name)) {
      if (f.words.empty()) problem = f.name + " needs KEY=VALUE words";
      auto& list = f.name == "-openings"  ? openings
                   : f.name == "-variant" ? variant
                   : f.name == "-sprt"    ? sprt
                   : f.name == "-draw"    ? draw
                   : f.name == "-resign"  ? resign
                                          : adjudicate;
      list.push_back(f);
    } else if (f.name == "-tournament" || f.name == "-rounds" || f.name == "-games" || f.name == "-concurrency" ||
               f.name == "-event" || f.name == "-seed" || f.name == "-out") {
      problem = one_word(f);
    } else if (f.name == "-pgnout") {
      if (f.words.empty()) problem = "-pgnout needs a file: -pgnout FILE or -pgnout file=FILE";
    } else if (f.name == "-recover") {
      problem = no_words(f);
    } else if (f.name == "-repeat") {
      // Both games of a pair always share the opening: cutechess's -repeat is what happens anyway.
      if (f.words.size() > 1 || (f.words.size() == 1 && f.words[0] != "2"))
        problem = "-repeat: every opening is played twice, colours swapped (-repeat or -repeat 2)";
    } else {
      problem = "unknown option '" + f.name + "'" + habitual_flag_hint(f.name) + " (see arena match --help)";
    }
    if (problem) return Error{*problem};
    if (f.name[0] == '-' && f.name[1] != '-' && f.name != "-engine" && f.name != "-each" && !is_table_flag(f.name) &&
        !single.emplace(f.name, f).second)
      return Error{f.name + " is given twice"};
  }
  if (out.help) return out;

  // Engines: -each first, then the engine's own words.
  {
    std::size_t e = 0;
    for (const Flag& f : flags) {
      if (f.name != "-engine") continue;
      for (const Flag& all : each)
        if (auto problem = add_engine_words(all, engines[e])) return Error{*problem};
      if (auto problem = add_engine_words(f, engines[e])) return Error{*problem};
      if (!engines[e].keys.count("cmd")) return Error{f.text() + ": cmd=COMMAND is missing"};
      ++e;
    }
  }
  if (engines.size() < 2) return Error{"give at least two -engine flags"};

  auto value_of = [&](const char* name) -> std::optional<Flag> {
    const auto it = single.find(name);
    return it == single.end() ? std::nullopt : std::optional<Flag>(it->second);
  };

  // [tournament]
  t.line("[tournament]", "");
  const std::optional<Flag> event = value_of("-event");
  t.line("name = " + toml_string(event ? event->words[0] : "match"), event ? event->text() : "");
  if (const auto f = value_of("-tournament")) t.line("type = " + toml_string(f->words[0]), f->text());
  int rounds = 1, games = 1;
  const std::optional<Flag> rounds_flag = value_of("-rounds"), games_flag = value_of("-games");
  if (rounds_flag) {
    if (!is_whole_number(rounds_flag->words[0]) || std::stoll(rounds_flag->words[0]) < 1 ||
        std::stoll(rounds_flag->words[0]) > 100000)
      return Error{"-rounds " + rounds_flag->words[0] + ": expected a whole number from 1 to 100000"};
    rounds = std::stoi(rounds_flag->words[0]);
  }
  if (games_flag) {
    if (games_flag->words[0] != "1" && games_flag->words[0] != "2")
      return Error{"-games " + games_flag->words[0] + ": expected 1 or 2 (games per encounter)"};
    games = std::stoi(games_flag->words[0]);
  }
  // -rounds R -games G is R x G games per pairing, as in cutechess; they are played as colour-swapped pairs
  // (without either flag: one pair).
  if (!rounds_flag && !games_flag) games = 2;
  if ((rounds * games) % 2 != 0)
    return Error{fmt::format(
        "-rounds {} -games {}: {} games per pairing; Kalah Arena plays colour-swapped pairs, so give an even "
        "number (-games 2, or an even -rounds)",
        rounds, games, rounds * games)};
  const std::string rounds_origin = (rounds_flag ? rounds_flag->text() : std::string()) +
                                    (games_flag ? (rounds_flag ? " " : "") + games_flag->text() : std::string());
  const int pairs = rounds * games / 2;
  if (sprt.empty()) t.line("rounds = " + std::to_string(pairs), rounds_origin);
  if (const auto f = value_of("-concurrency")) {
    if (!is_whole_number(f->words[0])) return Error{f->text() + ": expected a whole number"};
    t.line("concurrency = " + f->words[0], f->text());
  }
  if (const auto f = value_of("-seed")) {
    if (!is_whole_number(f->words[0])) return Error{f->text() + ": expected a whole number"};
    t.line("seed = " + f->words[0], f->text());
  }
  if (const auto f = value_of("-out")) t.line("output = " + toml_string(f->words[0]), f->text());
  if (const auto f = value_of("-pgnout")) {
    Expected<std::string> file = pgnout_file(*f);
    if (!file) return Error{file.error()};
    t.line("pgnout = " + toml_string(*file), f->text());
  }
  if (const auto f = value_of("-recover")) t.line("restart = \"on-crash\"", f->text());
  // -adjudicate, -draw and -resign: one inline table, tournament.adjudicate.
  if (!adjudicate.empty() || !draw.empty() || !resign.empty()) {
    std::string origin;
    Expected<std::string> own = inline_table(
        adjudicate,
        {{"store_majority", "store_majority", Kind::Boolean}, {"database_seeds", "database_seeds", Kind::Integer}},
        origin);
    if (!own) return Error{own.error()};
    Expected<std::string> drawn = inline_table(draw,
                                               {{"movenumber", "movenumber", Kind::Integer},
                                                {"movecount", "movecount", Kind::Integer},
                                                {"score", "score", Kind::Integer}},
                                               origin);
    if (!drawn) return Error{drawn.error()};
    Expected<std::string> resigned = inline_table(resign,
                                                  {{"movecount", "movecount", Kind::Integer},
                                                   {"score", "score", Kind::Integer},
                                                   {"twosided", "twosided", Kind::Boolean}},
                                                  origin);
    if (!resigned) return Error{resigned.error()};
    std::string table = *own;
    if (!draw.empty()) table += (table.empty() ? "" : ", ") + std::string("draw = { ") + *drawn + " }";
    if (!resign.empty()) table += (table.empty() ? "" : ", ") + std::string("resign = { ") + *resigned + " }";
    t.line("adjudicate = { " + table + " }", origin);
  }

  // [variant]
  if (!variant.empty()) {
    t.line("[variant]", "");
    std::set<std::string> seen;
    for (const Flag& f : variant)
      if (auto problem = add_table(f,
                                   {{"pits", "pits", Kind::Integer},
                                    {"seeds", "seeds", Kind::Integer},
                                    {"capture", "capture", Kind::String},
                                    {"ending", "ending", Kind::String},
                                    {"remainder", "remainder", Kind::String},
                                    {"majority", "majority", Kind::String},
                                    {"pie", "pie", Kind::String},
                                    {"start", "start", Kind::String}},
                                   t, seen))
        return Error{*problem};
  }

  // [time]: the engines' common time control; an engine that differs gets its own (time odds).
  std::map<std::string, std::pair<std::string, std::string>> common = engines.front().time;
  if (common.empty()) common["tc"] = {"\"10+0.1\"", ""};
  t.line("[time]", "");
  for (const auto& [key, value] : common) t.line(key + " = " + value.first, value.second);
  if (clock) t.line("clock = " + toml_string(clock->words[0]), clock->text());

  // [openings]
  if (!openings.empty()) {
    t.line("[openings]", "");
    bool has_file = false;
    for (const Flag& f : openings)
      for (const std::string& w : f.words) has_file = has_file || w.rfind("file=", 0) == 0;
    std::set<std::string> seen;
    for (const Flag& f : openings) {
      for (const std::string& w : f.words)
        if (has_file && w.rfind("plies=", 0) == 0)
          return Error{f.text() +
                       ": plies= with file= would cut book lines; they are played whole here (plies= alone gives "
                       "random openings of that many plies)"};
      if (auto problem = add_table(f,
                                   {{"file", "file", Kind::String},
                                    {"format", "format", Kind::String},
                                    {"order", "order", Kind::String},
                                    {"plies", "random_plies", Kind::Integer}},
                                   t, seen))
        return Error{*problem};
    }
  }

  // [sprt]: the game limit of -rounds/-games is its max_pairs.
  if (!sprt.empty()) {
    t.line("[sprt]", "");
    std::set<std::string> seen;
    for (const Flag& f : sprt)
      if (auto problem = add_table(f,
                                   {{"elo0", "elo0", Kind::Number},
                                    {"elo1", "elo1", Kind::Number},
                                    {"alpha", "alpha", Kind::Number},
                                    {"beta", "beta", Kind::Number},
                                    {"model", "model", Kind::String}},
                                   t, seen))
        return Error{*problem};
    if (rounds_flag || games_flag) t.line("max_pairs = " + std::to_string(pairs), rounds_origin);
  }

  // [[engine]]: a config's SPRT tests its second engine against its first (the base first, then the test), but
  // `-sprt`, as in cutechess-cli and fastchess, tests the first -engine against the second: with -sprt the
  // tables come in the other order. Names are given in the flags' order either way.
  std::set<std::string> names;
  for (EngineFlags& e : engines) {
    std::string name = e.keys.count("name") ? e.keys["name"].first : std::string();
    out.named.push_back(!name.empty());
    if (name.empty()) {
      // The command's file name, made unique as `referee match` does for self-play.
      std::string cmd = e.keys["cmd"].first;
      cmd = cmd.substr(1, cmd.size() - 2);
      std::string stem = base_name(cmd), candidate = stem;
      for (int k = 2; names.count(toml_string(candidate)); ++k) candidate = stem + "-" + std::to_string(k);
      name = toml_string(candidate);
      e.keys["name"] = {name, e.origin};
    }
    names.insert(name);
  }
  const bool tested_first = !sprt.empty() && engines.size() == 2;
  out.config_index.resize(engines.size());
  out.name_lines.resize(engines.size());
  for (std::size_t n = 0; n < engines.size(); ++n) out.config_index[n] = tested_first ? engines.size() - 1 - n : n;
  for (std::size_t place = 0; place < engines.size(); ++place) {
    const std::size_t flag = tested_first ? engines.size() - 1 - place : place;
    EngineFlags& e = engines[flag];
    if (tested_first)
      t.line(place == 0 ? "# base: the second -engine (-sprt tests the first -engine against the second)"
                        : "# test: the first -engine",
             "");
    t.line("[[engine]]", e.origin);
    out.name_lines[flag] = t.origins().size();
    for (const char* key : {"name", "cmd"}) t.line(std::string(key) + " = " + e.keys[key].first, e.keys[key].second);
    if (!e.args.empty()) {
      std::string list;
      for (const std::string& a : e.args) list += (list.empty() ? "" : ", ") + toml_string(a);
      t.line("args = [" + list + "]", e.origin);
    }
    for (const auto& [key, value] : e.keys)
      if (key != "name" && key != "cmd") t.line(key + " = " + value.first, value.second);
    if (e.time != common && !e.time.empty()) {
      std::string table;
      for (const auto& [key, value] : e.time) table += (table.empty() ? "" : ", ") + key + " = " + value.first;
      t.line("time = { " + table + " }", e.origin);
    }
    if (!e.options.empty()) {
      std::string table;
      for (const auto& [key, value] : e.options)
        table += (table.empty() ? "" : ", ") + toml_string(key) + " = " + toml_string(value);
      t.line("options = { " + table + " }", e.origin);
    }
  }
  out.toml = std::move(t.text());
  out.origins = std::move(t.origins());
  return out;
}

void set_engine_name(MatchLine& line, std::size_t engine, const std::string& name) {
  assert(engine < line.name_lines.size());
  std::size_t begin = 0;
  for (std::size_t n = 0; n < line.name_lines[engine]; ++n) begin = line.toml.find('\n', begin) + 1;
  const std::size_t end = line.toml.find('\n', begin);
  line.toml.replace(begin, end - begin, "name = " + toml_string(name));
}

Expected<Config> match_config(const MatchLine& line, const std::filesystem::path& work_dir) {
  static const std::string kSource = "arena match";
  Expected<Config> config = parse_config(line.toml, kSource, work_dir, work_dir);
  if (config) return config;
  // "arena match:LINE:COLUMN: message" -> "<the flag>: message".
  const std::string& error = config.error();
  if (error.rfind(kSource + ":", 0) != 0) return config;
  const std::size_t line_end = error.find(':', kSource.size() + 1);
  const std::size_t column_end = line_end == std::string::npos ? line_end : error.find(':', line_end + 1);
  if (column_end == std::string::npos) return config;
  int number = 0;
  const std::string digits = error.substr(kSource.size() + 1, line_end - kSource.size() - 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (ec != std::errc() || number < 1 || number > static_cast<int>(line.origins.size())) return config;
  const std::string& origin = line.origins[static_cast<std::size_t>(number - 1)];
  const std::string message = error.substr(column_end + 2);
  return Error{(origin.empty() ? kSource : origin) + ": " + message};
}

}  // namespace kalah::arena
