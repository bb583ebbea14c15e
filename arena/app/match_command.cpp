// `arena match -engine cmd=... -engine cmd=... -each tc=40/60+0.6 -rounds 100 ...`: a tournament from
// cutechess-style flags (arena/config/match_line.h), played like `arena run` plays a config file.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/config/config_toml.h"
#include "arena/config/match_line.h"
#include "arena/flow/tournaments.h"
#include "arena/formats/registry.h"
#include "referee/engine/engine_names.h"

namespace kalah::arena_app {
namespace {

// Engines given without name= are called by the name they announce (`id name`), each started once for it
// as the config runs it; one that announces none or does not start keeps its command's name. The names are
// fixed here, before the config is printed or played: in the TOML, the journal's fingerprint and every
// report alike, and a resumed run finds the same names again.
void name_from_handshakes(arena::MatchLine& line, const std::filesystem::path& work_dir) {
  if (std::find(line.named.begin(), line.named.end(), false) == line.named.end()) return;
  const Expected<arena::Config> config = arena::match_config(line, work_dir);
  if (!config) return;  // said again, naming its flag, when the config is read to be played
  std::vector<EngineSpec> engines;
  for (const std::size_t i : line.config_index) engines.push_back(config->engine_for_game(static_cast<int>(i), "name"));
  const std::vector<std::string> names =
      names_from_handshakes(engines, line.named, std::chrono::milliseconds(config->time.startup_ms));
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!line.named[i]) arena::set_engine_name(line, i, names[i]);
}

constexpr const char* kFlags = R"(Flags (single dash, as cutechess-cli and fastchess spell them):
  -engine cmd=CMD [name=N] [arg=A]... [dir=D] [proto=kep|mankalah|kgp] [option.NAME=VALUE]...
          [tc=TC] [st=SECONDS] [depth=D] [nodes=N] [timemargin=MS]
          [restart=on|off|on-crash|always] [stderr=FILE] [sandbox=none|bwrap] [memory_mb=N] ...
                          one engine (give at least two); any [[engine]] key as key=value;
                          without name= it is called by the name it announces (id name)
  -each KEY=VALUE...      for every engine (an engine's own words win)
  -tournament round-robin|gauntlet|knockout|swiss
  -rounds R -games 1|2    R x G games per pairing, played as colour-swapped pairs (-repeat is implied)
  -concurrency N          games at once
  -openings file=F [format=auto|moves|positions] [order=sequential|random] | plies=N
  -variant pits=6 seeds=4 [capture=..] [ending=..] [remainder=..] [majority=..] [pie=..] [start="..."]
  -sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=normalized|logistic]
                          tests the first -engine against the second (H1: the first is stronger);
                          exit 0: H1 accepted, 1: H0 accepted, 3: game limit, undecided
  -draw movenumber=N movecount=M score=S   -resign movecount=M score=S [twosided=true]
  -adjudicate [store_majority=true] [database_seeds=K]
                          adjudication (scores in seeds of store difference, the KEP unit)
  -event NAME  -seed N  -recover  -out DIR  -pgnout FILE | file=FILE [append=false]
  --clock wall|cpu        what a move is charged: its wall time (default) or the engine's CPU time
  --print-config          print the equivalent TOML config (checked as arena run checks it) and stop
  --fresh                 start over instead of resuming
TC: [MOVES/]TIME[+INC] in seconds (TIME also M:SS or H:MM:SS), e.g. 40/60+0.6, 1:30+1; or inf with depth/nodes.
Every flag has a TOML key: see docs/CLI.md.

Example:
  arena match -engine cmd=build/bots/kalah-alphabeta -engine cmd=build/bots/kalah-greedy \
    -each tc=2+0.02 -rounds 10 -concurrency 2 -pgnout out.pgn
)";

}  // namespace

void add_match_command(cli::Commands& commands) {
  auto self = std::make_shared<CLI::App*>(nullptr);
  CLI::App* cmd =
      commands.add("match", "Play a tournament from cutechess-style flags (-engine ... -each tc=...)", [self] {
        Expected<arena::MatchLine> parsed = arena::parse_match_line((*self)->remaining());
        if (!parsed) throw UsageError(parsed.error());
        arena::MatchLine line = std::move(parsed).value();
        if (line.help) {
          fmt::print("{}", (*self)->help());
          return 0;
        }
        name_from_handshakes(line, std::filesystem::current_path());
        // Checked before it is printed as well as before it is played: printed TOML is a promise that
        // `arena run` takes it (the same parse_config), so what a run would refuse is refused here.
        Expected<arena::Config> config = arena::match_config(line, std::filesystem::current_path());
        if (!config) throw UsageError(config.error());
        for (const std::string& warning : config->warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
        if (line.print_config) {
          // The typed config written out (arena/config/config_toml.h): what the flags gave, read as arena run reads it.
          Expected<std::string> text = arena::to_toml(*config, std::filesystem::current_path());
          if (!text) throw UsageError(text.error());
          fmt::print("{}", *text);
          return 0;
        }
        arena::FlowOptions flow;
        flow.fresh = line.fresh;
        Expected<int> played = formats::play(*config, flow);
        if (!played) throw UsageError(played.error());
        return *played;
      });
  // The flags are not CLI11's (single-dash words with key=value groups): they are taken as they come.
  cmd->prefix_command();
  cmd->allow_extras();
  cmd->footer(kFlags);
  *self = cmd;
}

}  // namespace kalah::arena_app
