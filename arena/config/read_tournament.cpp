// [tournament] (docs/CONFIG.md): the run's name, form and output, the defaults of every engine's sandbox,
// limits and restart policy, CPU pinning, and the two keys read later: adjudicate and seed_engines.
#include "arena/config/readers.h"

#include <sched.h>
#include <algorithm>
#include <limits>
#include <set>

#include "arena/config/paths.h"
#include "referee/rules/words.h"

namespace kalah::arena {

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

namespace detail {

namespace {

constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();

// budget_games, target_width and boundaries: the keys of type = "adaptive" (docs/CONFIG.md), which plays no
// `pairs` nor `rounds`.
void read_adaptive_keys(const Reader& r, const Table& t, TournamentConfig& out) {
  const bool adaptive = kind_of(out.type).budget;
  for (std::string_view key : {"budget_games", "target_width", "boundaries"})
    if (t.has(key) && !adaptive) t.fail_at(key, t.key_name(key) + " only applies to type = \"adaptive\"");
  if (!adaptive) return;
  for (std::string_view key : {"rounds", "pairs"})
    if (t.has(key))
      t.fail_at(key, t.key_name(key) +
                         " does not apply to type = \"adaptive\": its games are budget_games, paired round by round "
                         "where the order is still open");
  const std::optional<std::int64_t> budget = t.integer("budget_games", 2, 10'000'000);
  if (!budget) t.missing("budget_games");
  if (*budget % 2 != 0)
    t.fail_at("budget_games",
              "tournament.budget_games must be even (colour-swapped game pairs), not " + std::to_string(*budget));
  out.budget_games = static_cast<int>(*budget);
  out.target_width = static_cast<int>(t.integer("target_width", 1, 10'000).value_or(out.target_width));
  read_places(r, t, "boundaries", "boundary", "boundaries", out.boundaries);
  if (t.has("boundaries") && out.boundaries.empty())
    t.fail_at("boundaries", "tournament.boundaries must name at least one place (e.g. boundaries = [1, 3, 10])");
  if (t.has("boundaries") && t.has("target_width"))
    t.fail_at("target_width",
              "tournament.target_width does not apply to a final (tournament.boundaries): it ends when no rank "
              "interval straddles a boundary, or at budget_games");
}

bool valid_tournament_name(std::string_view name) {
  for (char c : name) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

int read_pairs(const Table& t, RoundsCount counts, int fallback, std::vector<std::string>& notes) {
  if (counts == RoundsCount::NotRead) return fallback;  // adaptive: read_adaptive_keys refuses both keys
  if (counts == RoundsCount::SwissRounds) {
    if (t.has("pairs"))
      t.fail_at("pairs", t.key_name("pairs") +
                             " does not apply to a Swiss tournament, which plays one game pair per pairing: write "
                             "rounds = N, the number of Swiss rounds");
    return static_cast<int>(t.integer("rounds", 1, 100'000).value_or(fallback));
  }
  const std::string what = counts == RoundsCount::PairsPerMatch ? "game pairs per match" : "game pairs per pairing";
  if (t.has("pairs") && t.has("rounds")) {
    const std::string_view later = before(t.key_source("pairs"), t.key_source("rounds")) ? "rounds" : "pairs";
    t.fail_at(later, t.key_name("rounds") + " and " + t.key_name("pairs") + " both given: rounds is the old name of " +
                         "pairs here (" + what + "); keep pairs only");
  }
  if (!t.has("rounds")) return static_cast<int>(t.integer("pairs", 1, 100'000).value_or(fallback));
  const int n = static_cast<int>(*t.integer("rounds", 1, 100'000));
  notes.push_back(t.locator().at(t.key_source("rounds")) + t.key_name("rounds") + " counts " + what +
                  " here: write pairs = " + std::to_string(n) + " (rounds is read as before)");
  return n;
}

void read_tournament(const Reader& r, const toml::table& root, Config& c) {
  const toml::table* table = r.section(root, "tournament");
  if (!table) r.fail_top("missing table [tournament] (it needs at least a name)");
  Table t(r.loc(), *table, "tournament", "[tournament]",
          {"name",         "type",          "rounds",          "concurrency",
           "seed",         "output",        "rating_interval", "progress_interval",
           "report_every", "publish",       "seed_engines",    "max_plies",
           "sandbox",      "keep_sandbox",  "memory_mb",       "memory_enforcement",
           "max_file_mb",  "max_processes", "max_output_kb",   "restart",
           "pin",          "cpus",          "pairs",           "tiebreak_pairs",
           "pgnout",       "adjudicate",    "transcripts",     "budget_games",
           "target_width", "boundaries",    "stages"});
  TournamentConfig& out = c.tournament;
  read_sandbox_keys(t, out.sandbox, out.keep_sandbox, out.limits);
  out.sandbox_given = t.has("sandbox");
  out.restart = read_restart(t).value_or(out.restart);
  out.pin = t.on_off("pin").value_or(out.pin);
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
  std::vector<std::pair<std::string_view, TournamentType>> types;
  for (const TournamentKind& k : tournament_kinds()) types.emplace_back(k.name, k.type);
  // Each stage is of the default kind, a round robin (read_tournament_stages).
  types.emplace_back("staged", kDefaultKind);
  out.type = t.choice<TournamentType>("type", std::span<const std::pair<std::string_view, TournamentType>>(types))
                 .value_or(out.type);
  out.rounds = read_pairs(t, kind_of(out.type).rounds, out.rounds, c.warnings);
  out.concurrency = static_cast<int>(t.integer("concurrency", 1, 256).value_or(out.concurrency));
  out.seed = static_cast<std::uint64_t>(t.integer("seed", 0, kUnbounded).value_or(out.seed));
  out.output = t.string("output").value_or(out.output);
  out.rating_interval = static_cast<int>(t.integer("rating_interval", 0, kBillion).value_or(out.rating_interval));
  out.progress_interval = static_cast<int>(t.integer("progress_interval", 0, kBillion).value_or(out.progress_interval));
  out.report_every = static_cast<int>(t.integer("report_every", 0, 86'400).value_or(out.report_every));
  out.publish = t.on_off("publish").value_or(out.publish);
  if (std::optional<std::string> pgn = t.string("pgnout")) out.pgnout = absolute_from(r.work_dir(), *pgn);
  out.max_plies = static_cast<int>(t.integer("max_plies", 1, 100'000).value_or(out.max_plies));
  out.transcripts =
      t.choice<TranscriptMode>("transcripts", {{to_string(TranscriptMode::Forfeits), TranscriptMode::Forfeits},
                                               {to_string(TranscriptMode::All), TranscriptMode::All},
                                               {to_string(TranscriptMode::None), TranscriptMode::None}})
          .value_or(out.transcripts);
  if (t.has("seed_engines") && !kind_of(out.type).seed_engines)
    t.fail_at("seed_engines", "tournament.seed_engines only applies to type = \"gauntlet\"");
  out.tiebreak_pairs = static_cast<int>(t.integer("tiebreak_pairs", 0, 100).value_or(out.tiebreak_pairs));
  if (t.has("tiebreak_pairs") && !kind_of(out.type).tiebreak_pairs)
    t.fail_at("tiebreak_pairs", "tournament.tiebreak_pairs only applies to type = \"knockout\"");
  read_adaptive_keys(r, t, out);
  read_tournament_stages(r, t, c);
}

void read_adjudicate(const Reader& r, const toml::table& root, Config& c) {
  const toml::node* node = root["tournament"]["adjudicate"].node();
  if (!node) return;
  const toml::table* table = node->as_table();
  if (!table)
    r.loc().fail(node->source(),
                 "tournament.adjudicate must be a table (adjudicate = { store_majority = true, ... }), "
                 "not " +
                     detail::describe(node->type()));
  Table t(r.loc(), *table, "tournament.adjudicate", "tournament.adjudicate",
          {"store_majority", "database_seeds", "draw", "resign"});
  AdjudicationConfig& out = c.tournament.adjudicate;
  out.store_majority = t.on_off("store_majority").value_or(out.store_majority);
  if (t.has("database_seeds")) {
    if (c.variant.majority)
      t.fail_at("database_seeds",
                "tournament.adjudicate.database_seeds: the endgame database does not apply under the majority rule "
                "(the stores would be part of its key)");
    const int most = max_database_seeds(c.variant);
    out.database_seeds = static_cast<int>(*t.integer("database_seeds", 0, most));
  }
  if (const toml::table* draw = r.sub_table(t, "draw")) {
    Table d(r.loc(), *draw, "tournament.adjudicate.draw", "tournament.adjudicate.draw",
            {"movenumber", "movecount", "score"});
    DrawRule rule;
    rule.move_number = static_cast<int>(d.integer("movenumber", 0, 100'000).value_or(rule.move_number));
    rule.move_count = static_cast<int>(required(d, "movecount", d.integer("movecount", 1, 100'000)));
    rule.score = static_cast<int>(required(d, "score", d.integer("score", 0, 1'000'000)));
    out.draw = rule;
  }
  if (const toml::table* resign = r.sub_table(t, "resign")) {
    Table s(r.loc(), *resign, "tournament.adjudicate.resign", "tournament.adjudicate.resign",
            {"movecount", "score", "twosided"});
    ResignRule rule;
    rule.move_count = static_cast<int>(required(s, "movecount", s.integer("movecount", 1, 100'000)));
    rule.score = static_cast<int>(required(s, "score", s.integer("score", 1, 1'000'000)));
    rule.two_sided = s.on_off("twosided").value_or(rule.two_sided);
    out.resign = rule;
  }
}

void read_seed_engines(const Reader& r, const toml::table& root, Config& c) {
  if (!kind_of(c.tournament.type).seed_engines) return;
  const toml::node* node = root["tournament"]["seed_engines"].node();
  if (!node) {
    c.tournament.seed_engines = {0};
    return;
  }
  const toml::array* list = node->as_array();
  if (!list)
    r.loc().fail(node->source(),
                 "tournament.seed_engines must be an array of engine names, not " + detail::describe(node->type()));
  if (list->empty()) r.loc().fail(node->source(), "tournament.seed_engines must name at least one engine");
  std::vector<int>& seeds = c.tournament.seed_engines;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& element = *list->get(i);
    if (!element.is_string())
      r.loc().fail(element.source(), "tournament.seed_engines[" + std::to_string(i) + "] must be a string, not " +
                                         detail::describe(element.type()));
    const std::string& name = element.as_string()->get();
    const int index = c.engine_index(name);
    if (index < 0) r.loc().fail(element.source(), "tournament.seed_engines: no engine is named " + in_quotes(name));
    for (int s : seeds)
      if (s == index) r.loc().fail(element.source(), "tournament.seed_engines names " + in_quotes(name) + " twice");
    seeds.push_back(index);
  }
  if (seeds.size() == c.engines.size())
    r.loc().fail(node->source(), "tournament.seed_engines names every engine; a gauntlet needs at least one other");
}

void check_boundaries(const Reader& r, const toml::table& root, const Config& c) {
  const std::vector<int>& places = c.tournament.boundaries;
  const std::size_t engines = c.engines.size();
  for (std::size_t i = 0; i < places.size(); ++i)
    if (static_cast<std::size_t>(places[i]) >= engines)
      r.loc().fail(root["tournament"]["boundaries"][i].node()->source(),
                   "tournament.boundaries[" + std::to_string(i) + "] = " + std::to_string(places[i]) +
                       ": a boundary lies between two places, so it is less than the number of engines (" +
                       std::to_string(engines) + ")");
}

// restart: in [tournament] for every engine, in [[engine]] for one.
std::optional<RestartPolicy> read_restart(const Table& t) {
  return t.choice<RestartPolicy>("restart", {{to_string(RestartPolicy::OnCrash), RestartPolicy::OnCrash},
                                             {to_string(RestartPolicy::Always), RestartPolicy::Always}});
}

// sandbox, keep_sandbox and the limits: in [tournament] for every engine, in [[engine]] for one.
void read_sandbox_keys(const Table& t, SandboxMode& mode, bool& keep, EngineLimits& limits) {
  mode = t.choice<SandboxMode>("sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                           {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
             .value_or(mode);
  keep = t.on_off("keep_sandbox").value_or(keep);
  limits.memory_mb = t.integer("memory_mb", 1, 1'000'000).value_or(limits.memory_mb);
  limits.memory_enforcement = t.choice<MemoryEnforcement>("memory_enforcement", {{"cgroup", MemoryEnforcement::Cgroup},
                                                                                 {"rlimit", MemoryEnforcement::Rlimit}})
                                  .value_or(limits.memory_enforcement);
  limits.max_file_mb = t.integer("max_file_mb", 1, 1'000'000).value_or(limits.max_file_mb);
  limits.max_processes = static_cast<int>(t.integer("max_processes", 1, 100'000).value_or(limits.max_processes));
  limits.max_output_kb = t.integer("max_output_kb", 1, 1'000'000'000).value_or(limits.max_output_kb);
}

}  // namespace detail
}  // namespace kalah::arena
