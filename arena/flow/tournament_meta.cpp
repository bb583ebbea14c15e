#include "arena/flow/tournament_meta.h"

#include <algorithm>

#include <fmt/core.h>

#include "arena/journal/journal.h"
#include "arena/schedule/schedule.h"
#include "referee/engine/control_groups.h"
#include "referee/engine/move_clock.h"
#include "referee/system/build_info.h"

namespace kalah::arena {
namespace {

// What the book's certificates prove of its lines; empty when none is a certified draw.
std::string proven_draws(const OpeningsConfig& o) {
  const auto draws = std::count_if(o.book.begin(), o.book.end(), [](const OpeningLine& l) { return l.proven_draw; });
  if (draws == 0) return "";
  if (static_cast<std::size_t>(draws) == o.book.size())
    return "; every opening is a proven draw (each line carries the solver's certificate of an exact draw)";
  return fmt::format("; {} of the {} openings are proven draws (solver certificates)", draws, o.book.size());
}

}  // namespace

std::string describe_openings(const OpeningsConfig& o) {
  if (!o.book.empty())
    return fmt::format("book {} ({} line{}, {})", o.file.filename().string(), o.book.size(),
                       o.book.size() == 1 ? "" : "s", o.order == OpeningOrder::Random ? "random order" : "in order") +
           (o.has_positions() ? ", with start positions" : "") + proven_draws(o);
  if (o.random_plies > 0)
    return fmt::format("a random opening of {} pl{} per game pair, played with both colours", o.random_plies,
                       o.random_plies == 1 ? "y" : "ies");
  return "none: every game from the start position";
}

std::string describe_command(const EngineSpec& e) {
  auto word = [](const std::string& w) {
    return w.empty() || w.find_first_of(" \t'\"") != std::string::npos ? "'" + w + "'" : w;
  };
  std::string text = word(e.cmd_as_written);
  for (const std::string& a : e.args) text += " " + word(a);
  return text;
}

std::optional<std::string> oversubscription_warning(const Config& c) {
  if (c.time.clock != ClockKind::Wall) return std::nullopt;
  auto on_a_clock = [](const TimeControl& t) {
    return t.mode == TimeControl::Mode::Fischer || t.mode == TimeControl::Mode::MoveTime;
  };
  bool timed = on_a_clock(c.time);
  for (const EngineSpec& e : c.engines) timed = timed || (e.time && on_a_clock(*e.time));
  const int cpus = usable_cpus(c.tournament.cpus);
  if (!timed || c.tournament.concurrency <= cpus) return std::nullopt;
  return fmt::format(
      "concurrency {} exceeds the {} CPU{} this machine gives the arena: on the wall clock a move is charged the time "
      "its engine waits for a CPU, so engines play weaker and may lose on time to the load; set clock = \"cpu\" in "
      "[time] (or --clock cpu) to charge each move only the CPU time its engine used, or lower the concurrency",
      c.tournament.concurrency, cpus, cpus == 1 ? "" : "s");
}

void describe_run(const Config& c, TournamentDescription& d) {
  d.arena_version = system::arena_version();
  d.machine = system::machine_description();
  d.concurrency =
      std::to_string(c.tournament.concurrency) +
      (!c.tournament.pin ? ""
       : controller_unavailable(Controller::Cpuset)
           ? ", each game on CPUs of its own (by affinity alone, which an engine can widen: no cpuset controller here)"
           : ", each game on CPUs of its own");
  if (std::optional<std::string> warning = oversubscription_warning(c)) *d.concurrency += " (" + *warning + ")";
  for (const EngineSpec& e : c.engines) {
    std::string limits;
    auto add = [&](const std::string& item) { limits += (limits.empty() ? "" : " ") + item; };
    if (e.sandbox != SandboxMode::None) add(std::string("sandbox=") + to_string(e.sandbox));
    if (e.limits.memory_mb > 0) add(fmt::format("memory_mb={}", e.limits.memory_mb));
    if (e.limits.max_file_mb > 0) add(fmt::format("max_file_mb={}", e.limits.max_file_mb));
    if (e.limits.max_processes > 0) add(fmt::format("max_processes={}", e.limits.max_processes));
    if (e.limits.max_output_kb > 0) add(fmt::format("max_output_kb={}", e.limits.max_output_kb));
    d.engines[e.name].limits = limits;
  }
}

TournamentDescription describe_tournament(const Config& c) {
  TournamentDescription d;
  if (c.sprt) {
    d.sprt_match = true;
    d.sprt_summary = stats::describe(c.sprt->params);
    d.sprt = SprtDescription{c.sprt->params, c.sprt->max_pairs};
    if (const auto& git = c.sprt->git)
      d.git = GitDescription{git->repo.string(),
                             git->build,
                             git->run,
                             {git->base.ref, git->base.commit, git->base.build_seconds},
                             {git->test.ref, git->test.commit, git->test.build_seconds}};
  } else {
    d.type = c.tournament.type;
    // An adaptive tournament has no rounds to count in advance (its budget is in the fingerprint).
    const TournamentKind& kind = kind_of(c.tournament.type);
    if (kind.rounds != RoundsCount::NotRead) d.rounds = c.tournament.rounds;
    if (kind.tiebreak_pairs) d.tiebreak_pairs = c.tournament.tiebreak_pairs;
  }
  d.variant = to_string(c.variant);
  if (c.tournament.adjudicate.any()) d.adjudicate = c.tournament.adjudicate.describe();
  if (c.start) d.start = to_start_notation(c.variant, *c.start);
  d.openings = describe_openings(c.openings);
  // So that a later `arena report DIR` holds the same engine.
  if (!c.rating.anchor.empty()) d.anchor = rating::Anchor{c.rating.anchor, c.rating.anchor_elo};
  // Always, so that a resumed run under other [ranking] rules replaces the old ones (docs/RANKING.md).
  d.ranking = c.ranking;
  for (const EngineSpec& e : c.engines) {
    EngineDescription& engine = d.engines[e.name];
    engine.command = describe_command(e);
    if (e.time) {
      engine.time = e.time->describe();
      engine.time_pgn = e.time->pgn();
    }
    std::string options;
    for (const EngineOption& o : e.options) options += (options.empty() ? "" : " ") + o.name + "=" + o.value;
    if (!options.empty()) engine.options = options;
  }
  d.time = c.time.describe();
  d.time_pgn = c.time.pgn();
  d.seed = c.tournament.seed;
  if (c.submissions) {
    // The entrants' standing, as the reports read it.
    d.contest = fmt::format("submissions; withdrawn games {}, disqualified games {}",
                            to_string(c.submissions->withdrawn), to_string(c.submissions->disqualified));
    for (int i = 0; i < static_cast<int>(c.engines.size()) && i < static_cast<int>(c.entries.size()); ++i) {
      const EntryState& state = c.entries[static_cast<std::size_t>(i)];
      EntryDescription entry;
      if (!state.gate.empty()) entry.gate = state.gate;
      if (state.status != EntryStatus::Active) {
        entry.status = state.status;
        entry.reason = state.reason;
        entry.games_kept = c.games_count(i);
      }
      if (entry != EntryDescription{}) d.entries[c.engines[static_cast<std::size_t>(i)].name] = entry;
    }
    for (const auto& [folder, note] : c.not_entered) d.not_entered[folder] = note;
  }
  return d;
}

std::optional<std::string> results_clash(const Config& c) {
  const std::filesystem::path file = c.results_dir() / journal::kMetaFile;
  std::error_code ec;
  if (c.shard || !std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return std::nullopt;
  const Expected<journal::TournamentMeta> stored = journal::read_meta(file);
  if (!stored) return std::nullopt;
  const journal::TournamentMeta wanted = tournament_meta(c, describe_tournament(c));
  if (journal::same_tournament(*stored, wanted)) return std::nullopt;
  return c.results_dir().string() + " was written by a different configuration (" +
         journal::describe_difference(*stored, wanted) + ")";
}

journal::TournamentMeta tournament_meta(const Config& c, const TournamentDescription& d) {
  journal::TournamentMeta meta;
  meta.fingerprint = fingerprint(c);
  for (const EngineSpec& e : c.engines) meta.engines.push_back(e.name);
  meta.settings = to_settings(d);
  if (c.shard) {
    const int games = c.sprt ? 0 : static_cast<int>(shard_games(make_schedule(c), *c.shard).size());
    meta.shard = journal::ShardMeta{c.shard->index, c.shard->count, games};
  }
  return meta;
}

}  // namespace kalah::arena
