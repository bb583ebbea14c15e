// [ranking] (docs/RANKING.md): by Elo, or by points with declared tie-breaks.
#include "arena/config/readers.h"

#include <algorithm>

namespace kalah::arena::detail {

// ranking.cuts = [1, 3, 10] (the top k whose chance and fragility the reports give; with any `by` and any kind of
// tournament) and tournament.boundaries (a final's places).
void read_places(const Reader& r, const Table& t, std::string_view key, std::string_view one, std::string_view many,
                 std::vector<int>& out) {
  const toml::node* node = t.find(key);
  if (!node) return;
  const std::string name = t.key_name(key);
  const toml::array* list = node->as_array();
  if (!list) t.fail_at(key, name + " must be an array of whole numbers, not " + detail::describe(node->type()));
  for (std::size_t i = 0; i < list->size(); ++i) {
    const toml::node& element = *list->get(i);
    const std::string where = name + "[" + std::to_string(i) + "]";
    const auto* k = element.as_integer();
    if (!k) r.loc().fail(element.source(), where + " must be a whole number, not " + detail::describe(element.type()));
    if (k->get() < 1 || k->get() > 1'000'000)
      r.loc().fail(element.source(), where + " = " + std::to_string(k->get()) + ": a " + std::string(one) +
                                         " is a number of places from the top, 1 to 1000000");
    if (!out.empty() && k->get() <= out.back())
      r.loc().fail(element.source(), where + " = " + std::to_string(k->get()) + ": the " + std::string(many) +
                                         " must be listed in ascending order, each once (after " +
                                         std::to_string(out.back()) + ")");
    out.push_back(static_cast<int>(k->get()));
  }
}

// [ranking]: how the standings rank (docs/RANKING.md); read after [tournament] and [sprt].
void read_ranking(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "ranking", "[ranking]", {"by", "tiebreaks", "points", "cuts"});
  rating::RankingRules& out = c.ranking;
  out.by = t.choice<rating::RankBy>("by", {{"elo", rating::RankBy::Elo}, {"points", rating::RankBy::Points}})
               .value_or(rating::RankBy::Elo);
  read_places(r, t, "cuts", "cut", "cuts", out.cuts);
  if (out.by == rating::RankBy::Elo) {
    for (std::string_view key : {"tiebreaks", "points"})
      if (t.has(key)) t.fail_at(key, t.key_name(key) + " applies only with ranking.by = \"points\"");
    return;
  }
  if (c.sprt)
    t.fail_at("by", "ranking.by = \"points\" ranks a tournament; an [sprt] match of two engines has no ranking");
  if (const TournamentKind& kind = kind_of(c.tournament.type); !kind.no_points.empty())
    t.fail_at("by", std::string("ranking.by = \"points\" applies to round-robin and gauntlet tournaments; ") +
                        std::string(kind.article) + " " + std::string(kind.name) + std::string(kind.no_points));
  if (const toml::node* node = t.find("tiebreaks")) {
    const toml::array* list = node->as_array();
    if (!list)
      t.fail_at("tiebreaks",
                "ranking.tiebreaks must be an array of tie-break names, not " + detail::describe(node->type()));
    for (std::size_t i = 0; i < list->size(); ++i) {
      const toml::node& element = *list->get(i);
      const std::string where = "ranking.tiebreaks[" + std::to_string(i) + "]";
      if (!element.is_string())
        r.loc().fail(element.source(), where + " must be a string, not " + detail::describe(element.type()));
      const std::string& name = element.as_string()->get();
      const std::optional<rating::TieBreak> tiebreak = rating::parse_tiebreak(name);
      if (!tiebreak)
        r.loc().fail(element.source(),
                     where + ": unknown tie-break " + in_quotes(name) + "; known: " + rating::tiebreak_names());
      if (std::find(out.tiebreaks.begin(), out.tiebreaks.end(), *tiebreak) != out.tiebreaks.end())
        r.loc().fail(element.source(), where + ": " + in_quotes(name) + " is listed twice");
      out.tiebreaks.push_back(*tiebreak);
    }
  }
  if (const toml::table* points = r.sub_table(t, "points")) {
    Table p(r.loc(), *points, "ranking.points", "ranking.points", {"win", "draw", "loss"});
    out.points.win = p.number("win").value_or(out.points.win);
    out.points.draw = p.number("draw").value_or(out.points.draw);
    out.points.loss = p.number("loss").value_or(out.points.loss);
    if (const std::optional<std::string> problem = rating::check(out.points))
      t.fail_at("points", "ranking.points (" + rating::describe(out.points) + "): " + *problem);
  }
}

}  // namespace kalah::arena::detail
