// Names people read and tell apart by eye: an engine's, a bot's, an author's. Two things make a name lie:
// invisible controls (a right-to-left override, U+202E, shows "bot" U+202E "gnp.exe" as "botexe.png"; a
// zero-width space makes two equal-looking names differ) and look-alike letters (Cyrillic U+0430 for Latin
// 'a', '0' for 'O'). The first are cleaned out of names or refuse them; the second are caught by comparing
// skeletons, after the idea of Unicode's confusables (UTS #39, section 4), over a bounded table written out
// in docs/CONFIG.md ("Engine names"): two names with one skeleton look the same.
#pragma once

#include <string>
#include <string_view>

namespace kalah::system {

// The bidi and zero-width controls: U+061C, U+200B-U+200F, U+202A-U+202E, U+2060, U+2066-U+2069, U+FEFF.
bool is_hidden_control(char32_t c);

// Whether `text` (UTF-8) holds one of them.
bool has_hidden_controls(std::string_view text);

// `text` without them; everything else, an invalid byte too, is kept as it is.
std::string without_hidden_controls(std::string_view text);

// `text` with each of them written as the escape `\u202e`: a message that names a refused name shows them.
std::string show_hidden_controls(std::string_view text);

// What `text` looks like: its hidden controls dropped, and every character of the table replaced by the one
// it is taken for (fullwidth U+FF21 and Cyrillic U+0410 by 'A', '0' by 'O', '1' and 'I' by 'l', ...). Plain
// letters and digits outside the table stay; case stays ('a' and 'A' do not look alike).
std::string skeleton(std::string_view text);

// Whether two names look alike: their skeletons are equal (so equal names do too).
bool confusable(std::string_view a, std::string_view b);

}  // namespace kalah::system
