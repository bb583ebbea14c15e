// PGN as rating tools read it. Ordo finds the [White "..."], [Black "..."] and
// [Result "..."] tags line by line; BayesElo tokenises the whole file and skips
// the movetext up to the game-termination token. Both only ever need the tags
// and the result, so the Kalah moves (pit numbers and `swap`) can be written as
// plain symbols: no movetext token starts with "1-", "0-" or "1/", which would
// read as a result, and comments are stripped of characters that could look
// like a tag or end the comment early.
#include <fmt/format.h>

#include "arena/report/reporters.h"
#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

std::string tag_value(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  }
  return out;
}

std::string comment_text(std::string_view text) {
  constexpr std::size_t kMaxComment = 200;  // a protocol detail can be long; the journal keeps all of it
  if (text.size() > kMaxComment) text = text.substr(0, kMaxComment);
  std::string out;
  for (char c : text) {
    const bool unsafe = c == '{' || c == '}' || c == '[' || c == ']' || c == '"' || c == '\\' || c == '%' || c == ';' ||
                        static_cast<unsigned char>(c) < 0x20;
    out += unsafe ? ' ' : c;
  }
  return out;
}

// "2026-12-02T12:00:00Z" -> "2026.12.02"; PGN's unknown date otherwise.
std::string pgn_date(const std::string& iso) {
  const auto digit = [&](std::size_t i) { return iso[i] >= '0' && iso[i] <= '9'; };
  const bool ok = iso.size() >= 10 && iso[4] == '-' && iso[7] == '-' && digit(0) && digit(1) && digit(2) && digit(3) &&
                  digit(5) && digit(6) && digit(8) && digit(9);
  return ok ? iso.substr(0, 4) + "." + iso.substr(5, 2) + "." + iso.substr(8, 2) : "????.??.??";
}

// Appends movetext tokens, wrapping lines before 80 columns as PGN export format asks.
class Movetext {
 public:
  void add(const std::string& token) {
    if (!line_.empty() && line_.size() + 1 + token.size() > 79) flush();
    if (!line_.empty()) line_ += ' ';
    line_ += token;
  }
  std::string finish() {
    flush();
    return std::move(text_);
  }

 private:
  void flush() {
    if (line_.empty()) return;
    text_ += line_ + "\n";
    line_.clear();
  }
  std::string text_, line_;
};

}  // namespace

std::string pgn_game(const GameRecord& g, const std::string& event) {
  std::string out;
  const char* result = to_string(g.result);
  out += fmt::format("[Event \"{}\"]\n", tag_value(event));
  out += "[Site \"Kalah Arena\"]\n";
  out += fmt::format("[Date \"{}\"]\n", pgn_date(g.started_at));
  out += fmt::format("[Round \"{}\"]\n", g.round);
  out += fmt::format("[White \"{}\"]\n", tag_value(g.south));
  out += fmt::format("[Black \"{}\"]\n", tag_value(g.north));
  out += fmt::format("[Result \"{}\"]\n", result);
  out += fmt::format("[Variant \"{}\"]\n", to_string(g.variant));
  out += fmt::format("[Termination \"{}\"]\n", to_string(g.termination));
  out += fmt::format("[GameId \"{}\"]\n", tag_value(g.id));
  out += fmt::format("[Stores \"{}-{}\"]\n", g.store_south, g.store_north);
  out += fmt::format("[PlyCount \"{}\"]\n\n", g.moves.size());

  Movetext text;
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    if (i % 2 == 0) text.add(std::to_string(i / 2 + 1) + ".");
    text.add(to_string(g.moves[i]));
  }
  if (g.forfeit)
    text.add("{" +
             comment_text(g.forfeit->engine + " forfeits (" + to_string(g.forfeit->reason) + ")" +
                          (g.forfeit->detail.empty() ? "" : ": " + g.forfeit->detail)) +
             "}");
  text.add(result);
  out += text.finish();
  out += "\n";
  return out;
}

std::string games_pgn(const std::vector<GameRecord>& games, const std::string& event) {
  std::string out;
  for (const GameRecord& g : games) out += pgn_game(g, event);
  return out;
}

}  // namespace kalah::report
