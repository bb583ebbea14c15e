#include "arena/config/config_toml.h"

#include <fmt/core.h>

#include "arena/config/command_line.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/words.h"

namespace kalah::arena {
namespace fs = std::filesystem;

namespace {

// A number as TOML reads it back exactly (the shortest text that does).
std::string number(double x) { return fmt::format("{}", x); }

// A path the file reads against the working directory (pgnout, stderr, summary): relative where it lies in
// `work_dir`, as it was most likely written.
std::string from_work_dir(const fs::path& path, const fs::path& work_dir) {
  const fs::path relative = path.lexically_relative(work_dir);
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

std::string string_list(const std::vector<std::string>& words) {
  std::string list;
  for (const std::string& w : words) list += (list.empty() ? "" : ", ") + toml_string(w);
  return "[" + list + "]";
}

// Lines of one table, `key = value` each.
class Lines {
 public:
  explicit Lines(std::string& out) : out_(out) {}
  void raw(const std::string& key, const std::string& value) { out_ += key + " = " + value + "\n"; }
  void text(const std::string& key, const std::string& value) { raw(key, toml_string(value)); }
  void whole(const std::string& key, long long value) { raw(key, std::to_string(value)); }
  void flag(const std::string& key, bool value) { raw(key, value ? "true" : "false"); }

 private:
  std::string& out_;
};

// sandbox, keep_sandbox and the limits that differ from `over`'s: [tournament]'s over none, an engine's over
// [tournament]'s.
void sandbox_keys(Lines& l, SandboxMode sandbox, bool keep, const EngineLimits& limits, SandboxMode over_sandbox,
                  bool over_keep, const EngineLimits& over, bool sandbox_given) {
  if (sandbox != over_sandbox || sandbox_given) l.text("sandbox", to_string(sandbox));
  if (keep != over_keep) l.flag("keep_sandbox", keep);
  if (limits.memory_mb != over.memory_mb) l.whole("memory_mb", limits.memory_mb);
  if (limits.memory_enforcement != over.memory_enforcement)
    l.text("memory_enforcement", limits.memory_enforcement == MemoryEnforcement::Rlimit ? "rlimit" : "cgroup");
  if (limits.max_file_mb != over.max_file_mb) l.whole("max_file_mb", limits.max_file_mb);
  if (limits.max_output_kb != over.max_output_kb) l.whole("max_output_kb", limits.max_output_kb);
  if (limits.max_processes != over.max_processes) l.whole("max_processes", limits.max_processes);
}

std::string adjudicate_table(const AdjudicationConfig& a) {
  std::vector<std::string> items;
  if (a.store_majority) items.emplace_back("store_majority = true");
  if (a.database_seeds >= 0) items.push_back("database_seeds = " + std::to_string(a.database_seeds));
  if (a.draw)
    items.push_back(fmt::format("draw = {{ movenumber = {}, movecount = {}, score = {} }}", a.draw->move_number,
                                a.draw->move_count, a.draw->score));
  if (a.resign)
    items.push_back(fmt::format("resign = {{ movecount = {}, score = {}, twosided = {} }}", a.resign->move_count,
                                a.resign->score, a.resign->two_sided ? "true" : "false"));
  std::string table;
  for (const std::string& item : items) table += (table.empty() ? "" : ", ") + item;
  return "{ " + table + " }";
}

void tournament_table(const Config& c, const fs::path& work_dir, std::string& out) {
  const TournamentConfig& t = c.tournament;
  const TournamentConfig none;
  Lines l(out);
  out += "[tournament]\n";
  l.text("name", t.name);
  if (t.type != none.type) l.text("type", to_string(t.type));
  // A form that plays a budget of games has no rounds, nor has an SPRT, which plays until it decides.
  // Its key says what it counts: Swiss rounds, or colour-swapped game pairs (kinds.h, RoundsCount).
  const bool swiss = kind_of(t.type).rounds == RoundsCount::SwissRounds;
  if (t.budget_games == 0 && (!c.sprt || t.rounds != none.rounds)) l.whole(swiss ? "rounds" : "pairs", t.rounds);
  if (t.tiebreak_pairs != none.tiebreak_pairs) l.whole("tiebreak_pairs", t.tiebreak_pairs);
  if (t.budget_games != none.budget_games) l.whole("budget_games", t.budget_games);
  if (t.target_width != none.target_width) l.whole("target_width", t.target_width);
  if (!t.boundaries.empty()) {
    std::string list;
    for (int k : t.boundaries) list += (list.empty() ? "" : ", ") + std::to_string(k);
    l.raw("boundaries", "[" + list + "]");
  }
  if (!t.seed_engines.empty()) {
    std::vector<std::string> names;
    for (int i : t.seed_engines) names.push_back(c.engines[static_cast<std::size_t>(i)].name);
    l.raw("seed_engines", string_list(names));
  }
  if (t.concurrency != none.concurrency) l.whole("concurrency", t.concurrency);
  if (t.seed != none.seed) l.raw("seed", std::to_string(t.seed));
  if (t.output != none.output) l.text("output", t.output.string());
  if (!t.pgnout.empty()) l.text("pgnout", from_work_dir(t.pgnout, work_dir));
  if (t.rating_interval != none.rating_interval) l.whole("rating_interval", t.rating_interval);
  if (t.progress_interval != none.progress_interval) l.whole("progress_interval", t.progress_interval);
  if (t.report_every != none.report_every) l.whole("report_every", t.report_every);
  if (t.publish) l.flag("publish", true);
  if (t.max_plies != none.max_plies) l.whole("max_plies", t.max_plies);
  if (t.transcripts != none.transcripts) l.text("transcripts", to_string(t.transcripts));
  if (t.restart != none.restart) l.text("restart", to_string(t.restart));
  sandbox_keys(l, t.sandbox, t.keep_sandbox, t.limits, none.sandbox, none.keep_sandbox, none.limits, t.sandbox_given);
  if (t.pin) l.flag("pin", true);
  if (!t.cpus.empty()) {
    std::string list;
    for (int cpu : t.cpus) list += (list.empty() ? "" : ",") + std::to_string(cpu);
    l.text("cpus", list);
  }
  if (t.adjudicate.any()) l.raw("adjudicate", adjudicate_table(t.adjudicate));
}

// [variant] in the words of to_string(Variant): "pits=6 seeds=4 capture=standard ...".
void variant_table(const Config& c, std::string& out) {
  if (c.variant == Variant{} && !c.start) return;
  Lines l(out);
  out += "[variant]\n";
  const std::string words = to_string(c.variant);
  for (std::string_view word : split_words(words)) {
    const std::size_t eq = word.find('=');
    const std::string key(word.substr(0, eq)), value(word.substr(eq + 1));
    if (key == "pits" || key == "seeds")
      l.raw(key, value);
    else
      l.text(key, value);
  }
  if (c.start) l.text("start", to_start_notation(c.variant, *c.start));
}

void time_table(const Config& c, std::string& out) {
  out += "[time]\n";
  for (const std::string& item : time_items(c.time, TimeControl{})) out += item + "\n";
  if (c.time.clock != ClockKind::Wall) Lines(out).text("clock", to_string(c.time.clock));
}

void openings_table(const Config& c, std::string& out) {
  const OpeningsConfig& o = c.openings;
  if (o.random_plies == 0 && o.file.empty()) return;
  Lines l(out);
  out += "[openings]\n";
  if (o.random_plies > 0) l.whole("random_plies", o.random_plies);
  if (o.file.empty()) return;
  l.text("file", o.file.string());
  if (o.order != OpeningsConfig{}.order) l.text("order", to_string(o.order));
  if (o.format != OpeningsConfig{}.format) l.text("format", to_string(o.format));
}

void options_table(const std::vector<EngineOption>& options, std::string& out) {
  std::string table;
  for (const EngineOption& o : options)
    table += (table.empty() ? "" : ", ") + toml_string(o.name) + " = " + toml_string(o.value);
  out += "{ " + table + " }";
}

void sprt_table(const Config& c, const fs::path& work_dir, std::string& out) {
  if (!c.sprt) return;
  const SprtConfig& s = *c.sprt;
  const SprtConfig none;
  Lines l(out);
  out += "[sprt]\n";
  l.raw("elo0", number(s.params.elo0));
  l.raw("elo1", number(s.params.elo1));
  if (s.params.alpha != none.params.alpha) l.raw("alpha", number(s.params.alpha));
  if (s.params.beta != none.params.beta) l.raw("beta", number(s.params.beta));
  if (s.params.model != none.params.model) l.text("model", stats::to_string(s.params.model));
  if (s.max_pairs != none.max_pairs) l.whole("max_pairs", s.max_pairs);
  if (!s.summary.empty()) l.text("summary", from_work_dir(s.summary, work_dir));
  // bench follows from a declared count.
  if (s.bench && !s.base_bench && !s.test_bench) l.flag("bench", true);
  if (s.base_bench) l.whole("base_bench", *s.base_bench);
  if (s.test_bench) l.whole("test_bench", *s.test_bench);
  if (!s.git) return;
  const GitSprtConfig& g = *s.git;
  l.text("repo", g.repo.string());
  l.text("base_ref", g.base.ref);
  l.text("test_ref", g.test.ref);
  if (!g.build.empty()) l.text("build", g.build);
  l.text("run", g.run);
  if (!g.worktrees.empty()) l.text("worktrees", g.worktrees.string());
  if (g.build_limits.sandbox != SandboxMode::None) l.text("build_sandbox", to_string(g.build_limits.sandbox));
  l.text("base_name", g.base.engine.name);
  l.text("test_name", g.test.engine.name);
  for (const auto& [side, which] : {std::pair{&g.base, "base"}, std::pair{&g.test, "test"}}) {
    if (side->engine.options.empty()) continue;
    out += std::string(which) + "_options = ";
    options_table(side->engine.options, out);
    out += "\n";
  }
}

// One [[engine]]: what differs from [tournament]'s defaults. A KGP agent is written as its own command, not its
// host's (kgp_host_engine), a sandboxed engine's limit of its relayed stderr left to the sandbox's default.
void engine_table(const Config& c, const EngineSpec& e, const fs::path& work_dir, std::string& out) {
  const TournamentConfig& t = c.tournament;
  Lines l(out);
  out += "[[engine]]\n";
  l.text("name", e.name);
  l.text("cmd", e.kgp ? e.kgp->cmd : e.cmd_as_written);
  const std::vector<std::string>& args = e.kgp ? e.kgp->args : e.args;
  if (!args.empty()) l.raw("args", string_list(args));
  // Without `dir` an engine runs in `work_dir`, or, in a sandbox, sees no folder but its own.
  if (!e.dir.empty() && (e.dir != work_dir || e.sandbox == SandboxMode::Bwrap)) l.text("dir", e.dir.string());
  if (!e.options.empty()) {
    out += "options = ";
    options_table(e.options, out);
    out += "\n";
  }
  if (e.kgp) {
    l.text("protocol", "kgp");
    if (e.kgp->random_no_move) l.text("kgp_no_move", "random");
    if (e.kgp->websocket) l.text("kgp_transport", "websocket");
  } else if (e.protocol != Protocol::Kep) {
    l.text("protocol", to_string(e.protocol));
  }
  if (e.restart != (e.kgp ? RestartPolicy::Always : t.restart)) l.text("restart", to_string(e.restart));
  if (!e.stderr_file.empty()) l.text("stderr", from_work_dir(e.stderr_file, work_dir));
  EngineLimits limits = e.limits;
  if (e.sandbox == SandboxMode::Bwrap && t.limits.max_output_kb == 0 && limits.max_output_kb == kSandboxOutputKb)
    limits.max_output_kb = 0;
  sandbox_keys(l, e.sandbox, e.keep_sandbox, limits, t.sandbox, t.keep_sandbox, t.limits, false);
  if (e.time) {
    std::string table;
    for (const std::string& item : time_items(*e.time, c.time)) table += (table.empty() ? "" : ", ") + item;
    l.raw("time", "{ " + table + " }");
  }
}

// [ranking]: by, its tie-breaks and points rule, and the cuts.
void ranking_table(const rating::RankingRules& r, std::string& out) {
  const rating::RankingRules none;
  if (r == none) return;
  Lines l(out);
  out += "[ranking]\n";
  if (r.by != none.by) l.text("by", rating::to_string(r.by));
  if (!r.tiebreaks.empty()) {
    std::vector<std::string> names;
    for (rating::TieBreak t : r.tiebreaks) names.emplace_back(rating::to_string(t));
    l.raw("tiebreaks", string_list(names));
  }
  if (r.points != none.points)
    l.raw("points", "{ win = " + number(r.points.win) + ", draw = " + number(r.points.draw) +
                        ", loss = " + number(r.points.loss) + " }");
  if (!r.cuts.empty()) {
    std::string list;
    for (int k : r.cuts) list += (list.empty() ? "" : ", ") + std::to_string(k);
    l.raw("cuts", "[" + list + "]");
  }
}

}  // namespace

std::vector<std::string> time_items(const TimeControl& time, const TimeControl& over) {
  std::vector<std::string> items;
  auto item = [&items](const char* key, std::int64_t value) { items.push_back(key + (" = " + std::to_string(value))); };
  switch (time.mode) {
    // The clock in the grammar of chess tools, which parse_fischer() reads back: "40/60+0.6", "60+0.5d2".
    case TimeControl::Mode::Fischer: items.push_back("tc = " + toml_string(time.clock_text())); break;
    case TimeControl::Mode::MoveTime: item("movetime_ms", time.movetime_ms); break;
    case TimeControl::Mode::Depth: item("depth", time.depth); break;
    case TimeControl::Mode::Nodes: item("nodes", time.nodes); break;
  }
  if (time.margin_ms != over.margin_ms) item("margin_ms", time.margin_ms);
  if (time.startup_ms != over.startup_ms) item("startup_ms", time.startup_ms);
  if (time.ping_ms != over.ping_ms) item("ping_ms", time.ping_ms);
  const bool bounded = time.mode == TimeControl::Mode::Depth || time.mode == TimeControl::Mode::Nodes;
  if (bounded && time.hard_limit_ms != over.hard_limit_ms) item("hard_limit_ms", time.hard_limit_ms);
  return items;
}

Expected<std::string> to_toml(const Config& c, const fs::path& work_dir) {
  if (c.submissions) return Error{"a contest's config ([submissions]) is its file, not written again"};
  if (c.tournament.staged()) return Error{"a staged tournament (tournament.stages) is not written as TOML"};
  std::string out;
  tournament_table(c, work_dir, out);
  variant_table(c, out);
  time_table(c, out);
  openings_table(c, out);
  sprt_table(c, work_dir, out);
  if (!c.rating.anchor.empty()) {
    Lines l(out);
    out += "[rating]\n";
    l.text("anchor", c.rating.anchor);
    if (c.rating.anchor_elo != 0) l.raw("anchor_elo", number(c.rating.anchor_elo));
  }
  ranking_table(c.ranking, out);
  if (c.analysis) {
    const AnalysisConfig& a = *c.analysis;
    const AnalysisConfig none;
    Lines l(out);
    out += "[analysis]\n";
    if (a.budget_ms != none.budget_ms) l.whole("budget_ms", a.budget_ms);
    if (a.threads != none.threads) l.whole("threads", a.threads);
    if (a.db_only) l.flag("db_only", true);
    if (a.db_mb != none.db_mb) l.whole("db_mb", a.db_mb);
    if (a.hash_mb != none.hash_mb) l.whole("hash_mb", a.hash_mb);
  }
  for (const EngineSpec& e : c.engines) engine_table(c, e, work_dir, out);
  return out;
}

}  // namespace kalah::arena
