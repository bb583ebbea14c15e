#include "arena/report/stats_text.h"

#include <fmt/core.h>

namespace kalah::report {

std::string summary_text(const stats::Summary& s, const char* estimator) {
  return fmt::format(
      "Score   {:.2f}%\n"
      "Elo     {:.2f} +- {:.2f} (95%, {})\n"
      "LOS     {:.2f}%\n"
      "nElo    {:.2f} +- {:.2f} (95%)\n",
      100 * s.score, s.elo, s.elo95, estimator, 100 * s.los, s.nelo, s.nelo95);
}

std::string sprt_elo_text(const stats::Summary& pairs) {
  return fmt::format("{:+.1f} +- {:.1f} (95%, {})", pairs.elo, pairs.elo95, kSprtEloEstimator);
}

std::string sprt_text(const stats::SprtState& s, const stats::SprtParams& p) {
  return fmt::format("SPRT    {}\nLLR     {:.2f} (bounds {:.2f}, {:.2f}): {}\n", stats::describe(p), s.llr, s.lower,
                     s.upper,
                     s.decision == stats::Decision::Continue ? "continue"
                     : s.decision == stats::Decision::H1     ? "H1 accepted"
                                                             : "H0 accepted");
}

void add_summary_json(boost::json::object& out, const stats::Summary& s) {
  out["elo"] = s.elo;
  out["elo95"] = s.elo95;
  out["los"] = s.los;
  out["nelo"] = s.nelo;
  out["nelo95"] = s.nelo95;
}

void add_sprt_json(boost::json::object& out, const stats::SprtState& s) {
  out["llr"] = s.llr;
  out["lower"] = s.lower;
  out["upper"] = s.upper;
  out["decision"] = stats::to_string(s.decision);
}

std::string penta_text(const stats::Pentanomial& p) {
  const auto& n = p.counts;
  return fmt::format("[{:g}, {:g}, {:g}, {:g}, {:g}]", n[0], n[1], n[2], n[3], n[4]);
}

}  // namespace kalah::report
