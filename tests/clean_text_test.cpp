// referee/system/clean_text: what an engine wrote, made valid UTF-8 without terminal controls.
#include "referee/system/clean_text.h"

#include <random>
#include <string>

#include <gtest/gtest.h>

namespace kalah::system {
namespace {

TEST(CleanText, PlainTextAndRealUtf8StayAsTheyAre) {
  EXPECT_EQ(clean_text("bestmove 3", false), "bestmove 3");
  EXPECT_EQ(clean_text("Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\ttab", false),
            "Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\ttab");
  EXPECT_TRUE(is_clean_text("ascii only\t", false));
  EXPECT_FALSE(is_clean_text("two\nlines", false));
  EXPECT_TRUE(is_clean_text("two\nlines", true));
}

TEST(CleanText, ControlsAreShownNotObeyed) {
  EXPECT_EQ(clean_text("\x1b[2Jred\x07", false), "\\x1b[2Jred\\x07");
  EXPECT_EQ(clean_text("a\rb\x7f", false), "a\\x0db\\x7f");
  EXPECT_EQ(clean_text("csi \xc2\x9b"
                       "2J",
                       false),
            "csi \\u009b2J");  // C1 CSI, as UTF-8
  EXPECT_EQ(clean_text("one\ntwo", false), "one\\x0atwo");
  EXPECT_EQ(clean_text("one\ntwo", true), "one\ntwo");
}

TEST(CleanText, InvalidBytesBecomeTheReplacementCharacter) {
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(clean_text("\xff", false), r);
  EXPECT_EQ(clean_text("a\xc3(b", false), "a" + r + "(b");       // a lead byte without its continuation
  EXPECT_EQ(clean_text("\xc0\xaf", false), r + r);               // never a valid lead byte
  EXPECT_EQ(clean_text("\xe0\x80\xaf", false), r + r + r);       // overlong
  EXPECT_EQ(clean_text("\xed\xa0\x80", false), r + r + r);       // a surrogate
  EXPECT_EQ(clean_text("end \xe2\x82", false), "end " + r + r);  // cut at the end
}

TEST(CleanText, AStreamCutAnywhereCleansAsTheWhole) {
  std::mt19937 rng(20261204);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int length = static_cast<int>(rng() % 40);
    const std::string pieces[] = {"a",    "\n",       "\x1b",     "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                  "\xff", "\xc2\x9b", "\xe2\x82", "\t"};
    for (int i = 0; i < length; ++i) text += pieces[rng() % std::size(pieces)];
    TextCleaner cleaner(true);
    std::string streamed;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t n = 1 + rng() % 5;
      streamed += cleaner.feed(std::string_view(text).substr(at, n));
      at += n;
    }
    streamed += cleaner.finish();
    ASSERT_EQ(streamed, clean_text(text, true)) << "seed 20261204, round " << round;
    ASSERT_EQ(clean_text(streamed, true), streamed) << "cleaning twice changes nothing (round " << round << ")";
  }
}

}  // namespace
}  // namespace kalah::system
