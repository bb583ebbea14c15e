// Reading a config file (docs/CONFIG.md): one Parser walks the TOML tables in file order and
// checks every key where it is read, so each message carries the key's own line and column.
// Over 400 lines because it is one table per section ([tournament], [variant], [time],
// [openings], [sprt], [[engine]]) and the checks are the documentation of what each key accepts;
// splitting the sections into files would scatter that one list of rules.
#include "arena/config/config.h"

#include <sched.h>
#include <unistd.h>
#include <algorithm>

#include <set>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <utility>

#include <toml++/toml.h>

#include "arena/config/entries.h"
#include "arena/config/openings.h"
#include "arena/config/paths.h"
#include "arena/config/toml_table.h"
#include "referee/engine/sandbox.h"
#include "referee/game/transcript.h"
#include "referee/rules/spelling.h"
#include "referee/rules/words.h"
#include "referee/solver/solver.h"
#include "referee/suite/labels.h"
#include "referee/system/confusables.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"

namespace kalah::arena {
namespace fs = std::filesystem;
using detail::ConfigFailure;
using detail::in_quotes;
using detail::Locator;
using detail::Table;

const char* to_string(TournamentType t) {
  switch (t) {
    case TournamentType::RoundRobin: return "round-robin";
    case TournamentType::Gauntlet: return "gauntlet";
    case TournamentType::Swiss: return "swiss";
    case TournamentType::Knockout: return "knockout";
  }
  return "?";
}

const char* to_string(TranscriptMode m) {
  switch (m) {
    case TranscriptMode::Forfeits: return "forfeits";
    case TranscriptMode::All: return "all";
    case TranscriptMode::None: return "none";
  }
  return "?";
}

int max_database_seeds(const Variant& v) {
  return endgame::levels_for_memory(v.pits, std::uint64_t{1} << 30, endgame::Database::kMaxLevels);
}

std::string AdjudicationConfig::describe() const {
  std::string s;
  auto add = [&s](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (store_majority) add("store_majority=true");
  if (database_seeds >= 0) add("database_seeds=" + std::to_string(database_seeds));
  if (draw)
    add("draw=movenumber:" + std::to_string(draw->move_number) + ",movecount:" + std::to_string(draw->move_count) +
        ",score:" + std::to_string(draw->score));
  if (resign)
    add("resign=movecount:" + std::to_string(resign->move_count) + ",score:" + std::to_string(resign->score) +
        ",twosided:" + (resign->two_sided ? "true" : "false"));
  return s;
}

const char* to_string(GamesRule r) { return r == GamesRule::Keep ? "keep" : "void"; }

bool Config::games_count(int i) const {
  if (entries.empty() || !submissions) return true;
  switch (entries[static_cast<std::size_t>(i)].status) {
    case EntryStatus::Active: return true;
    case EntryStatus::Withdrawn: return submissions->withdrawn == GamesRule::Keep;
    case EntryStatus::Disqualified: return submissions->disqualified == GamesRule::Keep;
  }
  return true;
}

EngineSpec gate_opponent(const Config& config) {
  const GateConfig& gate = *config.submissions->gate;
  EngineSpec e;
  // Not a name a bot can have (bot.toml names are letters, digits, '.', '_' and '-'): its forfeits are its own.
  e.name = gate.opponent + " (gate opponent)";
  e.cmd_as_written = gate.opponent;
  e.cmd = gate.opponent_cmd;
  e.restart = config.tournament.restart;
  e.sandbox = config.tournament.sandbox;
  e.keep_sandbox = config.tournament.keep_sandbox;
  e.limits = config.tournament.limits;
  // Without a dir of its own a sandboxed engine sees its executable only, as an [[engine]] does.
  if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
  return e;
}

std::string gate_key(const Config& config) {
  const GateConfig& gate = *config.submissions->gate;
  std::string key;
  if (gate.plays_games())
    key += "opponent=" + gate.opponent + " games=" + std::to_string(gate.games) +
           " min_score=" + detail::format_number(gate.min_score) + " ";
  if (gate.runs_suite())
    key += "suite=" + std::to_string(gate.suite) + " min_perfect=" + detail::format_number(gate.min_perfect) + " ";
  key += "variant=" + to_string(config.variant);
  if (config.start) key += " start=" + to_start_notation(config.variant, *config.start);
  return key + " time=" + config.time.describe() + " seed=" + std::to_string(config.tournament.seed);
}

const char* to_string(OpeningOrder o) { return o == OpeningOrder::Sequential ? "sequential" : "random"; }

bool OpeningsConfig::has_positions() const {
  return std::any_of(book.begin(), book.end(), [](const OpeningLine& line) { return line.start.has_value(); });
}

bool Config::uses_positions() const { return start.has_value() || openings.has_positions(); }

int Config::engine_index(std::string_view name) const {
  for (size_t i = 0; i < engines.size(); ++i)
    if (engines[i].name == name) return static_cast<int>(i);
  return -1;
}

std::filesystem::path Config::journal_dir() const {
  return shard ? results_dir() / "shards" / shard->text() : results_dir();
}

EngineSpec Config::engine_for_game(int engine, const std::string& game_id) const {
  EngineSpec spec = engines[static_cast<std::size_t>(engine)];
  std::string path = spec.stderr_file.string();
  auto replace_all = [&](std::string_view key, const std::string& value) {
    for (std::size_t at = path.find(key); at != std::string::npos; at = path.find(key, at + value.size()))
      path.replace(at, key.size(), value);
  };
  replace_all("{shard}", shard ? shard->text() : "all");
  replace_all("{game}", game_id);
  spec.stderr_file = path;
  return spec;
}

Expected<std::vector<int>> parse_cpu_list(std::string_view text) {
  std::set<int> cpus;
  auto number = [](std::string_view digits) -> std::optional<int> {
    if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    return std::stoi(std::string(digits));
  };
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view part = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t dash = part.find('-');
    const std::optional<int> lo = number(part.substr(0, dash));
    const std::optional<int> hi = dash == std::string_view::npos ? lo : number(part.substr(dash + 1));
    if (!lo || !hi || *lo > *hi || *hi >= CPU_SETSIZE)
      return Error{"'" + std::string(text.substr(0, 64)) + "' is not a CPU list such as \"0-3,6\""};
    for (int c = *lo; c <= *hi; ++c) cpus.insert(c);
  }
  if (cpus.empty()) return Error{"the CPU list is empty"};
  return std::vector<int>(cpus.begin(), cpus.end());
}

namespace {

std::string cpu_text(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]) + (j > i ? "-" + std::to_string(cpus[j]) : "");
    i = j;
  }
  return out;
}

}  // namespace

Expected<std::vector<std::vector<int>>> cpu_slots(const Config& config) {
  const TournamentConfig& t = config.tournament;
  if (!t.pin && t.cpus.empty()) return std::vector<std::vector<int>>{};
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (::sched_getaffinity(0, sizeof mine, &mine) != 0) return Error{"cannot read the arena's CPU affinity"};
  std::vector<int> allowed;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mine)) allowed.push_back(c);
  std::vector<int> pool = allowed;
  if (!t.cpus.empty()) {
    for (int c : t.cpus)
      if (!CPU_ISSET(c, &mine))
        return Error{"tournament.cpus names CPU " + std::to_string(c) + ", which the arena may not use (it may use " +
                     cpu_text(allowed) + ")"};
    pool = t.cpus;
  }
  const int slots = std::max(1, t.concurrency);
  if (static_cast<int>(pool.size()) < slots)
    return Error{"concurrency " + std::to_string(slots) + " needs at least " + std::to_string(slots) +
                 " CPUs to give each game its own, but only " + std::to_string(pool.size()) + " (" + cpu_text(pool) +
                 ") are available: lower the concurrency or give more CPUs"};
  const std::size_t each = pool.size() / static_cast<std::size_t>(slots);
  std::vector<std::vector<int>> out;
  for (int i = 0; i < slots; ++i)
    out.emplace_back(pool.begin() + static_cast<long>(i * each), pool.begin() + static_cast<long>((i + 1) * each));
  return out;
}

Expected<Shard> parse_shard(std::string_view text) {
  const std::string bad = "--shard '" + std::string(text) + "': ";
  const std::size_t slash = text.find('/');
  auto number = [](std::string_view digits) -> std::optional<int> {
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    return std::stoi(std::string(digits));
  };
  if (slash == std::string_view::npos) return Error{bad + "expected I/N, e.g. 2/4 (shard 2 of 4)"};
  const std::optional<int> index = number(text.substr(0, slash)), count = number(text.substr(slash + 1));
  if (!index || !count) return Error{bad + "expected I/N with whole numbers, e.g. 2/4 (shard 2 of 4)"};
  if (*count < 1) return Error{bad + "the number of shards must be at least 1"};
  if (*index < 1 || *index > *count)
    return Error{bad + "shards are numbered 1 to " + std::to_string(*count) + " (1-based)"};
  return Shard{*index, *count};
}

namespace {

constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kOneDayMs = 86'400'000;
constexpr std::int64_t kOneHourMs = 3'600'000;
constexpr std::int64_t kBillion = 1'000'000'000;

// A config is a small text file; anything bigger is a mistake (a log, an image, /dev/zero).
constexpr std::uintmax_t kMaxConfigBytes = 4 << 20;

// The whole file, or why not ("does not exist", "is a directory", "cannot be read", too big).
Expected<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error{"does not exist"};
  if (fs::is_directory(path, ec)) return Error{"is a directory"};
  if (!fs::is_regular_file(path, ec)) return Error{"is not a regular file (a config is a TOML text file)"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot be read"};
  // Read at most one byte more than allowed, whatever the size said: the file may be growing.
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return Error{"cannot be read"};
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxConfigBytes)
    return Error{"is larger than " + std::to_string(kMaxConfigBytes >> 20) + " MB, too big for a config file"};
  return text;
}

// Why the engine's stderr log cannot be appended to, checked at load rather than at the first game.
// A folder part with a {shard} or {game} placeholder is known only later and is not checked.
std::optional<std::string> stderr_problem(const fs::path& file) {
  const fs::path folder = file.parent_path();
  std::error_code ec;
  if (file.string().find('{') == std::string::npos && fs::exists(file, ec) && !fs::is_regular_file(file, ec))
    return file.string() + " is not a regular file";
  if (folder.string().find('{') != std::string::npos) return std::nullopt;
  if (!fs::is_directory(folder, ec)) return "the folder " + folder.string() + " does not exist (it is not created)";
  if (::access(folder.c_str(), W_OK) != 0 && !fs::exists(file, ec))
    return "the folder " + folder.string() + " is not writable";
  if (fs::exists(file, ec) && ::access(file.c_str(), W_OK) != 0) return file.string() + " is not writable";
  return std::nullopt;
}

bool valid_tournament_name(std::string_view name) {
  for (char c : name) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool has_control(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

// Engine names end up in tables, PGN tags and JSON: keep them plain.
class Parser {
 public:
  Parser(std::string path, fs::path base_dir, fs::path work_dir)
      : loc_(std::move(path)), work_dir_(std::move(work_dir)), config_dir_(absolute_from(work_dir_, base_dir)) {}

  Config parse(const toml::table& root) {
    Config c;
    c.source = loc_.path();
    check_top_level(root);
    read_tournament(root, c);
    if (const toml::table* t = section(root, "variant")) read_variant(*t, c);
    read_time(root, c);
    if (const toml::table* t = section(root, "openings")) read_openings(*t, c);
    if (const toml::table* t = section(root, "sprt")) read_sprt(*t, c);
    read_adjudicate(root, c);
    if (const toml::table* t = section(root, "submissions")) read_submissions(*t, root, c);
    read_engines(root, c);
    read_seed_engines(root, c);
    if (const toml::table* t = section(root, "rating")) read_rating(*t, c);
    if (const toml::table* t = section(root, "ranking")) read_ranking(*t, c);
    if (const toml::table* t = section(root, "analysis")) read_analysis(*t, c);
    if (c.sprt && plays_by_rounds(c.tournament.type))
      loc_.fail(root["sprt"].node()->source(),
                std::string("[sprt] plays an open-ended match of two engines; it cannot be "
                            "combined with tournament.type = \"") +
                    to_string(c.tournament.type) + "\"");
    if (c.sprt && !c.sprt->git && c.engines.size() != 2)
      loc_.fail(
          root["sprt"].node()->source(),
          "[sprt] needs exactly two engines (the base first, then the test), not " + std::to_string(c.engines.size()));
    return c;
  }

 private:
  [[noreturn]] void fail_top(const std::string& message) const { throw ConfigFailure{loc_.at(1, 1) + message}; }

  void check_top_level(const toml::table& root) const {
    static constexpr std::string_view known[] = {"tournament", "variant", "time",   "openings",    "sprt",
                                                 "rating",     "ranking", "engine", "submissions", "analysis"};
    const toml::key* first_unknown = nullptr;
    for (auto&& [key, value] : root) {
      bool is_known = false;
      for (std::string_view k : known) is_known = is_known || key.str() == k;
      if (!is_known && (!first_unknown || detail::before(key.source(), first_unknown->source()))) first_unknown = &key;
    }
    if (!first_unknown) return;
    const std::optional<std::string> meant =
        nearest_word(first_unknown->str(), std::vector<std::string>(std::begin(known), std::end(known)));
    loc_.fail(first_unknown->source(), "unknown table or key " + in_quotes(first_unknown->str()) + " at the top level" +
                                           (meant ? " (did you mean " + in_quotes(*meant) + "?)" : "") +
                                           "; known: [tournament], [variant], [time], [openings], "
                                           "[sprt], [rating], [ranking], [submissions], [analysis], [[engine]]");
  }

  // The table `name`, nullptr when absent; anything else than a table is an error.
  const toml::table* section(const toml::table& root, std::string_view name) const {
    const toml::node* node = root.get(name);
    if (!node) return nullptr;
    if (!node->is_table())
      loc_.fail(node->source(), std::string(name) + " must be a table ([" + std::string(name) + "]), not " +
                                    detail::describe(node->type()));
    return node->as_table();
  }

  void read_tournament(const toml::table& root, Config& c) const {
    const toml::table* table = section(root, "tournament");
    if (!table) fail_top("missing table [tournament] (it needs at least a name)");
    Table t(loc_, *table, "tournament", "[tournament]",
            {"name",         "type",          "rounds",          "concurrency",
             "seed",         "output",        "rating_interval", "progress_interval",
             "report_every", "publish",       "seed_engines",    "max_plies",
             "sandbox",      "keep_sandbox",  "memory_mb",       "memory_enforcement",
             "max_file_mb",  "max_processes", "max_output_kb",   "restart",
             "pin",          "cpus",          "tiebreak_pairs",  "pgnout",
             "adjudicate",   "transcripts"});
    TournamentConfig& out = c.tournament;
    read_sandbox_keys(t, out.sandbox, out.keep_sandbox, out.limits);
    out.sandbox_given = t.has("sandbox");
    out.restart = read_restart(t).value_or(out.restart);
    out.pin = t.on_off("pin").value_or(false);
    if (auto cpus = t.string("cpus")) {
      Expected<std::vector<int>> list = parse_cpu_list(*cpus);
      if (!list) t.fail_at("cpus", "tournament.cpus: " + list.error());
      out.cpus = *list;
    }
    auto name = t.string("name");
    if (!name) t.missing("name");
    if (!valid_tournament_name(*name))
      t.fail_at("name",
                "tournament.name must use only letters, digits, '.', '_' and '-' (it names "
                "the results directory), not " +
                    in_quotes(*name));
    if (*name == "." || *name == "..") t.fail_at("name", "tournament.name must not be " + in_quotes(*name));
    out.name = *name;
    out.type = t.choice<TournamentType>("type", {{"round-robin", TournamentType::RoundRobin},
                                                 {"gauntlet", TournamentType::Gauntlet},
                                                 {"swiss", TournamentType::Swiss},
                                                 {"knockout", TournamentType::Knockout}})
                   .value_or(TournamentType::RoundRobin);
    out.rounds = static_cast<int>(t.integer("rounds", 1, 100'000).value_or(1));
    out.concurrency = static_cast<int>(t.integer("concurrency", 1, 256).value_or(1));
    out.seed = static_cast<std::uint64_t>(t.integer("seed", 0, kUnbounded).value_or(1));
    out.output = t.string("output").value_or("results");
    out.rating_interval = static_cast<int>(t.integer("rating_interval", 0, kBillion).value_or(0));
    out.progress_interval = static_cast<int>(t.integer("progress_interval", 0, kBillion).value_or(10));
    out.report_every = static_cast<int>(t.integer("report_every", 0, 86'400).value_or(30));
    out.publish = t.on_off("publish").value_or(false);
    if (std::optional<std::string> pgn = t.string("pgnout")) out.pgnout = absolute_from(work_dir_, *pgn);
    out.max_plies = static_cast<int>(t.integer("max_plies", 1, 100'000).value_or(1000));
    out.transcripts =
        t.choice<TranscriptMode>("transcripts", {{to_string(TranscriptMode::Forfeits), TranscriptMode::Forfeits},
                                                 {to_string(TranscriptMode::All), TranscriptMode::All},
                                                 {to_string(TranscriptMode::None), TranscriptMode::None}})
            .value_or(TranscriptMode::Forfeits);
    if (t.has("seed_engines") && out.type != TournamentType::Gauntlet)
      t.fail_at("seed_engines", "tournament.seed_engines only applies to type = \"gauntlet\"");
    out.tiebreak_pairs = static_cast<int>(t.integer("tiebreak_pairs", 0, 100).value_or(3));
    if (t.has("tiebreak_pairs") && out.type != TournamentType::Knockout)
      t.fail_at("tiebreak_pairs", "tournament.tiebreak_pairs only applies to type = \"knockout\"");
  }

  // tournament.adjudicate, an inline table; read after [variant], which bounds database_seeds.
  void read_adjudicate(const toml::table& root, Config& c) const {
    const toml::node* node = root["tournament"]["adjudicate"].node();
    if (!node) return;
    const toml::table* table = node->as_table();
    if (!table)
      loc_.fail(node->source(),
                "tournament.adjudicate must be a table (adjudicate = { store_majority = true, ... }), "
                "not " +
                    detail::describe(node->type()));
    Table t(loc_, *table, "tournament.adjudicate", "tournament.adjudicate",
            {"store_majority", "database_seeds", "draw", "resign"});
    AdjudicationConfig& out = c.tournament.adjudicate;
    out.store_majority = t.on_off("store_majority").value_or(false);
    if (t.has("database_seeds")) {
      if (c.variant.majority)
        t.fail_at("database_seeds",
                  "tournament.adjudicate.database_seeds: the endgame database does not apply under the majority rule "
                  "(the stores would be part of its key)");
      const int most = max_database_seeds(c.variant);
      out.database_seeds = static_cast<int>(*t.integer("database_seeds", 0, most));
    }
    if (const toml::table* draw = sub_table(t, "draw")) {
      Table d(loc_, *draw, "tournament.adjudicate.draw", "tournament.adjudicate.draw",
              {"movenumber", "movecount", "score"});
      DrawRule rule;
      rule.move_number = static_cast<int>(d.integer("movenumber", 0, 100'000).value_or(0));
      rule.move_count = static_cast<int>(required(d, "movecount", d.integer("movecount", 1, 100'000)));
      rule.score = static_cast<int>(required(d, "score", d.integer("score", 0, 1'000'000)));
      out.draw = rule;
    }
    if (const toml::table* resign = sub_table(t, "resign")) {
      Table r(loc_, *resign, "tournament.adjudicate.resign", "tournament.adjudicate.resign",
              {"movecount", "score", "twosided"});
      ResignRule rule;
      rule.move_count = static_cast<int>(required(r, "movecount", r.integer("movecount", 1, 100'000)));
      rule.score = static_cast<int>(required(r, "score", r.integer("score", 1, 1'000'000)));
      rule.two_sided = r.on_off("twosided").value_or(false);
      out.resign = rule;
    }
  }

  const toml::table* sub_table(const Table& t, std::string_view key) const {
    const toml::node* node = t.find(key);
    if (!node) return nullptr;
    if (!node->is_table())
      t.fail_at(key, t.key_name(key) + " must be a table ({ ... }), not " + detail::describe(node->type()));
    return node->as_table();
  }

  static std::int64_t required(const Table& t, std::string_view key, std::optional<std::int64_t> value) {
    if (!value) t.missing(key);
    return *value;
  }

  // A folder key: relative to the working directory or to the config's folder (paths.h), and it must exist.
  std::optional<fs::path> directory(const Table& t, std::string_view key) const {
    auto dir = t.string(key);
    if (!dir) return std::nullopt;
    auto found = resolve_directory(*dir, work_dir_, config_dir_);
    if (!found) t.fail_at(key, t.key_name(key) + " " + found.error());
    return *found;
  }

  fs::path required_directory(const Table& t, std::string_view key) const {
    auto found = directory(t, key);
    if (!found) t.missing(key);
    return *found;
  }

  // restart: in [tournament] for every engine, in [[engine]] for one.
  static std::optional<RestartPolicy> read_restart(const Table& t) {
    return t.choice<RestartPolicy>("restart", {{to_string(RestartPolicy::OnCrash), RestartPolicy::OnCrash},
                                               {to_string(RestartPolicy::Always), RestartPolicy::Always}});
  }

  // sandbox, keep_sandbox and the limits: in [tournament] for every engine, in [[engine]] for one.
  void read_sandbox_keys(const Table& t, SandboxMode& mode, bool& keep, EngineLimits& limits) const {
    mode = t.choice<SandboxMode>("sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                             {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
               .value_or(mode);
    keep = t.on_off("keep_sandbox").value_or(keep);
    limits.memory_mb = t.integer("memory_mb", 1, 1'000'000).value_or(limits.memory_mb);
    limits.memory_enforcement =
        t.choice<MemoryEnforcement>("memory_enforcement",
                                    {{"cgroup", MemoryEnforcement::Cgroup}, {"rlimit", MemoryEnforcement::Rlimit}})
            .value_or(limits.memory_enforcement);
    limits.max_file_mb = t.integer("max_file_mb", 1, 1'000'000).value_or(limits.max_file_mb);
    limits.max_processes = static_cast<int>(t.integer("max_processes", 1, 100'000).value_or(limits.max_processes));
    limits.max_output_kb = t.integer("max_output_kb", 1, 1'000'000'000).value_or(limits.max_output_kb);
  }

  // A sandbox or limit that this machine cannot enforce is refused here, never run without it.
  void check_sandbox(const Table& t, const EngineSpec& e) const {
    auto fail = [&](std::string_view key, const std::string& message) {
      if (t.has(key)) t.fail_at(key, "engine." + std::string(key) + ": " + message);
      t.fail_at("name", "engine " + in_quotes(e.name) + " (" + std::string(key) + " from [tournament]): " + message);
    };
    if (e.sandbox == SandboxMode::Bwrap)
      if (std::optional<std::string> problem = sandbox_unavailable()) fail("sandbox", *problem);
    if (std::optional<std::string> problem = limits_problem(e)) fail("max_processes", *problem);
    if (std::optional<std::string> problem = keep_sandbox_problem(e)) fail("keep_sandbox", *problem);
    if (std::optional<std::string> problem = memory_limit_problem(e)) fail("memory_mb", *problem);
    if (std::optional<std::string> problem = sandbox_reach_problem(e)) fail(t.has("dir") ? "dir" : "cmd", *problem);
  }

  void read_variant(const toml::table& table, Config& c) const {
    Table t(loc_, table, "variant", "[variant]",
            {"pits", "seeds", "capture", "ending", "remainder", "majority", "pie", "start"});
    Variant& v = c.variant;
    v.pits = static_cast<int>(t.integer("pits", 1, Variant::kMaxPits).value_or(v.pits));
    v.seeds = static_cast<int>(t.integer("seeds", 1, Variant::kMaxSeeds).value_or(v.seeds));
    v.capture =
        t.choice<Capture>("capture", {{"standard", Capture::Standard}, {"empty", Capture::Empty}}).value_or(v.capture);
    v.ending =
        t.choice<Ending>("ending", {{"side-empty", Ending::SideEmpty}, {"no-move", Ending::NoMove}}).value_or(v.ending);
    v.remainder = t.choice<Remainder>("remainder", {{"owner", Remainder::Owner}, {"none", Remainder::None}})
                      .value_or(v.remainder);
    v.majority = t.on_off("majority").value_or(v.majority);
    v.pie = t.on_off("pie").value_or(v.pie);
    if (std::optional<std::string> text = t.string("start")) {
      Expected<Position> start = parse_start(v, *text);
      if (!start) t.fail_at("start", "variant.start: " + start.error());
      // Without `seeds`, the standard board that holds as many seeds: what engines are told in `newgame`.
      if (!t.has("seeds")) v.seeds = std::min(Variant::kMaxSeeds, seeds_to_hold(Variant{v.pits, 1}, *start));
      // The standard start written out is no start position: engines are sent `startpos` as always.
      if (!(*start == start_position(v))) c.start = *start;
    }
  }

  void read_time(const toml::table& root, Config& c) const {
    const toml::table* table = section(root, "time");
    if (!table) fail_top("missing table [time]; " + std::string(kTimeModes));
    const Table t = time_table(*table, "time", "[time]", true);
    c.time = read_time_table(t, nullptr);
    // One clock for the whole tournament: an engine's own `time` keeps it.
    c.time.clock = t.choice<ClockKind>("clock", {{to_string(ClockKind::Wall), ClockKind::Wall},
                                                 {to_string(ClockKind::Cpu), ClockKind::Cpu}})
                       .value_or(ClockKind::Wall);
  }

  static constexpr std::string_view kTimeModes =
      "give exactly one of tc, base_ms (with inc_ms and moves), movetime_ms, depth or nodes";
  // [time] or an engine's `time`, with the keys they both take; `clock` only in [time].
  Table time_table(const toml::table& table, std::string prefix, std::string display, bool with_clock = false) const {
    if (with_clock)
      return Table(loc_, table, std::move(prefix), std::move(display),
                   {"tc", "base_ms", "inc_ms", "moves", "movetime_ms", "depth", "nodes", "margin_ms", "startup_ms",
                    "ping_ms", "hard_limit_ms", "clock"});
    return Table(loc_, table, std::move(prefix), std::move(display),
                 {"tc", "base_ms", "inc_ms", "moves", "movetime_ms", "depth", "nodes", "margin_ms", "startup_ms",
                  "ping_ms", "hard_limit_ms"});
  }

  // A [time] table, or an engine's own `time` (time odds) over the tournament's `defaults`: there the
  // way to limit a move may be left out (the tournament's is kept) and every other key defaults to
  // the tournament's.
  TimeControl read_time_table(const Table& t, const TimeControl* defaults) const {
    TimeControl out = defaults ? *defaults : TimeControl{};
    const std::string& prefix = t.key_name("");
    auto name = [&](std::string_view key) { return prefix + std::string(key); };
    // "tc = 'inf'" says "no clock": then depth or nodes must limit a move.
    const std::optional<std::string> tc = t.string("tc");
    const bool infinite = tc && *tc == "inf";
    // The mode keys in file order: the second one is the mistake.
    std::string_view first_mode;
    for (std::string_view key : {"tc", "base_ms", "movetime_ms", "depth", "nodes"}) {
      if (!t.has(key) || (key == "tc" && infinite)) continue;
      if (first_mode.empty()) {
        first_mode = key;
        continue;
      }
      std::string_view later = key, earlier = first_mode;
      if (detail::before(t.key_source(key), t.key_source(first_mode))) std::swap(later, earlier);
      loc_.fail(t.key_source(later),
                name(later) + " and " + name(earlier) + " are two time controls; " + std::string(kTimeModes));
    }
    if (infinite && first_mode != "depth" && first_mode != "nodes")
      t.fail_at("tc", name("tc") + " = \"inf\" means no clock: give depth or nodes to end each search" +
                          (first_mode.empty() ? std::string() : ", not " + name(first_mode)));
    for (std::string_view key : {"inc_ms", "moves"})
      if (t.has(key) && first_mode != "base_ms")
        loc_.fail(t.key_source(key), name(key) + " needs " + name("base_ms") +
                                         (first_mode == "tc" ? " (tc has its own: \"40/60+0.6\")" : ""));
    if (first_mode.empty() && !defaults)
      loc_.fail(t.source(), "[time] has no time control; " + std::string(kTimeModes));
    if (first_mode == "tc") {
      Expected<TimeControl> clock = parse_fischer(*tc);
      if (!clock) t.fail_at("tc", name("tc") + " " + clock.error());
      out.mode = TimeControl::Mode::Fischer;
      out.base_ms = clock->base_ms;
      out.inc_ms = clock->inc_ms;
      out.moves = clock->moves;
    } else if (first_mode == "base_ms") {
      out.mode = TimeControl::Mode::Fischer;
      out.base_ms = *t.integer("base_ms", 1, kOneDayMs);
      out.inc_ms = t.integer("inc_ms", 0, kOneHourMs).value_or(0);
      out.moves = static_cast<int>(t.integer("moves", 1, 1000).value_or(0));
    } else if (first_mode == "movetime_ms") {
      out.mode = TimeControl::Mode::MoveTime;
      out.movetime_ms = *t.integer("movetime_ms", 1, kOneHourMs);
    } else if (first_mode == "depth") {
      out.mode = TimeControl::Mode::Depth;
      out.depth = static_cast<int>(*t.integer("depth", 1, 1000));
    } else if (first_mode == "nodes") {
      out.mode = TimeControl::Mode::Nodes;
      out.nodes = *t.integer("nodes", 1, 1'000'000'000'000'000);
    }
    out.margin_ms = t.integer("margin_ms", 0, 60'000).value_or(out.margin_ms);
    out.startup_ms = t.integer("startup_ms", 1, 600'000).value_or(out.startup_ms);
    out.ping_ms = t.integer("ping_ms", 1, 600'000).value_or(out.ping_ms);
    if (t.has("hard_limit_ms") && out.mode != TimeControl::Mode::Depth && out.mode != TimeControl::Mode::Nodes)
      loc_.fail(t.key_source("hard_limit_ms"), name("hard_limit_ms") + " only applies with depth or nodes");
    out.hard_limit_ms = t.integer("hard_limit_ms", 1, kOneDayMs).value_or(out.hard_limit_ms);
    return out;
  }

  void read_openings(const toml::table& table, Config& c) const {
    Table t(loc_, table, "openings", "[openings]", {"random_plies", "file", "order", "format"});
    OpeningsConfig& out = c.openings;
    if (t.has("random_plies") && t.has("file")) {
      const bool file_later = detail::before(t.key_source("random_plies"), t.key_source("file"));
      loc_.fail(t.key_source(file_later ? "file" : "random_plies"),
                "openings.random_plies and openings.file exclude each other; give one");
    }
    out.random_plies = static_cast<int>(t.integer("random_plies", 0, 100).value_or(0));
    if (t.has("order") && !t.has("file"))
      loc_.fail(t.key_source("order"), "openings.order only applies to openings.file");
    out.order =
        t.choice<OpeningOrder>("order", {{"sequential", OpeningOrder::Sequential}, {"random", OpeningOrder::Random}})
            .value_or(OpeningOrder::Sequential);
    if (t.has("format") && !t.has("file"))
      loc_.fail(t.key_source("format"), "openings.format only applies to openings.file");
    out.format =
        t.choice<BookFormat>(
             "format", {{"auto", BookFormat::Auto}, {"moves", BookFormat::Moves}, {"positions", BookFormat::Positions}})
            .value_or(BookFormat::Auto);
    if (out.random_plies > 0) {
      // The schedule falls back to exactly this search (seed 0), so passing here guarantees
      // that every game pair gets an opening.
      std::mt19937_64 rng(0);
      if (!random_opening(c.variant, c.start_or_standard(), out.random_plies, rng))
        t.fail_at("random_plies", "openings.random_plies: found no " + std::to_string(out.random_plies) +
                                      "-ply opening that leaves the game running in this variant");
    }
    if (auto file = t.string("file")) read_book(t, *file, c);
  }

  void read_book(const Table& t, const std::string& file, Config& c) const {
    // Books belong with the config: relative to its directory, not to the working directory.
    const fs::path path = absolute_from(config_dir_, file);
    std::error_code ec;
    if (!fs::exists(path, ec))
      t.fail_at("file", "openings.file " + in_quotes(file) + " not found (tried " + path.string() + ")");
    auto text = read_file(path);
    if (!text) t.fail_at("file", "openings.file " + in_quotes(file) + " (" + path.string() + ") " + text.error());
    auto book = parse_book(*text, path.string(), c.variant, c.start_or_standard(), c.openings.format);
    if (!book) throw ConfigFailure{book.error()};
    if (book->empty())
      t.fail_at("file", "openings.file " + in_quotes(file) + " (" + path.string() + ") has no openings");
    c.openings.file = path;
    c.openings.book = std::move(book).value();
  }

  // [rating]: the reports' rating list can be anchored on one engine (read after the engines).
  void read_rating(const toml::table& table, Config& c) const {
    Table t(loc_, table, "rating", "[rating]", {"anchor", "anchor_elo"});
    auto anchor = t.string("anchor");
    auto elo = t.number("anchor_elo");
    if (!anchor && elo) t.fail_at("anchor_elo", "rating.anchor_elo needs rating.anchor (the engine held at that Elo)");
    if (!anchor) return;
    if (c.engine_index(*anchor) < 0) {
      std::string names;
      for (const EngineSpec& e : c.engines) names += (names.empty() ? "" : ", ") + e.name;
      t.fail_at("anchor", "rating.anchor " + in_quotes(*anchor) +
                              " is not an engine of this tournament (they are: " + names + ")");
    }
    if (elo && (!std::isfinite(*elo) || std::abs(*elo) > 100'000))
      t.fail_at("anchor_elo",
                "rating.anchor_elo must be a finite number within ±100000, not " + detail::format_number(*elo));
    c.rating.anchor = *anchor;
    c.rating.anchor_elo = elo.value_or(0);
  }

  // [analysis]: a perfect-play analysis of every game when the run ends (docs/ANALYSIS.md).
  void read_analysis(const toml::table& table, Config& c) const {
    Table t(loc_, table, "analysis", "[analysis]", {"budget_ms", "threads", "db_only", "db_mb", "hash_mb"});
    AnalysisConfig a;
    if (auto v = t.integer("budget_ms", 1, 3'600'000)) a.budget_ms = static_cast<int>(*v);
    if (auto v = t.integer("threads", 1, 1024)) a.threads = static_cast<int>(*v);
    if (auto v = t.on_off("db_only")) a.db_only = *v;
    if (auto v = t.integer("db_mb", 0, 1 << 20)) a.db_mb = static_cast<int>(*v);
    if (auto v = t.integer("hash_mb", 1, 1 << 20)) a.hash_mb = static_cast<int>(*v);
    c.analysis = a;
  }

  // [ranking]: how the standings rank (docs/RANKING.md); read after [tournament] and [sprt].
  void read_ranking(const toml::table& table, Config& c) const {
    Table t(loc_, table, "ranking", "[ranking]", {"by", "tiebreaks", "points"});
    rating::RankingRules& out = c.ranking;
    out.by = t.choice<rating::RankBy>("by", {{"elo", rating::RankBy::Elo}, {"points", rating::RankBy::Points}})
                 .value_or(rating::RankBy::Elo);
    if (out.by == rating::RankBy::Elo) {
      for (std::string_view key : {"tiebreaks", "points"})
        if (t.has(key)) t.fail_at(key, t.key_name(key) + " applies only with ranking.by = \"points\"");
      return;
    }
    if (c.sprt)
      t.fail_at("by", "ranking.by = \"points\" ranks a tournament; an [sprt] match of two engines has no ranking");
    if (plays_by_rounds(c.tournament.type))
      t.fail_at("by", std::string("ranking.by = \"points\" applies to round-robin and gauntlet tournaments; a ") +
                          to_string(c.tournament.type) +
                          " tournament ranks by its own rules (docs/SCHEDULE.md, docs/RANKING.md)");
    if (const toml::node* node = t.find("tiebreaks")) {
      const toml::array* list = node->as_array();
      if (!list)
        t.fail_at("tiebreaks",
                  "ranking.tiebreaks must be an array of tie-break names, not " + detail::describe(node->type()));
      for (std::size_t i = 0; i < list->size(); ++i) {
        const toml::node& element = *list->get(i);
        const std::string where = "ranking.tiebreaks[" + std::to_string(i) + "]";
        if (!element.is_string())
          loc_.fail(element.source(), where + " must be a string, not " + detail::describe(element.type()));
        const std::string& name = element.as_string()->get();
        const std::optional<rating::TieBreak> tiebreak = rating::parse_tiebreak(name);
        if (!tiebreak)
          loc_.fail(element.source(),
                    where + ": unknown tie-break " + in_quotes(name) + "; known: " + rating::tiebreak_names());
        if (std::find(out.tiebreaks.begin(), out.tiebreaks.end(), *tiebreak) != out.tiebreaks.end())
          loc_.fail(element.source(), where + ": " + in_quotes(name) + " is listed twice");
        out.tiebreaks.push_back(*tiebreak);
      }
    }
    if (const toml::table* points = sub_table(t, "points")) {
      Table p(loc_, *points, "ranking.points", "ranking.points", {"win", "draw", "loss"});
      out.points.win = p.number("win").value_or(out.points.win);
      out.points.draw = p.number("draw").value_or(out.points.draw);
      out.points.loss = p.number("loss").value_or(out.points.loss);
      if (const std::optional<std::string> problem = rating::check(out.points))
        t.fail_at("points", "ranking.points (" + rating::describe(out.points) + "): " + *problem);
    }
  }

  void read_sprt(const toml::table& table, Config& c) const {
    Table t(loc_, table, "sprt", "[sprt]",
            {"elo0",      "elo1",      "alpha",        "beta",         "model", "max_pairs",  "summary",
             "repo",      "base_ref",  "test_ref",     "build",        "run",   "worktrees",  "build_sandbox",
             "base_name", "test_name", "base_options", "test_options", "bench", "base_bench", "test_bench"});
    SprtConfig out;
    stats::SprtParams& p = out.params;
    auto elo0 = t.number("elo0");
    if (!elo0) t.missing("elo0");
    auto elo1 = t.number("elo1");
    if (!elo1) t.missing("elo1");
    if (*elo1 <= *elo0)
      t.fail_at("elo1", "sprt.elo1 (" + detail::format_number(*elo1) + ") must be greater than sprt.elo0 (" +
                            detail::format_number(*elo0) + ")");
    p.elo0 = *elo0;
    p.elo1 = *elo1;
    for (std::string_view key : {"alpha", "beta"}) {
      auto x = t.number(key);
      if (x && !(*x > 0 && *x < 0.5))
        t.fail_at(key, t.key_name(key) + " must be greater than 0 and less than 0.5, not " + detail::format_number(*x));
      (key == "alpha" ? p.alpha : p.beta) = x.value_or(0.05);
    }
    p.model = t.choice<stats::Model>("model",
                                     {{"logistic", stats::Model::Logistic}, {"normalized", stats::Model::Normalized}})
                  .value_or(stats::Model::Normalized);
    out.max_pairs = static_cast<int>(t.integer("max_pairs", 0, kBillion).value_or(0));
    if (auto summary = t.string("summary")) out.summary = absolute_from(work_dir_, *summary);
    if (t.has("repo")) {
      out.git = read_git_sprt(t, c);
    } else {
      for (std::string_view key : {"base_ref", "test_ref", "build", "run", "worktrees", "build_sandbox", "base_name",
                                   "test_name", "base_options", "test_options"})
        if (t.has(key))
          t.fail_at(key,
                    t.key_name(key) + " belongs to an SPRT between two commits of a repository: give sprt.repo too");
    }
    constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();
    out.base_bench = t.integer("base_bench", 0, kMaxCount);
    out.test_bench = t.integer("test_bench", 0, kMaxCount);
    const std::optional<bool> bench = t.on_off("bench");
    if (bench == false && (out.base_bench || out.test_bench))
      t.fail_at("bench", std::string("sprt.bench = false, but sprt.") + (out.base_bench ? "base_bench" : "test_bench") +
                             " declares a count to check (leave bench out or set it to true)");
    out.bench = bench.value_or(out.base_bench || out.test_bench);
    c.sprt = out;
  }

  // [sprt] repo, base_ref, test_ref, build, run ...: the engines are two commits (docs/SPRT.md, "From git").
  // The refs are only checked for what would let them pass for an option; git resolves them later.
  GitSprtConfig read_git_sprt(const Table& t, const Config& c) const {
    GitSprtConfig g;
    g.repo = required_directory(t, "repo");
    for (auto [key, side] : {std::pair{"base_ref", &g.base}, std::pair{"test_ref", &g.test}}) {
      auto ref = t.string(key);
      if (!ref) t.missing(key);
      if (ref->front() == '-' || has_control(*ref) || ref->find(' ') != std::string::npos)
        t.fail_at(key, t.key_name(key) + " " + in_quotes(*ref) +
                           " is not a git ref: it must not start with '-' or hold spaces or control characters");
      side->ref = *ref;
    }
    g.build = t.string("build").value_or("");
    auto run = t.string("run");
    if (!run) t.missing("run");
    if (split_words(*run).empty()) t.fail_at("run", "sprt.run needs a command");
    g.run = *run;
    if (auto dir = t.string("worktrees")) {
      g.worktrees = absolute_from(work_dir_, *dir);
    } else {
      const std::filesystem::path cache = system::user_cache_dir();
      if (cache.empty())
        t.fail_at("repo", "sprt.worktrees is not given and neither XDG_CACHE_HOME nor HOME is set: name a folder");
      g.worktrees = cache / "worktrees";
    }
    g.build_limits.sandbox =
        t.choice<SandboxMode>("build_sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                                {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
            .value_or(SandboxMode::None);
    if (g.build_limits.sandbox == SandboxMode::Bwrap)
      if (auto problem = sandbox_unavailable()) t.fail_at("build_sandbox", "sprt.build_sandbox: " + *problem);
    for (auto [side, which] : {std::pair{&g.base, "base"}, std::pair{&g.test, "test"}}) {
      EngineSpec& e = side->engine;
      const std::string name_key = std::string(which) + "_name";
      e.name = t.string(name_key).value_or(which);
      if (!valid_engine_name(e.name))
        t.fail_at(name_key, t.key_name(name_key) + " " + in_quotes(e.name) + " is not a usable name");
      if (const toml::node* options = t.find(std::string(which) + "_options")) {
        if (!options->is_table())
          t.fail_at(std::string(which) + "_options", "sprt." + std::string(which) +
                                                         "_options must be a table (NAME = value), not " +
                                                         detail::describe(options->type()));
        read_options(t, *options, e);
      }
      e.restart = c.tournament.restart;
      // The engines are the commits' code, the test's a pull request's: a build sandbox sandboxes them too,
      // unless [tournament] sandbox says otherwise in so many words.
      e.sandbox = c.tournament.sandbox_given ? c.tournament.sandbox : g.build_limits.sandbox;
      e.keep_sandbox = c.tournament.keep_sandbox;
      e.limits = c.tournament.limits;
      if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
      for (const std::optional<std::string>& problem :
           {limits_problem(e), keep_sandbox_problem(e), memory_limit_problem(e)})
        if (problem) t.fail_at("repo", "sprt.repo's " + std::string(which) + " engine: " + *problem);
    }
    if (g.base.engine.name == g.test.engine.name)
      t.fail_at("test_name", "the base and the test need different names, not both " + in_quotes(g.base.engine.name));
    return g;
  }

  // [submissions]: a contest (docs/CONTEST.md). Its entrants come from entries.json, not from this file.
  void read_submissions(const toml::table& table, const toml::table& root, Config& c) const {
    Table t(loc_, table, "submissions", "[submissions]",
            {"dir", "build_timeout_s", "build_memory_mb", "build_disk_mb", "build_sandbox", "check", "withdrawn",
             "disqualified", "gate"});
    SubmissionsConfig out;
    out.dir = required_directory(t, "dir");
    sandbox_build::BuildLimits& build = out.build_limits;
    build.timeout_s = static_cast<int>(t.integer("build_timeout_s", 1, 86'400).value_or(build.timeout_s));
    build.memory_mb = t.integer("build_memory_mb", 16, 1'048'576).value_or(build.memory_mb);
    build.disk_mb = t.integer("build_disk_mb", 1, 1'048'576).value_or(build.disk_mb);
    build.sandbox = t.choice<SandboxMode>("build_sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                                            {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
                        .value_or(SandboxMode::Bwrap);
    if (build.sandbox == SandboxMode::Bwrap)
      if (auto problem = sandbox_unavailable())
        t.fail_at(t.has("build_sandbox") ? "build_sandbox" : "dir",
                  "submissions are built in a sandbox (build_sandbox = \"bwrap\"), and " + *problem +
                      "; or set build_sandbox = \"none\" for submissions you trust");
    if (build.sandbox == SandboxMode::None)
      c.warnings.push_back(loc_.path() + ": submissions are built without a sandbox (build_sandbox = \"none\"): " +
                           "their build commands run as " + (::geteuid() == 0 ? "root" : "you") +
                           ", with your files and network");
    // Entrants are untrusted code: sandboxed unless the config says otherwise in so many words.
    out.entrant_sandbox = c.tournament.sandbox_given ? c.tournament.sandbox : SandboxMode::Bwrap;
    if (out.entrant_sandbox == SandboxMode::Bwrap) {
      if (auto problem = sandbox_unavailable())
        t.fail_at("dir",
                  "a contest's entrants run in a sandbox (absent tournament.sandbox means \"bwrap\" for them), and " +
                      *problem + "; or set sandbox = \"none\" in [tournament] for entrants you trust");
    } else {
      c.warnings.push_back(loc_.path() + ": the contest's entrants run without a sandbox (tournament.sandbox = " +
                           "\"none\"): their code runs as " + (::geteuid() == 0 ? "root" : "you") +
                           ", with your files and network");
    }
    out.check = t.on_off("check").value_or(true);
    const std::initializer_list<std::pair<std::string_view, GamesRule>> rules = {{"keep", GamesRule::Keep},
                                                                                 {"void", GamesRule::Void}};
    out.withdrawn = t.choice<GamesRule>("withdrawn", rules).value_or(GamesRule::Keep);
    out.disqualified = t.choice<GamesRule>("disqualified", rules).value_or(GamesRule::Void);
    if (c.tournament.type != TournamentType::RoundRobin)
      t.fail_at("dir", std::string("a contest ([submissions]) is a round robin, not tournament.type = \"") +
                           to_string(c.tournament.type) + "\"");
    if (root.get("sprt")) t.fail_at("dir", "a contest ([submissions]) cannot also be an [sprt] match");
    c.submissions = out;
    if (const toml::table* gate = sub_table(t, "gate")) read_gate(*gate, c);
  }

  // submissions.gate = { opponent, games, min_score, suite, min_perfect }: each part whole, at least one.
  void read_gate(const toml::table& table, Config& c) const {
    Table t(loc_, table, "submissions.gate", "submissions.gate",
            {"opponent", "games", "min_score", "suite", "min_perfect"});
    GateConfig out;
    // A share from 0 to 1 that the part of the gate written at `part` needs: `why` says so when it is missing.
    auto needed_share = [&](std::string_view key, std::string_view part, const char* why) -> double {
      const std::optional<double> x = t.number(key);
      if (!x) t.fail_at(part, why);
      if (!(*x >= 0 && *x <= 1))
        t.fail_at(key,
                  t.key_name(key) + " must be a share from 0 to 1 (0.75 for 75%), not " + detail::format_number(*x));
      return *x;
    };
    if (std::optional<std::string> opponent = t.string("opponent")) {
      Expected<fs::path> resolved = resolve_command(*opponent, work_dir_, config_dir_, system::path_variable());
      if (!resolved) t.fail_at("opponent", "submissions.gate.opponent " + resolved.error());
      out.opponent = *opponent;
      out.opponent_cmd = *resolved;
      out.games = static_cast<int>(t.integer("games", 2, 10'000).value_or(out.games));
      if (out.games % 2 != 0)
        t.fail_at("games",
                  "submissions.gate.games must be even, so that the bot plays as many games with each "
                  "colour, not " +
                      std::to_string(out.games));
      out.min_score = needed_share("min_score", "opponent",
                                   "submissions.gate.opponent needs min_score, the share of the points the "
                                   "bot must score against it (min_score = 0.75)");
    } else {
      for (std::string_view key : {"games", "min_score"})
        if (t.has(key)) t.fail_at(key, t.key_name(key) + " needs submissions.gate.opponent, the bot to play against");
    }
    if (t.has("suite")) {
      out.suite = static_cast<int>(*t.integer("suite", 1, suite::kMaxPositions));
      if (!solver::ExactSolver::supports(c.variant))
        t.fail_at("suite",
                  "submissions.gate.suite: the exact solver labels the positions, and it takes at most 255 "
                  "seeds, not " +
                      to_string(c.variant));
      out.min_perfect = needed_share("min_perfect", "suite",
                                     "submissions.gate.suite needs min_perfect, the share of the positions the "
                                     "bot must answer with a perfect move (min_perfect = 0.5)");
    } else if (t.has("min_perfect")) {
      t.fail_at("min_perfect", "submissions.gate.min_perfect needs submissions.gate.suite, the number of positions");
    }
    if (!out.plays_games() && !out.runs_suite())
      loc_.fail(table.source(),
                "submissions.gate needs games against an opponent (opponent, games, min_score), "
                "a suite of positions (suite, min_perfect), or both");
    c.submissions->gate = out;
    if (out.plays_games()) {
      // The opponent must be able to play where the entrants do, refused now rather than in every gate game.
      const EngineSpec opponent = gate_opponent(c);
      if (opponent.sandbox == SandboxMode::Bwrap)
        if (std::optional<std::string> problem = sandbox_unavailable())
          t.fail_at("opponent", "submissions.gate.opponent: " + *problem);
      for (auto problem : {limits_problem(opponent), memory_limit_problem(opponent), sandbox_reach_problem(opponent)})
        if (problem) t.fail_at("opponent", "submissions.gate.opponent: " + *problem);
    }
  }

  void read_engines(const toml::table& root, Config& c) const {
    const toml::node* node = root.get("engine");
    if (!node && c.submissions) return;  // every engine is an entrant
    if (c.sprt && c.sprt->git) {
      if (node)
        loc_.fail(node->source(),
                  "[[engine]] tables cannot be combined with [sprt] repo: the engines are the two commits "
                  "(base_ref, then test_ref)");
      return;
    }
    if (!node) fail_top("no [[engine]] tables; a tournament needs at least two engines");
    const toml::array* list = node->as_array();
    if (!list)
      loc_.fail(node->source(),
                "engine must be an array of tables ([[engine]]), not " + detail::describe(node->type()));
    std::vector<int> name_lines;
    for (size_t i = 0; i < list->size(); ++i) {
      const toml::node& element = *list->get(i);
      if (!element.is_table())
        loc_.fail(element.source(),
                  "engine[" + std::to_string(i) + "] must be a table, not " + detail::describe(element.type()));
      read_engine(*element.as_table(), c, name_lines);
    }
    c.house_engines = static_cast<int>(list->size());
    if (list->size() < 2 && !c.submissions) {
      const TournamentType type = c.tournament.type;
      const std::string form = type == TournamentType::Swiss      ? "a Swiss tournament"
                               : type == TournamentType::Knockout ? "a knockout"
                                                                  : "a tournament";
      loc_.fail(node->source(), form + " needs at least two engines, not " + std::to_string(list->size()));
    }
  }

  void read_engine(const toml::table& table, Config& c, std::vector<int>& name_lines) const {
    Table t(loc_, table, "engine", "[[engine]]",
            {"name", "cmd", "args", "dir", "options", "protocol", "restart", "stderr", "sandbox", "keep_sandbox",
             "memory_mb", "memory_enforcement", "max_file_mb", "max_processes", "max_output_kb", "time"});
    EngineSpec e;
    auto name = t.string("name");
    if (!name) t.missing("name");
    if (!valid_engine_name(*name))
      t.fail_at("name", "engine.name " + in_quotes(*name) + " is not a usable name: " + kEngineNameRule);
    if (int i = c.engine_index(*name); i >= 0)
      t.fail_at("name", "engine.name " + in_quotes(*name) + " is already used by the engine at line " +
                            std::to_string(name_lines[i]));
    // Names that look alike would pass for each other in every table (docs/CONFIG.md, "Engine names").
    for (std::size_t i = 0; i < c.engines.size(); ++i)
      if (system::confusable(*name, c.engines[i].name))
        t.fail_at("name", "engine.name " + in_quotes(*name) + " looks like " + in_quotes(c.engines[i].name) +
                              ", the engine at line " + std::to_string(name_lines[i]) +
                              " (the same letters to the eye); give one of them another name");
    e.name = *name;

    auto cmd = t.string("cmd");
    if (!cmd) t.missing("cmd");
    auto resolved = resolve_command(*cmd, work_dir_, config_dir_, system::path_variable());
    if (!resolved) t.fail_at("cmd", "engine.cmd " + resolved.error());
    e.cmd_as_written = *cmd;
    e.cmd = *resolved;

    if (const toml::node* args = t.find("args")) {
      const toml::array* array = args->as_array();
      if (!array) t.fail_at("args", "engine.args must be an array of strings, not " + detail::describe(args->type()));
      for (size_t i = 0; i < array->size(); ++i) {
        const toml::node& arg = *array->get(i);
        if (!arg.is_string())
          loc_.fail(arg.source(),
                    "engine.args[" + std::to_string(i) + "] must be a string, not " + detail::describe(arg.type()));
        e.args.push_back(arg.as_string()->get());
      }
    }

    e.dir = directory(t, "dir").value_or(work_dir_);

    // "{dir}" in an argument is the engine's folder, absolute: how a sandboxed engine (whose working
    // directory is private) names its own files.
    const std::string dir_text = e.dir.string();
    for (std::string& arg : e.args)
      for (std::size_t at = arg.find("{dir}"); at != std::string::npos; at = arg.find("{dir}", at + dir_text.size()))
        arg.replace(at, 5, dir_text);

    if (const toml::node* options = t.find("options")) read_options(t, *options, e);
    if (const toml::node* time = t.find("time")) {
      if (!time->is_table())
        t.fail_at("time",
                  "engine.time must be a table (time = { tc = \"40/60+0.6\" }), not " + detail::describe(time->type()));
      const Table own = time_table(*time->as_table(), "engine.time", "engine.time");
      e.time = read_time_table(own, &c.time);
      if (*e.time == c.time) e.time.reset();
    }

    // The words are the referee's (to_string), so the config and `referee match` accept the same.
    e.protocol = t.choice<Protocol>("protocol", {{to_string(Protocol::Kep), Protocol::Kep},
                                                 {to_string(Protocol::Mankalah), Protocol::Mankalah}})
                     .value_or(Protocol::Kep);
    if (e.protocol == Protocol::Mankalah) check_mankalah(t, c, e.name);
    e.restart = read_restart(t).value_or(c.tournament.restart);
    if (auto log = t.string("stderr")) {
      e.stderr_file = absolute_from(work_dir_, *log);
      if (auto problem = stderr_problem(e.stderr_file)) t.fail_at("stderr", "engine.stderr: " + *problem);
    }

    e.sandbox = c.tournament.sandbox;
    e.keep_sandbox = c.tournament.keep_sandbox;
    e.limits = c.tournament.limits;
    read_sandbox_keys(t, e.sandbox, e.keep_sandbox, e.limits);
    // In a sandbox the engine sees its `dir` only when one is given: never the whole working directory.
    if (e.sandbox == SandboxMode::Bwrap && !t.has("dir")) e.dir.clear();
    // An untrusted engine's stderr is bounded even when nobody thought of it (docs/SECURITY.md).
    if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
    check_sandbox(t, e);
    if (auto problem = sandbox_dir_problem(e, absolute_from(work_dir_, c.results_dir().string())))
      t.fail_at("dir", "engine.dir: " + *problem);

    name_lines.push_back(static_cast<int>(t.find("name")->source().begin.line));
    c.engines.push_back(std::move(e));
  }

  // ManKalah agents track the board themselves from the standard start, and are told of every move as if
  // they had seen the game from its first ply: an opening or a start position corrupts their state
  // (docs/PROTOCOL.md, "Manchester Kalah agents"). The [openings] table and [variant] come first in
  // the checks; the engine's `protocol` key is where the message points.
  void check_mankalah(const Table& t, const Config& c, const std::string& name) const {
    std::string what;
    if (c.start)
      what = "[variant] start";
    else if (c.openings.random_plies > 0)
      what = "random openings (openings.random_plies)";
    else if (!c.openings.book.empty())
      what = "an openings book (openings.file)";
    if (what.empty()) return;
    t.fail_at("protocol", "engine " + in_quotes(name) +
                              " speaks the ManKalah protocol, whose agents can only play a whole game from the "
                              "standard start, but this config gives " +
                              what + ": remove that, or play this engine in a tournament without openings");
  }

  void read_options(const Table& t, const toml::node& node, EngineSpec& e) const {
    const toml::table* options = node.as_table();
    if (!options)
      t.fail_at("options",
                "engine.options must be a table (options = { Name = value }), not " + detail::describe(node.type()));
    for (auto&& [key, value] : *options) {  // sorted by name
      const std::string name(key.str());
      const std::string full = "engine.options." + name;
      if (name.empty() || has_control(name))
        loc_.fail(key.source(), "engine option name " + in_quotes(name) + " is not usable");
      std::string text;
      if (const auto* s = value.as_string()) {
        text = s->get();
        if (has_control(text)) loc_.fail(value.source(), full + " must not contain control characters");
      } else if (const auto* i = value.as_integer()) {
        text = std::to_string(i->get());
      } else if (const auto* f = value.as_floating_point()) {
        text = detail::format_number(f->get());
      } else if (const auto* b = value.as_boolean()) {
        text = b->get() ? "true" : "false";
      } else {
        loc_.fail(value.source(), full + " must be a string, number or boolean, not " + detail::describe(value.type()));
      }
      e.options.push_back({name, text});
    }
  }

  void read_seed_engines(const toml::table& root, Config& c) const {
    if (c.tournament.type != TournamentType::Gauntlet) return;
    const toml::node* node = root["tournament"]["seed_engines"].node();
    if (!node) {
      c.tournament.seed_engines = {0};
      return;
    }
    const toml::array* list = node->as_array();
    if (!list)
      loc_.fail(node->source(),
                "tournament.seed_engines must be an array of engine names, not " + detail::describe(node->type()));
    if (list->empty()) loc_.fail(node->source(), "tournament.seed_engines must name at least one engine");
    std::vector<int>& seeds = c.tournament.seed_engines;
    for (size_t i = 0; i < list->size(); ++i) {
      const toml::node& element = *list->get(i);
      if (!element.is_string())
        loc_.fail(element.source(), "tournament.seed_engines[" + std::to_string(i) + "] must be a string, not " +
                                        detail::describe(element.type()));
      const std::string& name = element.as_string()->get();
      const int index = c.engine_index(name);
      if (index < 0) loc_.fail(element.source(), "tournament.seed_engines: no engine is named " + in_quotes(name));
      for (int s : seeds)
        if (s == index) loc_.fail(element.source(), "tournament.seed_engines names " + in_quotes(name) + " twice");
      seeds.push_back(index);
    }
    if (seeds.size() == c.engines.size())
      loc_.fail(node->source(), "tournament.seed_engines names every engine; a gauntlet needs at least one other");
  }

  Locator loc_;
  fs::path work_dir_;
  fs::path config_dir_;  // absolute
};

}  // namespace

Expected<Config> parse_config(std::string_view toml_text, std::string_view path_for_messages, const fs::path& base_dir,
                              const fs::path& work_dir) {
  const std::string path(path_for_messages);
  try {
    toml::table root = toml::parse(toml_text, std::string_view(path));
    Config config = Parser(path, base_dir, work_dir).parse(root);
    config.text = toml_text;
    return config;
  } catch (const toml::parse_error& e) {
    return Error{Locator(path).at(e.source()) + std::string(e.description())};
  } catch (const ConfigFailure& e) {
    return Error{e.message};
  }
}

void set_clock(Config& config, ClockKind clock) {
  config.time.clock = clock;
  for (EngineSpec& e : config.engines)
    if (e.time) e.time->clock = clock;
}

Expected<Config> load_config(const fs::path& path, bool with_entrants) {
  auto text = read_file(path);
  if (!text) return Error{path.string() + ": the config file " + text.error()};
  Expected<Config> parsed = parse_config(*text, path.string(), path.parent_path());
  if (!parsed || !parsed->submissions || !with_entrants) return parsed;
  Config config = std::move(parsed).value();
  Expected<Entries> entries = read_entries(config.entries_file());
  if (!entries) return Error{entries.error()};
  if (std::optional<std::string> error = add_entrants(config, *entries)) return Error{*error};
  return config;
}

}  // namespace kalah::arena
