// referee/rules/spelling.h: "did you mean" for every unknown name the project refuses. A typo is a few
// edits from the word meant; an unrelated word gets no guess.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "referee/rules/spelling.h"

namespace kalah {
namespace {

TEST(Spelling, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("fresh", "fresh"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("concurency", "concurrency"), 1u);  // an insertion
  EXPECT_EQ(edit_distance("rounds", "round"), 1u);            // a deletion
  EXPECT_EQ(edit_distance("seed", "seek"), 1u);               // a substitution
  EXPECT_EQ(edit_distance("fersh", "fresh"), 1u);             // two neighbours swapped
  EXPECT_EQ(edit_distance("FRESH", "fresh"), 0u);             // case is not a mistake worth counting
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Spelling, TheNearestKnownWordIsSuggestedOnlyWhenItLooksLikeATypo) {
  const std::vector<std::string> flags = {"--fresh", "--out", "--concurrency", "--shard"};
  EXPECT_EQ(nearest_word("--fersh", flags), "--fresh");
  EXPECT_EQ(nearest_word("--concurency", flags), "--concurrency");
  EXPECT_EQ(nearest_word("--verbose", flags), std::nullopt);
  EXPECT_EQ(nearest_word("--fresh", flags), std::nullopt);  // a known word is no typo of another
  // Up to 5 characters one edit, up to 8 two, beyond that three.
  EXPECT_EQ(nearest_word("-bogus", {"-out", "-seed"}), std::nullopt);  // three edits from -out
  EXPECT_EQ(nearest_word("Dept", {"Depth", "Hash"}), "Depth");
  EXPECT_EQ(nearest_word("depth", {"Depth"}), "Depth");  // another case is another name, but the one meant
  // Of equally near words the one that begins alike; a tie beyond that is no guess.
  EXPECT_EQ(nearest_word("pit", {"pie", "pits"}), "pits");
  EXPECT_EQ(nearest_word("elo2", {"elo0", "elo1"}), std::nullopt);
  EXPECT_EQ(did_you_mean("--fersh", flags), "; did you mean '--fresh'?");
  EXPECT_EQ(did_you_mean("--verbose", flags), "");
}

}  // namespace
}  // namespace kalah
