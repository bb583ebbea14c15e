#include "arena/report/form_report.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <fmt/core.h>

#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

using arena::KnockoutDecision;
using arena::KnockoutMatch;
using arena::Pairing;

std::string points(double p) { return fixed(p, 1); }

// The name of engine `e`, or the index when the names do not reach it (a journal of another config).
std::string name_of(const TournamentForm& f, int e) {
  return e >= 0 && static_cast<std::size_t>(e) < f.names.size() ? f.names[static_cast<std::size_t>(e)]
                                                                : "engine " + std::to_string(e);
}

// The points each engine of a Swiss board scored, as "1.5-0.5", or "playing" while a game is unfinished.
std::string board_score(const TournamentForm& f, int round, const Pairing& b) {
  const std::array<std::string, 2> ids = arena::swiss_game_ids(round, b);
  auto g0 = f.results.find(ids[0]);
  auto g1 = f.results.find(ids[1]);
  if (g0 == f.results.end() || g1 == f.results.end()) return "playing";
  return points(g0->second + 1.0 - g1->second) + "-" + points(1.0 - g0->second + g1->second);
}

struct SwissRow {
  int engine;
  double points, buchholz;
  int pairs, byes;
};

std::vector<SwissRow> swiss_rows(const arena::SwissProgress& s) {
  const std::vector<double> buchholz = s.buchholz();
  std::vector<SwissRow> rows;
  for (int e : s.ranking()) {
    const arena::SwissRecord& r = s.records[static_cast<std::size_t>(e)];
    rows.push_back({e, r.points, buchholz[static_cast<std::size_t>(e)], static_cast<int>(r.opponents.size()), r.byes});
  }
  return rows;
}

int complete_rounds(const arena::SwissProgress& s) { return static_cast<int>(s.rounds.size()) - (s.complete ? 0 : 1); }

std::string swiss_heading(const TournamentForm& f) {
  const arena::SwissProgress& s = *f.swiss;
  const std::string playing =
      s.complete ? "" : fmt::format(" (round {} in progress)", static_cast<int>(s.rounds.size()));
  return fmt::format(
      "Swiss standings after {} of {} rounds{}: a colour-swapped game pair a round, {} points a bye; ranked by "
      "points, then Buchholz (the sum of the opponents' points), then the seed (config order)",
      complete_rounds(s), f.rounds, playing, points(arena::kSwissByePoints));
}

std::string round_name(int round, int rounds) {
  if (round == rounds) return "Final";
  if (round == rounds - 1) return "Semi-finals";
  if (round == rounds - 2) return "Quarter-finals";
  return "Round " + std::to_string(round);
}

// One knockout match as shown, in three parts and what became of it.
struct MatchView {
  std::string high, score, low, outcome;
};

MatchView match_view(const TournamentForm& f, const KnockoutMatch& m) {
  auto seeded = [&](int e) { return e < 0 ? std::string("?") : fmt::format("[{}] {}", e + 1, name_of(f, e)); };
  MatchView v{seeded(m.high), "", seeded(m.low), ""};
  if (m.decision == KnockoutDecision::Bye) {
    v.low = "bye";
    v.outcome = name_of(f, m.winner) + " goes through";
    return v;
  }
  if (m.high < 0 || m.low < 0) {
    v.outcome = "waiting for the round before";
    return v;
  }
  v.score = points(m.high_points) + "-" + points(m.low_points);
  const std::string pairs = fmt::format("{} pair{}", m.pairs, m.pairs == 1 ? "" : "s");
  switch (m.decision) {
    case KnockoutDecision::Pending: v.outcome = "playing (" + pairs + " done)"; break;
    case KnockoutDecision::Points: v.outcome = name_of(f, m.winner) + " wins on points"; break;
    case KnockoutDecision::Tiebreak:
      v.outcome = name_of(f, m.winner) + " wins on tie-break pairs (" + pairs + ")";
      break;
    case KnockoutDecision::Seed:
      v.outcome = name_of(f, m.winner) + " goes through as the better seed (tied after " + pairs + ")";
      break;
    case KnockoutDecision::Bye: break;
  }
  return v;
}

std::string knockout_heading(const TournamentForm& f) {
  const arena::KnockoutProgress& k = *f.knockout;
  return fmt::format(
      "Knockout bracket: {} engines seeded in config order into {} slots (byes for the top seeds); a match is {} "
      "colour-swapped game pair{}, then up to {} tie-break pair{} one at a time while tied, then the better seed",
      f.names.size(), k.bracket_size, f.rounds, f.rounds == 1 ? "" : "s", f.tiebreak_pairs,
      f.tiebreak_pairs == 1 ? "" : "s");
}

std::string champion_text(const TournamentForm& f) {
  const int c = f.knockout->champion;
  return c < 0 ? "Champion: not decided yet" : "Champion: " + name_of(f, c);
}

}  // namespace

std::optional<TournamentForm> tournament_form(const arena::TournamentDescription& description,
                                              const std::vector<std::string>& names,
                                              const arena::GameResults& results) {
  if (!description.plays_by_rounds() || names.size() < 2 || !description.rounds || *description.rounds < 1)
    return std::nullopt;
  TournamentForm f;
  f.names = names;
  f.rounds = *description.rounds;
  const int n = static_cast<int>(names.size());
  if (arena::kind_of(*description.type).form == arena::KindForm::SwissTable) {
    f.swiss = arena::replay_swiss(n, f.rounds, results);
  } else {
    if (!description.tiebreak_pairs) return std::nullopt;
    f.tiebreak_pairs = *description.tiebreak_pairs;
    f.knockout = arena::replay_knockout(n, f.rounds, f.tiebreak_pairs, results);
  }
  f.results = results;
  return f;
}

rating::FormOrder form_order(const TournamentForm& f) {
  rating::FormOrder order;
  if (f.swiss) {
    order.by = "swiss";
    order.rule = fmt::format(
        "Listed in the order of the Swiss standings: points, then Buchholz, then the seed. Points include {} "
        "points for each bye, as in the Swiss table; Elo is information",
        points(arena::kSwissByePoints));
    int rank = 0;
    for (const SwissRow& r : swiss_rows(*f.swiss))
      order.places.push_back({name_of(f, r.engine), ++rank, false, r.byes * arena::kSwissByePoints});
    return order;
  }
  order.by = "knockout";
  order.rule =
      "Listed in the order of the knockout: by the round reached (the champion, the finalist, then the losers of "
      "each round from the last, who share a rank and are listed by seed; engines still in before those out of "
      "the same round); Elo is information";
  for (const arena::KnockoutPlace& p : f.knockout->ranking())
    order.places.push_back({name_of(f, p.engine), p.rank, p.shared, 0.0});
  return order;
}

rating::FormRanker form_ranker(const arena::TournamentDescription& description, const std::vector<std::string>& names) {
  if (!tournament_form(description, names, {})) return {};
  arena::TournamentDescription form;  // what the form reads of it, and no more
  form.type = description.type;
  form.rounds = description.rounds;
  form.tiebreak_pairs = description.tiebreak_pairs;
  return [form, names](const std::unordered_map<std::string, double>& results) {
    return form_order(*tournament_form(form, names, results));
  };
}

std::string form_text(const TournamentForm& f) {
  std::string out;
  if (f.swiss) {
    out += swiss_heading(f) + "\n";
    out +=
        fmt::format("{:>4}  {:<20} {:>7} {:>9} {:>6} {:>5}\n", "Rank", "Engine", "Points", "Buchholz", "Pairs", "Byes");
    int rank = 0;
    for (const SwissRow& r : swiss_rows(*f.swiss))
      out += fmt::format("{:>4}  {:<20} {:>7} {:>9} {:>6} {:>5}\n", ++rank, name_of(f, r.engine), points(r.points),
                         points(r.buchholz), r.pairs, r.byes);
    for (const arena::SwissRound& round : f.swiss->rounds) {
      out += fmt::format("Round {}:", round.round);
      for (const Pairing& b : round.boards)
        out += fmt::format(" {} {} {};", name_of(f, b.first), board_score(f, round.round, b), name_of(f, b.second));
      if (round.bye >= 0) out += " bye: " + name_of(f, round.bye) + ";";
      if (round.repeats > 0)
        out += fmt::format(" ({} repeat pairing{}: no other pairing was possible)", round.repeats,
                           round.repeats == 1 ? "" : "s");
      out.back() = '\n';
    }
    return out;
  }
  const arena::KnockoutProgress& k = *f.knockout;
  out += knockout_heading(f) + "\n";
  const int rounds = static_cast<int>(k.rounds.size());
  for (const std::vector<KnockoutMatch>& round : k.rounds) {
    out += round_name(round.front().round, rounds) + "\n";
    for (const KnockoutMatch& m : round) {
      const MatchView v = match_view(f, m);
      out += fmt::format("  {:<24} {:>9}  {:<24} {}\n", v.high, v.score, v.low, v.outcome);
    }
  }
  out += champion_text(f) + "\n";
  return out;
}

std::string form_markdown(const TournamentForm& f) {
  std::string out;
  if (f.swiss) {
    out += "## Swiss standings\n\n" + markdown_escape(swiss_heading(f)) + ".\n\n";
    out += "| Rank | Engine | Points | Buchholz | Pairs | Byes |\n|---:|:---|---:|---:|---:|---:|\n";
    int rank = 0;
    for (const SwissRow& r : swiss_rows(*f.swiss))
      out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", ++rank, markdown_escape(name_of(f, r.engine)),
                         points(r.points), points(r.buchholz), r.pairs, r.byes);
    out += "\n| Round | Pairings (first named: South in the pair's first game) | Bye |\n|---:|:---|:---|\n";
    for (const arena::SwissRound& round : f.swiss->rounds) {
      std::string boards;
      for (const Pairing& b : round.boards)
        boards += fmt::format("{}{} {} {}", boards.empty() ? "" : "; ", markdown_escape(name_of(f, b.first)),
                              board_score(f, round.round, b), markdown_escape(name_of(f, b.second)));
      if (round.repeats > 0)
        boards += fmt::format(" ({} repeat pairing{})", round.repeats, round.repeats == 1 ? "" : "s");
      out += fmt::format("| {} | {} | {} |\n", round.round, boards,
                         round.bye >= 0 ? markdown_escape(name_of(f, round.bye)) : "");
    }
    return out + "\n## Rating list\n\n";
  }
  const arena::KnockoutProgress& k = *f.knockout;
  out += "## Knockout bracket\n\n" + markdown_escape(knockout_heading(f)) + ".\n\n";
  out += "| Round | Higher seed | Score | Lower seed | Result |\n|:---|:---|:---:|:---|:---|\n";
  const int rounds = static_cast<int>(k.rounds.size());
  for (const std::vector<KnockoutMatch>& round : k.rounds)
    for (const KnockoutMatch& m : round) {
      const MatchView v = match_view(f, m);
      out += fmt::format("| {} | {} | {} | {} | {} |\n", round_name(m.round, rounds), markdown_escape(v.high), v.score,
                         markdown_escape(v.low), markdown_escape(v.outcome));
    }
  return out + "\n**" + markdown_escape(champion_text(f)) + "**\n\n## Rating list\n\n";
}

std::string form_html(const TournamentForm& f) {
  std::string out;
  if (f.swiss) {
    out += "<section id=\"swiss\">\n<h2>Swiss standings</h2>\n<p class=\"note\">" + html_escape(swiss_heading(f)) +
           ".</p>\n<div class=\"scroll\"><table>\n<tr><th>Rank</th><th>Engine</th><th>Points</th><th>Buchholz</th>"
           "<th>Pairs</th><th>Byes</th></tr>\n";
    int rank = 0;
    for (const SwissRow& r : swiss_rows(*f.swiss))
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", ++rank,
                         html_escape(name_of(f, r.engine)), points(r.points), points(r.buchholz), r.pairs, r.byes);
    out +=
        "</table></div>\n<h3>Rounds</h3>\n<div class=\"scroll\"><table>\n<tr><th>Round</th><th>Pairings (first "
        "named: South in the pair's first game)</th><th>Bye</th></tr>\n";
    for (const arena::SwissRound& round : f.swiss->rounds) {
      std::string boards;
      for (const Pairing& b : round.boards)
        boards += fmt::format("{}{} {} {}", boards.empty() ? "" : "<br>", html_escape(name_of(f, b.first)),
                              board_score(f, round.round, b), html_escape(name_of(f, b.second)));
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", round.round, boards,
                         round.bye >= 0 ? html_escape(name_of(f, round.bye)) : "");
    }
    return out + "</table></div>\n</section>\n";
  }
  // The bracket: one column per round, the matches of a round spread over its height.
  const arena::KnockoutProgress& k = *f.knockout;
  out += "<section id=\"bracket\">\n<h2>Knockout bracket</h2>\n<p class=\"note\">" + html_escape(knockout_heading(f)) +
         ".</p>\n";
  out += "<div class=\"scroll\"><div style=\"display:flex;gap:1.5em;align-items:stretch\">\n";
  const int rounds = static_cast<int>(k.rounds.size());
  for (const std::vector<KnockoutMatch>& round : k.rounds) {
    out += "<div style=\"display:flex;flex-direction:column;min-width:14em\">\n<h3>" +
           html_escape(round_name(round.front().round, rounds)) +
           "</h3>\n<div style=\"display:flex;flex-direction:column;justify-content:space-around;flex:1\">\n";
    for (const KnockoutMatch& m : round) {
      const MatchView v = match_view(f, m);
      auto side = [&](const std::string& text, int e) {
        const bool won = e >= 0 && e == m.winner;
        return fmt::format("<div{}>{}</div>", won ? " style=\"font-weight:bold\"" : "", html_escape(text));
      };
      out += "<div style=\"border:1px solid #999;border-radius:4px;padding:.3em .5em;margin:.4em 0\">" +
             side(v.high, m.high) + side(v.low, m.low) +
             fmt::format("<div class=\"note\">{}{}</div></div>\n", v.score.empty() ? "" : html_escape(v.score) + ": ",
                         html_escape(v.outcome));
    }
    out += "</div></div>\n";
  }
  return out + "</div></div>\n<p><b>" + html_escape(champion_text(f)) + "</b></p>\n</section>\n";
}

std::string form_json(const TournamentForm& f) {
  namespace json = boost::json;
  auto name_or_null = [&](int e) { return e < 0 ? json::value(nullptr) : json::value(name_of(f, e)); };
  json::object out;
  if (f.swiss) {
    const arena::SwissProgress& s = *f.swiss;
    json::array standings;
    int rank = 0;
    for (const SwissRow& r : swiss_rows(s))
      standings.push_back(json::object{{"rank", ++rank},
                                       {"name", name_of(f, r.engine)},
                                       {"points", r.points},
                                       {"buchholz", r.buchholz},
                                       {"pairs", r.pairs},
                                       {"byes", r.byes}});
    json::array rounds;
    for (const arena::SwissRound& round : s.rounds) {
      json::array boards;
      for (const Pairing& b : round.boards) {
        const std::array<std::string, 2> ids = arena::swiss_game_ids(round.round, b);
        auto g0 = f.results.find(ids[0]);
        auto g1 = f.results.find(ids[1]);
        const bool done = g0 != f.results.end() && g1 != f.results.end();
        boards.push_back(
            json::object{{"first", name_of(f, b.first)},
                         {"second", name_of(f, b.second)},
                         {"first_points", done ? json::value(g0->second + 1.0 - g1->second) : json::value(nullptr)},
                         {"second_points", done ? json::value(1.0 - g0->second + g1->second) : json::value(nullptr)}});
      }
      rounds.push_back(json::object{{"round", round.round},
                                    {"boards", std::move(boards)},
                                    {"bye", name_or_null(round.bye)},
                                    {"repeats", round.repeats}});
    }
    out = json::object{{"rounds", f.rounds},
                       {"rounds_complete", complete_rounds(s)},
                       {"bye_points", arena::kSwissByePoints},
                       {"standings", std::move(standings)},
                       {"pairings", std::move(rounds)}};
  } else {
    const arena::KnockoutProgress& k = *f.knockout;
    json::array rounds;
    const int count = static_cast<int>(k.rounds.size());
    for (const std::vector<KnockoutMatch>& round : k.rounds) {
      json::array matches;
      for (const KnockoutMatch& m : round)
        matches.push_back(json::object{{"high", name_or_null(m.high)},
                                       {"low", name_or_null(m.low)},
                                       {"high_seed", m.high < 0 ? json::value(nullptr) : json::value(m.high + 1)},
                                       {"low_seed", m.low < 0 ? json::value(nullptr) : json::value(m.low + 1)},
                                       {"high_points", m.high_points},
                                       {"low_points", m.low_points},
                                       {"pairs", m.pairs},
                                       {"winner", name_or_null(m.winner)},
                                       {"decision", to_string(m.decision)}});
      rounds.push_back(json::object{{"round", round.front().round},
                                    {"name", round_name(round.front().round, count)},
                                    {"matches", std::move(matches)}});
    }
    out = json::object{{"bracket_size", k.bracket_size},
                       {"pairs_per_match", f.rounds},
                       {"tiebreak_pairs", f.tiebreak_pairs},
                       {"champion", name_or_null(k.champion)},
                       {"rounds", std::move(rounds)}};
  }
  return json::serialize(json::object{{f.swiss ? "swiss" : "knockout", std::move(out)}});
}

}  // namespace kalah::report
