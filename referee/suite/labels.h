// The solver's labels of the suite's positions: the exact margin of every legal move, and the cache file
// that keeps them so that a second run does not solve again (docs/SOLVER.md, "Grading a bot: referee
// suite"). The file is read back as untrusted bytes: bounded, never through a link, every position
// replayed by the rules and checked against its labels; anything wrong and the set is labelled again.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"
#include "referee/solver/solver.h"
#include "referee/suite/positions.h"

namespace kalah::suite {

// The most positions a suite may hold, and the largest labels file read back.
inline constexpr int kMaxPositions = 3000;
inline constexpr std::uintmax_t kMaxLabelsBytes = 32u << 20;

struct LabelledPosition {
  Candidate candidate;
  // Every legal move with the final store difference the mover gets by playing it and then playing
  // perfectly (against perfect play), in move order.
  std::vector<solver::MoveValue> values;

  // The value of the position for the mover: the largest margin.
  int best() const;
  // The margin of `m`, or nullopt for a move that is not legal here.
  std::optional<int> margin_of(Move m) const;
};

// What a suite is: the key of its labels file.
struct SuiteKey {
  Variant variant;
  std::uint64_t seed = 1;
  int positions = 30;
};

// The labelled positions of a suite, by phase (early, middle, late), each phase in the order it was drawn.
struct LabelSet {
  SuiteKey key;
  std::vector<LabelledPosition> positions;
};

// How the set was labelled: the candidates the solver saw and why some were left out.
struct LabelStats {
  int games = 0;          // drawn games whose candidates were looked at
  int tried = 0;          // candidates given to the solver
  int unproved = 0;       // not proved within the budget: replaced
  int uninformative = 0;  // every legal move has the same margin: any move is perfect, so replaced
  int duplicates = 0;     // the same position as one already in the set
  double seconds = 0;
};

struct LabelSettings {
  std::chrono::milliseconds budget{5000};  // per position, for move_values
  std::size_t hash_mb = 128;               // the solver's table
  std::size_t db_mb = 512;                 // the endgame database (its K: levels_for_memory); 0: none
  int threads = 1;                         // the solver's and the database build's
  std::filesystem::path cache_dir;         // for the database and the labels file; empty: no cache
  // Called by load_or_label() when it labels, before it opens the database (`why`: no file, or what is wrong
  // with it), and after each candidate the solver was given (the positions accepted so far and those tried).
  std::function<void(const std::string& why)> labelling;
  std::function<void(int accepted, int tried)> progress;
};

// Labels the suite: candidates from CandidateStream(key.variant, key.seed), game after game, each taken
// while its phase still needs positions (phase_quota()); the solver's move_values within `budget` labels
// it; a position not proved in time, one whose moves all have the same margin, and one already taken are
// replaced by the next candidate of its phase. An error when 1000 + 200 * positions games do not give
// enough (a tiny variant has too few different positions), or the solver cannot take the variant.
Expected<LabelSet> label(const SuiteKey& key, solver::ExactSolver& solver, const LabelSettings& settings,
                         LabelStats& stats);

// The labels file of a suite in `dir`: "kalah-suite-<variant keys>-seed<S>-n<N>.labels".
std::filesystem::path labels_file(const std::filesystem::path& dir, const SuiteKey& key);

// The file's text:
//   kalah-suite-labels 1
//   variant pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off
//   seed 1
//   positions 30
//   early 0 startpos moves 3 1 6 | 1:-2 2:+4 ...      (phase, game, the moves, every legal move's margin)
//   ...
//   checksum 1f2e3d4c5b6a7988                         (endgame::checksum of every byte before this line)
std::string to_text(const LabelSet& set);
// Reads a file's text back for `key`. Errors say what is wrong: another format or version, another key,
// a bad checksum, a line that is not a position, a move the rules refuse, a phase or labels that do not
// fit the position, the wrong number of positions in a phase.
Expected<LabelSet> parse_labels(std::string_view text, const SuiteKey& key);

// Where a run's labels came from.
struct Labelling {
  LabelSet set;
  bool from_cache = false;
  std::filesystem::path file;  // empty without a cache folder
  std::string note;            // why a cache file was not used ("... is corrupt (...): labelled again"), or a
                               // failure to save it; empty when all went as expected
  LabelStats stats;            // of the labelling (zero when read from the cache)
  int db_levels = -1;          // K of the database the solver used; -1 from the cache or without one
};

// The suite's labels from its file in settings.cache_dir when that is valid, otherwise labelled (with a
// solver and database made here) and saved there atomically. Errors: the variant is beyond the solver,
// too few positions (label()).
Expected<Labelling> load_or_label(const SuiteKey& key, const LabelSettings& settings);

}  // namespace kalah::suite
