// A tournament format: what one kind of tournament does over the one flow (arena/flow). Each format is a folder,
// arena/formats/<kind>/, registered by one line in registry.cpp (docs/ARCHITECTURE.md, "How to add a format").
// What the layers below the formats read about a kind (its keys, whether it is paired from the results, its
// table in the reports) is its row in the registry of kinds, arena/config/kinds.cpp, plain data that the config
// can read before anything of this layer exists.
#pragma once

#include <cstdio>
#include <string_view>

#include "arena/config/config.h"
#include "arena/flow/flow.h"
#include "referee/rules/expected.h"

namespace kalah::formats {

class Format {
 public:
  virtual ~Format() = default;
  // Its name: its kind's ("round-robin", "swiss", ...), or "sprt", or "staged".
  virtual std::string_view name() const = 0;
  // Whether `config` is a tournament of this format. Exactly one registered format plays a config.
  virtual bool plays(const arena::Config& config) const = 0;
  // Plays `config` (or resumes it from its journal) over the flow: its game source, its start, progress and end
  // lines. Returns the exit code (docs/CLI.md); errors are the operator's (journal, engines, reports).
  virtual Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const = 0;
  // `arena plan CONFIG --shards N` on stdout: the games known before it starts and how they split into `shards`
  // (1 for a format that cannot be sharded; arena::shard_problem has refused the rest). Returns the exit code.
  virtual int plan(const arena::Config& config, int shards, bool ids) const = 0;
};

// A format that is a row of the registry of kinds (arena/config/kinds.h): it plays a config of that type that
// is neither an SPRT nor staged.
class KindFormat : public Format {
 public:
  explicit KindFormat(arena::TournamentType type) : type_(type) {}
  std::string_view name() const override { return arena::kind_of(type_).name; }
  bool plays(const arena::Config& config) const override {
    return !config.sprt && !config.tournament.staged() && config.tournament.type == type_;
  }
  arena::TournamentType type() const { return type_; }

 private:
  arena::TournamentType type_;
};

}  // namespace kalah::formats
