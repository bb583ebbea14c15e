// The Config's own members, and reading a config file (docs/CONFIG.md): parse_config() checks the top level
// and hands each table to its reader (readers.h, one file per table), in the order their checks need.
#include "arena/config/config.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <toml++/toml.h>

#include "arena/config/readers.h"
#include "arena/config/toml_table.h"
#include "referee/endgame/database.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/spelling.h"

namespace kalah::arena {
namespace fs = std::filesystem;
using detail::ConfigFailure;
using detail::in_quotes;
using detail::Locator;
using detail::Table;

const char* to_string(TournamentType t) { return kind_of(t).name.data(); }

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

namespace detail {

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

}  // namespace detail

namespace {

using detail::Reader;

// [season] is a season's own table (arena/season, docs/SEASON.md), read there: a season.toml is also the config of
// the contest its authors play.
void check_top_level(const Reader& r, const toml::table& root) {
  static constexpr std::string_view known[] = {"tournament", "variant", "time",        "openings", "sprt",  "rating",
                                               "ranking",    "engine",  "submissions", "analysis", "season"};
  const toml::key* first_unknown = nullptr;
  for (auto&& [key, value] : root) {
    bool is_known = false;
    for (std::string_view k : known) is_known = is_known || key.str() == k;
    if (!is_known && (!first_unknown || detail::before(key.source(), first_unknown->source()))) first_unknown = &key;
  }
  if (!first_unknown) return;
  const std::optional<std::string> meant =
      nearest_word(first_unknown->str(), std::vector<std::string>(std::begin(known), std::end(known)));
  r.loc().fail(first_unknown->source(),
               "unknown table or key " + in_quotes(first_unknown->str()) + " at the top level" +
                   (meant ? " (did you mean " + in_quotes(*meant) + "?)" : "") +
                   "; known: [tournament], [variant], [time], [openings], "
                   "[sprt], [rating], [ranking], [submissions], [analysis], [season], [[engine]]");
}

Config read_tables(const Reader& r, const toml::table& root) {
  using namespace detail;
  Config c;
  c.source = r.loc().path();
  check_top_level(r, root);
  // [variant] first: a staged tournament's stages (in [tournament]) put their keys over it.
  if (const toml::table* t = r.section(root, "variant")) read_variant(r, *t, c);
  read_tournament(r, root, c);
  read_time(r, root, c);
  if (const toml::table* t = r.section(root, "openings")) read_openings(r, *t, c);
  if (const toml::table* t = r.section(root, "sprt")) read_sprt(r, *t, c);
  read_adjudicate(r, root, c);
  if (const toml::table* t = r.section(root, "submissions")) read_submissions(r, *t, root, c);
  read_engines(r, root, c);
  read_seed_engines(r, root, c);
  check_boundaries(r, root, c);
  if (const toml::table* t = r.section(root, "rating")) read_rating(r, *t, c);
  if (const toml::table* t = r.section(root, "ranking")) read_ranking(r, *t, c);
  if (const toml::table* t = r.section(root, "analysis")) read_analysis(r, *t, c);
  if (c.sprt && paired_from_results(c.tournament.type))
    r.loc().fail(root["sprt"].node()->source(),
                 std::string("[sprt] plays an open-ended match of two engines; it cannot be "
                             "combined with tournament.type = \"") +
                     to_string(c.tournament.type) + "\"");
  check_staged(r, root, c);
  if (c.sprt && !c.sprt->git && c.engines.size() != 2)
    r.loc().fail(
        root["sprt"].node()->source(),
        "[sprt] needs exactly two engines (the base first, then the test), not " + std::to_string(c.engines.size()));
  return c;
}

}  // namespace

Expected<Config> parse_config(std::string_view toml_text, std::string_view path_for_messages, const fs::path& base_dir,
                              const fs::path& work_dir) {
  const std::string path(path_for_messages);
  try {
    toml::table root = toml::parse(toml_text, std::string_view(path));
    Config config = read_tables(Reader(path, work_dir, base_dir), root);
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

Expected<Config> load_config(const fs::path& path) {
  auto text = detail::read_file(path);
  if (!text) return Error{path.string() + ": the config file " + text.error()};
  return parse_config(*text, path.string(), path.parent_path());
}

}  // namespace kalah::arena
