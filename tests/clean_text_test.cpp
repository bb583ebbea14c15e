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

// A start-up failure's detail whose traceback is longer than the message may be: the error the traceback ends
// with stays whole (it was cut to "cannot import na" by a plain cut at the limit), and the start is cut
// after a word.
TEST(ShortenKeepingEnd, ATracebacksLastLineStaysWhole) {
  const std::string detail =
      "kep-handshake (startup): eof before kepok: exited with code 1; its stderr ends: \"Traceback (most recent "
      "call last): | File \"/srv/contest/results/class/entries/dana/bot.py\", line 3, in <module> | from "
      "helpers.search import minimax_with_a_long_name | File \"/srv/contest/results/class/entries/dana/helpers/"
      "search.py\", line 1, in <module> | ImportError: cannot import name 'transposition_table' from "
      "'helpers.table' (/srv/contest/results/class/entries/dana/helpers/table.py)\"";
  const std::string shown = shorten_keeping_end(detail, 300);
  EXPECT_LE(shown.size(), 300u) << shown;
  EXPECT_TRUE(
      shown.ends_with(" ... ImportError: cannot import name 'transposition_table' from 'helpers.table' "
                      "(/srv/contest/results/class/entries/dana/helpers/table.py)\""))
      << shown;
  EXPECT_TRUE(shown.starts_with("kep-handshake (startup): eof before kepok: exited with code 1;")) << shown;
  const std::string start = shown.substr(0, shown.find(" ... "));
  EXPECT_EQ(detail.compare(0, start.size(), start), 0) << shown;
  EXPECT_EQ(detail[start.size()], ' ') << "cut after a whole word: " << shown;

  EXPECT_EQ(shorten_keeping_end("short enough", 300), "short enough");
  // No line to keep: the start alone, after a whole word, never inside a UTF-8 sequence.
  const std::string words = "d\xc3\xa9j\xc3\xa0 vu " + std::string(40, 'x') + " the end";
  EXPECT_EQ(shorten_keeping_end(words, 20), "d\xc3\xa9j\xc3\xa0 vu ...");
  EXPECT_EQ(shorten_keeping_end(std::string(30, 'y'), 10), std::string(6, 'y') + " ...");
}

}  // namespace
}  // namespace kalah::system
