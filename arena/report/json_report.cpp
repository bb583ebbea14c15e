#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include "arena/report/rank_interval_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/text_util.h"
#include "referee/record/json_text.h"

namespace kalah::report {

namespace json = boost::json;

namespace {

// An engine's move quality (move_quality.h): the counts, and the mean loss and perfect share over the judged
// moves (null when none is judged).
json::object quality_json(const analysis::EngineQuality* q) {
  const analysis::EngineQuality x = q ? *q : analysis::EngineQuality{};
  json::object o{{"moves", x.moves}, {"judged", x.judged}, {"perfect", x.perfect}, {"blunders", x.blunders}};
  o["mean_loss"] = x.judged ? json::value(rounded(x.mean_loss(), 2)) : json::value(nullptr);
  o["perfect_pct"] = x.judged ? json::value(rounded(100 * x.perfect_share(), 2)) : json::value(nullptr);
  return o;
}

// One engine's row of `engines`. `cpu_clock`: the moves' times are the CPU time charged, with their wall time
// beside them.
json::object engine_json(const EngineStanding& e, const Standings& s, bool cpu_clock, const MoveQuality* quality) {
  json::object reasons;
  for (std::size_t r = 0; r < kForfeitReasons.size(); ++r)
    reasons[to_string(kForfeitReasons[r])] = e.forfeits_by_reason[r];
  json::object o;
  o["rank"] = e.rank > 0 ? json::value(e.rank) : json::value(nullptr);
  if (e.status != rating::EntryStatus::Active) o["status"] = rating::to_string(e.status);
  if (s.form) o["rank_shared"] = e.rank_shared;
  add_rank_interval_json(e, s, o);
  o["name"] = e.name;
  // No rating without a counted game.
  o["elo"] = e.games > 0 ? json::value(rounded(e.elo, 2)) : json::value(nullptr);
  o["ci95"] = e.games > 0 ? json::value(rounded(e.ci95, 2)) : json::value(nullptr);
  o["games"] = e.games;
  o["points"] = e.points;
  if (s.form) o["bye_points"] = e.bye_points;
  o["score_pct"] = rounded(e.score_pct, 2);
  o["wins"] = e.wins;
  o["draws"] = e.draws;
  o["losses"] = e.losses;
  o["forfeits"] = e.forfeits;
  o["forfeits_by_reason"] = std::move(reasons);
  if (e.worst_overrun_ms) o["worst_overrun_ms"] = rounded(*e.worst_overrun_ms, 1);
  if (e.los_next)
    o["los_next"] = rounded(*e.los_next, 4);
  else
    o["los_next"] = nullptr;
  o["time"] = {{"moves", e.moves_timed},
               {"mean_ms", rounded(e.mean_move_ms, 2)},
               {"max_ms", rounded(e.max_move_ms, 2)},
               {"mean_depth", e.moves_with_depth > 0 ? json::value(rounded(e.mean_depth, 2)) : json::value(nullptr)}};
  // On the CPU clock the figures above are the CPU time charged; the wall time of the same moves is beside them.
  if (cpu_clock) {
    json::object& time = o["time"].as_object();
    time["clock"] = "cpu";
    time["wall_mean_ms"] = e.moves_wall_timed > 0 ? json::value(rounded(e.mean_wall_ms, 2)) : json::value(nullptr);
    time["wall_max_ms"] = e.moves_wall_timed > 0 ? json::value(rounded(e.max_wall_ms, 2)) : json::value(nullptr);
  }
  if (e.diff_next) {
    o["diff_next"] = rounded(*e.diff_next, 2);
    o["diff_next_ci95"] = rounded(e.diff_next_ci95.value_or(0), 2);
  } else {
    o["diff_next"] = nullptr;
    o["diff_next_ci95"] = nullptr;
  }
  if (quality) o["analysis"] = quality_json(quality->find(e.name));
  return o;
}

// The crosstable, row by row in rank order; only the opponents actually met.
json::array crosstable_json(const Standings& s) {
  json::array cross;
  for (std::size_t r = 0; r < s.engines.size(); ++r) {
    json::object against;
    for (std::size_t c = 0; c < s.engines.size(); ++c) {
      const CrossCell& cell = s.crosstable[r][c];
      if (cell.games == 0) continue;
      json::array penta;
      for (int count : cell.penta) penta.emplace_back(count);
      against[s.engines[c].name] =
          json::object{{"games", cell.games}, {"points", cell.points}, {"wins", cell.wins},
                       {"draws", cell.draws}, {"losses", cell.losses}, {"pentanomial", std::move(penta)}};
    }
    cross.emplace_back(json::object{{"name", s.engines[r].name}, {"against", std::move(against)}});
  }
  return cross;
}

}  // namespace

std::string standings_json(const Standings& s, const std::string& event, const Notes& notes, const std::string& form,
                           const MoveQuality* quality) {
  json::object root;
  root["event"] = event;
  if (!notes.empty()) {
    json::array list;
    for (const Note& note : notes) list.emplace_back(note.text);
    root["notes"] = std::move(list);
  }
  root["games"] = s.games;
  root["ignored_records"] = s.ignored;
  if (s.voided > 0) root["voided_games"] = s.voided;
  root["repeated_games"] = s.repeated;
  root["rating"] = json::object{
      {"model", "bradley-terry"}, {"first_mover_term", true},   {"normalisation", normalisation_text(s)},
      {"interval", "95%"},        {"prior_used", s.prior_used},
  };
  if (s.anchor)
    root["rating"].as_object()["anchor"] = json::object{{"engine", s.anchor->engine}, {"elo", s.anchor->elo}};

  if (s.ranking) root["ranking"] = ranking_json(*s.ranking);
  // A Swiss or knockout tournament's order, which `engines` follow.
  if (s.form) root["order"] = json::object{{"by", s.form->by}, {"rule", s.form->rule}};
  // How sure that order is (docs/RANKING.md): the rank intervals' method and the fragility.
  add_uncertainty_json(s, root);

  json::array engines;
  const bool cpu_clock = rating::charged_cpu_time(s);
  for (const EngineStanding& e : s.engines) engines.emplace_back(engine_json(e, s, cpu_clock, quality));
  root["engines"] = std::move(engines);

  root["crosstable"] = crosstable_json(s);

  json::object terminations;
  for (int t = 0; t < kTerminations; ++t) terminations[to_string(static_cast<Termination>(t))] = s.terminations[t];
  root["terminations"] = std::move(terminations);

  const FirstMover& fm = s.first_mover;
  root["first_mover"] = json::object{
      {"games", fm.games},
      {"south_wins", fm.wins},
      {"south_draws", fm.draws},
      {"south_losses", fm.losses},
      {"south_score_pct", rounded(fm.score_pct, 2)},
      {"elo", rounded(fm.elo, 2)},
      {"ci95", rounded(fm.ci95, 2)},
      {"raw_elo", rounded(fm.raw_elo, 2)},
      {"raw_ci95", rounded(fm.raw_ci95, 2)},
      {"los", rounded(fm.los, 4)},
  };
  if (quality)
    root["analysis"] = json::object{{"file", analysis::kAnalysisFile},
                                    {"games", quality->games},
                                    {"unit", "store difference (a seed that changes hands counts 2)"},
                                    {"blunder_loss", analysis::kBlunderLoss},
                                    {"blunder", blunder_rule()}};
  // A Swiss or knockout tournament's own standings, under the name of its form.
  if (!form.empty()) {
    const json::value parsed = json::parse(form);
    for (const auto& [key, value] : parsed.as_object()) root[key] = value;
  }
  return json_text(root, {.indent = 2}) + "\n";
}

}  // namespace kalah::report
