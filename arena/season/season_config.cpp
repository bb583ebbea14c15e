#include "arena/season/season_config.h"

#include <fmt/chrono.h>

#include "arena/config/toml_table.h"
#include "referee/system/untrusted_files.h"

namespace kalah::season {
namespace fs = std::filesystem;

const char* to_string(FinalFormat f) {
  switch (f) {
    case FinalFormat::RoundRobin: return "round-robin";
  }
  return "?";
}

namespace {

using arena::detail::ConfigFailure;
using arena::detail::Locator;
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
  using namespace std::chrono;
  const sys_days date = year_month_day{year{at.date.year}, month{at.date.month}, day{at.date.day}};
  out.deadline = time_point_cast<system_clock::duration>(date + hours{at.time.hour} + minutes{at.time.minute} +
                                                         seconds{at.time.second} - minutes{at.offset->minutes});
  out.deadline_text = fmt::format("{:%FT%TZ}", time_point_cast<seconds>(*out.deadline));
}

void read_season_table(const Locator& loc, const toml::table& root, SeasonConfig& out) {
  const toml::node* node = root.get("season");
  if (!node)
    throw ConfigFailure{loc.at(1, 1) + "no [season] table: a season's config is what `arena season init` writes"};
  const toml::table* table = node->as_table();
  if (!table) loc.fail(node->source(), "season must be a table, [season]");
  Table t(loc, *table, "season", "[season]",
          {"deadline", "pseudonyms", "max_upload_kb", "max_files", "max_unpacked_kb", "final", "ladder_concurrency"});
  read_deadline(t, out);
  out.pseudonyms = t.on_off("pseudonyms").value_or(false);
  if (auto kb = t.integer("max_upload_kb", 1, 1 << 20))
    out.limits.max_upload_bytes = static_cast<std::uintmax_t>(*kb) << 10;
  if (auto n = t.integer("max_files", 1, 100'000)) out.limits.max_files = static_cast<std::size_t>(*n);
  if (auto kb = t.integer("max_unpacked_kb", 1, 4 << 20))
    out.limits.max_unpacked_bytes = static_cast<std::uintmax_t>(*kb) << 10;
  if (auto f = t.choice<FinalFormat>("final", {{"round-robin", FinalFormat::RoundRobin}})) out.final_format = *f;
  if (auto n = t.integer("ladder_concurrency", 1, 256)) out.ladder_concurrency = static_cast<int>(*n);
}

}  // namespace

Expected<SeasonConfig> parse_season(std::string_view text, std::string_view path_for_messages, const fs::path& dir) {
  const std::string path(path_for_messages);
  SeasonConfig out;
  out.dir = fs::absolute(dir).lexically_normal();
  try {
    const toml::table root = toml::parse(text, std::string_view(path));
    read_season_table(Locator(path), root, out);
  } catch (const toml::parse_error& e) {
    return Error{Locator(path).at(e.source()) + std::string(e.description())};
  } catch (const ConfigFailure& e) {
    return Error{e.message};
  }
  // [season] first, as the file is written; then the contest the rest of the file declares.
  Expected<arena::Config> contest = arena::parse_config(text, path, dir);
  if (!contest) return Error{contest.error()};
  out.contest = std::move(contest).value();
  if (!out.contest.submissions)
    return Error{path + ": a season needs [submissions]: the folder its revisions are built from"};
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
