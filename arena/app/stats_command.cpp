// `arena stats`: the match statistics calculator. Counts in, Elo / LOS / nElo (and an SPRT) out,
// for people or (--json) for scripts. The maths is referee/stats; this file only reads and prints.
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/report/stats_text.h"
#include "referee/record/json_text.h"

namespace kalah::arena_app {

namespace {

struct StatsOptions {
  std::string wdl;
  std::string penta;
  std::string sprt;
  bool json = false;
};

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

std::optional<double> parse_number(std::string_view text) {
  double x = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || !std::isfinite(x)) return std::nullopt;
  return x;
}

// `count` non-negative numbers separated by commas, for the option `option`.
std::vector<double> parse_counts(std::string_view option, std::string_view text, std::size_t count,
                                 std::string_view names) {
  const std::vector<std::string_view> parts = split(text, ',');
  if (parts.size() != count)
    throw UsageError(fmt::format("{} needs {} counts separated by commas ({}), got {} in '{}'", option, count, names,
                                 parts.size(), text));
  std::vector<double> counts;
  for (std::string_view p : parts) {
    std::optional<double> x = parse_number(p);
    // Counts of games or pairs: whole numbers, and no more than any run plays.
    constexpr double kMaxCount = 1e12;
    if (!x || *x < 0 || *x != std::floor(*x) || *x > kMaxCount)
      throw UsageError(fmt::format("{}: '{}' is not a count (a whole number from 0 to 10^12) in '{}'", option,
                                   p.substr(0, 32), text.substr(0, 200)));
    counts.push_back(*x);
  }
  return counts;
}

stats::SprtParams parse_sprt(std::string_view text) {
  stats::SprtParams p;
  p.model = stats::Model::Normalized;  // as in an [sprt] table
  if (text.empty()) throw UsageError("--sprt needs key=value pairs, e.g. elo0=0,elo1=5");
  for (std::string_view item : split(text, ',')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw UsageError(fmt::format("--sprt: '{}' is not key=value (keys: elo0, elo1, alpha, beta, model)", item));
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    if (key == "model") {
      if (value == "logistic")
        p.model = stats::Model::Logistic;
      else if (value == "normalized")
        p.model = stats::Model::Normalized;
      else
        throw UsageError(fmt::format("--sprt: model must be 'logistic' or 'normalized', not '{}'", value));
      continue;
    }
    double* target = key == "elo0"    ? &p.elo0
                     : key == "elo1"  ? &p.elo1
                     : key == "alpha" ? &p.alpha
                     : key == "beta"  ? &p.beta
                                      : nullptr;
    if (!target) throw UsageError(fmt::format("--sprt: unknown key '{}' (keys: elo0, elo1, alpha, beta, model)", key));
    std::optional<double> x = parse_number(value);
    if (!x) throw UsageError(fmt::format("--sprt: {} must be a number, not '{}'", key, value));
    *target = *x;
  }
  if (std::optional<std::string_view> error = stats::sprt_params_error(p))
    throw UsageError(fmt::format("--sprt {}: {}", text, *error));
  return p;
}

int run_stats(const StatsOptions& o) {
  if (o.wdl.empty() == o.penta.empty()) throw UsageError("give exactly one of --wdl W,D,L and --penta LL,LD,D,WD,WW");
  std::optional<stats::SprtParams> params;
  if (!o.sprt.empty()) params = parse_sprt(o.sprt);

  stats::Summary summary;
  std::optional<stats::SprtState> state;
  std::string sample;
  boost::json::object json;
  if (!o.wdl.empty()) {
    const std::vector<double> c = parse_counts("--wdl", o.wdl, 3, "wins, draws, losses");
    const stats::Trinomial games{c[0], c[1], c[2]};
    summary = stats::summarize(games);
    if (params) state = stats::sprt(games, *params);
    sample = fmt::format("Games   {:g} (W {:g}, D {:g}, L {:g})\n", games.games(), c[0], c[1], c[2]);
    json["games"] = games.games();
  } else {
    const std::vector<double> c = parse_counts("--penta", o.penta, 5, "LL, LD, WL+DD, WD, WW pairs");
    stats::Pentanomial pairs;
    for (std::size_t i = 0; i < 5; ++i) pairs.counts[i] = c[i];
    summary = stats::summarize(pairs);
    if (params) state = stats::sprt(pairs, *params);
    sample = fmt::format("Pairs   {:g} (LL {:g}, LD {:g}, WL+DD {:g}, WD {:g}, WW {:g})\n", pairs.pairs(), c[0], c[1],
                         c[2], c[3], c[4]);
    json["pairs"] = pairs.pairs();
  }

  if (o.json) {
    json["score"] = summary.score;
    report::add_summary_json(json, summary);
    if (state) {
      report::add_sprt_json(json, *state);
      json["sprt"] = boost::json::object{{"elo0", params->elo0},
                                         {"elo1", params->elo1},
                                         {"alpha", params->alpha},
                                         {"beta", params->beta},
                                         {"model", stats::to_string(params->model)}};
    }
    fmt::print("{}\n", json_text(json));
    return 0;
  }
  fmt::print("{}{}", sample, report::summary_text(summary, o.wdl.empty() ? "pentanomial" : "trinomial"));
  if (state) fmt::print("{}", report::sprt_text(*state, *params));
  return 0;
}

}  // namespace

void add_stats_command(cli::Commands& commands) {
  auto [cmd, o] =
      commands.add<StatsOptions>("stats", "Elo, LOS, nElo and SPRT from game or game-pair counts", run_stats);
  cmd->footer(
      "Examples:\n"
      "  arena stats --wdl 60,20,20\n"
      "  arena stats --penta 10,100,200,120,15 --sprt elo0=0,elo1=5,model=logistic --json\n");
  cmd->add_option("--wdl", o->wdl, "Game counts W,D,L (first engine's view)");
  cmd->add_option("--penta", o->penta, "Game-pair counts LL,LD,D,WD,WW (D = WL+DD)");
  cmd->add_option("--sprt", o->sprt,
                  "SPRT parameters, any of elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized|logistic");
  cmd->add_flag("--json", o->json, "Print one JSON object instead of text");
}

}  // namespace kalah::arena_app
