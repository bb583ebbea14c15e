#include "referee/rules/spelling.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace kalah {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // Three rows of the dynamic programme: the one before the previous one is what a swap needs.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t allowed = word.size() <= 5 ? 1 : word.size() <= 8 ? 2 : 3;
  const auto common_prefix = [&](const std::string& candidate) {
    return static_cast<std::size_t>(std::mismatch(word.begin(), word.end(), candidate.begin(), candidate.end()).first -
                                    word.begin());
  };
  // Nearest first; of equally near ones the one that begins as `word` does for longer ("pit": "pits", not
  // "pie"); a tie beyond that ("elo2": "elo0" or "elo1") names none rather than guess.
  std::optional<std::string> best;
  bool tied = false;
  std::size_t best_distance = allowed + 1, best_prefix = 0;
  for (const std::string& candidate : candidates) {
    if (candidate == word) continue;
    const std::size_t d = edit_distance(word, candidate), prefix = common_prefix(candidate);
    if (d > allowed) continue;
    if (d < best_distance || (d == best_distance && prefix > best_prefix)) {
      best = candidate;
      best_distance = d;
      best_prefix = prefix;
      tied = false;
    } else if (d == best_distance && prefix == best_prefix && best && *best != candidate) {
      tied = true;
    }
  }
  return tied ? std::nullopt : best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::optional<std::string> nearest = nearest_word(word, candidates);
  return nearest ? "; did you mean '" + *nearest + "'?" : std::string();
}

}  // namespace kalah
