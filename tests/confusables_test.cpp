// Names that lie to the eye (referee/system/confusables.h): the bidi and zero-width controls, and the
// skeleton that makes look-alike names equal. Every non-ASCII character is written as an escape, so this
// file itself shows what it holds.
#include "referee/system/confusables.h"

#include <gtest/gtest.h>

namespace kalah::system {
namespace {

TEST(Confusables, EveryBidiAndZeroWidthControlIsHidden) {
  for (char32_t c : {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060,
                     0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF})
    EXPECT_TRUE(is_hidden_control(c)) << std::hex << static_cast<unsigned>(c);
  for (char32_t c : {0x0020, 0x0041, 0x00A0, 0x061B, 0x200A, 0x2010, 0x2029, 0x2065, 0x206A, 0xFEFE})
    EXPECT_FALSE(is_hidden_control(c)) << std::hex << static_cast<unsigned>(c);
}

TEST(Confusables, HiddenControlsAreFoundAndTakenOut) {
  const std::string override_name = "bot\u202Egnp.exe";  // shown as "botexe.png"
  EXPECT_TRUE(has_hidden_controls(override_name));
  EXPECT_EQ(without_hidden_controls(override_name), "botgnp.exe");
  EXPECT_EQ(without_hidden_controls("ka\u200Blah\u2066-\u2069random\uFEFF"), "kalah-random");
  EXPECT_EQ(without_hidden_controls("\u061C"), "");
  EXPECT_FALSE(has_hidden_controls("kalah-random"));
  // Other text, and bytes that are not UTF-8, pass as they are.
  EXPECT_EQ(without_hidden_controls("caf\u00E9 \u4E2D"), "caf\u00E9 \u4E2D");
  EXPECT_EQ(without_hidden_controls("a\xE2\x80"), "a\xE2\x80");
  EXPECT_EQ(without_hidden_controls("\xE2\x80\xAE\xFF"), "\xFF");
}

TEST(Confusables, CyrillicAndGreekLookAlikesHaveTheLatinSkeleton) {
  EXPECT_TRUE(confusable("kalah-random", "k\u0430lah-random"));           // Cyrillic a
  EXPECT_TRUE(confusable("alphabeta", "\u0430lph\u0430b\u0435t\u0430"));  // Cyrillic a, e
  EXPECT_TRUE(confusable("OPEN", "\u039F\u03A1\u0395\u039D"));            // Greek capitals
  EXPECT_TRUE(confusable("copy", "\u0441\u043E\u0440\u0443"));            // all Cyrillic
  EXPECT_TRUE(confusable("nova", "n\u03BFv\u03B1"));                      // Greek omicron, alpha
  EXPECT_TRUE(confusable("Ivan", "\u0406van"));                           // Cyrillic I, and Latin I is l
  EXPECT_EQ(skeleton("k\u0430lah"), "kalah");
  // A Cyrillic letter with no Latin twin stays itself.
  EXPECT_FALSE(confusable("bot", "\u0431ot"));
}

TEST(Confusables, ZeroIsOAndOneLAndCapitalIAreOneShape) {
  EXPECT_FALSE(confusable("kalah-rand0m", "kalah-random"));  // '0' is drawn as 'O', taller than 'o'
  EXPECT_TRUE(confusable("BOT", "B0T"));
  EXPECT_TRUE(confusable("a1phabeta", "alphabeta"));
  EXPECT_TRUE(confusable("AI", "Al"));
  EXPECT_TRUE(confusable("bot|1", "botIl"));
  EXPECT_EQ(skeleton("I1l|0O"), "llllOO");
  // Case is not a look-alike: "Ada" and "ada" are told apart on any screen.
  EXPECT_FALSE(confusable("Ada", "ada"));
  EXPECT_FALSE(confusable("bot-2", "bot-3"));
}

TEST(Confusables, FullwidthFormsSpacesAndDashesLookLikeAscii) {
  EXPECT_TRUE(confusable("greedy", "\uFF47\uFF52\uFF45\uFF45\uFF44\uFF59"));
  EXPECT_TRUE(confusable("B0T", "\uFF22\uFF2F\uFF34"));  // fullwidth O, and '0' is 'O'
  EXPECT_TRUE(confusable("bot1", "bot\uFF11"));
  EXPECT_TRUE(confusable("my bot", "my\u00A0bot"));
  EXPECT_TRUE(confusable("my bot", "my\u3000bot"));
  EXPECT_TRUE(confusable("kalah-random", "kalah\u2010random"));
  EXPECT_TRUE(confusable("kalah-random", "kalah\u2212random"));
}

TEST(Confusables, HiddenControlsDoNotCountInTheSkeleton) {
  EXPECT_TRUE(confusable("kalah-random", "kalah\u200B-random"));
  EXPECT_TRUE(confusable("kalah-random", "\u202Ekalah-random\u202C"));
  EXPECT_EQ(skeleton("a\u200Db"), "ab");
}

TEST(Confusables, PlainAsciiNamesKeepTheirLettersAndDigits) {
  // Only 0, 1, I and | change: every other printable ASCII character is its own skeleton.
  std::string ascii;
  for (char c = 0x20; c < 0x7F; ++c) ascii += c;
  std::string expected = ascii;
  for (char& c : expected)
    if (c == '0')
      c = 'O';
    else if (c == '1' || c == 'I' || c == '|')
      c = 'l';
  EXPECT_EQ(skeleton(ascii), expected);
  EXPECT_FALSE(confusable("kalah-greedy", "kalah-random"));
  EXPECT_TRUE(confusable("same", "same"));
}

}  // namespace
}  // namespace kalah::system
