// Replays the 240 games of tests/data/rules-vectors.jsonl (expected positions computed by an
// independent implementation of the rules, vendored with the tests) and compares the final
// positions.
#include <fstream>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "referee/rules/position.h"

namespace kalah {
namespace {

namespace json = boost::json;

TEST(RulesVectors, IndependentImplementationAgreesOnEveryGame) {
  const std::string path = std::string(KALAH_TEST_DATA) + "/rules-vectors.jsonl";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    const json::object vec = json::parse(line).as_object();
    const std::string variant_text(vec.at("variant").as_string());
    const std::string moves_text(vec.at("moves").as_string());
    SCOPED_TRACE(variant_text + " | " + moves_text);
    Expected<Variant> v = parse_variant(variant_text);
    ASSERT_TRUE(v.ok());
    Position p = start_position(*v);
    std::istringstream words(moves_text);
    for (std::string word; words >> word;) {
      Expected<Move> m = parse_move(word);
      ASSERT_TRUE(m.ok() && is_legal(*v, p, *m)) << word << " in " << to_notation(*v, p);
      apply(*v, p, *m);
    }
    const json::object& expect = vec.at("expect").as_object();
    const json::array& board = expect.at("board").as_array();
    ASSERT_EQ(static_cast<int>(board.size()), v->cells());
    for (int i = 0; i < v->cells(); ++i) EXPECT_EQ(p.cells[i], board[i].as_int64()) << "cell " << i;
    EXPECT_EQ(p.over, expect.at("over").as_bool());
    if (!p.over) {
      EXPECT_EQ(to_string(p.to_move), expect.at("to_move").as_string());
    }
    const json::value& result = expect.at("result");
    EXPECT_EQ(to_string(outcome(*v, p)), result.is_null() ? std::string("*") : std::string(result.as_string()));
    ++checked;
  }
  EXPECT_EQ(checked, 240);
}

}  // namespace
}  // namespace kalah
