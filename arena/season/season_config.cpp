#include "arena/season/season_config.h"

#include <algorithm>
#include <cassert>

#include <fmt/chrono.h>

#include "arena/config/readers.h"
#include "arena/config/toml_table.h"
#include "referee/system/untrusted_files.h"

namespace kalah::season {
namespace fs = std::filesystem;

const char* to_string(FinalFormat f) {
  switch (f) {
    case FinalFormat::RoundRobin: return "round-robin";
    case FinalFormat::Adaptive: return "adaptive";
    case FinalFormat::Staged: return "staged";
  }
  return "?";
}

const std::string& SeasonConfig::public_name(const std::string& author) const {
  const auto found = pseudonym_of.find(author);
  // The server names every author of its roster before any revision of theirs is named.
  assert(!pseudonyms || found != pseudonym_of.end());
  return found == pseudonym_of.end() ? author : found->second;
}

std::string describe_final(const SeasonConfig& season) {
  std::string out = to_string(season.final_format);
  if (season.final_format == FinalFormat::Adaptive) {
    std::string places;
    for (int k : season.final_boundaries) places += (places.empty() ? "" : ",") + std::to_string(k);
    out += fmt::format(" boundaries={} budget_games={}", places, season.final_budget_games);
  }
  if (season.final_format == FinalFormat::Staged) {
    std::string stages;
    for (const arena::StageConfig& s : season.final_stages)
      stages += fmt::format("{}{} rounds={}", stages.empty() ? "" : "; ", to_string(s.variant), s.rounds);
    out += " stages=[" + stages + "]";
  }
  return out + (season.final_sparring ? " sparring" : "");
}

namespace {

using arena::detail::ConfigFailure;
using arena::detail::Locator;
using arena::detail::Reader;
using arena::detail::Table;

// deadline = 2027-02-15T23:59:00Z: a TOML date and time with its offset (a local time would be ambiguous).
void read_deadline(const Table& t, SeasonConfig& out) {
  const toml::node* node = t.find("deadline");
  if (!node) return;
  const auto* value = node->as_date_time();
  if (!value || !value->get().offset)
    t.fail_at("deadline",
              "season.deadline must be a date and time with its offset, as 2027-02-15T23:59:00Z or "
              "2027-02-15T23:59:00+01:00, not " +
                  (value ? std::string("a local date and time") : arena::detail::describe(node->type())));
  const toml::date_time& at = value->get();
  // The system clock counts nanoseconds in 64 bits: a later year would wrap round into the past.
  if (at.date.year < 1970 || at.date.year > 2200)
    t.fail_at("deadline",
              "season.deadline must be a date between the years 1970 and 2200, not in " + std::to_string(at.date.year));
  using namespace std::chrono;
  const sys_days date = year_month_day{year{at.date.year}, month{at.date.month}, day{at.date.day}};
  out.deadline = time_point_cast<system_clock::duration>(date + hours{at.time.hour} + minutes{at.time.minute} +
                                                         seconds{at.time.second} - minutes{at.offset->minutes});
  out.deadline_text = fmt::format("{:%FT%TZ}", time_point_cast<seconds>(*out.deadline));
}

// final = "staged" and final_stages, over the file's [variant]; a stage's pairs left 0 (the contest's) unless given.
void read_final_stages(const Reader& r, const toml::table& root, const Table& t, SeasonConfig& out) {
  const bool staged = out.final_format == FinalFormat::Staged;
  if (t.has("final_stages") && !staged)
    t.fail_at("final_stages", "season.final_stages only applies to final = \"staged\"");
  if (!staged) return;
  if (!t.has("final_stages"))
    t.fail_at("final",
              "final = \"staged\" needs season.final_stages, the boards in order, e.g. final_stages = "
              "[{ variant = \"pits=6 seeds=6\" }, { variant = \"pits=8 seeds=8\" }]");
  arena::Config board;
  if (const toml::table* variant = r.section(root, "variant")) arena::detail::read_variant(r, *variant, board);
  out.final_stages = arena::detail::read_stages(r, t, "final_stages", board.variant, 0, out.contest.warnings);
}

// final, final_boundaries, final_budget_games, final_sparring, final_stages: the final's format and its keys
// (docs/CONFIG.md).
void read_final(const Reader& r, const toml::table& root, const Table& t, SeasonConfig& out) {
  out.final_format = t.choice<FinalFormat>("final", {{"round-robin", FinalFormat::RoundRobin},
                                                     {"adaptive", FinalFormat::Adaptive},
                                                     {"staged", FinalFormat::Staged}})
                         .value_or(out.final_format);
  out.final_sparring = t.on_off("final_sparring").value_or(false);
  read_final_stages(r, root, t, out);
  const bool adaptive = out.final_format == FinalFormat::Adaptive;
  for (std::string_view key : {"final_boundaries", "final_budget_games"})
    if (t.has(key) && !adaptive) t.fail_at(key, t.key_name(key) + " only applies to final = \"adaptive\"");
  if (!adaptive) return;
  for (std::string_view key : {"final_boundaries", "final_budget_games"})
    if (!t.has(key))
      t.fail_at("final", "final = \"adaptive\" (a progressive cutoff) needs " + t.key_name(key) +
                             " (e.g. final_boundaries = [1, 3] and final_budget_games = 200)");
  arena::detail::read_places(r, t, "final_boundaries", "boundary", "boundaries", out.final_boundaries);
  if (out.final_boundaries.empty())
    t.fail_at("final_boundaries", "season.final_boundaries must name at least one place (e.g. [1, 3])");
  out.final_boundaries_at = r.loc().at(t.find("final_boundaries")->source());
  const std::int64_t budget = *t.integer("final_budget_games", 2, 10'000'000);
  if (budget % 2 != 0)
    t.fail_at("final_budget_games",
              "season.final_budget_games must be even (colour-swapped game pairs), not " + std::to_string(budget));
  out.final_budget_games = static_cast<int>(budget);
}

// Whether `inner` is `outer` or lies below it, by their absolute, normal paths.
bool within(fs::path inner, fs::path outer) {
  for (fs::path* p : {&inner, &outer})
    if (!p->has_filename() && p->has_relative_path()) *p = p->parent_path();  // "inbox/" is "inbox"
  const auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end();
}

// watch = "inbox": the watched submissions folder, relative to the season's; never the season's folder, one of the
// folders the arena writes, or a folder holding the season.
void read_watch(const Table& t, SeasonConfig& out) {
  const std::optional<std::string> watch = t.string("watch");
  if (!watch) return;
  out.watch = (out.dir / *watch).lexically_normal();  // an absolute `watch` stays as it is
  if (within(out.dir, out.watch))
    t.fail_at("watch",
              "season.watch must be a folder of its own inside or beside the season's, such as \"inbox\", "
              "not " +
                  out.watch.string() + ", which holds the season");
  for (const char* own : {"revisions", "status"})
    if (within(out.watch, out.dir / own))
      t.fail_at("watch", "season.watch must be a folder of its own, such as \"inbox\", not " + out.watch.string() +
                             ", which is in the season's " + own + "/ (the arena's own)");
}

// ladder_runner and the ladder_slurm_* keys, which only apply to ladder_runner = "slurm" (docs/CONFIG.md).
void read_ladder_runner(const Table& t, SeasonConfig& out) {
  out.ladder_slurm = t.choice<bool>("ladder_runner", {{"local", false}, {"slurm", true}}).value_or(false);
  for (const char* key : {"ladder_slurm_partition", "ladder_slurm_time", "ladder_slurm_wait_minutes"})
    if (t.has(key) && !out.ladder_slurm) t.fail_at(key, t.key_name(key) + " only applies to ladder_runner = \"slurm\"");
  for (const auto& [key, value] : {std::pair{"ladder_slurm_partition", &out.ladder_slurm_partition},
                                   std::pair{"ladder_slurm_time", &out.ladder_slurm_time}}) {
    *value = t.string(key).value_or("");
    if (t.has(key) && (value->empty() || value->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                  "0123456789_.:,-") != std::string::npos))
      t.fail_at(
          key, t.key_name(key) + " must be a non-empty word of letters, digits and _ . : , - (an srun option's value)");
  }
  if (auto n = t.integer("ladder_slurm_wait_minutes", 1, 10080)) out.ladder_slurm_wait_minutes = static_cast<int>(*n);
}

void read_season_table(const Reader& r, const toml::table& root, SeasonConfig& out) {
  const Locator& loc = r.loc();
  const toml::node* node = root.get("season");
  if (!node)
    throw ConfigFailure{loc.at(1, 1) + "no [season] table: a season's config is what `arena season init` writes"};
  const toml::table* table = node->as_table();
  if (!table) loc.fail(node->source(), "season must be a table, [season]");
  Table t(loc, *table, "season", "[season]",
          {"deadline", "pseudonyms", "max_upload_kb", "max_files", "max_unpacked_kb", "final", "final_boundaries",
           "final_budget_games", "final_sparring", "final_stages", "ladder_concurrency", "ladder_analysis",
           "ladder_runner", "ladder_slurm_partition", "ladder_slurm_time", "ladder_slurm_wait_minutes", "watch"});
  read_deadline(t, out);
  out.pseudonyms = t.on_off("pseudonyms").value_or(false);
  const toml::node* pseudonyms = t.find("pseudonyms");
  out.pseudonyms_at = loc.at(pseudonyms ? pseudonyms->source() : table->source());
  if (auto kb = t.integer("max_upload_kb", 1, 1 << 20))
    out.limits.max_upload_bytes = static_cast<std::uintmax_t>(*kb) << 10;
  if (auto n = t.integer("max_files", 1, 100'000)) out.limits.max_files = static_cast<std::size_t>(*n);
  if (auto kb = t.integer("max_unpacked_kb", 1, 4 << 20))
    out.limits.max_unpacked_bytes = static_cast<std::uintmax_t>(*kb) << 10;
  read_final(r, root, t, out);
  if (auto n = t.integer("ladder_concurrency", 1, 256)) out.ladder_concurrency = static_cast<int>(*n);
  out.ladder_analysis = t.on_off("ladder_analysis").value_or(true);
  read_ladder_runner(t, out);
  read_watch(t, out);
}

// A staged final: its stages' rounds (the contest's unless given), and what the contest cannot have for it (a book,
// a start, an endgame database: each of one board). The final writes no pgnout copy and no analysis (final.h).
std::optional<std::string> check_staged_final(std::string_view text, const std::string& path, SeasonConfig& out) {
  if (out.final_format != FinalFormat::Staged) return std::nullopt;
  for (arena::StageConfig& s : out.final_stages)
    if (s.rounds == 0) s.rounds = out.contest.tournament.rounds;
  arena::Config probe = out.contest;
  probe.tournament.stages = out.final_stages;
  probe.tournament.pgnout.clear();
  probe.analysis.reset();
  try {
    arena::detail::check_staged(Reader(path, fs::current_path(), out.dir), toml::parse(text, std::string_view(path)),
                                probe);
  } catch (const ConfigFailure& e) {
    return e.message;
  }
  return std::nullopt;
}

}  // namespace

Expected<SeasonConfig> parse_season(std::string_view text, std::string_view path_for_messages, const fs::path& dir) {
  const std::string path(path_for_messages);
  SeasonConfig out;
  out.dir = fs::absolute(dir).lexically_normal();
  try {
    const toml::table root = toml::parse(text, std::string_view(path));
    read_season_table(Reader(path, fs::current_path(), out.dir), root, out);
  } catch (const toml::parse_error& e) {
    return Error{Locator(path).at(e.source()) + std::string(e.description())};
  } catch (const ConfigFailure& e) {
    return Error{e.message};
  }
  // [season] first, as the file is written; then the contest the rest of the file declares.
  Expected<arena::Config> contest = arena::parse_config(text, path, dir);
  if (!contest) return Error{contest.error()};
  std::vector<std::string> notes = std::move(out.contest.warnings);  // final_stages' notes, read with [season]
  out.contest = std::move(contest).value();
  out.contest.warnings.insert(out.contest.warnings.end(), notes.begin(), notes.end());
  if (std::optional<std::string> problem = check_staged_final(text, path, out)) return Error{*problem};
  if (!out.contest.submissions)
    return Error{path + ": a season needs [submissions]: the folder its revisions are built from"};
  for (fs::path own : {out.contest.submissions->dir, out.contest.tournament.output})
    if (own = fs::absolute(own).lexically_normal();
        !out.watch.empty() && (within(out.watch, own) || within(own, out.watch)))
      return Error{path + ": season.watch must be a folder of its own, not " + out.watch.string() +
                   ", which is or holds " + own.string() + " (the arena writes there)"};
  return out;
}

Expected<SeasonConfig> load_season(const fs::path& file) {
  Expected<std::string> text = system::read_regular_file(file, 1u << 20);
  if (!text) return Error{text.error()};
  fs::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  return parse_season(*text, file.string(), dir);
}

}  // namespace kalah::season
