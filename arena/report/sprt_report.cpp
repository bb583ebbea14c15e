#include "arena/report/sprt_report.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <tuple>

#include <boost/json.hpp>
#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/report/stats_text.h"
#include "arena/report/text_util.h"
#include "referee/record/json_text.h"

namespace kalah::report {

namespace {

namespace json = boost::json;

std::string llr_line(const SprtRecord& r) {
  return fmt::format("LLR {:.2f} (bounds {:.2f}, {:.2f}) after {} pairs ({} games)", r.state.llr, r.state.lower,
                     r.state.upper, r.pairs, r.games);
}

// The LLR after each pair against the pair count, between its two bounds: a polyline of at most 400
// points (every k-th pair of a long match, the last one always).
std::string llr_chart(const SprtRecord& r) {
  if (!r.llr_by_pair || r.llr_by_pair->empty()) return {};
  const std::vector<double>& llr = *r.llr_by_pair;
  constexpr double kWidth = 640, kHeight = 220, kLeft = 72, kRight = 12, kTop = 12, kBottom = 28;
  double low = std::min(r.state.lower, 0.0), high = std::max(r.state.upper, 0.0);
  for (double v : llr) {
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const double span = high - low > 0 ? high - low : 1;
  const std::size_t n = llr.size();
  auto x = [&](std::size_t i) {
    return kLeft + (n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.5) * (kWidth - kLeft - kRight);
  };
  auto y = [&](double v) { return kTop + (high - v) / span * (kHeight - kTop - kBottom); };
  std::string points;
  const std::size_t step = std::max<std::size_t>(1, n / 400);
  for (std::size_t i = 0; i < n; i += step) points += fmt::format("{:.1f},{:.1f} ", x(i), y(llr[i]));
  if ((n - 1) % step != 0) points += fmt::format("{:.1f},{:.1f}", x(n - 1), y(llr[n - 1]));
  std::string svg = fmt::format(
      "<svg class=\"chart\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"LLR after each pair, between the "
      "bounds {:.2f} and {:.2f}\">\n",
      kWidth, kHeight, r.state.lower, r.state.upper);
  for (const auto& [value, label] : {std::pair{r.state.upper, "H1"}, std::pair{r.state.lower, "H0"}})
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"end\">{} {:.2f}</text>\n",
        kLeft, y(value), kWidth - kRight, y(value), kLeft - 4, y(value) + 4, label, value);
  svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ccc\"/>\n", kLeft, y(0),
                     kWidth - kRight, y(0));
  svg += fmt::format("<polyline fill=\"none\" stroke=\"#2563eb\" stroke-width=\"2\" points=\"{}\"/>\n", points);
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\">pair 1</text><text x=\"{:.1f}\" y=\"{:.1f}\" "
      "font-size=\"12\" text-anchor=\"end\">pair {}</text>\n",
      kLeft, kHeight - 8, kWidth - kRight, kHeight - 8, n);
  return svg + "</svg>\n";
}

}  // namespace

std::string decision_words(const SprtRecord& r) {
  switch (r.state.decision) {
    case stats::Decision::H1: return "H1 accepted";
    case stats::Decision::H0: return "H0 accepted";
    case stats::Decision::Continue: break;
  }
  return "undecided";
}

std::string commit_text(const SprtCommit& c) {
  return fmt::format("{} {} ({}), built in {:.1f} s", c.role, c.commit.substr(0, 12), c.ref, c.build_seconds);
}

namespace {

std::string commit_markdown(const SprtCommit& c) {
  return fmt::format("{} `{}` ({}), built in {:.1f} s", c.role, c.commit.substr(0, 12), markdown_escape(c.ref),
                     c.build_seconds);
}

}  // namespace

std::string sprt_summary_markdown(const SprtRecord& r, const SummaryContext& context) {
  // A side as the pull request knows it: a git SPRT's by its ref ("`main` (base)"), another by its name.
  auto side = [&](const std::string& role, const std::string& name) {
    for (const SprtCommit& c : r.commits)
      if (c.role == role) return fmt::format("{} ({})", markdown_code(c.ref), role);
    return fmt::format("'{}' ({})", markdown_escape(name), role);
  };
  const std::string test = side("test", r.test), base = side("base", r.base);
  const std::string hypotheses =
      fmt::format("elo0={:g} against elo1={:g} {} Elo", r.params.elo0, r.params.elo1, stats::to_string(r.params.model));
  std::string out;
  switch (r.state.decision) {
    case stats::Decision::H1:
      out = fmt::format("**H1 accepted** ({}): {} is stronger than {}", hypotheses, test, base);
      break;
    case stats::Decision::H0:
      out = fmt::format("**H0 accepted** ({}): {} is not shown to be stronger than {}", hypotheses, test, base);
      break;
    case stats::Decision::Continue:
      out = fmt::format("**undecided**: no decision after {} pairs (max_pairs), {} against {}", r.pairs, test, base);
      break;
  }
  out += "\n\n";
  out += fmt::format("- {}\n", llr_line(r));
  out += fmt::format("- Hypotheses: elo0={:g}, elo1={:g} ({} Elo), alpha={:g}, beta={:g}\n", r.params.elo0,
                     r.params.elo1, stats::to_string(r.params.model), r.params.alpha, r.params.beta);
  out += fmt::format("- Elo of {} against {}: {}\n", test, base, sprt_elo_text(r.summary));
  out += fmt::format("- Pentanomial LL-LD-D-WD-WW: {}\n", penta_text(r.pentanomial));
  out += fmt::format("- Games: {} ({} pairs)\n", r.games, r.pairs);
  if (!context.time.empty()) out += "- Time control: " + markdown_escape(context.time) + "\n";
  for (const SprtCommit& c : r.commits) out += "- " + commit_markdown(c) + "\n";
  if (const std::string bench = bench_text(r); !bench.empty()) out += "- Bench: " + markdown_escape(bench) + "\n";
  if (!context.repeated.empty()) out += "\n> **Note:** " + markdown_escape(context.repeated) + "\n";
  out += fmt::format("\nReport: {}\n", markdown_code(context.report));
  return out;
}

std::string bench_text(const SprtRecord& r) {
  std::string text;
  for (const auto& [name, role, count] : {std::tuple{r.test, "test", r.test_bench}, {r.base, "base", r.base_bench}})
    if (count) text += fmt::format("{}'{}' ({}) {} nodes", text.empty() ? "" : ", ", name, role, *count);
  return text;
}

std::string sprt_markdown(const SprtRecord& r) {
  std::string out = "## SPRT\n\n**" + markdown_escape(r.outcome) + "**\n\n";
  out += fmt::format("- {}\n", llr_line(r));
  out += fmt::format("- Elo of '{}' against '{}': {}\n", markdown_escape(r.test), markdown_escape(r.base),
                     sprt_elo_text(r.summary));
  out += fmt::format("- Pentanomial LL-LD-D-WD-WW: {}\n", penta_text(r.pentanomial));
  out += fmt::format("- Hypotheses: elo0={:g}, elo1={:g} ({} Elo), alpha={:g}, beta={:g}\n", r.params.elo0,
                     r.params.elo1, stats::to_string(r.params.model), r.params.alpha, r.params.beta);
  for (const SprtCommit& c : r.commits) out += "- " + commit_markdown(c) + "\n";
  if (const std::string bench = bench_text(r); !bench.empty()) out += "- Bench: " + markdown_escape(bench) + "\n";
  out += "\n";
  out +=
      "The rating list below fits single games (Bradley–Terry); the test's Elo above, from the pairs, is the "
      "one the decision rests on.\n\n";
  return out;
}

SprtRecord sprt_record(const std::string& name, const rating::SprtTally& tally, int max_pairs, bool with_llr_by_pair) {
  const rating::SprtStatus& s = tally.status();
  SprtRecord r;
  r.name = name;
  r.base = tally.base();
  r.test = tally.test();
  r.params = tally.params();
  r.max_pairs = max_pairs;
  r.state = s.sprt;
  r.summary = s.summary;
  r.pentanomial = s.pentanomial;
  r.trinomial = s.trinomial;
  r.pairs = s.pairs;
  r.games = s.games;
  if (with_llr_by_pair) r.llr_by_pair = tally.llr_by_pair();
  r.outcome = outcome_sentence(r);
  return r;
}

std::string outcome_sentence(const SprtRecord& r) {
  const std::string hypotheses =
      fmt::format("elo0={:g} against elo1={:g} {} Elo", r.params.elo0, r.params.elo1, stats::to_string(r.params.model));
  switch (r.state.decision) {
    case stats::Decision::H1:
      return fmt::format("H1 accepted ({}): '{}' is stronger than '{}'", hypotheses, r.test, r.base);
    case stats::Decision::H0:
      return fmt::format("H0 accepted ({}): '{}' is not shown to be stronger than '{}'", hypotheses, r.test, r.base);
    case stats::Decision::Continue: break;
  }
  return fmt::format("no decision after {} pairs (max_pairs)", r.pairs);
}

std::string sprt_result_text(const SprtRecord& r) {
  const stats::Summary& s = r.summary;
  std::string out =
      fmt::format("\nSPRT result for '{}' (test) against '{}' (base), from the test engine's view:\n", r.test, r.base);
  out += fmt::format("Pairs   {} (LL-LD-D-WD-WW {}), games {} (W {:g}, D {:g}, L {:g})\n", r.pairs,
                     penta_text(r.pentanomial), r.games, r.trinomial.wins, r.trinomial.draws, r.trinomial.losses);
  out += fmt::format("Score   {:.2f}%\nElo     {}\nLOS     {:.2f}%\n", 100 * s.score, sprt_elo_text(s), 100 * s.los);
  out += fmt::format("nElo    {:+.1f} +- {:.1f} (95%, normalized Elo: the unit of elo0/elo1 with model=normalized)\n",
                     s.nelo, s.nelo95);
  if (const std::string bench = bench_text(r); !bench.empty()) out += fmt::format("Bench   {}\n", bench);
  return out + fmt::format("{}{}\n", sprt_text(r.state, r.params), r.outcome);
}

json::object sprt_record_json(const SprtRecord& r) {
  json::object o;
  o["name"] = r.name;
  o["base"] = r.base;
  o["test"] = r.test;
  o["outcome"] = r.outcome;
  o["params"] = json::object{{"elo0", r.params.elo0},
                             {"elo1", r.params.elo1},
                             {"alpha", r.params.alpha},
                             {"beta", r.params.beta},
                             {"model", stats::to_string(r.params.model)},
                             {"max_pairs", r.max_pairs}};
  json::array penta;
  for (double c : r.pentanomial.counts) penta.emplace_back(static_cast<std::int64_t>(std::llround(c)));
  o["pentanomial"] = std::move(penta);
  o["trinomial"] =
      json::object{{"wins", r.trinomial.wins}, {"draws", r.trinomial.draws}, {"losses", r.trinomial.losses}};
  o["score"] = r.summary.score;
  add_summary_json(o, r.summary);
  o["elo_estimator"] = kSprtEloEstimator;
  add_sprt_json(o, r.state);
  o["pairs"] = r.pairs;
  o["games"] = r.games;
  if (r.finished) o["finished"] = *r.finished;
  if (r.llr_by_pair) {
    json::array llr;
    for (double v : *r.llr_by_pair) llr.emplace_back(rounded(v, 4));
    o["llr_by_pair"] = std::move(llr);
  }
  if (!r.commits.empty()) {
    json::object commits;
    for (const SprtCommit& c : r.commits)
      commits[c.role] = json::object{{"ref", c.ref}, {"commit", c.commit}, {"build_seconds", c.build_seconds}};
    o["commits"] = std::move(commits);
  }
  if (r.base_bench || r.test_bench) {
    json::object bench;
    if (r.base_bench) bench["base"] = *r.base_bench;
    if (r.test_bench) bench["test"] = *r.test_bench;
    o["bench"] = std::move(bench);
  }
  return o;
}

std::string sprt_file_text(const SprtRecord& r) { return json_text(sprt_record_json(r), {.indent = 2}) + "\n"; }

std::string sprt_json(const SprtRecord& r) { return json_text(json::object{{"sprt", sprt_record_json(r)}}); }

bool is_old_sprt_shape(const json::object& o) { return !o.contains("params") && o.contains("elo0"); }

json::object sprt_json_in_current_shape(const json::object& o) {
  if (!is_old_sprt_shape(o)) return o;
  // Before: the hypotheses at the top (elo0, elo1, alpha, beta, model) and the benches as base_bench and
  // test_bench; no name, max_pairs, trinomial, score, commits or finished.
  json::object params, bench, out;
  for (const auto& [key, value] : o) {
    if (key == "elo0" || key == "elo1" || key == "alpha" || key == "beta" || key == "model")
      params[key] = value;
    else if (key == "base_bench")
      bench["base"] = value;
    else if (key == "test_bench")
      bench["test"] = value;
  }
  for (const auto& [key, value] : o) {
    if (params.contains(key) || key == "base_bench" || key == "test_bench") continue;
    out[key] = value;
    if (key == "outcome") out["params"] = params;
  }
  if (!out.contains("params")) out["params"] = std::move(params);
  if (!bench.empty()) out["bench"] = std::move(bench);
  return out;
}

bool old_standings_agree(std::string_view recorded, std::string_view recomputed) {
  json::error_code ec;
  json::value old = json::parse(recorded, ec);
  if (ec || !old.is_object()) return false;
  json::value now = json::parse(recomputed, ec);
  if (ec || !now.is_object()) return false;
  json::object& a = old.get_object();
  json::object& b = now.get_object();
  const json::value* old_sprt = a.if_contains("sprt");
  const json::value* new_sprt = b.if_contains("sprt");
  if (!old_sprt || !new_sprt || !old_sprt->is_object() || !new_sprt->is_object() ||
      !is_old_sprt_shape(old_sprt->get_object()))
    return false;
  const json::object upgraded = sprt_json_in_current_shape(old_sprt->get_object());
  const json::object& current = new_sprt->get_object();
  for (const auto& [key, value] : upgraded) {
    const json::value* other = current.if_contains(key);
    if (!other) return false;
    if (key == "params" || key == "bench") {
      // The old shape had some of their members only (no max_pairs): those must agree.
      if (!value.is_object() || !other->is_object()) return false;
      for (const auto& [inner, v] : value.get_object())
        if (const json::value* w = other->get_object().if_contains(inner); !w || *w != v) return false;
    } else if (*other != value) {
      return false;
    }
  }
  a.erase("sprt");
  b.erase("sprt");
  // Written before the rank intervals (docs/RANKING.md): their members, added since, are not compared.
  if (!a.contains("rank_intervals")) {
    b.erase("rank_intervals");
    b.erase("fragility");
    if (json::value* engines = b.if_contains("engines"); engines && engines->is_array())
      for (json::value& e : engines->get_array())
        if (e.is_object())
          for (const char* key : {"rank_low", "rank_high", "tie_group", "top"}) e.get_object().erase(key);
  }
  return a == b;
}

namespace {

// The members of a record object, each checked for its type; the first problem is kept.
class Fields {
 public:
  explicit Fields(const json::object& o) : o_(o) {}
  const std::string& error() const { return error_; }

  template <typename T>
  void number(const char* key, T& out, bool required = true) {
    const json::value* v = o_.if_contains(key);
    if (!v) return missing(key, required);
    if (!v->is_number()) return wrong(key, "a number");
    out = static_cast<T>(v->to_number<double>());
  }
  void text(const char* key, std::string& out, bool required = true) {
    const json::value* v = o_.if_contains(key);
    if (!v) return missing(key, required);
    if (!v->is_string()) return wrong(key, "a string");
    out = std::string(v->get_string());
  }
  const json::object* object(const char* key) {
    const json::value* v = o_.if_contains(key);
    if (!v) return nullptr;
    if (!v->is_object()) wrong(key, "an object");
    return v->if_object();
  }
  const json::array* array(const char* key, bool required = true) {
    const json::value* v = o_.if_contains(key);
    if (!v) {
      missing(key, required);
      return nullptr;
    }
    if (!v->is_array()) wrong(key, "a list");
    return v->if_array();
  }
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
  }

 private:
  void missing(const char* key, bool required) {
    if (required) fail(fmt::format("'{}' is missing", key));
  }
  void wrong(const char* key, const char* what) { fail(fmt::format("'{}' is not {}", key, what)); }

  const json::object& o_;
  std::string error_;
};

std::optional<stats::Model> model_named(std::string_view text) {
  for (stats::Model m : {stats::Model::Logistic, stats::Model::Normalized})
    if (text == stats::to_string(m)) return m;
  return std::nullopt;
}

std::optional<stats::Decision> decision_named(std::string_view text) {
  for (stats::Decision d : {stats::Decision::H0, stats::Decision::H1, stats::Decision::Continue})
    if (text == stats::to_string(d)) return d;
  return std::nullopt;
}

}  // namespace

Expected<SprtRecord> sprt_record_from_json(const json::object& given) {
  const json::object o = sprt_json_in_current_shape(given);
  SprtRecord r;
  Fields f(o);
  f.text("name", r.name, false);
  f.text("base", r.base);
  f.text("test", r.test);
  f.text("outcome", r.outcome, false);
  std::string model, decision;
  if (const json::object* params = f.object("params")) {
    Fields p(*params);
    p.number("elo0", r.params.elo0);
    p.number("elo1", r.params.elo1);
    p.number("alpha", r.params.alpha);
    p.number("beta", r.params.beta);
    p.text("model", model);
    p.number("max_pairs", r.max_pairs, false);
    if (!p.error().empty()) f.fail("params: " + p.error());
  } else {
    f.fail("'params' is missing");
  }
  if (const json::array* penta = f.array("pentanomial")) {
    if (penta->size() != 5) f.fail("'pentanomial' is not 5 counts");
    for (std::size_t i = 0; i < penta->size() && i < 5; ++i) {
      if (!(*penta)[i].is_number()) f.fail("'pentanomial' is not 5 counts");
      if ((*penta)[i].is_number()) r.pentanomial.counts[i] = (*penta)[i].to_number<double>();
    }
  }
  if (const json::object* tri = f.object("trinomial")) {
    Fields t(*tri);
    t.number("wins", r.trinomial.wins);
    t.number("draws", r.trinomial.draws);
    t.number("losses", r.trinomial.losses);
    if (!t.error().empty()) f.fail("trinomial: " + t.error());
  }
  f.number("score", r.summary.score, false);
  f.number("elo", r.summary.elo);
  f.number("elo95", r.summary.elo95);
  f.number("los", r.summary.los);
  f.number("nelo", r.summary.nelo);
  f.number("nelo95", r.summary.nelo95);
  f.number("llr", r.state.llr);
  f.number("lower", r.state.lower);
  f.number("upper", r.state.upper);
  f.text("decision", decision);
  f.number("pairs", r.pairs);
  f.number("games", r.games);
  r.summary.samples = r.pentanomial.pairs();
  if (const json::value* finished = o.if_contains("finished")) {
    if (!finished->is_bool()) f.fail("'finished' is not true or false");
    if (finished->is_bool()) r.finished = finished->get_bool();
  }
  if (const json::array* llr = f.array("llr_by_pair", false)) {
    r.llr_by_pair.emplace();
    for (const json::value& v : *llr) {
      if (!v.is_number()) f.fail("'llr_by_pair' is not a list of numbers");
      if (v.is_number()) r.llr_by_pair->push_back(v.to_number<double>());
    }
  }
  if (const json::object* commits = f.object("commits"))
    for (const char* role : {"base", "test"}) {
      const json::value* side = commits->if_contains(role);
      if (!side) continue;
      if (!side->is_object()) {
        f.fail(fmt::format("commits: '{}' is not an object", role));
        continue;
      }
      Fields c(side->get_object());
      SprtCommit commit{role, "", "", 0};
      c.text("ref", commit.ref);
      c.text("commit", commit.commit);
      c.number("build_seconds", commit.build_seconds);
      if (!c.error().empty()) f.fail(fmt::format("commits: {}: {}", role, c.error()));
      r.commits.push_back(std::move(commit));
    }
  if (const json::object* bench = f.object("bench")) {
    Fields b(*bench);
    long long count = 0;
    if (bench->contains("base")) {
      b.number("base", count);
      r.base_bench = count;
    }
    if (bench->contains("test")) {
      b.number("test", count);
      r.test_bench = count;
    }
    if (!b.error().empty()) f.fail("bench: " + b.error());
  }
  if (!f.error().empty()) return Error{f.error()};
  const std::optional<stats::Model> m = model_named(model);
  if (!m) return Error{"params: 'model' is not logistic or normalized"};
  r.params.model = *m;
  const std::optional<stats::Decision> d = decision_named(decision);
  if (!d) return Error{"'decision' is not H0, H1 or continue"};
  r.state.decision = *d;
  return r;
}

std::string sprt_html(const SprtRecord& r) {
  std::string out = "<h2>SPRT</h2>\n<p><b>" + html_escape(r.outcome) + "</b></p>\n<ul>\n";
  out += "<li>" + html_escape(llr_line(r)) + "</li>\n";
  out += "<li>" + html_escape(fmt::format("Elo of '{}' against '{}': {}", r.test, r.base, sprt_elo_text(r.summary))) +
         "</li>\n";
  out += "<li>" + html_escape("Pentanomial LL-LD-D-WD-WW: " + penta_text(r.pentanomial)) + "</li>\n";
  out += "<li>" +
         html_escape(fmt::format("Hypotheses: elo0={:g}, elo1={:g} ({} Elo), alpha={:g}, beta={:g}", r.params.elo0,
                                 r.params.elo1, stats::to_string(r.params.model), r.params.alpha, r.params.beta)) +
         "</li>\n";
  for (const SprtCommit& c : r.commits) out += "<li>" + html_escape(commit_text(c)) + "</li>\n";
  if (const std::string bench = bench_text(r); !bench.empty())
    out += "<li>" + html_escape("Bench: " + bench) + "</li>\n";
  out += "</ul>\n";
  if (const std::string chart = llr_chart(r); !chart.empty())
    out += "<h3>LLR over the pairs</h3>\n<div class=\"scroll\">" + chart + "</div>\n";
  out +=
      "<p class=\"note\">The rating list below fits single games (Bradley–Terry); the test's Elo above, from the "
      "pairs, is the one the decision rests on.</p>\n";
  return out;
}

}  // namespace kalah::report
