#include "arena/report/sprt_report.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "arena/report/stats_text.h"
#include "arena/report/text_util.h"
#include "referee/record/json_text.h"

namespace kalah::report {

namespace {

namespace json = boost::json;

std::string llr_line(const SprtReport& r) {
  return fmt::format("LLR {:.2f} (bounds {:.2f}, {:.2f}) after {} pairs ({} games)", r.state.llr, r.state.lower,
                     r.state.upper, r.pairs, r.games);
}

// The LLR after each pair against the pair count, between its two bounds: a polyline of at most 400
// points (every k-th pair of a long match, the last one always).
std::string llr_chart(const SprtReport& r) {
  if (r.llr.empty()) return {};
  constexpr double kWidth = 640, kHeight = 220, kLeft = 72, kRight = 12, kTop = 12, kBottom = 28;
  double low = std::min(r.state.lower, 0.0), high = std::max(r.state.upper, 0.0);
  for (double v : r.llr) {
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const double span = high - low > 0 ? high - low : 1;
  const std::size_t n = r.llr.size();
  auto x = [&](std::size_t i) {
    return kLeft + (n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.5) * (kWidth - kLeft - kRight);
  };
  auto y = [&](double v) { return kTop + (high - v) / span * (kHeight - kTop - kBottom); };
  std::string points;
  const std::size_t step = std::max<std::size_t>(1, n / 400);
  for (std::size_t i = 0; i < n; i += step) points += fmt::format("{:.1f},{:.1f} ", x(i), y(r.llr[i]));
  if ((n - 1) % step != 0) points += fmt::format("{:.1f},{:.1f}", x(n - 1), y(r.llr[n - 1]));
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

std::string decision_words(const SprtReport& r) {
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

std::string sprt_summary_markdown(const SprtReport& r, const SummaryContext& context) {
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

std::string bench_text(const SprtReport& r) {
  std::string text;
  for (const auto& [name, role, count] : {std::tuple{r.test, "test", r.test_bench}, {r.base, "base", r.base_bench}})
    if (count) text += fmt::format("{}'{}' ({}) {} nodes", text.empty() ? "" : ", ", name, role, *count);
  return text;
}

std::string sprt_markdown(const SprtReport& r) {
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

std::string sprt_json(const SprtReport& r) {
  json::object sprt;
  sprt["outcome"] = r.outcome;
  sprt["test"] = r.test;
  sprt["base"] = r.base;
  sprt["elo0"] = r.params.elo0;
  sprt["elo1"] = r.params.elo1;
  sprt["alpha"] = r.params.alpha;
  sprt["beta"] = r.params.beta;
  sprt["model"] = stats::to_string(r.params.model);
  add_sprt_json(sprt, r.state);
  add_summary_json(sprt, r.summary);
  sprt["elo_estimator"] = kSprtEloEstimator;
  json::array penta;
  for (double c : r.pentanomial.counts) penta.emplace_back(static_cast<std::int64_t>(std::llround(c)));
  sprt["pentanomial"] = std::move(penta);
  sprt["pairs"] = r.pairs;
  sprt["games"] = r.games;
  json::array llr;
  for (double v : r.llr) llr.emplace_back(rounded(v, 4));
  sprt["llr_by_pair"] = std::move(llr);
  if (r.base_bench) sprt["base_bench"] = *r.base_bench;
  if (r.test_bench) sprt["test_bench"] = *r.test_bench;
  return json_text(json::object{{"sprt", std::move(sprt)}});
}

std::string sprt_html(const SprtReport& r) {
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
