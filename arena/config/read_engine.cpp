// [[engine]] (docs/CONFIG.md, "Engines"): each engine's name, command, arguments, folder, options,
// protocol, restart policy, stderr log, sandbox and limits, and its own time control (time odds).
#include "arena/config/readers.h"

#include <unistd.h>

#include "arena/config/paths.h"
#include "referee/engine/kgp_engine.h"
#include "referee/engine/sandbox.h"
#include "referee/kgp/address.h"
#include "referee/system/confusables.h"
#include "referee/system/executable.h"

namespace kalah::arena::detail {
namespace fs = std::filesystem;

namespace {

// Why the engine's stderr log cannot be appended to, checked at load rather than at the first game.
// A folder part with a {shard} or {game} placeholder is known only later and is not checked.
std::optional<std::string> stderr_problem(const fs::path& file) {
  const fs::path folder = file.parent_path();
  std::error_code ec;
  if (file.string().find('{') == std::string::npos && fs::exists(file, ec) && !fs::is_regular_file(file, ec))
    return file.string() + " is not a regular file";
  if (folder.string().find('{') != std::string::npos) return std::nullopt;
  if (!fs::is_directory(folder, ec)) return "the folder " + folder.string() + " does not exist (it is not created)";
  if (::access(folder.c_str(), W_OK) != 0 && !fs::exists(file, ec))
    return "the folder " + folder.string() + " is not writable";
  if (fs::exists(file, ec) && ::access(file.c_str(), W_OK) != 0) return file.string() + " is not writable";
  return std::nullopt;
}

// A sandbox or limit that this machine cannot enforce is refused here, never run without it.
void check_sandbox(const Table& t, const EngineSpec& e) {
  auto fail = [&](std::string_view key, const std::string& message) {
    if (t.has(key)) t.fail_at(key, "engine." + std::string(key) + ": " + message);
    t.fail_at("name", "engine " + in_quotes(e.name) + " (" + std::string(key) + " from [tournament]): " + message);
  };
  if (e.sandbox == SandboxMode::Bwrap)
    if (std::optional<std::string> problem = sandbox_unavailable()) fail("sandbox", *problem);
  if (std::optional<std::string> problem = limits_problem(e)) fail("max_processes", *problem);
  if (std::optional<std::string> problem = keep_sandbox_problem(e)) fail("keep_sandbox", *problem);
  if (std::optional<std::string> problem = memory_limit_problem(e)) fail("memory_mb", *problem);
  if (std::optional<std::string> problem = sandbox_reach_problem(e)) fail(t.has("dir") ? "dir" : "cmd", *problem);
}

// ManKalah agents track the board themselves from the standard start, and are told of every move as if
// they had seen the game from its first ply: an opening or a start position corrupts their state
// (docs/PROTOCOL.md, "Manchester Kalah agents"). The [openings] table and [variant] come first in
// the checks; the engine's `protocol` key is where the message points.
void check_mankalah(const Table& t, const Config& c, const std::string& name) {
  std::string what;
  if (c.start)
    what = "[variant] start";
  else if (c.openings.random_plies > 0)
    what = "random openings (openings.random_plies)";
  else if (!c.openings.book.empty())
    what = "an openings book (openings.file)";
  if (what.empty()) return;
  t.fail_at("protocol", "engine " + in_quotes(name) +
                            " speaks the ManKalah protocol, whose agents can only play a whole game from the "
                            "standard start, but this config gives " +
                            what + ": remove that, or play this engine in a tournament without openings");
}

// `{kgp_host}` and `{kgp_port}` in an argument name a KGP agent's server (its host replaces them as it starts
// the agent, docs/KGP.md): an engine of another protocol has none (unless it is `referee kgp-host` written
// out, its agent's arguments after `--`), and a misspelt one would reach the agent as it is written.
void check_address_placeholders(const Reader& r, const Table& t, const toml::source_region& where,
                                const std::vector<std::string>& args, std::size_t i) {
  const std::string& arg = args[i];
  const std::string key = "engine.args[" + std::to_string(i) + "]: ";
  if (std::optional<std::string> problem = kgp::address_placeholder_problem(arg)) r.loc().fail(where, key + *problem);
  const bool kgp = t.string("protocol") == std::optional<std::string>(kKgpProtocol);
  if (kgp::names_server_address(arg) && !kgp && !kgp::after_kgp_host(args, i))
    r.loc().fail(where, key + std::string(kgp::kHostPlaceholder) + ", " + std::string(kgp::kPortPlaceholder) + " and " +
                            std::string(kgp::kUrlPlaceholder) +
                            " name the server of a KGP agent, and this engine is none (protocol = \"kgp\")");
  if (kgp::names_server_url(arg) && kgp && t.string("kgp_transport") != std::optional<std::string>("websocket"))
    r.loc().fail(where, key + std::string(kgp::kUrlPlaceholder) +
                            " is the URL of a server over a WebSocket, and this agent's is served over TCP: set "
                            "kgp_transport = \"websocket\", or name it by {kgp_host} and {kgp_port}");
}

// `protocol = "kgp"` (docs/KGP.md): the agent runs through `referee kgp-host`, a KEP engine from here on.
void read_kgp(const Table& t, const Config& c, EngineSpec& e) {
  const bool kgp = t.string("protocol") == std::optional<std::string>(kKgpProtocol);
  const std::optional<KgpNoMove> no_move =
      t.choice<KgpNoMove>("kgp_no_move", {{"forfeit", KgpNoMove::Forfeit}, {"random", KgpNoMove::Random}});
  if (no_move && !kgp) t.fail_at("kgp_no_move", "engine.kgp_no_move applies to protocol = \"kgp\" only");
  const std::optional<KgpTransport> transport =
      t.choice<KgpTransport>("kgp_transport", {{"tcp", KgpTransport::Tcp}, {"websocket", KgpTransport::WebSocket}});
  if (transport && !kgp) t.fail_at("kgp_transport", "engine.kgp_transport applies to protocol = \"kgp\" only");
  if (!kgp) return;
  if (c.variant.pie)
    t.fail_at("protocol", "engine " + in_quotes(e.name) +
                              " is a KGP agent, and KGP has no pie rule (no swap move): play it with pie = \"off\"");
  Expected<fs::path> host = find_kgp_host();
  if (!host) t.fail_at("protocol", "engine.protocol: " + host.error());
  e = kgp_host_engine(std::move(e), *host, no_move.value_or(KgpNoMove::Forfeit), transport.value_or(KgpTransport::Tcp));
}

void read_engine(const Reader& r, const toml::table& table, Config& c, std::vector<int>& name_lines) {
  Table t(
      r.loc(), table, "engine", "[[engine]]",
      {"name", "cmd", "args", "dir", "options", "protocol", "restart", "stderr", "sandbox", "keep_sandbox", "memory_mb",
       "memory_enforcement", "max_file_mb", "max_processes", "max_output_kb", "time", "kgp_no_move", "kgp_transport"});
  EngineSpec e;
  auto name = t.string("name");
  if (!name) t.missing("name");
  if (!valid_engine_name(*name))
    t.fail_at("name", "engine.name " + in_quotes(*name) + " is not a usable name: " + kEngineNameRule);
  if (int i = c.engine_index(*name); i >= 0)
    t.fail_at("name", "engine.name " + in_quotes(*name) + " is already used by the engine at line " +
                          std::to_string(name_lines[i]));
  // Names that look alike would pass for each other in every table (docs/CONFIG.md, "Engine names").
  for (std::size_t i = 0; i < c.engines.size(); ++i)
    if (system::confusable(*name, c.engines[i].name))
      t.fail_at("name", "engine.name " + in_quotes(*name) + " looks like " + in_quotes(c.engines[i].name) +
                            ", the engine at line " + std::to_string(name_lines[i]) +
                            " (the same letters to the eye); give one of them another name");
  e.name = *name;

  auto cmd = t.string("cmd");
  if (!cmd) t.missing("cmd");
  auto resolved = resolve_command(*cmd, r.work_dir(), r.config_dir(), system::path_variable());
  if (!resolved) t.fail_at("cmd", "engine.cmd " + resolved.error());
  e.cmd_as_written = *cmd;
  e.cmd = *resolved;

  if (const toml::node* args = t.find("args")) {
    const toml::array* array = args->as_array();
    if (!array) t.fail_at("args", "engine.args must be an array of strings, not " + detail::describe(args->type()));
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& arg = *array->get(i);
      if (!arg.is_string())
        r.loc().fail(arg.source(),
                     "engine.args[" + std::to_string(i) + "] must be a string, not " + detail::describe(arg.type()));
      e.args.push_back(arg.as_string()->get());
      check_address_placeholders(r, t, arg.source(), e.args, i);
    }
  }

  e.dir = r.directory(t, "dir").value_or(r.work_dir());

  // "{dir}" in an argument is the engine's folder, absolute: how a sandboxed engine (whose working
  // directory is private) names its own files.
  const std::string dir_text = e.dir.string();
  for (std::string& arg : e.args)
    for (std::size_t at = arg.find("{dir}"); at != std::string::npos; at = arg.find("{dir}", at + dir_text.size()))
      arg.replace(at, 5, dir_text);

  if (const toml::node* options = t.find("options")) read_options(r, t, *options, e);
  if (const toml::node* time = t.find("time")) {
    if (!time->is_table())
      t.fail_at("time",
                "engine.time must be a table (time = { tc = \"40/60+0.6\" }), not " + detail::describe(time->type()));
    e.time = read_engine_time(r, *time->as_table(), c.time);
    if (*e.time == c.time) e.time.reset();
  }

  // The words are the referee's (to_string), so the config and `referee match` accept the same.
  e.protocol = t.choice<Protocol>("protocol", {{to_string(Protocol::Kep), Protocol::Kep},
                                               {to_string(Protocol::Mankalah), Protocol::Mankalah},
                                               {kKgpProtocol, Protocol::Kep}})
                   .value_or(Protocol::Kep);
  if (e.protocol == Protocol::Mankalah) check_mankalah(t, c, e.name);
  read_kgp(t, c, e);
  // A KGP agent's host is started for each game (kgp_host_engine) unless its own `restart` says otherwise.
  e.restart = read_restart(t).value_or(e.kgp ? e.restart : c.tournament.restart);
  if (auto log = t.string("stderr")) {
    e.stderr_file = absolute_from(r.work_dir(), *log);
    if (auto problem = stderr_problem(e.stderr_file)) t.fail_at("stderr", "engine.stderr: " + *problem);
  }

  e.sandbox = c.tournament.sandbox;
  e.keep_sandbox = c.tournament.keep_sandbox;
  e.limits = c.tournament.limits;
  read_sandbox_keys(t, e.sandbox, e.keep_sandbox, e.limits);
  // In a sandbox the engine sees its `dir` only when one is given: never the whole working directory.
  if (e.sandbox == SandboxMode::Bwrap && !t.has("dir")) e.dir.clear();
  // An untrusted engine's stderr is bounded even when nobody thought of it (docs/SECURITY.md).
  if (e.sandbox == SandboxMode::Bwrap && e.limits.max_output_kb == 0) e.limits.max_output_kb = kSandboxOutputKb;
  check_sandbox(t, e);
  if (auto problem = sandbox_dir_problem(e, absolute_from(r.work_dir(), c.results_dir().string())))
    t.fail_at("dir", "engine.dir: " + *problem);

  name_lines.push_back(static_cast<int>(t.find("name")->source().begin.line));
  c.engines.push_back(std::move(e));
}

}  // namespace

void read_engines(const Reader& r, const toml::table& root, Config& c) {
  const toml::node* node = root.get("engine");
  if (!node && c.submissions) return;  // every engine is an entrant
  if (c.sprt && c.sprt->git) {
    if (node)
      r.loc().fail(node->source(),
                   "[[engine]] tables cannot be combined with [sprt] repo: the engines are the two commits "
                   "(base_ref, then test_ref)");
    return;
  }
  if (!node) r.fail_top("no [[engine]] tables; a tournament needs at least two engines");
  const toml::array* list = node->as_array();
  if (!list)
    r.loc().fail(node->source(),
                 "engine must be an array of tables ([[engine]]), not " + detail::describe(node->type()));
  std::vector<int> name_lines;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& element = *list->get(i);
    if (!element.is_table())
      r.loc().fail(element.source(),
                   "engine[" + std::to_string(i) + "] must be a table, not " + detail::describe(element.type()));
    read_engine(r, *element.as_table(), c, name_lines);
  }
  c.house_engines = static_cast<int>(list->size());
  if (list->size() < 2 && !c.submissions) {
    const std::string form(kind_of(c.tournament.type).noun);
    r.loc().fail(node->source(), form + " needs at least two engines, not " + std::to_string(list->size()));
  }
}

void read_options(const Reader& r, const Table& t, const toml::node& node, EngineSpec& e) {
  const toml::table* options = node.as_table();
  if (!options)
    t.fail_at("options",
              "engine.options must be a table (options = { Name = value }), not " + detail::describe(node.type()));
  for (auto&& [key, value] : *options) {  // sorted by name
    const std::string name(key.str());
    const std::string full = "engine.options." + name;
    if (name.empty() || has_control(name))
      r.loc().fail(key.source(), "engine option name " + in_quotes(name) + " is not usable");
    std::string text;
    if (const auto* s = value.as_string()) {
      text = s->get();
      if (has_control(text)) r.loc().fail(value.source(), full + " must not contain control characters");
    } else if (const auto* i = value.as_integer()) {
      text = std::to_string(i->get());
    } else if (const auto* f = value.as_floating_point()) {
      text = detail::format_number(f->get());
    } else if (const auto* b = value.as_boolean()) {
      text = b->get() ? "true" : "false";
    } else {
      r.loc().fail(value.source(),
                   full + " must be a string, number or boolean, not " + detail::describe(value.type()));
    }
    e.options.push_back({name, text});
  }
}

}  // namespace kalah::arena::detail
