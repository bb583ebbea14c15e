#include "arena/formats/staged/staged_play.h"

#include <algorithm>

#include <fmt/core.h>

#include "arena/flow/tournaments.h"
#include "arena/journal/seed_secret_file.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::staged {

namespace fs = std::filesystem;

arena::Config stage_config(const arena::Config& config, int k, const std::vector<std::string>& engines) {
  const Declaration d = declaration_of(config);
  const arena::StageConfig& s = config.tournament.stages[static_cast<std::size_t>(k - 1)];
  arena::Config c = config;
  c.tournament.stages.clear();
  c.tournament.type = arena::TournamentType::RoundRobin;
  c.tournament.rounds = s.rounds;
  c.tournament.seed = stage_seed(d, k);
  c.tournament.output = config.results_dir();
  c.tournament.name = stage_folder(k);
  c.variant = s.variant;
  c.engines.clear();
  for (const EngineSpec& e : config.engines)
    if (std::find(engines.begin(), engines.end(), e.name) != engines.end()) c.engines.push_back(e);
  c.submissions.reset();
  c.entries.clear();
  c.not_entered.clear();
  c.house_engines = static_cast<int>(c.engines.size());
  if (!c.rating.anchor.empty() && c.engine_index(c.rating.anchor) < 0) c.rating = {};
  std::erase_if(c.ranking.cuts, [&](int cut) { return cut >= static_cast<int>(c.engines.size()); });
  return c;
}

namespace {

// Moves `dir` aside to the first free <dir>.bak, .bak2, ...: never overwritten, never deleted.
std::optional<std::string> move_aside(const fs::path& dir, std::FILE* out) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir, ec))) return std::nullopt;
  for (int n = 1; n <= 1000; ++n) {
    const fs::path to = dir.string() + ".bak" + (n == 1 ? "" : std::to_string(n));
    if (fs::exists(fs::symlink_status(to, ec))) continue;
    fs::rename(dir, to, ec);
    if (ec) return fmt::format("cannot move {} aside to {}: {}", dir.string(), to.string(), ec.message());
    fmt::print(out, "moved the old results aside: {}\n", to.string());
    return std::nullopt;
  }
  return "cannot move " + dir.string() + " aside: .bak to .bak1000 all exist";
}

// The declaration the folder was started with, checked against this run's; written when the folder is new.
std::optional<std::string> check_declaration(const Declaration& d, const fs::path& dir) {
  const fs::path file = dir / kRecordFile;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) {
    // Never stages inside another tournament's folder.
    for (const char* other : {"games.jsonl", "tournament.json", "shards"})
      if (fs::exists(fs::symlink_status(dir / other, ec)))
        return fmt::format(
            "{} holds another tournament ({}): a staged tournament needs a folder of its own; give "
            "it another name, or --fresh moves that folder aside",
            dir.string(), other);
    fs::create_directories(dir, ec);
    if (ec) return fmt::format("cannot create {}: {}", dir.string(), ec.message());
    StagedRecord fresh;
    fresh.declaration = d;
    return system::write_file_atomically(file, record_to_text(fresh));
  }
  Expected<std::string> text = system::read_regular_file(file, 16u << 20);
  if (!text) return text.error();
  Expected<Declaration> stored = declaration_from_text(*text, file.string());
  if (!stored) return stored.error();
  if (*stored == d) return std::nullopt;
  const char* what = stored->stages != d.stages     ? "its stages"
                     : stored->engines != d.engines ? "its engines"
                     : stored->seed != d.seed       ? "its seed"
                                                    : "its name";
  return fmt::format(
      "{} was started as another staged tournament ({} differ): a staged tournament keeps what it "
      "declared; --fresh starts over (the old folder is moved aside), or give it another name",
      file.string(), what);
}

// One seed secret for the whole tournament: the staged folder's (made by its first run), copied into a stage's
// folder before the stage's first game, so that the folder's secret and config play the same games again.
std::optional<std::string> share_seed_secret(const fs::path& dir, const fs::path& stage) {
  const Expected<SeedSecret> secret = journal::load_or_make_seed_secret(dir);
  if (!secret) return secret.error();
  // Written anew from the secret read (mode 0600, no link followed), never a copy of the file.
  if (Expected<SeedSecret> shared = journal::install_seed_secret(stage, *secret); !shared) return shared.error();
  return std::nullopt;
}

std::optional<std::string> write_record(const StagedRecord& record, const fs::path& dir) {
  if (auto error = system::write_file_atomically(dir / kRecordFile, record_to_text(record))) return error;
  return system::write_file_atomically(dir / kReportFile, record_to_markdown(record), system::Durability::Rebuildable);
}

void print_end(const StagedRecord& record, const fs::path& dir, std::FILE* out) {
  fmt::print(out, "\nstaged {}: finished after stage {} of {}\n", record.declaration.name, record.stages.size(),
             record.declaration.stages.size());
  for (const Placing& p : record.ranking)
    fmt::print(out, "{:>3}. {} (stage {}, {} points there)\n", p.place, p.name, p.stage, p.half_points / 2.0);
  fmt::print(out, "record: {}  report: {}\n", (dir / kRecordFile).string(), (dir / kReportFile).string());
}

}  // namespace

Expected<int> play_staged(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) {
  const fs::path dir = config.results_dir();
  if (options.fresh)
    if (std::optional<std::string> error = move_aside(dir, out)) return Error{*error};
  const Declaration d = declaration_of(config);
  if (d.engines.size() < 2) return Error{"a staged tournament needs at least two engines"};
  if (std::optional<std::string> error = check_declaration(d, dir)) return Error{*error};
  arena::FlowOptions stage_options = options;
  stage_options.fresh = false;
  // Each pass plays one stage to its end (or stops): at most one pass per stage, and one to find it finished.
  for (std::size_t pass = 0; pass <= d.stages.size(); ++pass) {
    Expected<StagedRecord> record = derive_record(d, dir);
    if (!record) return Error{record.error()};
    if (std::optional<std::string> error = write_record(*record, dir)) return Error{*error};
    if (record->finished) {
      print_end(*record, dir, out);
      return 0;
    }
    const StageRecord& next = record->stages.back();
    if (pass > 0 && next.played > 0) {  // the stage's run ended before its schedule did (--max-games)
      fmt::print(out, "staged {}: stage {} stopped at {} of {} games; the same command resumes it\n", d.name,
                 next.stage, next.played, next.planned);
      return 0;
    }
    fmt::print(out, "\nstaged {}: stage {} of {}, {}, {} engines{}\n", d.name, next.stage, d.stages.size(),
               to_string(d.stages[static_cast<std::size_t>(next.stage - 1)].variant), next.engines.size(),
               next.played > 0 ? fmt::format(" (resuming at {} of {} games)", next.played, next.planned) : "");
    std::fflush(out);
    if (std::optional<std::string> error = share_seed_secret(dir, dir / stage_folder(next.stage))) return Error{*error};
    Expected<int> played = arena::play_schedule(stage_config(config, next.stage, next.engines), stage_options, out);
    if (!played) return played;
    if (*played != 0) {
      if (Expected<StagedRecord> now = derive_record(d, dir); now) (void)write_record(*now, dir);
      return played;
    }
  }
  return Error{"staged " + d.name + ": a stage did not finish (its journal holds fewer games than its schedule)"};
}

}  // namespace kalah::staged
