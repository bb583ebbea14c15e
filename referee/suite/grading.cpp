#include "referee/suite/grading.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace kalah::suite {

namespace {

// The ranks of `values` (1-based), ties given the mean of the ranks they span.
std::vector<double> ranks(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> out(values.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double mean_rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) out[order[k]] = mean_rank;
    i = j + 1;
  }
  return out;
}

}  // namespace

Grade grade(const LabelledPosition& p, const Answer& a) {
  Grade g;
  if (!a.move) return g;
  g.margin = p.margin_of(*a.move);
  assert(g.margin);  // the caller judged the move legal
  if (!g.margin) return g;
  g.loss = p.best() - *g.margin;
  const auto result = [](int margin) { return (margin > 0) - (margin < 0); };
  g.kept = result(*g.margin) == result(p.best());
  return g;
}

void Tally::add(const Grade& g) {
  ++positions;
  if (!g.loss) {
    ++failed;
    return;
  }
  ++answered;
  perfect += *g.loss == 0;
  kept += *g.kept;
  blunders += *g.loss >= kBlunderLoss;
  total_loss += *g.loss;
}

Report make_report(const std::vector<LabelledPosition>& positions, const std::vector<Answer>& answers) {
  assert(positions.size() == answers.size());
  Report r;
  std::vector<std::pair<double, double>> scores;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Grade g = grade(positions[i], answers[i]);
    r.phases[static_cast<std::size_t>(positions[i].candidate.phase)].add(g);
    r.all.add(g);
    if (g.loss && answers[i].score) scores.emplace_back(*answers[i].score, positions[i].best());
  }
  r.scored = static_cast<int>(scores.size());
  r.spearman = spearman(scores);
  return r;
}

std::optional<double> spearman(const std::vector<std::pair<double, double>>& pairs) {
  if (pairs.size() < 3) return std::nullopt;
  std::vector<double> xs, ys;
  for (const auto& [x, y] : pairs) {
    xs.push_back(x);
    ys.push_back(y);
  }
  const std::vector<double> rx = ranks(xs), ry = ranks(ys);
  const double n = static_cast<double>(pairs.size());
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx <= 0 || syy <= 0) return std::nullopt;
  return sxy / std::sqrt(sxx * syy);
}

}  // namespace kalah::suite
