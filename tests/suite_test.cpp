// referee/suite: the positions drawn for `referee suite` (phases, the greedy policy, determinism), their
// labels against a plain minimax written here, the labels file (round trip, damage, another key, the
// cache) and the grades (loss, tallies, Spearman's correlation).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "plain_minimax.h"
#include "referee/suite/grading.h"
#include "referee/suite/labels.h"
#include "referee/suite/positions.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::suite {
namespace {

Variant V(std::string_view text) {
  Expected<Variant> v = parse_variant(text);
  EXPECT_TRUE(v) << text;
  return *v;
}

Position P(const Variant& v, std::string_view notation) {
  Expected<Position> p = parse_notation(v, notation);
  EXPECT_TRUE(p) << notation << ": " << (p ? "" : p.error());
  return *p;
}

using test::PlainMinimax;

// A small suite that labels in moments: Kalah(4,3), no database.
const SuiteKey kSmall{V("pits=4 seeds=3"), 7, 12};

LabelSettings quick_settings(const std::filesystem::path& cache_dir = {}) {
  LabelSettings s;
  s.budget = std::chrono::milliseconds(10000);
  s.hash_mb = 16;
  s.db_mb = 0;
  s.cache_dir = cache_dir;
  return s;
}

LabelSet small_set() {
  solver::ExactSolver solver(kSmall.variant, 16);
  LabelStats stats;
  Expected<LabelSet> set = label(kSmall, solver, quick_settings(), stats);
  EXPECT_TRUE(set) << set.error();
  return *set;
}

// ---- phases and the drawn games ------------------------------------------------------------------

TEST(SuitePhases, ThirdsOfTheSeedsInThePits) {
  const Variant v = V("pits=6 seeds=4");  // 48 seeds: early 33..48, middle 17..32, late 0..16
  EXPECT_EQ(phase_of(v, start_position(v)), Phase::Early);
  EXPECT_EQ(phase_of(v, P(v, "4,4,4,4,4,4/15/4,4,1,0,0,0/0 s")), Phase::Early);   // 33 in the pits
  EXPECT_EQ(phase_of(v, P(v, "4,4,4,4,4,4/16/4,4,0,0,0,0/0 s")), Phase::Middle);  // 32
  EXPECT_EQ(phase_of(v, P(v, "1,4,4,4,0,0/31/0,0,0,0,0,4/0 s")), Phase::Middle);  // 17
  EXPECT_EQ(phase_of(v, P(v, "0,4,4,4,0,0/20/0,0,0,0,0,4/12 s")), Phase::Late);   // 16
  EXPECT_EQ(seeds_in_pits(v, P(v, "0,4,4,4,0,0/20/0,0,0,0,0,4/12 s")), 16);
}

TEST(SuitePhases, EqualThirdsWithTheRemainderToTheEarlierPhases) {
  EXPECT_EQ(phase_quota(30, Phase::Early), 10);
  EXPECT_EQ(phase_quota(30, Phase::Late), 10);
  EXPECT_EQ(phase_quota(31, Phase::Early), 11);
  EXPECT_EQ(phase_quota(31, Phase::Middle), 10);
  EXPECT_EQ(phase_quota(32, Phase::Middle), 11);
  EXPECT_EQ(phase_quota(32, Phase::Late), 10);
  EXPECT_EQ(phase_quota(3, Phase::Late), 1);
  for (Phase p : {Phase::Early, Phase::Middle, Phase::Late}) EXPECT_EQ(parse_phase(to_string(p)), p);
  EXPECT_FALSE(parse_phase("endgame"));
}

TEST(SuiteDraw, GreedyTakesTheLargestStoreGainAndBreaksTiesAmongTheTiedMovesOnly) {
  const Variant v = V("pits=6 seeds=4");
  //   North:  6  5  4  3  2  1
  //         [ 0  5  0  0  0  0 ]
  //       0                      0
  //         [ 1  0  0  0  0  2 ]
  //   South:  1  2  3  4  5  6
  // Pit 1 sows into the empty pit 2 and captures North's 5 (gain 6); pit 6 puts one seed in the store.
  const Position p = P(v, "1,0,0,0,0,2/0/0,0,0,0,5,0/0 s");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(greedy_move(v, p, rng), Move::at(1));
  // From the start pits 3 to 6 each put one seed in the store; pits 1 and 2 do not reach it.
  std::set<int> seen;
  for (int i = 0; i < 200; ++i) seen.insert(greedy_move(v, start_position(v), rng).pit);
  EXPECT_EQ(seen, (std::set<int>{3, 4, 5, 6}));
  // Two moves that each gain one seed, nothing else gains: both are played, nothing else.
  const Position tie = P(v, "0,0,0,0,2,1/0/1,1,1,1,1,1/0 s");
  seen.clear();
  for (int i = 0; i < 200; ++i) seen.insert(greedy_move(v, tie, rng).pit);
  EXPECT_EQ(seen, (std::set<int>{5, 6}));
}

TEST(SuiteDraw, TheSameSeedDrawsTheSameCandidatesAndEachReplaysToItsPosition) {
  const Variant v = V("pits=6 seeds=4");
  CandidateStream a(v, 11), b(v, 11), c(v, 12);
  bool differs = false;
  std::array<int, kPhases> per_phase{};
  for (int g = 0; g < 40; ++g) {
    const std::vector<Candidate> ca = a.next_game(), cb = b.next_game(), cc = c.next_game();
    ASSERT_EQ(ca.size(), cb.size()) << "game " << g;
    EXPECT_LE(ca.size(), 3u);
    for (std::size_t i = 0; i < ca.size(); ++i) {
      EXPECT_EQ(ca[i].moves, cb[i].moves) << "game " << g;
      EXPECT_EQ(ca[i].game, g);
      if (i > 0) {
        EXPECT_LT(ca[i - 1].phase, ca[i].phase);  // at most one per phase, in order
      }
      Position p = start_position(v);
      for (Move m : ca[i].moves) {
        ASSERT_TRUE(is_legal(v, p, m)) << "game " << g;
        apply(v, p, m);
      }
      EXPECT_EQ(p, ca[i].position);
      EXPECT_GE(legal_move_count(v, p), 2);
      EXPECT_EQ(phase_of(v, p), ca[i].phase);
      EXPECT_GE(ca[i].moves.size(), 2u);  // the opening is at least two random plies
      ++per_phase[static_cast<std::size_t>(ca[i].phase)];
    }
    if (cc.empty() || ca.empty() || cc[0].moves != ca[0].moves) differs = true;
  }
  EXPECT_TRUE(differs) << "seeds 11 and 12 drew the same games";
  for (int n : per_phase) EXPECT_GT(n, 20);  // nearly every game reaches every phase
}

// ---- labels --------------------------------------------------------------------------------------

TEST(SuiteLabels, EveryMoveIsLabelledWithItsExactMarginAndThePhasesAreBalanced) {
  // Kalah(4,2): small enough for the plain minimax.
  const SuiteKey key{V("pits=4 seeds=2"), 7, 12};
  solver::ExactSolver solver(key.variant, 16);
  LabelStats stats;
  Expected<LabelSet> labelled = label(key, solver, quick_settings(), stats);
  ASSERT_TRUE(labelled) << labelled.error();
  const LabelSet& set = *labelled;
  ASSERT_EQ(set.positions.size(), 12u);
  PlainMinimax minimax(key.variant);
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < set.positions.size(); ++i) {
    const LabelledPosition& p = set.positions[i];
    EXPECT_EQ(p.candidate.phase, static_cast<Phase>(i / 4)) << i;
    EXPECT_TRUE(distinct.insert(to_notation(key.variant, p.candidate.position)).second) << i;
    const MoveList legal = legal_moves(key.variant, p.candidate.position);
    ASSERT_EQ(p.values.size(), static_cast<std::size_t>(legal.size)) << i;
    bool all_equal = true;
    for (int m = 0; m < legal.size; ++m) {
      EXPECT_EQ(p.values[m].move, legal.moves[m]) << i;
      EXPECT_EQ(p.values[m].margin, minimax.move_margin(p.candidate.position, legal.moves[m]))
          << "position " << i << " move " << to_string(legal.moves[m]);
      all_equal = all_equal && p.values[m].margin == p.values[0].margin;
    }
    EXPECT_FALSE(all_equal) << "position " << i << ": a position where every move is perfect grades nothing";
    EXPECT_EQ(p.best(), minimax.margin(p.candidate.position)) << i;
    EXPECT_FALSE(p.margin_of(Move::swap()));
  }
}

TEST(SuiteLabels, TheSameSeedGivesTheSameFileAndAnotherSeedAnotherSet) {
  EXPECT_EQ(to_text(small_set()), to_text(small_set()));
  SuiteKey other = kSmall;
  other.seed = 8;
  solver::ExactSolver solver(other.variant, 16);
  LabelStats stats;
  Expected<LabelSet> set = label(other, solver, quick_settings(), stats);
  ASSERT_TRUE(set) << set.error();
  EXPECT_NE(to_text(*set), to_text(small_set()));
  EXPECT_GE(stats.tried, 12);
  EXPECT_GT(stats.games, 0);
}

TEST(SuiteLabels, ATinyVariantWithoutEnoughPositionsIsAnError) {
  const SuiteKey key{V("pits=1 seeds=1"), 1, 30};
  solver::ExactSolver solver(key.variant, 16);
  LabelStats stats;
  Expected<LabelSet> set = label(key, solver, quick_settings(), stats);
  ASSERT_FALSE(set);
  EXPECT_NE(set.error().find("of 30 positions found in"), std::string::npos) << set.error();
}

TEST(SuiteLabelsFile, ReadsBackAsWritten) {
  const LabelSet set = small_set();
  const std::string text = to_text(set);
  EXPECT_EQ(text.rfind("kalah-suite-labels 1\nvariant pits=4 seeds=3 capture=standard", 0), 0u) << text;
  Expected<LabelSet> back = parse_labels(text, kSmall);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(to_text(*back), text);
  ASSERT_EQ(back->positions.size(), set.positions.size());
  for (std::size_t i = 0; i < set.positions.size(); ++i) {
    EXPECT_EQ(back->positions[i].candidate.moves, set.positions[i].candidate.moves);
    EXPECT_EQ(back->positions[i].candidate.position, set.positions[i].candidate.position);
    EXPECT_EQ(back->positions[i].candidate.game, set.positions[i].candidate.game);
    EXPECT_EQ(back->positions[i].best(), set.positions[i].best());
  }
  EXPECT_EQ(labels_file("/c", kSmall).string(),
            "/c/kalah-suite-p4-s3-standard-side-empty-owner-majority-off-pie-off-seed7-n12.labels");
}

// `text` with its checksum line made right again for whatever was changed above it.
std::string resealed(std::string text) {
  const std::size_t body_end = text.rfind('\n', text.size() - 2) + 1;
  text.resize(body_end);
  // to_text() of the parsed text is no use here (it would not parse); rebuild the line by hand.
  char sum[17];
  std::snprintf(sum, sizeof sum, "%016llx",
                static_cast<unsigned long long>(endgame::checksum(text.data(), text.size())));
  return text + "checksum " + sum + "\n";
}

TEST(SuiteLabelsFile, DamageAndFilesOfAnotherSuiteAreRefused) {
  const std::string text = to_text(small_set());
  auto error_of = [](const std::string& t, const SuiteKey& key = kSmall) {
    Expected<LabelSet> s = parse_labels(t, key);
    return s ? std::string("(accepted)") : s.error();
  };
  std::string flipped = text;
  flipped[text.size() / 2] ^= 0x01;
  EXPECT_NE(error_of(flipped).find("checksum does not match"), std::string::npos);
  EXPECT_NE(error_of(text.substr(0, text.size() - 10)).find("does not end with a whole line"), std::string::npos);
  EXPECT_NE(error_of(text.substr(0, text.rfind("checksum"))).find("not its checksum"), std::string::npos);
  EXPECT_NE(error_of("").find("whole line"), std::string::npos);
  SuiteKey other = kSmall;
  other.seed = 8;
  EXPECT_NE(error_of(text, other).find("header is not that of these labels"), std::string::npos);
  other = kSmall;
  other.positions = 13;
  EXPECT_NE(error_of(text, other).find("header"), std::string::npos);

  // Well sealed but wrong inside: each says what and where.
  const std::size_t first = text.find("\nearly ") + 1;  // line 5
  const std::size_t first_end = text.find('\n', first);
  const std::string line = text.substr(first, first_end - first);
  auto with_line = [&](const std::string& replacement) {
    return resealed(text.substr(0, first) + replacement + text.substr(first_end));
  };
  EXPECT_NE(error_of(with_line("nonsense")).find("line 5: not a position line"), std::string::npos);
  EXPECT_NE(error_of(with_line("opening" + line.substr(5))).find("line 5: unknown phase"), std::string::npos);
  EXPECT_NE(error_of(with_line("middle" + line.substr(5))).find("line 5: the position is in the early phase"),
            std::string::npos);
  std::string illegal = line;
  illegal.replace(illegal.find("moves ") + 6, 1, "9");
  EXPECT_NE(error_of(with_line(illegal)).find("line 5: move 1 ('9') is not legal"), std::string::npos);
  std::string margin = line;
  margin.replace(margin.find(':') + 1, 0, "9");
  EXPECT_NE(error_of(with_line(margin)).find("line 5: the margin of move"), std::string::npos)
      << error_of(with_line(margin));
  const std::string dropped = line.substr(0, line.rfind(' '));
  EXPECT_NE(error_of(with_line(dropped)).find("line 5: the labels must name every legal move"), std::string::npos);
  // A position line taken out: the phase comes up short.
  EXPECT_NE(error_of(resealed(text.substr(0, first) + text.substr(first_end + 1))).find("11 positions instead of 12"),
            std::string::npos);
  // Two early lines after a middle one.
  const std::size_t middle = text.find("\nmiddle ") + 1;
  EXPECT_NE(error_of(resealed(text.substr(0, middle) + line + "\n" + text.substr(middle)))
                .find("more early positions than the suite has"),
            std::string::npos);
  const std::size_t late = text.find("\nlate ") + 1;
  EXPECT_NE(error_of(resealed(text.substr(0, late) + line + "\n" + text.substr(late))).find("out of order"),
            std::string::npos);
}

TEST(SuiteLabelsFile, TheCacheIsUsedOnTheSecondRunAndADamagedOneIsLabelledAgain) {
  system::TempFolder dir{"kalah-test"};
  Expected<Labelling> first = load_or_label(kSmall, quick_settings(dir.path()));
  ASSERT_TRUE(first) << first.error();
  EXPECT_FALSE(first->from_cache);
  EXPECT_EQ(first->note, "");
  EXPECT_EQ(first->file, labels_file(dir.path(), kSmall));
  const std::string written = test::read_file(first->file);
  EXPECT_EQ(written, to_text(first->set));

  Expected<Labelling> second = load_or_label(kSmall, quick_settings(dir.path()));
  ASSERT_TRUE(second) << second.error();
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->stats.tried, 0);
  EXPECT_EQ(to_text(second->set), written);

  std::string damaged = written;
  damaged[damaged.size() / 3] ^= 0x04;
  std::ofstream(first->file, std::ios::binary | std::ios::trunc) << damaged;
  Expected<Labelling> third = load_or_label(kSmall, quick_settings(dir.path()));
  ASSERT_TRUE(third) << third.error();
  EXPECT_FALSE(third->from_cache);
  EXPECT_NE(third->note.find("is unusable (the checksum does not match (a damaged file)): labelled again"),
            std::string::npos)
      << third->note;
  EXPECT_EQ(test::read_file(first->file), written);

  // A link in its place is not followed: replaced by the labels.
  std::filesystem::remove(first->file);
  std::ofstream(dir.path() / "elsewhere") << written;
  std::filesystem::create_symlink(dir.path() / "elsewhere", first->file);
  Expected<Labelling> fourth = load_or_label(kSmall, quick_settings(dir.path()));
  ASSERT_TRUE(fourth) << fourth.error();
  EXPECT_FALSE(fourth->from_cache);
  EXPECT_FALSE(std::filesystem::is_symlink(first->file));
  EXPECT_EQ(test::read_file(first->file), written);
}

TEST(SuiteLabelsFile, WithoutACacheFolderNothingIsWritten) {
  Expected<Labelling> l = load_or_label(kSmall, quick_settings());
  ASSERT_TRUE(l) << l.error();
  EXPECT_TRUE(l->file.empty());
  EXPECT_FALSE(l->from_cache);
  EXPECT_EQ(l->set.positions.size(), 12u);
}

// ---- grades --------------------------------------------------------------------------------------

LabelledPosition labelled(Phase phase, std::vector<std::pair<int, int>> pit_margins) {
  LabelledPosition p;
  p.candidate.phase = phase;
  for (const auto& [pit, margin] : pit_margins) p.values.push_back({Move::at(pit), margin});
  return p;
}

Answer played(int pit, std::optional<int> score = std::nullopt) {
  Answer a;
  a.move = Move::at(pit);
  a.score = score;
  return a;
}

Answer failed(Termination why) {
  Answer a;
  a.fault = Fault{why, "detail"};
  return a;
}

TEST(SuiteGrades, LossIsTheBestMarginMinusThePlayedOne) {
  const LabelledPosition p = labelled(Phase::Middle, {{1, -2}, {2, 6}, {4, 2}});
  EXPECT_EQ(p.best(), 6);
  EXPECT_EQ(grade(p, played(2)).loss, 0);
  EXPECT_EQ(grade(p, played(4)).loss, 4);
  EXPECT_EQ(grade(p, played(1)).loss, 8);
  EXPECT_EQ(grade(p, played(1)).margin, -2);
  EXPECT_FALSE(grade(p, failed(Termination::Crash)).loss);
}

TEST(SuiteGrades, AMoveKeepsTheResultWhenItsMarginHasTheBestMarginsSign) {
  const LabelledPosition won = labelled(Phase::Middle, {{1, -2}, {2, 6}, {3, 0}, {4, 2}});
  EXPECT_EQ(grade(won, played(4)).kept, true);   // wins by less: not perfect, the result kept
  EXPECT_EQ(grade(won, played(3)).kept, false);  // a win thrown to a draw
  EXPECT_EQ(grade(won, played(1)).kept, false);
  const LabelledPosition drawn = labelled(Phase::Late, {{1, -4}, {2, 0}});
  EXPECT_EQ(grade(drawn, played(2)).kept, true);
  EXPECT_EQ(grade(drawn, played(1)).kept, false);
  const LabelledPosition lost = labelled(Phase::Early, {{1, -10}, {2, -2}});
  EXPECT_EQ(grade(lost, played(1)).kept, true);  // every move keeps a lost position lost
  EXPECT_FALSE(grade(lost, failed(Termination::Time)).kept);
}

TEST(SuiteGrades, TalliesPerPhaseCountFailuresAsNotPerfectAndLeaveThemOutOfTheMeanLoss) {
  const std::vector<LabelledPosition> positions = {
      labelled(Phase::Early, {{1, 4}, {2, 2}}),    // 2 played: loss 2
      labelled(Phase::Early, {{1, 0}, {3, 10}}),   // 3 played: perfect
      labelled(Phase::Middle, {{5, -6}, {6, 0}}),  // 5 played: loss 6, a blunder
      labelled(Phase::Late, {{1, 1}, {2, 3}}),     // crashed
  };
  const std::vector<Answer> answers = {played(2, 10), played(3, 50), played(5, -20), failed(Termination::Crash)};
  const Report r = make_report(positions, answers);
  EXPECT_EQ(r.all.positions, 4);
  EXPECT_EQ(r.all.answered, 3);
  EXPECT_EQ(r.all.perfect, 1);
  EXPECT_EQ(r.all.blunders, 1);
  EXPECT_EQ(r.all.failed, 1);
  EXPECT_DOUBLE_EQ(r.all.perfect_share(), 0.25);
  EXPECT_EQ(r.all.kept, 2);  // the two wins; the draw thrown and the crash not
  EXPECT_DOUBLE_EQ(r.all.kept_share(), 0.5);
  EXPECT_DOUBLE_EQ(r.all.mean_loss(), 8.0 / 3);
  const Tally& early = r.phases[static_cast<std::size_t>(Phase::Early)];
  EXPECT_EQ(early.positions, 2);
  EXPECT_EQ(early.perfect, 1);
  EXPECT_DOUBLE_EQ(early.mean_loss(), 1.0);
  EXPECT_EQ(r.phases[static_cast<std::size_t>(Phase::Late)].failed, 1);
  EXPECT_DOUBLE_EQ(r.phases[static_cast<std::size_t>(Phase::Late)].mean_loss(), 0.0);
  // Scores 10, 50, -20 against values 4, 10, 0: the same order.
  EXPECT_EQ(r.scored, 3);
  ASSERT_TRUE(r.spearman);
  EXPECT_DOUBLE_EQ(*r.spearman, 1.0);
}

TEST(SuiteGrades, SpearmanRanksWithTiesAndNeedsThreePairsWithSpread) {
  EXPECT_DOUBLE_EQ(*spearman({{1, 10}, {2, 20}, {3, 30}, {4, 1000}}), 1.0);
  EXPECT_DOUBLE_EQ(*spearman({{1, 10}, {2, 5}, {3, 0}}), -1.0);
  // x ranks 1, 2.5, 2.5, 4 against y ranks 1, 2, 3, 4: sum of products of deviations 4.5, x spread 4.5,
  // y spread 5.
  EXPECT_NEAR(*spearman({{0, 0}, {5, 1}, {5, 2}, {9, 3}}), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
  EXPECT_FALSE(spearman({{1, 2}, {2, 3}}));
  EXPECT_FALSE(spearman({{1, 2}, {1, 3}, {1, 4}}));
  EXPECT_FALSE(spearman({}));
}

}  // namespace
}  // namespace kalah::suite
