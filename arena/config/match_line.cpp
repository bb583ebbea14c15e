#include "arena/config/match_line.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/core.h>

#include "arena/config/command_line.h"
#include "arena/config/match_flags.h"
#include "referee/rules/spelling.h"

namespace kalah::arena {
namespace {
using namespace match_detail;

// What a key=value of -engine / -each becomes in TOML: the key and how its value is written.
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
    {"kgp_no_move", "kgp_no_move", Kind::String, false},
    {"kgp_transport", "kgp_transport", Kind::String, false},
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

// Every key=value of an -engine (after the -each ones), checked; `arg` and `option.*` collect.
struct EngineFlags {
  std::string origin;
  std::vector<std::string> args;
  KeyValues options;  // option.NAME=VALUE, in order, later ones replacing earlier ones
  std::map<std::string, std::pair<std::string, std::string>> keys;  // TOML key -> (value, origin)
  std::map<std::string, std::pair<std::string, std::string>> time;  // TOML time key -> (value, origin)
};

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

std::string base_name(const std::string& cmd) {
  const std::string stem = std::filesystem::path(cmd).filename().string();
  return stem.empty() ? cmd : stem;
}

// The flags of one command line, sorted by what they fill.
struct Flags {
  std::vector<Flag> all;               // in order
  std::vector<EngineFlags> engines;    // per -engine
  std::vector<Flag> each;              // -each
  std::map<std::string, Flag> single;  // flags given at most once, by name
  std::vector<Flag> openings, variant, sprt, draw, resign, adjudicate;
  std::optional<Flag> clock;  // --clock wall|cpu: [time] clock

  std::optional<Flag> value_of(const char* name) const {
    const auto it = single.find(name);
    return it == single.end() ? std::nullopt : std::optional<Flag>(it->second);
  }
};

// The words of the command line grouped by flag: "-engine" and its words up to the next flag.
Expected<std::vector<Flag>> group_flags(const std::vector<std::string>& args) {
  std::vector<Flag> flags;
  for (const std::string& arg : args) {
    if (arg.size() > 1 && arg[0] == '-' && !is_whole_number(arg)) {
      flags.push_back({arg, {}});
    } else {
      if (flags.empty()) return Error{"'" + arg + "': expected a flag such as -engine (see arena match --help)"};
      flags.back().words.push_back(arg);
    }
  }
  return flags;
}

// One flag checked for its number of words and filed in `in`; --print-config, --fresh and --help set `out`.
std::optional<std::string> sort_flag(const Flag& f, Flags& in, MatchLine& out) {
  auto no_words = [](const Flag& g) -> std::optional<std::string> {
    if (!g.words.empty()) return g.name + " takes no value, got '" + g.words.front() + "'";
    return std::nullopt;
  };
  auto one_word = [](const Flag& g) -> std::optional<std::string> {
    if (g.words.size() != 1) return g.name + " takes one value, got " + std::to_string(g.words.size());
    return std::nullopt;
  };
  std::optional<std::string> problem;
  if (f.name == "--print-config" || f.name == "--fresh" || f.name == "-h" || f.name == "--help") {
    problem = no_words(f);
    (f.name == "--print-config" ? out.print_config : f.name == "--fresh" ? out.fresh : out.help) = true;
  } else if (f.name == "--clock") {
    problem = one_word(f);
    in.clock = f;
  } else if (f.name == "-engine") {
    if (f.words.empty()) problem = "-engine needs cmd=COMMAND and more KEY=VALUE words";
    in.engines.push_back({f.text(), {}, {}, {}, {}});
  } else if (f.name == "-each") {
    if (f.words.empty()) problem = "-each needs KEY=VALUE words";
    in.each.push_back(f);
  } else if (is_table_flag(f.name)) {
    if (f.words.empty()) problem = f.name + " needs KEY=VALUE words";
    auto& list = f.name == "-openings"  ? in.openings
                 : f.name == "-variant" ? in.variant
                 : f.name == "-sprt"    ? in.sprt
                 : f.name == "-draw"    ? in.draw
                 : f.name == "-resign"  ? in.resign
                                        : in.adjudicate;
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
  if (problem) return problem;
  if (f.name[0] == '-' && f.name[1] != '-' && f.name != "-engine" && f.name != "-each" && !is_table_flag(f.name) &&
      !in.single.emplace(f.name, f).second)
    return f.name + " is given twice";
  return std::nullopt;
}

// Each -engine's words, after those of every -each.
std::optional<std::string> fill_engines(Flags& in) {
  std::size_t e = 0;
  for (const Flag& f : in.all) {
    if (f.name != "-engine") continue;
    for (const Flag& all : in.each)
      if (auto problem = add_engine_words(all, in.engines[e])) return problem;
    if (auto problem = add_engine_words(f, in.engines[e])) return problem;
    if (!in.engines[e].keys.count("cmd")) return f.text() + ": cmd=COMMAND is missing";
    ++e;
  }
  if (in.engines.size() < 2) return "give at least two -engine flags";
  return std::nullopt;
}

// -rounds R -games G: R x G games per pairing, as in cutechess, played as colour-swapped pairs (without either
// flag: one pair). The pairs, and the flags that gave them ("" for none).
Expected<std::pair<int, std::string>> game_pairs(const Flags& in) {
  int rounds = 1, games = 1;
  const std::optional<Flag> rounds_flag = in.value_of("-rounds"), games_flag = in.value_of("-games");
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
  if (!rounds_flag && !games_flag) games = 2;
  if ((rounds * games) % 2 != 0)
    return Error{fmt::format(
        "-rounds {} -games {}: {} games per pairing; Kalah Arena plays colour-swapped pairs, so give an even "
        "number (-games 2, or an even -rounds)",
        rounds, games, rounds * games)};
  const std::string origin = (rounds_flag ? rounds_flag->text() : std::string()) +
                             (games_flag ? (rounds_flag ? " " : "") + games_flag->text() : std::string());
  return std::pair{rounds * games / 2, origin};
}

// -adjudicate, -draw and -resign: one inline table, tournament.adjudicate.
std::optional<std::string> write_adjudicate(const Flags& in, Toml& t) {
  if (in.adjudicate.empty() && in.draw.empty() && in.resign.empty()) return std::nullopt;
  std::string origin;
  Expected<std::string> own = inline_table(
      in.adjudicate,
      {{"store_majority", "store_majority", Kind::Boolean}, {"database_seeds", "database_seeds", Kind::Integer}},
      origin);
  if (!own) return own.error();
  Expected<std::string> drawn = inline_table(in.draw,
                                             {{"movenumber", "movenumber", Kind::Integer},
                                              {"movecount", "movecount", Kind::Integer},
                                              {"score", "score", Kind::Integer}},
                                             origin);
  if (!drawn) return drawn.error();
  Expected<std::string> resigned = inline_table(in.resign,
                                                {{"movecount", "movecount", Kind::Integer},
                                                 {"score", "score", Kind::Integer},
                                                 {"twosided", "twosided", Kind::Boolean}},
                                                origin);
  if (!resigned) return resigned.error();
  std::string table = *own;
  if (!in.draw.empty()) table += (table.empty() ? "" : ", ") + std::string("draw = { ") + *drawn + " }";
  if (!in.resign.empty()) table += (table.empty() ? "" : ", ") + std::string("resign = { ") + *resigned + " }";
  t.line("adjudicate = { " + table + " }", origin);
  return std::nullopt;
}

// [tournament]; `pairs` from game_pairs().
std::optional<std::string> write_tournament(const Flags& in, const std::pair<int, std::string>& pairs, Toml& t) {
  t.line("[tournament]", "");
  const std::optional<Flag> event = in.value_of("-event");
  t.line("name = " + toml_string(event ? event->words[0] : "match"), event ? event->text() : "");
  const auto type = in.value_of("-tournament");
  if (type) t.line("type = " + toml_string(type->words[0]), type->text());
  // The key that says what it counts (kinds.h): a Swiss plays rounds of one pair each, the others pairs.
  const TournamentKind* kind = kind_named(type ? type->words[0] : kind_of(kDefaultKind).name);
  const bool swiss = kind && kind->rounds == RoundsCount::SwissRounds;
  if (in.sprt.empty()) t.line((swiss ? "rounds = " : "pairs = ") + std::to_string(pairs.first), pairs.second);
  for (const char* name : {"-concurrency", "-seed"}) {
    const auto f = in.value_of(name);
    if (!f) continue;
    if (!is_whole_number(f->words[0])) return f->text() + ": expected a whole number";
    t.line(std::string(name + 1) + " = " + f->words[0], f->text());
  }
  if (const auto f = in.value_of("-out")) t.line("output = " + toml_string(f->words[0]), f->text());
  if (const auto f = in.value_of("-pgnout")) {
    Expected<std::string> file = pgnout_file(*f);
    if (!file) return file.error();
    t.line("pgnout = " + toml_string(*file), f->text());
  }
  if (const auto f = in.value_of("-recover")) t.line("restart = \"on-crash\"", f->text());
  return write_adjudicate(in, t);
}

// [openings]: a book (file=) is played whole, so plies= goes with random openings only.
std::optional<std::string> write_openings(const Flags& in, Toml& t) {
  if (in.openings.empty()) return std::nullopt;
  t.line("[openings]", "");
  bool has_file = false;
  for (const Flag& f : in.openings)
    for (const std::string& w : f.words) has_file = has_file || w.rfind("file=", 0) == 0;
  std::set<std::string> seen;
  for (const Flag& f : in.openings) {
    for (const std::string& w : f.words)
      if (has_file && w.rfind("plies=", 0) == 0)
        return f.text() +
               ": plies= with file= would cut book lines; they are played whole here (plies= alone gives "
               "random openings of that many plies)";
    if (auto problem = add_table(f,
                                 {{"file", "file", Kind::String},
                                  {"format", "format", Kind::String},
                                  {"order", "order", Kind::String},
                                  {"plies", "random_plies", Kind::Integer}},
                                 t, seen))
      return problem;
  }
  return std::nullopt;
}

// The engines' common time control ([time]): the first engine's, or the default clock.
std::map<std::string, std::pair<std::string, std::string>> common_time(const Flags& in) {
  std::map<std::string, std::pair<std::string, std::string>> common = in.engines.front().time;
  if (common.empty()) common["tc"] = {toml_string(TimeControl{}.clock_text()), ""};  // TimeControl's own clock
  return common;
}

// [variant], [time], [openings] and [sprt] (whose max_pairs is the game limit of -rounds/-games).
std::optional<std::string> write_tables(const Flags& in, const std::pair<int, std::string>& pairs, Toml& t) {
  if (!in.variant.empty()) {
    t.line("[variant]", "");
    std::set<std::string> seen;
    for (const Flag& f : in.variant)
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
        return problem;
  }
  // [time]: the engines' common time control; an engine that differs gets its own (time odds).
  t.line("[time]", "");
  for (const auto& [key, value] : common_time(in)) t.line(key + " = " + value.first, value.second);
  if (in.clock) t.line("clock = " + toml_string(in.clock->words[0]), in.clock->text());
  if (auto problem = write_openings(in, t)) return problem;
  if (in.sprt.empty()) return std::nullopt;
  t.line("[sprt]", "");
  std::set<std::string> seen;
  for (const Flag& f : in.sprt)
    if (auto problem = add_table(f,
                                 {{"elo0", "elo0", Kind::Number},
                                  {"elo1", "elo1", Kind::Number},
                                  {"alpha", "alpha", Kind::Number},
                                  {"beta", "beta", Kind::Number},
                                  {"model", "model", Kind::String}},
                                 t, seen))
      return problem;
  if (!pairs.second.empty()) t.line("max_pairs = " + std::to_string(pairs.first), pairs.second);
  return std::nullopt;
}

// Engines without name= are named after their command's file name, made unique as `referee match` does for
// self-play; `out.named` says which were.
void name_engines(Flags& in, MatchLine& out) {
  std::set<std::string> names;
  for (EngineFlags& e : in.engines) {
    std::string name = e.keys.count("name") ? e.keys["name"].first : std::string();
    out.named.push_back(!name.empty());
    if (name.empty()) {
      std::string cmd = e.keys["cmd"].first;
      cmd = cmd.substr(1, cmd.size() - 2);
      std::string stem = base_name(cmd), candidate = stem;
      for (int k = 2; names.count(toml_string(candidate)); ++k) candidate = stem + "-" + std::to_string(k);
      name = toml_string(candidate);
      e.keys["name"] = {name, e.origin};
    }
    names.insert(name);
  }
}

// One [[engine]] table; an engine whose time control is not the common one ([time]) gets its own.
void write_engine(EngineFlags& e, const std::map<std::string, std::pair<std::string, std::string>>& common, Toml& t) {
  t.line("[[engine]]", e.origin);
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

// [[engine]]: a config's SPRT tests its second engine against its first (the base first, then the test), but
// `-sprt`, as in cutechess-cli and fastchess, tests the first -engine against the second: with -sprt the
// tables come in the other order. Names are given in the flags' order either way.
void write_engines(Flags& in, MatchLine& out, Toml& t) {
  name_engines(in, out);
  std::vector<EngineFlags>& engines = in.engines;
  const bool tested_first = !in.sprt.empty() && engines.size() == 2;
  const std::map<std::string, std::pair<std::string, std::string>> common = common_time(in);
  out.config_index.resize(engines.size());
  out.name_lines.resize(engines.size());
  for (std::size_t n = 0; n < engines.size(); ++n) out.config_index[n] = tested_first ? engines.size() - 1 - n : n;
  for (std::size_t place = 0; place < engines.size(); ++place) {
    const std::size_t flag = tested_first ? engines.size() - 1 - place : place;
    if (tested_first)
      t.line(place == 0 ? "# base: the second -engine (-sprt tests the first -engine against the second)"
                        : "# test: the first -engine",
             "");
    out.name_lines[flag] = t.origins().size() + 1;
    write_engine(engines[flag], common, t);
  }
}

}  // namespace

Expected<MatchLine> parse_match_line(const std::vector<std::string>& args) {
  MatchLine out;
  Expected<std::vector<Flag>> grouped = group_flags(args);
  if (!grouped) return Error{grouped.error()};
  Flags in;
  in.all = std::move(grouped).value();
  for (const Flag& f : in.all)
    if (auto problem = sort_flag(f, in, out)) return Error{*problem};
  if (out.help) return out;
  if (auto problem = fill_engines(in)) return Error{*problem};
  const Expected<std::pair<int, std::string>> pairs = game_pairs(in);
  if (!pairs) return Error{pairs.error()};
  Toml t;
  if (auto problem = write_tournament(in, *pairs, t)) return Error{*problem};
  if (auto problem = write_tables(in, *pairs, t)) return Error{*problem};
  write_engines(in, out, t);
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
