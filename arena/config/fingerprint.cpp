// fingerprint(): what a journal must agree with before a tournament may be resumed.
#include <cstdint>
#include <cstdio>

#include "arena/config/config.h"
#include "arena/config/toml_table.h"

namespace kalah::arena {

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hex(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

namespace {

// A final's boundaries (" boundaries=1,3,10"), only when there are any: a plain adaptive tournament's line stays
// as it was.
std::string boundaries_text(const std::vector<int>& places) {
  std::string s;
  for (int k : places) s += (s.empty() ? " boundaries=" : ",") + std::to_string(k);
  return s;
}

std::string moves_text(const std::vector<Move>& moves) {
  std::string s;
  for (Move m : moves) s += (s.empty() ? "" : " ") + to_string(m);
  return s;
}

}  // namespace

namespace {

// Every key of a time control (kTimeFields): the limits of its mode, then the deadlines. `moves`, the delay and
// `clock` only when set, so that journals from before they existed resume.
std::string time_text(const TimeControl& tc) {
  std::string text;
  for (const TimeField& f : kTimeFields) {
    if ((f.only && *f.only != tc.mode) || ((f.key == "moves" || f.only_when_set) && f.get(tc) <= 0)) continue;
    text += (text.empty() ? "" : " ") + std::string(f.key) + "=" + std::to_string(f.get(tc));
    if (f.key == "delay_ms") text += std::string(" delay=") + to_string(tc.delay);
  }
  // Only for a CPU clock, so that the fingerprints of wall-clock configs (and their journals) stay as they were.
  return text + (tc.clock == ClockKind::Cpu ? " clock=cpu" : "");
}

}  // namespace

std::string fingerprint(const Config& c) {
  using detail::in_quotes;
  std::string s = "kalah-arena-config 1\n";
  auto line = [&s](std::string_view key, const std::string& value) {
    s += key;
    s += '=';
    s += value;
    s += '\n';
  };
  const TournamentConfig& t = c.tournament;
  line("type", to_string(t.type));
  line("rounds", std::to_string(t.rounds));
  line("seed", std::to_string(t.seed));
  std::string seeds;
  for (int i : t.seed_engines) seeds += (seeds.empty() ? "" : ",") + in_quotes(c.engines[i].name);
  line("seed_engines", "[" + seeds + "]");
  line("max_plies", std::to_string(t.max_plies));
  // Only for a knockout, so that the fingerprints of the other forms (and their journals) stay as they were.
  const TournamentKind& kind = kind_of(t.type);
  if (kind.tiebreak_pairs) line("tiebreak_pairs", std::to_string(t.tiebreak_pairs));
  if (kind.budget)
    line("adaptive", "budget_games=" + std::to_string(t.budget_games) +
                         " target_width=" + std::to_string(t.target_width) + boundaries_text(t.boundaries));
  // Only when set, so that the fingerprints of configs from before adjudication stay as they were.
  if (t.adjudicate.any()) line("adjudicate", t.adjudicate.describe());
  line("variant", to_string(c.variant) + (c.start ? " start=" + to_start_notation(c.variant, *c.start) : ""));

  line("time", time_text(c.time));
  const OpeningsConfig& o = c.openings;
  if (o.book.empty()) {
    line("openings", "random_plies=" + std::to_string(o.random_plies));
  } else {
    // The book by content, so moving or renaming the file does not matter but editing it does.
    std::uint64_t hash = fnv1a("");
    for (const OpeningLine& opening : o.book)
      hash = fnv1a((opening.start ? to_start_notation(c.variant, *opening.start) + " " : std::string()) +
                       moves_text(opening.moves) + "\n",
                   hash);
    line("openings", std::string("book lines=") + std::to_string(o.book.size()) + " fnv1a=" + hex(hash) +
                         " order=" + to_string(o.order));
  }

  if (c.sprt) {
    const stats::SprtParams& p = c.sprt->params;
    line("sprt", "elo0=" + detail::format_number(p.elo0) + " elo1=" + detail::format_number(p.elo1) +
                     " alpha=" + detail::format_number(p.alpha) + " beta=" + detail::format_number(p.beta) +
                     " model=" + (p.model == stats::Model::Logistic ? "logistic" : "normalized"));
    // A git SPRT plays the commits its refs named when it started: a ref that moved since is another test.
    // The build and run commands are in each engine's line (cmd and args) or change only how it is built.
    if (const auto& git = c.sprt->git) {
      line("sprt.base_commit", git->base.commit);
      line("sprt.test_commit", git->test.commit);
    }
  }

  // A contest's games depend on who plays them, not on who else entered: its entrants (the engines after
  // the [[engine]] tables) are left out, so that a late entry or a withdrawal keeps every finished game.
  // Each game's engines are named in its record, and each engine's checksum is kept by the runs.
  if (c.submissions)
    line("contest", std::string("entrants from submissions, by entry order; withdrawn games ") +
                        to_string(c.submissions->withdrawn) + ", disqualified games " +
                        to_string(c.submissions->disqualified));
  const size_t fingerprinted = c.submissions ? static_cast<size_t>(c.house_engines) : c.engines.size();
  for (size_t i = 0; i < fingerprinted; ++i) {
    const EngineSpec& e = c.engines[i];
    std::string args, options;
    for (const std::string& a : e.args) args += (args.empty() ? "" : ",") + in_quotes(a);
    for (const EngineOption& op : e.options)
      options += (options.empty() ? "" : ",") + in_quotes(op.name) + ":" + in_quotes(op.value);
    line("engine." + std::to_string(i),
         "name=" + in_quotes(e.name) + " cmd=" + in_quotes(e.cmd_as_written) + " args=[" + args + "] options={" +
             options + "} protocol=" + to_string(e.protocol) + (e.time ? " time={" + time_text(*e.time) + "}" : ""));
  }
  return s;
}

std::string fingerprint_hash(const Config& config) { return hex(fnv1a(fingerprint(config))); }

}  // namespace kalah::arena
