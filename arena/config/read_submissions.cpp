// [submissions] (docs/CONTEST.md): a contest's folder of submissions, their builds' limits, the rules for
// withdrawn and disqualified entrants, and the sanity gate a bot must pass to enter.
#include "arena/config/readers.h"

#include <unistd.h>

#include "arena/config/paths.h"
#include "referee/engine/sandbox.h"
#include "referee/solver/solver.h"
#include "referee/suite/labels.h"
#include "referee/system/executable.h"

namespace kalah::arena::detail {
namespace fs = std::filesystem;

namespace {

// submissions.gate = { opponent, games, min_score, suite, min_perfect }: each part whole, at least one.
void read_gate(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "submissions.gate", "submissions.gate",
          {"opponent", "games", "min_score", "suite", "min_perfect"});
  GateConfig out;
  // A share from 0 to 1 that the part of the gate written at `part` needs: `why` says so when it is missing.
  auto needed_share = [&](std::string_view key, std::string_view part, const char* why) -> double {
    const std::optional<double> x = t.number(key);
    if (!x) t.fail_at(part, why);
    if (!(*x >= 0 && *x <= 1))
      t.fail_at(key, t.key_name(key) + " must be a share from 0 to 1 (0.75 for 75%), not " + detail::format_number(*x));
    return *x;
  };
  if (std::optional<std::string> opponent = t.string("opponent")) {
    Expected<fs::path> resolved = resolve_command(*opponent, r.work_dir(), r.config_dir(), system::path_variable());
    if (!resolved) t.fail_at("opponent", "submissions.gate.opponent " + resolved.error());
    out.opponent = *opponent;
    out.opponent_cmd = *resolved;
    out.games = static_cast<int>(t.integer("games", 2, 10'000).value_or(out.games));
    if (out.games % 2 != 0)
      t.fail_at("games",
                "submissions.gate.games must be even, so that the bot plays as many games with each "
                "colour, not " +
                    std::to_string(out.games));
    out.min_score = needed_share("min_score", "opponent",
                                 "submissions.gate.opponent needs min_score, the share of the points the "
                                 "bot must score against it (min_score = 0.75)");
  } else {
    for (std::string_view key : {"games", "min_score"})
      if (t.has(key)) t.fail_at(key, t.key_name(key) + " needs submissions.gate.opponent, the bot to play against");
  }
  if (t.has("suite")) {
    out.suite = static_cast<int>(*t.integer("suite", 1, suite::kMaxPositions));
    if (!solver::ExactSolver::supports(c.variant))
      t.fail_at("suite",
                "submissions.gate.suite: the exact solver labels the positions, and it takes at most 255 "
                "seeds, not " +
                    to_string(c.variant));
    out.min_perfect = needed_share("min_perfect", "suite",
                                   "submissions.gate.suite needs min_perfect, the share of the positions the "
                                   "bot must answer with a perfect move (min_perfect = 0.5)");
  } else if (t.has("min_perfect")) {
    t.fail_at("min_perfect", "submissions.gate.min_perfect needs submissions.gate.suite, the number of positions");
  }
  if (!out.plays_games() && !out.runs_suite())
    r.loc().fail(table.source(),
                 "submissions.gate needs games against an opponent (opponent, games, min_score), "
                 "a suite of positions (suite, min_perfect), or both");
  c.submissions->gate = out;
  if (out.plays_games()) {
    // The opponent must be able to play where the entrants do, refused now rather than in every gate game.
    const EngineSpec opponent = gate_opponent(c);
    if (opponent.sandbox == SandboxMode::Bwrap)
      if (std::optional<std::string> problem = sandbox_unavailable())
        t.fail_at("opponent", "submissions.gate.opponent: " + *problem);
    for (auto problem : {limits_problem(opponent), memory_limit_problem(opponent), sandbox_reach_problem(opponent)})
      if (problem) t.fail_at("opponent", "submissions.gate.opponent: " + *problem);
  }
}

}  // namespace

// [submissions]: a contest (docs/CONTEST.md). Its entrants come from entries.json, not from this file.
void read_submissions(const Reader& r, const toml::table& table, const toml::table& root, Config& c) {
  Table t(r.loc(), table, "submissions", "[submissions]",
          {"dir", "build_timeout_s", "build_memory_mb", "build_disk_mb", "build_sandbox", "check", "withdrawn",
           "disqualified", "gate"});
  SubmissionsConfig out;
  out.dir = r.required_directory(t, "dir");
  sandbox_build::BuildLimits& build = out.build_limits;
  build.timeout_s = static_cast<int>(t.integer("build_timeout_s", 1, 86'400).value_or(build.timeout_s));
  build.memory_mb = t.integer("build_memory_mb", 16, 1'048'576).value_or(build.memory_mb);
  build.disk_mb = t.integer("build_disk_mb", 1, 1'048'576).value_or(build.disk_mb);
  build.sandbox = t.choice<SandboxMode>("build_sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                                          {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
                      .value_or(SandboxMode::Bwrap);
  if (build.sandbox == SandboxMode::Bwrap)
    if (auto problem = sandbox_unavailable())
      t.fail_at(t.has("build_sandbox") ? "build_sandbox" : "dir",
                "submissions are built in a sandbox (build_sandbox = \"bwrap\"), and " + *problem +
                    "; or set build_sandbox = \"none\" for submissions you trust");
  if (build.sandbox == SandboxMode::None)
    c.warnings.push_back(r.loc().path() + ": submissions are built without a sandbox (build_sandbox = \"none\"): " +
                         "their build commands run as " + (::geteuid() == 0 ? "root" : "you") +
                         ", with your files and network");
  // Entrants are untrusted code: sandboxed unless the config says otherwise in so many words.
  out.entrant_sandbox = c.tournament.sandbox_given ? c.tournament.sandbox : SandboxMode::Bwrap;
  if (out.entrant_sandbox == SandboxMode::Bwrap) {
    if (auto problem = sandbox_unavailable())
      t.fail_at("dir",
                "a contest's entrants run in a sandbox (absent tournament.sandbox means \"bwrap\" for them), and " +
                    *problem + "; or set sandbox = \"none\" in [tournament] for entrants you trust");
  } else {
    c.warnings.push_back(r.loc().path() + ": the contest's entrants run without a sandbox (tournament.sandbox = " +
                         "\"none\"): their code runs as " + (::geteuid() == 0 ? "root" : "you") +
                         ", with your files and network");
  }
  out.check = t.on_off("check").value_or(out.check);
  const std::initializer_list<std::pair<std::string_view, GamesRule>> rules = {{"keep", GamesRule::Keep},
                                                                               {"void", GamesRule::Void}};
  out.withdrawn = t.choice<GamesRule>("withdrawn", rules).value_or(out.withdrawn);
  out.disqualified = t.choice<GamesRule>("disqualified", rules).value_or(out.disqualified);
  if (!kind_of(c.tournament.type).contest)
    t.fail_at("dir", std::string("a contest ([submissions]) is a round robin, not tournament.type = \"") +
                         to_string(c.tournament.type) + "\"");
  if (root.get("sprt")) t.fail_at("dir", "a contest ([submissions]) cannot also be an [sprt] match");
  c.submissions = out;
  if (const toml::table* gate = r.sub_table(t, "gate")) read_gate(r, *gate, c);
}

}  // namespace kalah::arena::detail
