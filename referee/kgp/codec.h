// KGP, the Kalah Game Protocol of FAU Erlangen's Kalah course (docs/KGP.md): its lines <-> typed
// commands, both ways. The only place that splits KGP text. A line is
//   [id][@ref] name arg...            ending in CRLF, at most kMaxLineChars characters
// and an argument is an integer, a real, a word, a quoted string or a board literal. Every byte of a
// line comes from the other side of a socket: anything malformed is an Error value, never a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::kgp {

// The longest line the specification allows, trailing white space and CRLF included.
inline constexpr std::size_t kMaxLineChars = 16384;
// The largest board a literal may describe, and the most seeds one cell may hold: more is refused as
// hostile (a board of Kalah has at most 16 pits a side in our rules; the codec is more generous).
inline constexpr int kMaxBoardPits = 1024;
inline constexpr long long kMaxCellSeeds = 1'000'000;

// A board literal `<n,south store,north store,south pits 1..n,north pits 1..n>`, each row from its
// owner's pit 1. The side to move is not part of it: in freeplay the client always moves as South.
struct Board {
  int pits = 0;
  long long south_store = 0;
  long long north_store = 0;
  std::vector<long long> south;  // pits 1..n of South
  std::vector<long long> north;  // pits 1..n of North
  friend bool operator==(const Board&, const Board&) = default;
};

// A quoted string and a bare word both carry text; `quoted` keeps how it was written, so that a line
// formats back as it came (a word that needs quotes is always written quoted).
struct Text {
  std::string value;
  bool quoted = false;
  friend bool operator==(const Text&, const Text&) = default;
};

using Arg = std::variant<long long, double, Text, Board>;

struct Command {
  std::optional<std::uint64_t> id;
  std::optional<std::uint64_t> ref;  // the id of the other side's command this one answers
  std::string name;
  std::vector<Arg> args;
  friend bool operator==(const Command&, const Command&) = default;
};

// One line, with or without its CR LF (a bare LF is taken too), into a command.
Expected<Command> parse_line(std::string_view line);
// The command as a line, ending in CR LF. A text argument that is not a word is quoted and escaped.
std::string format(const Command& c);

// The text of an argument that is a word or a string, or none.
std::optional<std::string> text_arg(const Command& c, std::size_t index);
// The integer argument at `index`, or none.
std::optional<long long> int_arg(const Command& c, std::size_t index);
// The real argument at `index` (an integer is a real too), or none.
std::optional<double> real_arg(const Command& c, std::size_t index);
// The board argument at `index`, or none.
const Board* board_arg(const Command& c, std::size_t index);

// The board literal alone: "<3,0,0,3,3,3,3,3,3>".
std::string board_text(const Board& b);

// A word is 1 or more of A-Z a-z 0-9 '-' ':' and not a number.
bool is_word(std::string_view text);

// Builders for the commands a side sends most.
Command make_command(std::string name, std::vector<Arg> args = {}, std::optional<std::uint64_t> id = std::nullopt,
                     std::optional<std::uint64_t> ref = std::nullopt);
Command make_set(std::string key, Arg value, std::optional<std::uint64_t> id = std::nullopt);
// A string argument (quoted when it is not a word).
Arg text(std::string value);

// A line cut to 200 characters and cleaned of control characters, for a fault's detail.
std::string shorten(std::string_view line);

}  // namespace kalah::kgp
