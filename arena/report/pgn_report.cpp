// games.pgn: PGN that chess tools read game for game (docs/FORMATS.md). The tags are the standard seven
// plus TimeControl and Termination in the standard's own words; what is Kalah-specific has tags of its
// own (Kalah*). The plies are not chess moves, so they go into a brace comment ("S3 S6 N3 S1": the side
// that moved, then its pit) and the movetext proper is the result alone: pgn-extract, Ordo and BayesElo
// see a game without moves, never a move number they would try to read as SAN. Comments are stripped of
// characters that could end them early or look like a tag.
#include <fmt/format.h>

#include "referee/rules/position.h"

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

// The PGN standard's Termination values; ours is in [KalahTermination].
const char* pgn_termination(Termination t) {
  switch (t) {
    case Termination::Normal:
    case Termination::Majority: return "normal";
    case Termination::Adjudicated: return "adjudication";
    case Termination::Time: return "time forfeit";
    case Termination::Crash:
    case Termination::Illegal:
    case Termination::Protocol:
    case Termination::Startup:
    case Termination::FileSize:
    case Termination::Output:
    case Termination::Memory: return "rules infraction";
  }
  return "normal";
}

// "S3 S6 N3 S1": each ply with the side that made it (the board side: after a pie swap the first
// player sits North), replayed with the rules library; a ply the rules reject ends the list.
std::string plies_text(const GameRecord& g) {
  Position p = g.initial_position();
  std::string out;
  for (const Move m : g.moves) {
    if (!is_legal(g.variant, p, m)) {
      out += (out.empty() ? "" : " ") + std::string("(not legal: ") + to_string(m) + ")";
      break;
    }
    out += (out.empty() ? "" : " ") + std::string(p.to_move == Side::South ? "S" : "N") + to_string(m);
    apply(g.variant, p, m);
  }
  return out;
}

}  // namespace

std::string pgn_game(const GameRecord& g, const std::string& event, const std::string& time_control,
                     const std::string& white, const std::string& black) {
  const bool odds = !white.empty() && !black.empty() && white != black;
  std::string out;
  const char* result = to_string(g.result);
  out += fmt::format("[Event \"{}\"]\n", tag_value(event));
  out += "[Site \"Kalah Arena\"]\n";
  out += fmt::format("[Date \"{}\"]\n", pgn_date(g.started_at));
  out += fmt::format("[Round \"{}\"]\n", g.round);
  out += fmt::format("[White \"{}\"]\n", tag_value(g.south));
  out += fmt::format("[Black \"{}\"]\n", tag_value(g.north));
  out += fmt::format("[Result \"{}\"]\n", result);
  out += fmt::format("[TimeControl \"{}\"]\n", tag_value(time_control.empty() || odds ? "?" : time_control));
  if (odds) {
    out += fmt::format("[WhiteTimeControl \"{}\"]\n", tag_value(white));
    out += fmt::format("[BlackTimeControl \"{}\"]\n", tag_value(black));
  }
  out += fmt::format("[Termination \"{}\"]\n", pgn_termination(g.termination));
  out += fmt::format("[Variant \"{}\"]\n", to_string(g.variant));
  // Our own tag, never SetUp/FEN: chess tools would read those as a chess position.
  if (g.start) out += fmt::format("[KalahStart \"{}\"]\n", to_start_notation(g.variant, *g.start));
  out += fmt::format("[KalahTermination \"{}\"]\n", to_string(g.termination));
  out += fmt::format("[GameId \"{}\"]\n", tag_value(g.id));
  out += fmt::format("[Stores \"{}-{}\"]\n", g.store_south, g.store_north);
  out += fmt::format("[PlyCount \"{}\"]\n\n", g.moves.size());

  Movetext text;
  if (!g.moves.empty()) {
    // One comment, wrapped like the rest of the movetext: a line break inside a comment is a space.
    const std::string plies = plies_text(g);
    std::size_t start = 0;
    std::string first = "{plies:";
    text.add(first);
    while (start < plies.size()) {
      std::size_t end = plies.find(' ', start);
      if (end == std::string::npos) end = plies.size();
      text.add(comment_text(plies.substr(start, end - start)));
      start = end + 1;
    }
    text.add("}");
  }
  if (g.forfeit)
    text.add("{" +
             comment_text(g.forfeit->engine + " forfeits (" + to_string(g.forfeit->reason) + ")" +
                          (g.forfeit->detail.empty() ? "" : ": " + g.forfeit->detail)) +
             "}");
  if (g.adjudication) text.add("{" + comment_text("adjudication " + describe(*g.adjudication)) + "}");
  text.add(result);
  out += text.finish();
  out += "\n";
  return out;
}

std::string games_pgn(const std::vector<GameRecord>& games, const std::string& event, const std::string& time_control) {
  std::string out;
  for (const GameRecord& g : games) out += pgn_game(g, event, time_control);
  return out;
}

}  // namespace kalah::report
