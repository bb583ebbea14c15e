// The formats (arena/formats): every kind of the registry of kinds has exactly one format, which answers every part
// of the interface; and no file of arena/ outside arena/formats/ names a kind but the registry itself, so that a
// new kind is its folder and its lines in the two registries (docs/ARCHITECTURE.md, "How to add a format").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "arena/config/kinds.h"
#include "arena/formats/registry.h"

namespace kalah::formats {
namespace {

namespace fs = std::filesystem;

arena::Config config_of(arena::TournamentType type) {
  arena::Config c;
  c.tournament.name = "t";
  c.tournament.type = type;
  c.tournament.rounds = 2;
  c.tournament.tiebreak_pairs = 1;
  c.openings.random_plies = 2;
  for (int i = 0; i < 4; ++i) {
    EngineSpec e;
    e.name = "e" + std::to_string(i);
    c.engines.push_back(e);
  }
  if (arena::kind_of(type).seed_engines) c.tournament.seed_engines = {0};
  if (arena::kind_of(type).budget) c.tournament.budget_games = 12;
  return c;
}

// How many registered formats say they play `config`.
int players(const arena::Config& config) {
  int n = 0;
  for (const Format* f : registered()) n += f->plays(config) ? 1 : 0;
  return n;
}

// What `arena plan` prints for `config` with `shards`.
std::string plan_text(const arena::Config& config, int shards) {
  testing::internal::CaptureStdout();
  const int code = format_of(config).plan(config, shards, true);
  std::string text = testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0) << text;
  return text;
}

TEST(Formats, EveryKindIsPlayedByExactlyOneFormatOfItsName) {
  std::set<std::string_view> names;
  for (const Format* f : registered()) EXPECT_TRUE(names.insert(f->name()).second) << f->name();
  for (const arena::TournamentKind& kind : arena::tournament_kinds()) {
    const arena::Config config = config_of(kind.type);
    EXPECT_EQ(players(config), 1) << kind.name;
    EXPECT_EQ(format_of(config).name(), kind.name);
    EXPECT_EQ(&arena::kind_of(kind.type), &kind);
    EXPECT_EQ(arena::kind_named(kind.name), &kind);
  }
  EXPECT_EQ(arena::kind_named("staged"), nullptr);
  EXPECT_EQ(registered().size(), arena::tournament_kinds().size() + 2);  // and the SPRT and the staged tournament
}

TEST(Formats, AnSprtAndAStagedTournamentHaveFormatsOfTheirOwn) {
  arena::Config sprt = config_of(arena::kDefaultKind);
  sprt.engines.resize(2);
  sprt.sprt.emplace();
  EXPECT_EQ(players(sprt), 1);
  EXPECT_EQ(format_of(sprt).name(), "sprt");
  arena::Config staged = config_of(arena::kDefaultKind);
  staged.tournament.stages = {arena::StageConfig{}, arena::StageConfig{}};
  EXPECT_EQ(players(staged), 1);
  EXPECT_EQ(format_of(staged).name(), "staged");
}

TEST(Formats, EveryFormatPlansAConfigOfItsOwn) {
  for (const arena::TournamentKind& kind : arena::tournament_kinds()) {
    const arena::Config config = config_of(kind.type);
    const std::string text = plan_text(config, kind.from_results ? 1 : 2);
    EXPECT_EQ(text.rfind("t: ", 0), 0u) << text;
    // With --ids, the games: those known before any result with their two engines, or every game with its shard.
    EXPECT_NE(text.find(kind.from_results ? " v e" : "\n2/2 r"), std::string::npos) << kind.name << ":\n" << text;
  }
  arena::Config sprt = config_of(arena::kDefaultKind);
  sprt.engines.resize(2);
  sprt.sprt.emplace();
  EXPECT_NE(plan_text(sprt, 3).find("shard 3/3: pairs 2, 5, 8, ..."), std::string::npos);
}

// The rule that makes a kind one folder: outside arena/formats/, only the registry of kinds names one.
TEST(Formats, NoFileOutsideTheFormatsNamesAKindButTheRegistry) {
  const fs::path arena_dir = fs::path(KALAH_SOURCE_DIR) / "arena";
  const std::set<fs::path> registry = {arena_dir / "config" / "kinds.h", arena_dir / "config" / "kinds.cpp"};
  int files = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(arena_dir)) {
    const fs::path& path = entry.path();
    if (!entry.is_regular_file() || (path.extension() != ".cpp" && path.extension() != ".h")) continue;
    if (registry.contains(path)) continue;
    const fs::path relative = fs::relative(path, arena_dir);
    if (*relative.begin() == "formats") continue;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.find("TournamentType::"), std::string::npos)
        << "arena/" << relative.string() << " names a kind: ask its row in arena/config/kinds.h, or move the code "
        << "into its format's folder";
    ++files;
  }
  EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace kalah::formats
