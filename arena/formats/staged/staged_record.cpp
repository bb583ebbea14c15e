#include "arena/formats/staged/staged_record.h"

#include <algorithm>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <fmt/core.h>

#include "arena/config/description.h"
#include "arena/journal/games_file.h"
#include "arena/journal/journal.h"
#include "referee/record/json_text.h"

namespace kalah::staged {

namespace fs = std::filesystem;
namespace json = boost::json;

Declaration declaration_of(const arena::Config& config) {
  Declaration d;
  d.name = config.tournament.name;
  d.seed = config.tournament.seed;
  d.stages = config.tournament.stages;
  for (std::size_t i = 0; i < config.engines.size(); ++i)
    if (config.plays(static_cast<int>(i))) d.engines.push_back(config.engines[i].name);
  return d;
}

std::string stage_folder(int k) { return "stage-" + std::to_string(k); }
std::uint64_t stage_seed(const Declaration& d, int k) { return d.seed + static_cast<std::uint64_t>(k - 1); }

std::vector<std::string> survivors(const StageRecord& stage) {
  std::vector<std::string> out;
  for (const std::string& name : stage.engines)
    if (std::find(stage.dropped.begin(), stage.dropped.end(), name) == stage.dropped.end()) out.push_back(name);
  return out;
}

namespace {

// Whether stage k's tournament.json describes the round robin the declaration and the stages before make.
std::optional<std::string> check_stage_meta(const Declaration& d, int k, const StageRecord& r, const fs::path& folder) {
  const std::string where = (folder / journal::kMetaFile).string();
  Expected<journal::TournamentMeta> meta = journal::read_meta(folder / journal::kMetaFile);
  if (!meta) return where + ": " + meta.error();
  if (meta->engines != r.engines) {
    std::string names;
    for (const std::string& n : r.engines) names += (names.empty() ? "" : ", ") + n;
    return fmt::format("{}: stage {} is played by other engines than the rules give it ({})", where, k, names);
  }
  Expected<arena::TournamentDescription> settings = arena::description_from_settings(meta->settings);
  if (!settings) return where + ": " + settings.error();
  const arena::StageConfig& s = d.stages[static_cast<std::size_t>(k - 1)];
  if (settings->type != arena::TournamentType::RoundRobin || settings->rounds != s.rounds ||
      settings->variant != to_string(s.variant) || settings->seed != stage_seed(d, k))
    return fmt::format("{}: stage {} is not the declared round robin ({}, rounds {}, seed {})", where, k,
                       to_string(s.variant), s.rounds, stage_seed(d, k));
  return std::nullopt;
}

// Stage k's record from its folder: its games tallied, or none played when it has no journal yet.
Expected<StageRecord> read_stage(const Declaration& d, int k, std::vector<std::string> engines, const fs::path& dir) {
  const arena::StageConfig& s = d.stages[static_cast<std::size_t>(k - 1)];
  const auto n = static_cast<std::int64_t>(engines.size());
  StageRecord r;
  r.stage = k;
  r.engines = std::move(engines);
  r.planned = n * (n - 1) / 2 * s.rounds * 2;
  r.tallies = tally_stage(r.engines, {});
  const fs::path folder = dir / stage_folder(k);
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(folder, ec);
  if (fs::exists(status) && !fs::is_directory(status))  // never a link: it could lead the reader out of `dir`
    return Error{folder.string() + ": not a folder (a stage's folder is one the arena made, never a link)"};
  if (!fs::exists(fs::symlink_status(folder / journal::kGamesFile, ec))) return r;
  if (std::optional<std::string> problem = check_stage_meta(d, k, r, folder)) return Error{*problem};
  Expected<journal::GamesFile> games = journal::read_games(folder / journal::kGamesFile);
  if (!games) return Error{games.error()};
  r.played = static_cast<std::int64_t>(games->games.size());
  if (r.played > r.planned)
    return Error{fmt::format("{}: {} games, more than stage {}'s {}", (folder / journal::kGamesFile).string(), r.played,
                             k, r.planned)};
  r.tallies = tally_stage(r.engines, games->games);
  return r;
}

}  // namespace

Expected<StagedRecord> derive_record(const Declaration& d, const fs::path& dir) {
  StagedRecord out;
  out.declaration = d;
  std::vector<std::string> engines = d.engines;
  std::vector<StageTallies> played;
  const int last = static_cast<int>(d.stages.size());
  for (int k = 1; k <= last; ++k) {
    Expected<StageRecord> stage = read_stage(d, k, engines, dir);
    if (!stage) return Error{stage.error()};
    out.stages.push_back(std::move(stage).value());
    StageRecord& r = out.stages.back();
    if (!r.complete()) {
      std::error_code ec;
      if (k < last && fs::exists(fs::symlink_status(dir / stage_folder(k + 1) / journal::kGamesFile, ec)))
        return Error{fmt::format("{}: stage {} has games although stage {} is not complete",
                                 (dir / stage_folder(k + 1)).string(), k + 1, k)};
      return out;
    }
    played.push_back({r.tallies});
    if (k == last) break;
    r.dropped = dropped(r.tallies);
    engines = survivors(r);
    if (engines.size() < 2) break;
  }
  out.finished = true;
  out.ranking = final_order(played);
  return out;
}

namespace {

json::array names_json(const std::vector<std::string>& names) {
  json::array a;
  for (const std::string& n : names) a.emplace_back(n);
  return a;
}

json::object stage_json(const Declaration& d, int k, const StageRecord* r) {
  const arena::StageConfig& s = d.stages[static_cast<std::size_t>(k - 1)];
  json::object o{{"stage", k},
                 {"folder", stage_folder(k)},
                 {"variant", to_string(s.variant)},
                 {"rounds", s.rounds},
                 {"seed", stage_seed(d, k)}};
  if (!r) return o;  // not reached
  o["engines"] = names_json(r->engines);
  o["planned"] = r->planned;
  o["played"] = r->played;
  o["complete"] = r->complete();
  json::array tallies;
  for (const EngineTally& t : r->tallies)
    tallies.emplace_back(json::object{{"name", t.name},
                                      {"wins", t.wins},
                                      {"draws", t.draws},
                                      {"losses", t.losses},
                                      {"points", t.half_points() / 2.0}});
  o["standings"] = std::move(tallies);
  o["dropped"] = names_json(r->dropped);
  return o;
}

}  // namespace

std::string record_to_text(const StagedRecord& record) {
  const Declaration& d = record.declaration;
  json::array stages;
  for (int k = 1; k <= static_cast<int>(d.stages.size()); ++k)
    stages.emplace_back(
        stage_json(d, k, k <= static_cast<int>(record.stages.size()) ? &record.stages[k - 1] : nullptr));
  json::array ranking;
  for (const Placing& p : record.ranking)
    ranking.emplace_back(
        json::object{{"place", p.place}, {"name", p.name}, {"stage", p.stage}, {"points", p.half_points / 2.0}});
  const json::object o{{"format", kRecordFormat},
                       {"kind", "staged"},
                       {"name", d.name},
                       {"seed", d.seed},
                       {"engines", names_json(d.engines)},
                       {"stages", std::move(stages)},
                       {"finished", record.finished},
                       {"ranking", std::move(ranking)}};
  return json_text(o, {.indent = 2}) + "\n";
}

namespace {

// What a staged.json may declare (it is untrusted input to `arena verify`): as much as a config may.
constexpr std::size_t kMaxStages = 64;
constexpr std::int64_t kMaxRounds = 100'000;
constexpr std::size_t kMaxEngines = 100'000;

// The declaration's members of staged.json, checked for their types and bounds.
std::optional<std::string> read_declaration(const json::object& o, Declaration& d) {
  const json::value* format = o.if_contains("format");
  if (!format || !format->is_int64() || format->as_int64() != kRecordFormat)
    return fmt::format("not a staged record of format {}", kRecordFormat);
  const json::value* name = o.if_contains("name");
  const json::value* seed = o.if_contains("seed");
  const json::value* engines = o.if_contains("engines");
  const json::value* stages = o.if_contains("stages");
  if (!name || !name->is_string() || !seed || !(seed->is_uint64() || seed->is_int64()) || !engines ||
      !engines->is_array() || !stages || !stages->is_array() || stages->as_array().empty())
    return "needs name, seed, engines and stages";
  d.name = name->as_string();
  d.seed = seed->is_uint64() ? seed->as_uint64() : static_cast<std::uint64_t>(seed->as_int64());
  for (const json::value& e : engines->as_array()) {
    if (!e.is_string()) return "engines: a name is not a string";
    d.engines.emplace_back(e.as_string());
  }
  if (stages->as_array().size() > kMaxStages || d.engines.size() > kMaxEngines)
    return fmt::format("at most {} stages and {} engines", kMaxStages, kMaxEngines);
  for (const json::value& s : stages->as_array()) {
    const json::object* so = s.if_object();
    const json::value* variant = so ? so->if_contains("variant") : nullptr;
    const json::value* rounds = so ? so->if_contains("rounds") : nullptr;
    if (!variant || !variant->is_string() || !rounds || !rounds->is_int64() || rounds->as_int64() < 1 ||
        rounds->as_int64() > kMaxRounds)
      return fmt::format("stages: each needs variant and rounds (1 to {})", kMaxRounds);
    Expected<Variant> v = parse_variant(std::string(variant->as_string()));
    if (!v) return "stages: " + v.error();
    d.stages.push_back({.variant = *v, .rounds = static_cast<int>(rounds->as_int64())});
  }
  return std::nullopt;
}

}  // namespace

Expected<Declaration> declaration_from_text(std::string_view text, const std::string& where) {
  std::error_code ec;
  const json::value value = json::parse(text, ec);
  if (ec || !value.is_object()) return Error{where + ": not a JSON object"};
  Declaration d;
  if (std::optional<std::string> problem = read_declaration(value.as_object(), d))
    return Error{where + ": " + *problem};
  return d;
}

std::string record_to_markdown(const StagedRecord& record) {
  const Declaration& d = record.declaration;
  std::string out = fmt::format("# {} — staged\n\n", d.name);
  out += fmt::format(
      "{} stage{}, seed {}; after each stage but the last, an engine with more losses than wins "
      "leaves.\n\n",
      d.stages.size(), d.stages.size() == 1 ? "" : "s", d.seed);
  out += "| stage | variant | rounds | engines | games | left after it |\n|---|---|---|---|---|---|\n";
  for (int k = 1; k <= static_cast<int>(d.stages.size()); ++k) {
    const arena::StageConfig& s = d.stages[static_cast<std::size_t>(k - 1)];
    const StageRecord* r = k <= static_cast<int>(record.stages.size()) ? &record.stages[k - 1] : nullptr;
    std::string left;
    if (r)
      for (const std::string& n : r->dropped) left += (left.empty() ? "" : ", ") + n;
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", k, to_string(s.variant), s.rounds,
                       r ? std::to_string(r->engines.size()) : "-",
                       r ? fmt::format("{}/{}", r->played, r->planned) : "not reached", left.empty() ? "-" : left);
  }
  if (!record.finished) return out + "\nNot finished: the stages still to play are played by the same command.\n";
  out += "\n## Final order\n\n| place | engine | last stage | points there |\n|---|---|---|---|\n";
  for (const Placing& p : record.ranking)
    out += fmt::format("| {} | {} | {} | {} |\n", p.place, p.name, p.stage, json_number(p.half_points / 2.0));
  return out;
}

}  // namespace kalah::staged
