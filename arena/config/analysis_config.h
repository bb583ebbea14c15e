// [analysis]'s settings, a header of its own so that the analyser (arena/analysis) takes its defaults from
// here without the whole Config.
#pragma once

namespace kalah::arena {

// [analysis] (docs/ANALYSIS.md): at the end of a run, every game valued with perfect play into
// <results>/analysis.jsonl, as `arena analyse` does. Not part of the fingerprint: no game depends on it.
// These initialisers are the analysis's defaults, also `arena analyse`'s and the analyser's
// (analysis::AnalyserOptions).
struct AnalysisConfig {
  int budget_ms = 1000;  // per position
  int threads = 0;       // 0: tournament.concurrency
  bool db_only = false;  // the endgame database only, no search
  int db_mb = 1024;      // the endgame database's memory
  int hash_mb = 256;     // each thread's transposition table
};

}  // namespace kalah::arena
