// tournament.stages and season.final_stages (docs/CONFIG.md, "Staged"): the stages of a staged tournament, each a
// board to play a round robin on; and what a staged tournament cannot have, checked once every table is read.
#include <set>
#include <sstream>

#include "arena/config/readers.h"

namespace kalah::arena::detail {

namespace {

// The most stages a list may name: a staged final plays a handful (FAU's: Kalah(6,6) to (12,12)).
constexpr std::size_t kMaxStages = 64;

// The stage's own keys over `base`: "pits=8 seeds=8" keeps the capture, ending, ... of [variant].
Expected<Variant> stage_variant(const Variant& base, std::string_view text) {
  Expected<Variant> own = parse_variant(text);  // its own errors: an unknown key, a repeated one, a range
  if (!own) return own;
  std::set<std::string> given;
  std::istringstream words{std::string(text)};
  for (std::string word; words >> word;) given.insert(word.substr(0, word.find('=')));
  std::string merged;
  std::istringstream standard(to_string(base));
  for (std::string word; standard >> word;)
    if (!given.contains(word.substr(0, word.find('=')))) merged += word + " ";
  return parse_variant(merged + std::string(text));
}

// Where a key of a table that may be absent is written, for a message about it.
[[noreturn]] void fail_at_node(const Reader& r, const toml::node* node, const toml::table& root,
                               const std::string& message) {
  r.loc().fail(node ? node->source() : root.source(), message);
}

}  // namespace

std::vector<StageConfig> read_stages(const Reader& r, const Table& t, std::string_view key, const Variant& base,
                                     int pairs, std::vector<std::string>& notes) {
  const toml::node* node = t.find(key);
  if (!node) t.missing(key);
  const toml::array* list = node->as_array();
  const std::string example = "[{ variant = \"pits=6 seeds=6\" }, { variant = \"pits=8 seeds=8\", pairs = 2 }]";
  if (!list)
    t.fail_at(key, t.key_name(key) + " must be an array of stages, " + example + ", not " + describe(node->type()));
  if (list->empty()) t.fail_at(key, t.key_name(key) + " must name at least one stage, e.g. " + example);
  if (list->size() > kMaxStages)
    t.fail_at(key, t.key_name(key) + " names " + std::to_string(list->size()) + " stages; at most " +
                       std::to_string(kMaxStages));
  std::vector<StageConfig> stages;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const toml::node& element = *list->get(i);
    const std::string name = t.key_name(key) + "[" + std::to_string(i) + "]";
    const toml::table* table = element.as_table();
    if (!table)
      r.loc().fail(element.source(), name + " must be a table { variant = \"pits=6 seeds=6\", pairs = 1 }, not " +
                                         describe(element.type()));
    Table s(r.loc(), *table, name, name, {"variant", "pairs", "rounds"});
    const std::optional<std::string> text = s.string("variant");
    if (!text) s.missing("variant");
    Expected<Variant> variant = stage_variant(base, *text);
    if (!variant) s.fail_at("variant", s.key_name("variant") + ": " + variant.error());
    stages.push_back({.variant = *variant, .rounds = read_pairs(s, RoundsCount::PairsPerPairing, pairs, notes)});
  }
  return stages;
}

void read_tournament_stages(const Reader& r, const Table& t, Config& c) {
  const bool staged = t.string("type") == std::optional<std::string>("staged");
  if (t.has("stages") && !staged) t.fail_at("stages", "tournament.stages only applies to type = \"staged\"");
  if (!staged) return;
  if (!t.has("stages"))
    t.fail_at("type",
              "type = \"staged\" needs tournament.stages, the boards in order, e.g. stages = [{ variant = "
              "\"pits=4 seeds=3\" }, { variant = \"pits=6 seeds=4\" }]");
  c.tournament.stages = read_stages(r, t, "stages", c.variant, c.tournament.rounds, c.warnings);
}

void check_staged(const Reader& r, const toml::table& root, const Config& c) {
  if (!c.tournament.staged()) return;
  const std::string staged = " does not apply to a staged tournament or final: ";
  if (c.sprt) fail_at_node(r, root["sprt"].node(), root, "[sprt]" + staged + "an SPRT is a match of two engines");
  if (!c.openings.file.empty())
    fail_at_node(r, root["openings"]["file"].node(), root,
                 "openings.file" + staged +
                     "a book's lines are of one board, the stages play several "
                     "(openings.random_plies works on every board)");
  if (c.start)
    fail_at_node(r, root["variant"]["start"].node(), root, "variant.start" + staged + "a start is of one board");
  if (c.tournament.adjudicate.database_seeds >= 0)
    fail_at_node(r, root["tournament"]["adjudicate"]["database_seeds"].node(), root,
                 "tournament.adjudicate.database_seeds" + staged + "an endgame database is of one board");
  if (!c.tournament.pgnout.empty())
    fail_at_node(r, root["tournament"]["pgnout"].node(), root,
                 "tournament.pgnout" + staged + "each stage writes its own games.pgn in its folder");
  if (c.analysis)
    fail_at_node(r, root["analysis"].node(), root,
                 "[analysis]" + staged + "`arena analyse` takes a stage's folder once it is played");
}

}  // namespace kalah::arena::detail
