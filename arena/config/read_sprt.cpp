// [sprt] (docs/SPRT.md): the test's hypotheses, bounds and benches, and for an SPRT between two commits of a
// repository (sprt.repo) the repository, its refs and how each checkout is built and run.
#include "arena/config/readers.h"

#include <limits>
#include <utility>

#include "arena/config/paths.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/words.h"
#include "referee/system/files.h"

namespace kalah::arena::detail {

namespace {

// [sprt] repo, base_ref, test_ref, build, run ...: the engines are two commits (docs/SPRT.md, "From git").
// The refs are only checked for what would let them pass for an option; git resolves them later.
GitSprtConfig read_git_sprt(const Reader& r, const Table& t, const Config& c) {
  GitSprtConfig g;
  g.repo = r.required_directory(t, "repo");
  for (auto [key, side] : {std::pair{"base_ref", &g.base}, std::pair{"test_ref", &g.test}}) {
    auto ref = t.string(key);
    if (!ref) t.missing(key);
    if (ref->front() == '-' || has_control(*ref) || ref->find(' ') != std::string::npos)
      t.fail_at(key, t.key_name(key) + " " + in_quotes(*ref) +
                         " is not a git ref: it must not start with '-' or hold spaces or control characters");
    side->ref = *ref;
  }
  g.build = t.string("build").value_or("");
  auto run = t.string("run");
  if (!run) t.missing("run");
  if (split_words(*run).empty()) t.fail_at("run", "sprt.run needs a command");
  g.run = *run;
  if (auto dir = t.string("worktrees")) {
    g.worktrees = absolute_from(r.work_dir(), *dir);
  } else {
    const std::filesystem::path cache = system::user_cache_dir();
    if (cache.empty())
      t.fail_at("repo", "sprt.worktrees is not given and neither XDG_CACHE_HOME nor HOME is set: name a folder");
    g.worktrees = cache / "worktrees";
  }
  g.build_limits.sandbox = t.choice<SandboxMode>("build_sandbox", {{to_string(SandboxMode::None), SandboxMode::None},
                                                                   {to_string(SandboxMode::Bwrap), SandboxMode::Bwrap}})
                               .value_or(SandboxMode::None);
  if (g.build_limits.sandbox == SandboxMode::Bwrap)
    if (auto problem = sandbox_unavailable()) t.fail_at("build_sandbox", "sprt.build_sandbox: " + *problem);
  for (auto [side, which] : {std::pair{&g.base, "base"}, std::pair{&g.test, "test"}}) {
    EngineSpec& e = side->engine;
    const std::string name_key = std::string(which) + "_name";
    e.name = t.string(name_key).value_or(which);
    if (!valid_engine_name(e.name))
      t.fail_at(name_key, t.key_name(name_key) + " " + in_quotes(e.name) + " is not a usable name");
    if (const toml::node* options = t.find(std::string(which) + "_options")) {
      if (!options->is_table())
        t.fail_at(std::string(which) + "_options", "sprt." + std::string(which) +
                                                       "_options must be a table (NAME = value), not " +
                                                       detail::describe(options->type()));
      read_options(r, t, *options, e);
    }
    e.restart = c.tournament.restart;
    // The engines are the commits' code, the test's a pull request's: a build sandbox sandboxes them too,
    // unless [tournament] sandbox says otherwise in so many words.
    e.sandbox = c.tournament.sandbox_given ? c.tournament.sandbox : g.build_limits.sandbox;
    e.keep_sandbox = c.tournament.keep_sandbox;
    e.limits = c.tournament.limits;
    if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
    for (const std::optional<std::string>& problem :
         {limits_problem(e), keep_sandbox_problem(e), memory_limit_problem(e)})
      if (problem) t.fail_at("repo", "sprt.repo's " + std::string(which) + " engine: " + *problem);
  }
  if (g.base.engine.name == g.test.engine.name)
    t.fail_at("test_name", "the base and the test need different names, not both " + in_quotes(g.base.engine.name));
  return g;
}

}  // namespace

void read_sprt(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "sprt", "[sprt]",
          {"elo0",      "elo1",      "alpha",        "beta",         "model", "max_pairs",  "summary",
           "repo",      "base_ref",  "test_ref",     "build",        "run",   "worktrees",  "build_sandbox",
           "base_name", "test_name", "base_options", "test_options", "bench", "base_bench", "test_bench"});
  SprtConfig out;
  stats::SprtParams& p = out.params;
  auto elo0 = t.number("elo0");
  if (!elo0) t.missing("elo0");
  auto elo1 = t.number("elo1");
  if (!elo1) t.missing("elo1");
  if (*elo1 <= *elo0)
    t.fail_at("elo1", "sprt.elo1 (" + detail::format_number(*elo1) + ") must be greater than sprt.elo0 (" +
                          detail::format_number(*elo0) + ")");
  p.elo0 = *elo0;
  p.elo1 = *elo1;
  for (std::string_view key : {"alpha", "beta"}) {
    auto x = t.number(key);
    if (x && !(*x > 0 && *x < 0.5))
      t.fail_at(key, t.key_name(key) + " must be greater than 0 and less than 0.5, not " + detail::format_number(*x));
    (key == "alpha" ? p.alpha : p.beta) = x.value_or(key == "alpha" ? p.alpha : p.beta);
  }
  p.model =
      t.choice<stats::Model>("model", {{"logistic", stats::Model::Logistic}, {"normalized", stats::Model::Normalized}})
          .value_or(p.model);
  out.max_pairs = static_cast<int>(t.integer("max_pairs", 0, kBillion).value_or(out.max_pairs));
  if (auto summary = t.string("summary")) out.summary = absolute_from(r.work_dir(), *summary);
  if (t.has("repo")) {
    out.git = read_git_sprt(r, t, c);
  } else {
    for (std::string_view key : {"base_ref", "test_ref", "build", "run", "worktrees", "build_sandbox", "base_name",
                                 "test_name", "base_options", "test_options"})
      if (t.has(key))
        t.fail_at(key, t.key_name(key) + " belongs to an SPRT between two commits of a repository: give sprt.repo too");
  }
  constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();
  out.base_bench = t.integer("base_bench", 0, kMaxCount);
  out.test_bench = t.integer("test_bench", 0, kMaxCount);
  const std::optional<bool> bench = t.on_off("bench");
  if (bench == false && (out.base_bench || out.test_bench))
    t.fail_at("bench", std::string("sprt.bench = false, but sprt.") + (out.base_bench ? "base_bench" : "test_bench") +
                           " declares a count to check (leave bench out or set it to true)");
  out.bench = bench.value_or(out.base_bench || out.test_bench);
  c.sprt = out;
}

}  // namespace kalah::arena::detail
