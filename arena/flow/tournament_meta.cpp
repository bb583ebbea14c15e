#include "arena/flow/tournament_meta.h"

#include <fmt/core.h>

#include "arena/report/reports.h"
#include "arena/schedule/schedule.h"
#include "referee/engine/control_groups.h"
#include "referee/system/build_info.h"

namespace kalah::arena {

std::string describe_openings(const OpeningsConfig& o) {
  if (!o.book.empty())
    return fmt::format("book {} ({} line{}, {})", o.file.filename().string(), o.book.size(),
                       o.book.size() == 1 ? "" : "s", o.order == OpeningOrder::Random ? "random order" : "in order") +
           (o.has_positions() ? ", with start positions" : "");
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

std::map<std::string, std::string> run_settings(const Config& c) {
  std::map<std::string, std::string> out;
  out["run.arena_version"] = system::arena_version();
  out["run.machine"] = system::machine_description();
  out["run.concurrency"] =
      std::to_string(c.tournament.concurrency) +
      (!c.tournament.pin ? ""
       : controller_unavailable(Controller::Cpuset)
           ? ", each game on CPUs of its own (by affinity alone, which an engine can widen: no cpuset controller here)"
           : ", each game on CPUs of its own");
  for (const EngineSpec& e : c.engines) {
    std::string limits;
    auto add = [&](const std::string& item) { limits += (limits.empty() ? "" : " ") + item; };
    if (e.sandbox != SandboxMode::None) add(std::string("sandbox=") + to_string(e.sandbox));
    if (e.limits.memory_mb > 0) add(fmt::format("memory_mb={}", e.limits.memory_mb));
    if (e.limits.max_file_mb > 0) add(fmt::format("max_file_mb={}", e.limits.max_file_mb));
    if (e.limits.max_processes > 0) add(fmt::format("max_processes={}", e.limits.max_processes));
    if (e.limits.max_output_kb > 0) add(fmt::format("max_output_kb={}", e.limits.max_output_kb));
    out["run.engine." + e.name + ".limits"] = limits;
  }
  return out;
}

journal::TournamentMeta tournament_meta(const Config& c) {
  journal::TournamentMeta meta;
  meta.fingerprint = fingerprint(c);
  for (const EngineSpec& e : c.engines) meta.engines.push_back(e.name);
  if (c.sprt) {
    meta.settings["type"] = "sprt";
    meta.settings["sprt"] = stats::describe(c.sprt->params);
    // Exactly, so that a merge of the shards can run the same test (arena report).
    const stats::SprtParams& p = c.sprt->params;
    meta.settings["sprt.elo0"] = fmt::format("{}", p.elo0);
    meta.settings["sprt.elo1"] = fmt::format("{}", p.elo1);
    meta.settings["sprt.alpha"] = fmt::format("{}", p.alpha);
    meta.settings["sprt.beta"] = fmt::format("{}", p.beta);
    meta.settings["sprt.model"] = stats::to_string(p.model);
    meta.settings["sprt.max_pairs"] = std::to_string(c.sprt->max_pairs);
    if (const auto& git = c.sprt->git) {
      meta.settings["git.repo"] = git->repo.string();
      meta.settings["git.build"] = git->build;
      meta.settings["git.run"] = git->run;
      for (const auto& [side, role] : {std::pair{&git->base, "base"}, std::pair{&git->test, "test"}}) {
        const std::string key = std::string("git.") + role;
        meta.settings[key + ".ref"] = side->ref;
        meta.settings[key + ".commit"] = side->commit;
        meta.settings[key + ".build_seconds"] = fmt::format("{:.3f}", side->build_seconds);
      }
    }
  } else {
    meta.settings["type"] = to_string(c.tournament.type);
    meta.settings["rounds"] = std::to_string(c.tournament.rounds);
    if (c.tournament.type == TournamentType::Knockout)
      meta.settings["tiebreak_pairs"] = std::to_string(c.tournament.tiebreak_pairs);
  }
  meta.settings["variant"] = to_string(c.variant);
  if (c.tournament.adjudicate.any()) meta.settings["adjudicate"] = c.tournament.adjudicate.describe();
  if (c.start) meta.settings["variant.start"] = to_start_notation(c.variant, *c.start);
  meta.settings["openings"] = describe_openings(c.openings);
  if (!c.rating.anchor.empty()) {  // so that a later `arena report DIR` holds the same engine
    meta.settings["rating.anchor"] = c.rating.anchor;
    meta.settings["rating.anchor_elo"] = fmt::format("{}", c.rating.anchor_elo);
  }
  // Always, so that a resumed run under other [ranking] rules replaces the old ones (docs/RANKING.md).
  meta.settings.merge(rating::ranking_settings(c.ranking));
  for (const EngineSpec& e : c.engines) {
    meta.settings["engine." + e.name + ".command"] = describe_command(e);
    if (e.time) {
      meta.settings["engine." + e.name + ".time"] = e.time->describe();
      meta.settings["engine." + e.name + ".time.pgn"] = e.time->pgn();
    }
    std::string options;
    for (const EngineOption& o : e.options) options += (options.empty() ? "" : " ") + o.name + "=" + o.value;
    if (!options.empty()) meta.settings["engine." + e.name + ".options"] = options;
  }
  meta.settings["time"] = c.time.describe();
  meta.settings["time.pgn"] = c.time.pgn();
  meta.settings["seed"] = std::to_string(c.tournament.seed);
  if (c.submissions) {
    // The entrants' standing, as the reports read it (docs/FORMATS.md, "entry.<name>.*").
    meta.settings[journal::kContestSetting] =
        fmt::format("submissions; withdrawn games {}, disqualified games {}", to_string(c.submissions->withdrawn),
                    to_string(c.submissions->disqualified));
    for (int i = 0; i < static_cast<int>(c.engines.size()) && i < static_cast<int>(c.entries.size()); ++i) {
      const EntryState& entry = c.entries[static_cast<std::size_t>(i)];
      const std::string key = "entry." + c.engines[static_cast<std::size_t>(i)].name;
      if (!entry.gate.empty()) meta.settings[key + ".gate"] = entry.gate;
      if (entry.status == EntryStatus::Active) continue;
      meta.settings[key + ".status"] = to_string(entry.status);
      meta.settings[key + ".reason"] = entry.reason;
      meta.settings[key + ".games"] = c.games_count(i) ? "kept" : "void";
    }
    for (const auto& [folder, note] : c.not_entered)
      meta.settings[std::string(report::kNotEnteredSetting) + folder] = note;
  }
  if (c.shard) {
    const int games = c.sprt ? 0 : static_cast<int>(shard_games(make_schedule(c), *c.shard).size());
    meta.shard = journal::ShardMeta{c.shard->index, c.shard->count, games};
  }
  return meta;
}

}  // namespace kalah::arena
