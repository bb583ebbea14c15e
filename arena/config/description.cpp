#include "arena/config/description.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/core.h>

namespace kalah::arena {
namespace {

using Settings = std::map<std::string, std::string>;

// The fields of "engine.<name>.<field>", longest first where one ends another ("time.pgn", "time"), so that
// a name holding dots is cut where the writer put its field.
struct EngineField {
  const char* name;
  std::optional<std::string>& (*slot)(EngineDescription&);
};
constexpr std::array<EngineField, 11> kEngineTexts = {
    {{"time.pgn", [](EngineDescription& e) -> auto& {return e.time_pgn;
}  // namespace
}  // namespace kalah::arena
, {"files_sha256", [](EngineDescription& e) -> auto& {return e.digests.files_sha256;
}
}
, {"file_sums", [](EngineDescription& e) -> auto& {return e.digests.file_sums;
}
}
, {"dir_sha256", [](EngineDescription& e) -> auto& {return e.digests.dir_sha256;
}
}
, {"executable", [](EngineDescription& e) -> auto& {return e.digests.executable;
}
}
, {"command", [](EngineDescription& e) -> auto& {return e.command;
}
}
, {"options", [](EngineDescription& e) -> auto& {return e.options;
}
}
, {"sha256", [](EngineDescription& e) -> auto& {return e.digests.sha256;
}
}
, {"files", [](EngineDescription& e) -> auto& {return e.digests.files;
}
}
, {"time", [](EngineDescription& e) -> auto& {return e.time;
}
}
, {"dir", [](EngineDescription& e) -> auto& {return e.digests.dir;
}
}
,
}
}
;
constexpr const char* kBenchField = "bench";
// "run.engine.<name>.<field>".
constexpr std::array<EngineField, 2> kEngineRunTexts = {{{"id", [](EngineDescription& e) -> auto& {return e.id;
}
}
, {"limits", [](EngineDescription& e) -> auto& {return e.limits;
}
}
,
}
}
;

// The texts at the top level, by key.
struct TopField {
  const char* key;
  std::optional<std::string> TournamentDescription::*text;
};
constexpr std::array<TopField, 11> kTopTexts = {{{"sprt", &TournamentDescription::sprt_summary},
                                                 {"variant", &TournamentDescription::variant},
                                                 {"variant.start", &TournamentDescription::start},
                                                 {"adjudicate", &TournamentDescription::adjudicate},
                                                 {"openings", &TournamentDescription::openings},
                                                 {"time", &TournamentDescription::time},
                                                 {"time.pgn", &TournamentDescription::time_pgn},
                                                 {kContestSetting, &TournamentDescription::contest},
                                                 {"run.arena_version", &TournamentDescription::arena_version},
                                                 {"run.machine", &TournamentDescription::machine},
                                                 {"run.concurrency", &TournamentDescription::concurrency}}};

constexpr const char* kEnginePrefix = "engine.";
constexpr const char* kEngineRunPrefix = "run.engine.";  // kRunSettingPrefix + kEnginePrefix
constexpr const char* kEntryPrefix = "entry.";
constexpr const char* kNotEnteredPrefix = "contest.not_entered.";
constexpr const char* kSprtFields[] = {"sprt.elo0", "sprt.elo1",  "sprt.alpha",
                                       "sprt.beta", "sprt.model", "sprt.max_pairs"};
constexpr const char* kGitFields[] = {"git.repo", "git.build", "git.run"};
constexpr const char* kGitSideFields[] = {"ref", "commit", "build_seconds"};
constexpr const char* kRankingFields[] = {"ranking.by", "ranking.tiebreaks", "ranking.points", "ranking.cuts"};
constexpr const char* kAnchorFields[] = {"rating.anchor", "rating.anchor_elo"};

bool is_one_of(const std::string& key, const auto& keys) {
  return std::any_of(std::begin(keys), std::end(keys), [&](const auto& k) { return key == k; });
}

std::optional<long long> parse_whole(const std::string& text) {
  long long x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return x;
}

std::optional<double> parse_real(const std::string& text) {
  double x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

// Every piece between `sep`s, empty ones too (which no reader takes); none for an empty text.
std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::size_t from = 0;
  for (std::size_t at = text.find(sep); at != std::string::npos; at = text.find(sep, from)) {
    out.push_back(text.substr(from, at - from));
    from = at + 1;
  }
  out.push_back(text.substr(from));
  return out;
}

std::string quoted(const std::string& key, const std::string& value) { return key + ": '" + value + "'"; }

Expected<rating::RankingRules> parse_ranking(const Settings& s) {
  rating::RankingRules rules;
  if (auto by = s.find("ranking.by"); by != s.end()) {
    if (by->second == "points")
      rules.by = rating::RankBy::Points;
    else if (by->second != "elo")
      return Error{quoted(by->first, by->second) + " is not \"points\" or \"elo\""};
  }
  if (auto list = s.find("ranking.tiebreaks"); list != s.end())
    for (const std::string& name : split(list->second, ',')) {
      const std::optional<rating::TieBreak> t = rating::parse_tiebreak(name);
      if (!t)
        return Error{list->first + ": unknown tie-break '" + name + "' (known: " + rating::tiebreak_names() + ")"};
      if (std::find(rules.tiebreaks.begin(), rules.tiebreaks.end(), *t) != rules.tiebreaks.end())
        return Error{list->first + ": '" + name + "' is listed twice"};
      rules.tiebreaks.push_back(*t);
    }
  if (auto cuts = s.find("ranking.cuts"); cuts != s.end())
    for (const std::string& item : split(cuts->second, ',')) {
      const std::optional<long long> k = parse_whole(item);
      if (!k || *k < 1 || *k > 1'000'000 || (!rules.cuts.empty() && *k <= rules.cuts.back()))
        return Error{quoted(cuts->first, cuts->second) + " is not a list of ascending whole numbers from 1 on"};
      rules.cuts.push_back(static_cast<int>(*k));
    }
  if (auto points = s.find("ranking.points"); points != s.end()) {
    bool seen[3] = {};
    for (const std::string& item : split(points->second, ' ')) {
      const std::size_t eq = item.find('=');
      const std::string name = item.substr(0, eq);
      const int slot = name == "win" ? 0 : name == "draw" ? 1 : name == "loss" ? 2 : -1;
      const std::optional<double> x = eq == std::string::npos ? std::nullopt : parse_real(item.substr(eq + 1));
      if (slot < 0 || !x.has_value() || seen[slot])
        return Error{quoted(points->first, points->second) + " is not \"win=W draw=D loss=L\""};
      seen[slot] = true;
      (slot == 0 ? rules.points.win : slot == 1 ? rules.points.draw : rules.points.loss) = x.value();
    }
    if (const std::optional<std::string> problem = rating::check(rules.points))
      return Error{quoted(points->first, points->second) + ": " + *problem};
  }
  return rules;
}

Expected<SprtDescription> parse_sprt(const Settings& s) {
  SprtDescription out;
  std::optional<double> values[4];
  for (int i = 0; i < 4; ++i) {
    const std::string& text = s.at(kSprtFields[i]);
    values[i] = parse_real(text);
    if (!values[i]) return Error{quoted(kSprtFields[i], text) + " is not a number"};
  }
  out.params.elo0 = *values[0];
  out.params.elo1 = *values[1];
  out.params.alpha = *values[2];
  out.params.beta = *values[3];
  const std::string& model = s.at("sprt.model");
  if (model == stats::to_string(stats::Model::Logistic))
    out.params.model = stats::Model::Logistic;
  else if (model == stats::to_string(stats::Model::Normalized))
    out.params.model = stats::Model::Normalized;
  else
    return Error{quoted("sprt.model", model) + " is not \"logistic\" or \"normalized\""};
  const std::string& pairs = s.at("sprt.max_pairs");
  const std::optional<long long> max_pairs = parse_whole(pairs);
  if (!max_pairs || *max_pairs < 0 || *max_pairs > 1'000'000'000)
    return Error{quoted("sprt.max_pairs", pairs) + " is not a count of pairs"};
  out.max_pairs = static_cast<int>(*max_pairs);
  return out;
}

Expected<GitDescription> parse_git(const Settings& s) {
  GitDescription out;
  out.repo = s.at("git.repo");
  out.build = s.at("git.build");
  out.run = s.at("git.run");
  for (const auto& [side, role] : {std::pair{&out.base, "base"}, std::pair{&out.test, "test"}}) {
    const std::string key = std::string("git.") + role + ".";
    side->ref = s.at(key + "ref");
    side->commit = s.at(key + "commit");
    const std::string& seconds = s.at(key + "build_seconds");
    const std::optional<double> x = parse_real(seconds);
    if (!x || *x < 0) return Error{quoted(key + "build_seconds", seconds) + " is not a number of seconds"};
    side->build_seconds = *x;
  }
  return out;
}

// All of `keys` or none; an error names the first one missing.
std::optional<std::string> missing_of_group(const Settings& s, const std::vector<std::string>& keys) {
  const bool any = std::any_of(keys.begin(), keys.end(), [&](const std::string& k) { return s.count(k) != 0; });
  if (!any) return std::nullopt;
  for (const std::string& k : keys)
    if (s.count(k) == 0) return k + " is missing (the other " + keys.front() + " settings are there)";
  return std::nullopt;
}

// An "engine.<name>.<field>" key, split; false when its field is not one of ours.
bool read_engine_key(const std::string& key, const std::string& value, TournamentDescription& d, std::string& error) {
  const std::string rest = key.substr(std::string(kEnginePrefix).size());
  for (const EngineField& f : kEngineTexts) {
    const std::string suffix = std::string(".") + f.name;
    if (rest.size() > suffix.size() && rest.ends_with(suffix)) {
      f.slot(d.engines[rest.substr(0, rest.size() - suffix.size())]) = value;
      return true;
    }
  }
  const std::string bench = std::string(".") + kBenchField;
  if (rest.size() > bench.size() && rest.ends_with(bench)) {
    const std::optional<long long> count = parse_whole(value);
    if (!count || *count < 0) error = quoted(key, value) + " is not a count of nodes";
    d.engines[rest.substr(0, rest.size() - bench.size())].bench = count;
    return true;
  }
  return false;
}

bool read_engine_run_key(const std::string& key, const std::string& value, TournamentDescription& d) {
  const std::string rest = key.substr(std::string(kEngineRunPrefix).size());
  for (const EngineField& f : kEngineRunTexts) {
    const std::string suffix = std::string(".") + f.name;
    if (rest.size() > suffix.size() && rest.ends_with(suffix)) {
      f.slot(d.engines[rest.substr(0, rest.size() - suffix.size())]) = value;
      return true;
    }
  }
  return false;
}

// "entry.<name>.<field>": the name may hold dots, the field never does.
bool read_entry_key(const std::string& key, const std::string& value, TournamentDescription& d, std::string& error) {
  const std::size_t start = std::string(kEntryPrefix).size();
  const std::size_t dot = key.rfind('.');
  if (dot == std::string::npos || dot <= start) return false;
  const std::string name = key.substr(start, dot - start), field = key.substr(dot + 1);
  if (field == "status") {
    const std::optional<EntryStatus> status = value == "withdrawn"      ? std::optional(EntryStatus::Withdrawn)
                                              : value == "disqualified" ? std::optional(EntryStatus::Disqualified)
                                              : value == "active"       ? std::optional(EntryStatus::Active)
                                                                        : std::nullopt;
    if (!status) error = quoted(key, value) + " is not \"withdrawn\" or \"disqualified\"";
    d.entries[name].status = status;
  } else if (field == "reason") {
    d.entries[name].reason = value;
  } else if (field == "games") {
    if (value != "kept" && value != "void") error = quoted(key, value) + " is not \"kept\" or \"void\"";
    d.entries[name].games_kept = value == "kept";
  } else if (field == "gate") {
    d.entries[name].gate = value;
  } else {
    return false;
  }
  return true;
}

}  // namespace

const EngineDescription& TournamentDescription::engine(const std::string& name) const {
  static const EngineDescription none;
  const auto it = engines.find(name);
  return it == engines.end() ? none : it->second;
}

rating::RankingSetup TournamentDescription::ranking_setup() const {
  rating::RankingSetup out;
  out.rules = ranking.value_or(rating::RankingRules{});
  for (const auto& [name, entry] : entries) {
    if (!entry.status && !entry.reason && !entry.games_kept) continue;
    out.entries[name] =
        rating::Entry{entry.status.value_or(EntryStatus::Active), entry.reason.value_or(""), entry.games_kept == false};
  }
  return out;
}

bool recorded_by_run(std::string_view key) {
  if (key.starts_with(kRunSettingPrefix)) return true;
  if (key == "git.base.build_seconds" || key == "git.test.build_seconds") return true;
  if (!key.starts_with(kEnginePrefix)) return false;
  for (const std::string_view field :
       {"executable", "sha256", "files", "files_sha256", "dir", "dir_sha256", "file_sums", kBenchField})
    if (key.size() > field.size() + 1 && key.ends_with(field) && key[key.size() - field.size() - 1] == '.') return true;
  return false;
}

std::string digest_setting(const std::string& name, std::optional<std::string> EngineDigests::*digest) {
  EngineDescription e;
  for (const EngineField& f : kEngineTexts)
    if (&f.slot(e) == &(e.digests.*digest)) return kEnginePrefix + name + "." + f.name;
  assert(false && "every digest has a field");
  return {};
}

Settings to_settings(const TournamentDescription& d) {
  Settings s = d.extra;
  if (d.sprt_match)
    s["type"] = "sprt";
  else if (d.type)
    s["type"] = to_string(*d.type);
  if (d.rounds) s["rounds"] = std::to_string(*d.rounds);
  if (d.tiebreak_pairs) s["tiebreak_pairs"] = std::to_string(*d.tiebreak_pairs);
  for (const TopField& f : kTopTexts)
    if (const std::optional<std::string>& text = d.*(f.text)) s[f.key] = *text;
  if (d.sprt) {
    const stats::SprtParams& p = d.sprt->params;
    const double values[] = {p.elo0, p.elo1, p.alpha, p.beta};
    for (int i = 0; i < 4; ++i) s[kSprtFields[i]] = fmt::format("{}", values[i]);
    s["sprt.model"] = stats::to_string(p.model);
    s["sprt.max_pairs"] = std::to_string(d.sprt->max_pairs);
  }
  if (d.git) {
    s["git.repo"] = d.git->repo;
    s["git.build"] = d.git->build;
    s["git.run"] = d.git->run;
    for (const auto& [side, role] : {std::pair{&d.git->base, "base"}, std::pair{&d.git->test, "test"}}) {
      const std::string key = std::string("git.") + role + ".";
      s[key + "ref"] = side->ref;
      s[key + "commit"] = side->commit;
      s[key + "build_seconds"] = fmt::format("{:.3f}", side->build_seconds);
    }
  }
  if (d.seed) s["seed"] = std::to_string(*d.seed);
  if (d.anchor) {
    s["rating.anchor"] = d.anchor->engine;
    s["rating.anchor_elo"] = fmt::format("{}", d.anchor->elo);
  }
  if (d.ranking) {
    std::string tiebreaks;
    for (rating::TieBreak t : d.ranking->tiebreaks)
      tiebreaks += (tiebreaks.empty() ? "" : ",") + std::string(to_string(t));
    s["ranking.by"] = to_string(d.ranking->by);
    s["ranking.tiebreaks"] = tiebreaks;
    s["ranking.points"] = rating::describe(d.ranking->points);
    std::string cuts;  // "1,3,10"; written only when declared, so older folders read the same
    for (int k : d.ranking->cuts) cuts += (cuts.empty() ? "" : ",") + std::to_string(k);
    if (!cuts.empty()) s["ranking.cuts"] = cuts;
  }
  for (const auto& [name, engine] : d.engines) {
    EngineDescription e = engine;  // the fields' slots are the writers', and this is a copy
    for (const EngineField& f : kEngineTexts)
      if (const std::optional<std::string>& text = f.slot(e)) s[kEnginePrefix + name + "." + f.name] = *text;
    if (e.bench) s[kEnginePrefix + name + "." + kBenchField] = std::to_string(*e.bench);
    for (const EngineField& f : kEngineRunTexts)
      if (const std::optional<std::string>& text = f.slot(e)) s[kEngineRunPrefix + name + "." + f.name] = *text;
  }
  for (const auto& [name, e] : d.entries) {
    const std::string key = kEntryPrefix + name + ".";
    if (e.gate) s[key + "gate"] = *e.gate;
    if (e.status) s[key + "status"] = to_string(*e.status);
    if (e.reason) s[key + "reason"] = *e.reason;
    if (e.games_kept) s[key + "games"] = *e.games_kept ? "kept" : "void";
  }
  for (const auto& [folder, note] : d.not_entered) s[kNotEnteredPrefix + folder] = note;
  return s;
}

Expected<TournamentDescription> description_from_settings(const Settings& s) {
  TournamentDescription d;
  std::vector<std::string> git_keys(std::begin(kGitFields), std::end(kGitFields));
  for (const char* role : {"base", "test"})
    for (const char* field : kGitSideFields) git_keys.push_back(std::string("git.") + role + "." + field);
  const std::vector<std::string> sprt_keys(std::begin(kSprtFields), std::end(kSprtFields));
  const std::vector<std::string> anchor_keys(std::begin(kAnchorFields), std::end(kAnchorFields));
  for (const std::vector<std::string>* group : {&sprt_keys, &std::as_const(git_keys), &anchor_keys})
    if (std::optional<std::string> missing = missing_of_group(s, *group)) return Error{*missing};

  for (const auto& entry : s) {
    // Named, not a structured binding: clang 14 cannot capture one in the lambdas below.
    const std::string& key = entry.first;
    const std::string& value = entry.second;
    std::string error;
    bool known = true;
    const auto top = std::find_if(kTopTexts.begin(), kTopTexts.end(), [&](const TopField& f) { return key == f.key; });
    if (top != kTopTexts.end()) {
      d.*(top->text) = value;
    } else if (key == "type") {
      if (value == "sprt") {
        d.sprt_match = true;
      } else {
        if (const TournamentKind* kind = kind_named(value)) d.type = kind->type;
        if (!d.type) error = quoted(key, value) + " is not a tournament type";
      }
    } else if (key == "rounds" || key == "tiebreak_pairs") {
      const std::optional<long long> n = parse_whole(value);
      if (!n || *n < 0 || *n > 1'000'000'000) error = quoted(key, value) + " is not a whole number";
      (key == "rounds" ? d.rounds : d.tiebreak_pairs) = n ? std::optional(static_cast<int>(*n)) : std::nullopt;
    } else if (key == "seed") {
      std::uint64_t seed = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (ec != std::errc() || end != value.data() + value.size()) error = quoted(key, value) + " is not a seed";
      d.seed = seed;
    } else if (key == "rating.anchor_elo") {
      const std::optional<double> elo = parse_real(value);
      if (!elo) error = quoted(key, value) + " is not a number";
      d.anchor = rating::Anchor{s.at("rating.anchor"), elo.value_or(0)};
    } else if (key.starts_with(kNotEnteredPrefix)) {
      d.not_entered[key.substr(std::string(kNotEnteredPrefix).size())] = value;
    } else if (key.starts_with(kEngineRunPrefix)) {
      known = read_engine_run_key(key, value, d);
    } else if (key.starts_with(kEnginePrefix)) {
      known = read_engine_key(key, value, d, error);
    } else if (key.starts_with(kEntryPrefix)) {
      known = read_entry_key(key, value, d, error);
    } else {
      // Read as groups below.
      known = is_one_of(key, kSprtFields) || is_one_of(key, git_keys) || is_one_of(key, kRankingFields) ||
              key == "rating.anchor";
    }
    if (!error.empty()) return Error{error};
    if (!known) d.extra[key] = value;
  }
  if (s.count(kSprtFields[0])) {
    Expected<SprtDescription> sprt = parse_sprt(s);
    if (!sprt) return Error{sprt.error()};
    d.sprt = *sprt;
  }
  if (s.count(kGitFields[0])) {
    Expected<GitDescription> git = parse_git(s);
    if (!git) return Error{git.error()};
    d.git = *git;
  }
  if (std::any_of(std::begin(kRankingFields), std::end(kRankingFields), [&](const char* k) { return s.count(k); })) {
    Expected<rating::RankingRules> ranking = parse_ranking(s);
    if (!ranking) return Error{ranking.error()};
    d.ranking = *ranking;
  }
  return d;
}

}  // namespace kalah::arena
