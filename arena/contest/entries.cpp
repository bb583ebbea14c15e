#include "arena/contest/entries.h"

#include <algorithm>
#include <set>

#include <boost/json.hpp>
#include <fmt/core.h>

#include "arena/config/toml_table.h"
#include "referee/engine/sandbox.h"
#include "referee/system/confusables.h"
#include "referee/system/files.h"

namespace kalah::arena {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr const char* kFormat = "kalah-arena-entries";
constexpr std::int64_t kVersion = 1;

constexpr std::pair<SubmissionStatus, const char*> kStatusNames[] = {
    {SubmissionStatus::Entered, "entered"},
    {SubmissionStatus::NotEntered, "not-entered"},
    {SubmissionStatus::Withdrawn, "withdrawn"},
    {SubmissionStatus::Disqualified, "disqualified"},
};

std::string text_of(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// "17.5%", "75%": a share in percent, one decimal where it has one.
std::string percent(double share) {
  std::string text = fmt::format("{:.1f}", 100.0 * share);
  if (text.size() > 2 && text.ends_with(".0")) text.resize(text.size() - 2);
  return text + "%";
}

std::string games_figures(const GateGames& g) {
  std::string text = fmt::format("scored {:g}/{} = {} against {}", g.score(), g.games, percent(g.share()), g.opponent);
  if (!g.forfeits.empty())
    text += fmt::format(" ({} lost by forfeit, the first {})", g.forfeits.size(), g.forfeits.front());
  return text;
}

std::string suite_figures(const GateSuite& s) {
  return fmt::format("{}/{} perfect moves = {}", s.perfect, s.positions, percent(s.share()));
}

json::value gate_json(const GateResult& g) {
  json::value games = nullptr, suite = nullptr;
  if (g.games) {
    json::array forfeits;
    for (const std::string& f : g.games->forfeits) forfeits.emplace_back(f);
    games = json::object{{"opponent", g.games->opponent},
                         {"games", g.games->games},
                         {"wins", g.games->wins},
                         {"draws", g.games->draws},
                         {"losses", g.games->losses},
                         {"score", g.games->score()},
                         {"share", g.games->share()},
                         {"min_score", g.games->min_score},
                         {"passed", g.games->passed()},
                         {"forfeits", std::move(forfeits)},
                         {"opponent_forfeits", g.games->opponent_forfeits}};
  }
  if (g.suite)
    suite = json::object{{"positions", g.suite->positions}, {"perfect", g.suite->perfect},
                         {"share", g.suite->share()},       {"failed", g.suite->failed},
                         {"mean_loss", g.suite->mean_loss}, {"min_perfect", g.suite->min_perfect},
                         {"passed", g.suite->passed()}};
  return json::object{{"key", g.key},
                      {"passed", g.passed()},
                      {"figures", g.figures()},
                      {"games", std::move(games)},
                      {"suite", std::move(suite)}};
}

int int_of(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_int64() ? static_cast<int>(v->get_int64()) : 0;
}

double number_of(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_number() ? v->to_number<double>() : 0.0;
}

// The object under `key`; null when there is none or it is not an object.
const json::object* object_of(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

GateGames games_from_json(const json::object& x) {
  std::vector<std::string> forfeits;
  if (const json::value* list = x.if_contains("forfeits"); list && list->is_array())
    for (const json::value& f : list->get_array())
      if (f.is_string()) forfeits.emplace_back(f.get_string());
  return {.opponent = text_of(x, "opponent"),
          .games = int_of(x, "games"),
          .wins = int_of(x, "wins"),
          .draws = int_of(x, "draws"),
          .losses = int_of(x, "losses"),
          .min_score = number_of(x, "min_score"),
          .forfeits = std::move(forfeits),
          .opponent_forfeits = int_of(x, "opponent_forfeits")};
}

GateSuite suite_from_json(const json::object& x) {
  return {.positions = int_of(x, "positions"),
          .perfect = int_of(x, "perfect"),
          .failed = int_of(x, "failed"),
          .mean_loss = number_of(x, "mean_loss"),
          .min_perfect = number_of(x, "min_perfect")};
}

// The figures as written; the verdicts (passed) follow from them and are not read back.
std::optional<GateResult> gate_from_json(const json::value* value) {
  if (!value || !value->is_object()) return std::nullopt;
  const json::object& o = value->get_object();
  GateResult g;
  g.key = text_of(o, "key");
  if (const json::object* games = object_of(o, "games")) g.games = games_from_json(*games);
  if (const json::object* suite = object_of(o, "suite")) g.suite = suite_from_json(*suite);
  return g;
}

}  // namespace

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

std::string GateResult::failure() const {
  std::string text;
  auto add = [&](const std::string& clause) { text += (text.empty() ? "gate: " : "; gate: ") + clause; };
  if (games && !games->passed()) add(games_figures(*games) + ", needs " + percent(games->min_score));
  if (suite && !suite->passed()) add(suite_figures(*suite) + ", needs " + percent(suite->min_perfect));
  return text;
}

std::string GateResult::figures() const {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  if (games) add(games_figures(*games) + " (needs " + percent(games->min_score) + ")");
  if (suite) add(suite_figures(*suite) + " (needs " + percent(suite->min_perfect) + ")");
  return text;
}

const char* to_string(SubmissionStatus s) {
  for (const auto& [status, name] : kStatusNames)
    if (status == s) return name;
  return "?";
}

int Entries::next_order() const {
  int most = 0;
  for (const Submission& s : submissions) most = std::max(most, s.order);
  return most + 1;
}

std::vector<const Submission*> Entries::entrants() const {
  std::vector<const Submission*> out;
  for (const Submission& s : submissions)
    if (s.ever_entered()) out.push_back(&s);
  std::sort(out.begin(), out.end(), [](const Submission* a, const Submission* b) { return a->order < b->order; });
  return out;
}

Submission* Entries::by_name(std::string_view name) {
  for (Submission& s : submissions)
    if (s.name == name && s.ever_entered()) return &s;
  return nullptr;
}

const Submission* Entries::looking_like(std::string_view name) const {
  for (const Submission& s : submissions)
    if (s.ever_entered() && system::confusable(s.name, name)) return &s;
  return nullptr;
}

std::string entrant_engine_name(const std::vector<EngineSpec>& house, const std::string& name) {
  std::set<std::string> taken;
  for (const EngineSpec& e : house) taken.insert(e.name);
  if (taken.count(name) == 0) return name;
  std::string shown = name + kEntrantSuffix;
  for (int k = 2; taken.count(shown) > 0; ++k) shown = name + kEntrantSuffix + "-" + std::to_string(k);
  return shown;
}

std::string entries_to_text(const Entries& entries) {
  json::array list;
  for (const Submission& s : entries.submissions) {
    json::array args;
    for (const std::string& a : s.args) args.emplace_back(a);
    list.emplace_back(json::object{{"folder", s.folder},
                                   {"name", s.name},
                                   {"author", s.author},
                                   {"language", s.language},
                                   {"protocol", to_string(s.protocol)},
                                   {"status", to_string(s.status)},
                                   {"reason", s.reason},
                                   {"order", s.order},
                                   {"cmd", s.cmd.string()},
                                   {"args", std::move(args)},
                                   {"source_digest", s.source_digest},
                                   {"built_at", s.built_at},
                                   {"build_seconds", s.build_seconds},
                                   {"gate", s.gate ? gate_json(*s.gate) : json::value(nullptr)}});
  }
  json::object root{{"format", kFormat}, {"version", kVersion}, {"submissions", std::move(list)}};
  return json::serialize(root) + "\n";
}

Expected<Entries> entries_from_text(std::string_view text) {
  boost::system::error_code ec;
  json::value root = json::parse(text, ec);
  if (ec || !root.is_object()) return Error{"not a JSON object"};
  const json::object& o = root.get_object();
  if (text_of(o, "format") != kFormat)
    return Error{std::string("not an entries file (format is not '") + kFormat + "')"};
  const json::value* version = o.if_contains("version");
  if (!version || !version->is_int64() || version->get_int64() != kVersion)
    return Error{"entries file version " + (version ? json::serialize(*version) : std::string("(none)")) +
                 " is not the one this arena writes (" + std::to_string(kVersion) + ")"};
  const json::value* list = o.if_contains("submissions");
  if (!list || !list->is_array()) return Error{"field 'submissions' must be an array"};
  Entries out;
  for (const json::value& item : list->get_array()) {
    if (!item.is_object()) return Error{"every submission must be an object"};
    const json::object& e = item.get_object();
    Submission s;
    s.folder = text_of(e, "folder");
    s.name = text_of(e, "name");
    s.author = text_of(e, "author");
    s.language = text_of(e, "language");
    s.protocol = parse_protocol(text_of(e, "protocol")).value_or(Protocol::Kep);
    const std::string status = text_of(e, "status");
    bool known = false;
    for (const auto& [value, name] : kStatusNames)
      if (status == name) {
        s.status = value;
        known = true;
      }
    if (!known) return Error{"submission '" + s.folder + "': unknown status '" + status + "'"};
    s.reason = text_of(e, "reason");
    if (const json::value* order = e.if_contains("order"); order && order->is_int64())
      s.order = static_cast<int>(order->get_int64());
    s.cmd = text_of(e, "cmd");
    if (const json::value* args = e.if_contains("args"); args && args->is_array())
      for (const json::value& a : args->get_array())
        if (a.is_string()) s.args.emplace_back(a.get_string());
    s.source_digest = text_of(e, "source_digest");
    s.built_at = text_of(e, "built_at");
    if (const json::value* seconds = e.if_contains("build_seconds"); seconds && seconds->is_number())
      s.build_seconds = seconds->to_number<double>();
    s.gate = gate_from_json(e.if_contains("gate"));
    out.submissions.push_back(std::move(s));
  }
  return out;
}

Expected<Entries> read_entries(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return Entries{};
  std::string content;
  if (auto error = system::read_file(file, content)) return Error{*error};
  Expected<Entries> entries = entries_from_text(content);
  if (!entries) return Error{file.string() + ": " + entries.error()};
  return entries;
}

std::optional<std::string> write_entries(const fs::path& file, const Entries& entries) {
  return system::write_file_atomically(file, entries_to_text(entries));
}

std::optional<std::string> add_entrants(Config& config, const Entries& entries) {
  config.entries.assign(config.engines.size(), EntryState{});
  for (const Submission& s : entries.submissions)
    config.not_entered.emplace_back(s.folder, s.status == SubmissionStatus::NotEntered
                                                  ? (s.name.empty() ? s.folder + "/" : s.name) + " (" + s.reason + ")"
                                                  : std::string());
  const std::vector<EngineSpec> house = config.engines;
  for (const Submission* s : entries.entrants()) {
    EngineSpec e;
    e.name = entrant_engine_name(house, s->name);
    if (e.name != s->name) {
      // Only a build before issue 36 let it in. One still active would mix its games with the house bot's.
      if (s->status == SubmissionStatus::Entered)
        return config.source + ": entrant '" + s->name + "' has the name of an [[engine]] of the config: rename " +
               "that [[engine]], or take the entrant out (arena contest disqualify " + config.source + " " + s->name +
               " --reason \"...\") and enter it again under another name";
      config.warnings.push_back(config.source + ": " + to_string(s->status) + " entrant '" + s->name +
                                "' has the name of an [[engine]] of the config: it goes by '" + e.name + "'");
    }
    std::error_code ec;
    e.dir = fs::absolute(config.results_dir() / "entries" / s->name, ec);
    // As the reports show it: the bot's own program by its place in the results, another by its name.
    const fs::path own = s->cmd.lexically_relative(e.dir);
    e.cmd_as_written =
        !own.empty() && *own.begin() != ".." ? "entries/" + s->name + "/" + own.string() : s->cmd.filename().string();
    e.cmd = s->cmd;
    e.args = s->args;
    e.protocol = s->protocol;
    e.restart = config.tournament.restart;
    e.sandbox = config.submissions ? config.submissions->entrant_sandbox : config.tournament.sandbox;
    e.keep_sandbox = config.tournament.keep_sandbox;
    e.limits = config.tournament.limits;
    if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
    if (auto problem = sandbox_reach_problem(e)) return config.source + ": entrant '" + s->name + "': " + *problem;
    config.engines.push_back(std::move(e));
    EntryState state;
    if (s->status == SubmissionStatus::Withdrawn) state.status = EntryStatus::Withdrawn;
    if (s->status == SubmissionStatus::Disqualified) state.status = EntryStatus::Disqualified;
    state.reason = s->reason;
    if (s->gate) state.gate = s->gate->figures();
    config.entries.push_back(std::move(state));
  }
  if (config.engines.size() < 2)
    return config.source + ": the contest has " + std::to_string(config.engines.size()) +
           " engine(s); it needs at least two: build the submissions first (arena contest build " + config.source + ")";
  return std::nullopt;
}

Expected<Config> load_with_entrants(const fs::path& path) {
  Expected<Config> parsed = load_config(path);
  if (!parsed || !parsed->submissions) return parsed;
  Config config = std::move(parsed).value();
  Expected<Entries> entries = read_entries(config.entries_file());
  if (!entries) return Error{entries.error()};
  if (std::optional<std::string> error = add_entrants(config, *entries)) return Error{*error};
  return config;
}

}  // namespace kalah::arena
