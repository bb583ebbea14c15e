#include "referee/rules/position.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <optional>
#include <vector>

#include "referee/rules/words.h"

namespace kalah {

const char* to_string(Side s) { return s == Side::South ? "south" : "north"; }

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::FirstWins: return "1-0";
    case Outcome::SecondWins: return "0-1";
    case Outcome::Draw: return "1/2-1/2";
    case Outcome::Ongoing: break;
  }
  return "*";
}

std::string to_string(Move m) { return m.is_swap() ? "swap" : std::to_string(m.pit); }

Expected<Move> parse_move(std::string_view text) {
  if (text == "swap") return Move::swap();
  int pit = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pit);
  if (ec != std::errc() || end != text.data() + text.size() || pit < 1 || pit > 255)
    return Error{"'" + std::string(text) + "' is not a move (a pit number or 'swap')"};
  return Move::at(pit);
}

int seed_total(const Variant& v, const Position& p) {
  int total = 0;
  for (int i = 0; i < v.cells(); ++i) total += p.cells[i];
  return total;
}

int seeds_to_hold(const Variant& v, const Position& p) {
  const int per_board = 2 * v.pits;
  return std::max(v.seeds, (seed_total(v, p) + per_board - 1) / per_board);
}

bool MoveList::contains(Move m) const {
  for (Move x : *this)
    if (x == m) return true;
  return false;
}

namespace {

// First cell of the mover's row.
inline int row_start(const Variant& v, Side s) { return s == Side::South ? 0 : v.pits + 1; }

int row_sum(const Position& p, int first, int m) {
  int sum = 0;
  for (int i = 0; i < m; ++i) sum += p.cells[first + i];
  return sum;
}

// Whether a rule ends the game in `p` (whose `over` is not yet set).
bool game_ends(const Variant& v, const Position& p) {
  const int m = v.pits;
  const int south = row_sum(p, 0, m);
  const int north = row_sum(p, m + 1, m);
  bool end;
  if (v.ending == Ending::SideEmpty)
    end = south == 0 || north == 0;
  else
    end = (p.to_move == Side::South ? south : north) == 0;
  if (v.majority && !end) {
    const int total = seed_total(v, p);
    end = 2 * p.cells[m] > total || 2 * p.cells[2 * m + 1] > total;
  }
  return end;
}

// Ends the game if a rule says so; called after every move.
void settle(const Variant& v, Position& p) {
  const int m = v.pits;
  if (!game_ends(v, p)) return;
  const int south = row_sum(p, 0, m);
  const int north = row_sum(p, m + 1, m);
  p.over = true;
  p.pie = Pie::None;
  if (v.remainder == Remainder::Owner) {
    p.cells[m] += south;
    p.cells[2 * m + 1] += north;
    for (int i = 0; i < m; ++i) p.cells[i] = p.cells[m + 1 + i] = 0;
  }
}

}  // namespace

Position start_position(const Variant& v) {
  Position p;
  for (int i = 0; i < v.pits; ++i) p.cells[i] = p.cells[v.pits + 1 + i] = static_cast<Position::Cell>(v.seeds);
  p.pie = v.pie ? Pie::FirstMove : Pie::None;
  return p;
}

MoveList legal_moves(const Variant& v, const Position& p) {
  MoveList list;
  if (p.over) return list;
  const int first = row_start(v, p.to_move);
  for (int i = 0; i < v.pits; ++i)
    if (p.cells[first + i]) list.moves[list.size++] = Move::at(i + 1);
  if (p.pie == Pie::Offer) list.moves[list.size++] = Move::swap();
  return list;
}

int legal_move_count(const Variant& v, const Position& p) {
  if (p.over) return 0;
  const int first = row_start(v, p.to_move);
  int count = p.pie == Pie::Offer;
  for (int i = 0; i < v.pits; ++i) count += p.cells[first + i] != 0;
  return count;
}

bool is_legal(const Variant& v, const Position& p, Move m) {
  if (p.over) return false;
  if (m.is_swap()) return p.pie == Pie::Offer;
  return m.pit <= v.pits && p.cells[row_start(v, p.to_move) + m.pit - 1] != 0;
}

void apply(const Variant& v, Position& p, Move mv) {
  assert(is_legal(v, p, mv));
  if (mv.is_swap()) {
    // The players exchange sides; the board stays and North (now the first
    // player) moves next.
    p.swapped = !p.swapped;
    p.pie = Pie::None;
    return;
  }
  const int m = v.pits;
  const int cells = 2 * m + 2;
  const Side side = p.to_move;
  const int own_store = side == Side::South ? m : 2 * m + 1;
  const int skip = side == Side::South ? 2 * m + 1 : m;
  const int from = row_start(v, side) + mv.pit - 1;

  int seeds = p.cells[from];
  p.cells[from] = 0;
  // A full lap puts one seed in every cell but the opponent's store, the
  // starting pit included; sow whole laps at once, then the rest one by one.
  const int lap = 2 * m + 1;
  int last = from;
  if (seeds >= lap) {
    const int laps = seeds / lap;
    for (int i = 0; i < cells; ++i) p.cells[i] += laps;
    p.cells[skip] -= laps;
    seeds -= laps * lap;
  }
  while (seeds > 0) {
    if (++last == cells) last = 0;
    if (last == skip && ++last == cells) last = 0;
    ++p.cells[last];
    --seeds;
  }

  bool again = last == own_store;
  const int own_first = row_start(v, side);
  if (last >= own_first && last < own_first + m && p.cells[last] == 1) {
    const int facing = 2 * m - last;
    if (p.cells[facing] != 0 || v.capture == Capture::Empty) {
      p.cells[own_store] += p.cells[facing] + 1;
      p.cells[facing] = 0;
      p.cells[last] = 0;
    }
  }

  if (p.pie == Pie::FirstMove) {
    again = false;
    p.pie = Pie::Offer;
  } else if (p.pie == Pie::Offer) {
    p.pie = Pie::None;
  }
  if (!again) p.to_move = opponent(side);
  settle(v, p);
}

int store(const Variant& v, const Position& p, Side s) { return p.cells[s == Side::South ? v.pits : 2 * v.pits + 1]; }

int seeds_on_side(const Variant& v, const Position& p, Side s) { return row_sum(p, row_start(v, s), v.pits); }

Outcome outcome(const Variant& v, const Position& p) {
  if (!p.over) return Outcome::Ongoing;
  const int south = store(v, p, Side::South);
  const int north = store(v, p, Side::North);
  if (south == north) return Outcome::Draw;
  // After a pie swap the player who started as South sits on North.
  const bool south_side_won = south > north;
  return south_side_won != p.swapped ? Outcome::FirstWins : Outcome::SecondWins;
}

std::string to_notation(const Variant& v, const Position& p) {
  const int m = v.pits;
  std::string s;
  auto row = [&](int first) {
    for (int i = 0; i < m; ++i) {
      if (i) s += ',';
      s += std::to_string(p.cells[first + i]);
    }
  };
  row(0);
  s += '/' + std::to_string(p.cells[m]) + '/';
  row(m + 1);
  s += '/' + std::to_string(p.cells[2 * m + 1]);
  s += p.to_move == Side::South ? " s" : " n";
  if (p.pie == Pie::FirstMove) s += " pie=first";
  if (p.pie == Pie::Offer) s += " pie=offer";
  if (p.swapped) s += " swapped";
  return s;
}

Expected<Position> parse_notation(const Variant& v, std::string_view text) {
  const int m = v.pits;
  auto bad = [&](const std::string& why) { return Error{"bad position '" + std::string(text) + "': " + why}; };
  const std::vector<std::string_view> words = split_words(text);
  if (words.size() < 2) return bad("expected '<board> <s|n>'");

  std::vector<int> numbers;
  int groups = 1;
  std::string_view board = words[0];
  for (size_t i = 0; i <= board.size();) {
    size_t j = board.find_first_of(",/", i);
    if (j == std::string_view::npos) j = board.size();
    int value = 0;
    auto [end, ec] = std::from_chars(board.data() + i, board.data() + j, value);
    if (ec != std::errc() || end != board.data() + j || value < 0 || value > 65535)
      return bad("'" + std::string(board.substr(i, j - i)) + "' is not a seed count");
    numbers.push_back(value);
    if (j < board.size() && board[j] == '/') ++groups;
    i = j + 1;
  }
  if (groups != 4 || static_cast<int>(numbers.size()) != 2 * m + 2)
    return bad("expected " + std::to_string(m) + " pits, store, " + std::to_string(m) + " pits, store");

  Position p;
  for (int i = 0; i < 2 * m + 2; ++i) p.cells[i] = static_cast<Position::Cell>(numbers[i]);
  if (words[1] == "s")
    p.to_move = Side::South;
  else if (words[1] == "n")
    p.to_move = Side::North;
  else
    return bad("side to move must be 's' or 'n'");
  for (size_t w = 2; w < words.size(); ++w) {
    if (words[w] == "pie=first" && v.pie && p.pie == Pie::None)
      p.pie = Pie::FirstMove;
    else if (words[w] == "pie=offer" && v.pie && p.pie == Pie::None)
      p.pie = Pie::Offer;
    else if (words[w] == "swapped" && v.pie && !p.swapped)
      p.swapped = true;
    else
      return bad("unexpected '" + std::string(words[w]) + "'");
  }
  if (p.pie == Pie::FirstMove && p.to_move != Side::South) return bad("pie=first needs South to move");
  if (p.pie == Pie::Offer && p.to_move != Side::North) return bad("pie=offer needs North to move");

  // Whether the game is over follows from the board: every rule that ends it is
  // checked after each move, so a finished game always shows its reason.
  p.over = game_ends(v, p);
  if (p.over && p.pie != Pie::None) return bad("a finished game has no pie decision pending");
  return p;
}

std::string render(const Variant& v, const Position& p) {
  const int m = v.pits;
  auto cell = [](int n) {
    std::string s = std::to_string(n);
    return std::string(s.size() < 3 ? 3 - s.size() : 0, ' ') + s;
  };
  std::string out = "     ";
  for (int i = m; i >= 1; --i) out += cell(i);
  out += "\n   [ ";
  for (int i = 2 * m; i > m; --i) out += cell(p.cells[i]);
  out += " ]\n" + cell(p.cells[2 * m + 1]) + std::string(3 * m + 4, ' ') + cell(p.cells[m]) + "\n   [ ";
  for (int i = 0; i < m; ++i) out += cell(p.cells[i]);
  out += " ]\n     ";
  for (int i = 1; i <= m; ++i) out += cell(i);
  out += "\n";
  out += p.over ? "game over\n" : std::string(to_string(p.to_move)) + " to move\n";
  return out;
}

namespace {

// "a,b,c" -> counts; nullopt unless every item is a whole number 0..65535.
std::optional<std::vector<int>> parse_row(std::string_view text) {
  std::vector<int> row;
  for (size_t i = 0; i <= text.size();) {
    size_t j = text.find(',', i);
    if (j == std::string_view::npos) j = text.size();
    int value = 0;
    auto [end, ec] = std::from_chars(text.data() + i, text.data() + j, value);
    if (ec != std::errc() || end != text.data() + j || value < 0 || value > 65535) return std::nullopt;
    row.push_back(value);
    i = j + 1;
  }
  return row;
}

}  // namespace

std::string to_start_notation(const Variant& v, const Position& p) {
  const int m = v.pits;
  std::string s;
  auto row = [&](int first) {
    for (int i = 0; i < m; ++i) s += (i ? "," : "") + std::to_string(p.cells[first + i]);
  };
  row(0);
  s += '/';
  row(m + 1);
  s += ' ' + std::to_string(p.cells[m]) + '-' + std::to_string(p.cells[2 * m + 1]);
  s += p.to_move == Side::South ? " S" : " N";
  return s;
}

Expected<Position> parse_start(const Variant& v, std::string_view text) {
  const int m = v.pits;
  auto bad = [&](const std::string& why) { return Error{"bad start position '" + std::string(text) + "': " + why}; };
  const std::vector<std::string_view> words = split_words(text);
  if (words.size() != 3)
    return bad("expected '<South's pits>/<North's pits> <South store>-<North store> <S|N>', e.g. '" +
               to_start_notation(v, start_position(v)) + "'");
  const size_t slash = words[0].find('/');
  const size_t dash = words[1].find('-');
  if (slash == std::string_view::npos || dash == std::string_view::npos)
    return bad("expected '<South's pits>/<North's pits> <South store>-<North store> <S|N>'");
  const auto south = parse_row(words[0].substr(0, slash));
  const auto north = parse_row(words[0].substr(slash + 1));
  const auto south_store = parse_row(words[1].substr(0, dash));
  const auto north_store = parse_row(words[1].substr(dash + 1));
  if (!south || !north) return bad("the pits must be seed counts (whole numbers >= 0) separated by commas");
  if (!south_store || !north_store || south_store->size() != 1 || north_store->size() != 1)
    return bad("the stores must be two seed counts (whole numbers >= 0) joined by '-'");
  if (static_cast<int>(south->size()) != m || static_cast<int>(north->size()) != m)
    return bad("each side needs " + std::to_string(m) + " pits (the variant's pits), not " +
               std::to_string(south->size()) + " and " + std::to_string(north->size()));
  Position p;
  for (int i = 0; i < m; ++i) {
    p.cells[i] = static_cast<Position::Cell>((*south)[i]);
    p.cells[m + 1 + i] = static_cast<Position::Cell>((*north)[i]);
  }
  p.cells[m] = static_cast<Position::Cell>(south_store->front());
  p.cells[2 * m + 1] = static_cast<Position::Cell>(north_store->front());
  if (words[2] == "S")
    p.to_move = Side::South;
  else if (words[2] == "N")
    p.to_move = Side::North;
  else
    return bad("the side to move must be 'S' or 'N'");
  const int total = seed_total(v, p);
  if (total == 0 || total > max_start_seeds(v))
    return bad("it holds " + std::to_string(total) + " seeds; a board of " + std::to_string(m) + " pits takes 1 to " +
               std::to_string(max_start_seeds(v)));
  if (v.pie) return bad("the pie rule applies only from the standard start: use pie=off with a start position");
  if (game_ends(v, p)) return bad("the game is already over there");
  return p;
}

}  // namespace kalah
