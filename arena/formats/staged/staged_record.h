// A staged tournament's folder (docs/FORMATS.md, "Staged tournaments"): <results>/<name>/staged.json and
// staged.md over one tournament folder per stage, stage-1/, stage-2/, ... Everything in staged.json but its
// declaration (the stages, the entrants, the seed) is derived from the stages' journals: derive_record() is the one
// derivation, used to play (resume), to write and to verify.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/formats/staged/stage_rule.h"
#include "referee/rules/expected.h"

namespace kalah::staged {

inline constexpr const char* kRecordFile = "staged.json";
inline constexpr const char* kReportFile = "staged.md";
inline constexpr int kRecordFormat = 1;

// What is fixed when the tournament starts, and checked when it resumes.
struct Declaration {
  std::string name;
  std::uint64_t seed = 1;
  std::vector<std::string> engines;        // the entrants, in config order
  std::vector<arena::StageConfig> stages;  // at least one
  friend bool operator==(const Declaration&, const Declaration&) = default;
};

// A config's declaration: its name, seed and stages, and the engines that play (a contest's active entrants).
Declaration declaration_of(const arena::Config& config);

// Stage k (1-based): its folder's name, "stage-k", and its seed, the tournament's + k - 1.
std::string stage_folder(int k);
std::uint64_t stage_seed(const Declaration& d, int k);

struct StageRecord {
  int stage = 0;                     // 1-based
  std::vector<std::string> engines;  // who plays it: the entrants, then each stage's survivors
  std::int64_t planned = 0;          // its games: pairings x rounds x 2
  std::int64_t played = 0;           // in its journal
  std::vector<EngineTally> tallies;  // in `engines` order
  std::vector<std::string> dropped;  // once complete, and only when a stage follows
  bool complete() const { return played == planned; }
};

struct StagedRecord {
  Declaration declaration;
  std::vector<StageRecord> stages;  // those reached, in order: each complete but maybe the last
  bool finished = false;            // every stage played, or fewer than two engines left
  std::vector<Placing> ranking;     // once finished
};

// The record of `dir` as its stages' journals give it. A stage's folder must hold the tournament the rules make of
// the one before (its engines, variant, rounds and seed, in tournament.json); a stage without a journal is not
// reached yet. Errors: a journal or tournament.json that cannot be read, a stage of other engines or settings, a
// stage with games although the one before is incomplete.
Expected<StagedRecord> derive_record(const Declaration& d, const std::filesystem::path& dir);

// staged.json's text (pretty JSON, ends with a newline) and its declaration read back.
std::string record_to_text(const StagedRecord& record);
Expected<Declaration> declaration_from_text(std::string_view text, const std::string& where);
// staged.md: the stages, who left after which, the final order.
std::string record_to_markdown(const StagedRecord& record);

// The engines that play the stage after `stage` (complete): those that did not drop.
std::vector<std::string> survivors(const StageRecord& stage);

}  // namespace kalah::staged
