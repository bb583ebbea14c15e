#include "arena/season/ladder_verdict.h"

#include <algorithm>
#include <cctype>

#include <boost/json.hpp>

namespace kalah::season {
namespace json = boost::json;

namespace {

// A move as the journal writes it: its pit as a number, or "swap".
json::value move_json(Move m) {
  if (m.is_swap()) return json::value("swap");
  return json::value(static_cast<int>(m.pit));
}

std::optional<Move> move_of(const json::value& v) {
  if (v.is_string() && v.as_string() == "swap") return Move::swap();
  if (const auto* n = v.if_int64(); n && *n >= 1 && *n <= Variant::kMaxPits) return Move::at(static_cast<int>(*n));
  return std::nullopt;
}

json::array moves_json(const std::vector<Move>& moves) {
  json::array out;
  for (Move m : moves) out.push_back(move_json(m));
  return out;
}

// The loser's move at the judged ply, its values, and which moves were best there (when the values are known).
LosingMove losing_move(const GameRecord& game, const analysis::PlyJudgement& ply, const MoveValues* values) {
  LosingMove out;
  out.ply = ply.ply + 1;
  out.move = game.moves[static_cast<std::size_t>(ply.ply)];
  out.value_before = *ply.value;
  out.value_after = *ply.value - *ply.loss;
  if (!values) return out;
  for (const auto& [move, value] : values->moves) {
    if (!value)
      out.unproved.push_back(move);
    else if (*value == out.value_before)
      out.best.push_back(move);
  }
  return out;
}

json::object side_json(const GameVerdict& g, bool south) {
  const SideFigures& mine = south ? g.south : g.north;
  const SideFigures& theirs = south ? g.north : g.south;
  const analysis::EngineQuality& q = mine.quality;
  std::string outcome = "drawn";
  if (g.result == "1-0") outcome = south ? "won" : "lost";
  if (g.result == "0-1") outcome = south ? "lost" : "won";
  json::object o{{"id", g.id},
                 {"engine", mine.engine},
                 {"opponent", theirs.engine},
                 {"side", south ? "south" : "north"},
                 {"result", g.result},
                 {"outcome", outcome},
                 {"termination", g.termination},
                 {"plies", g.plies},
                 {"proved", g.proved},
                 {"moves", q.moves},
                 {"judged", q.judged},
                 {"perfect", q.perfect},
                 {"blunders", q.blunders},
                 {"mean_loss", q.judged ? json::value(q.mean_loss()) : json::value(nullptr)}};
  json::value losing = nullptr;
  if (g.losing && outcome == "lost") {
    const LosingMove& l = *g.losing;
    json::object m{{"ply", l.ply},
                   {"move", move_json(l.move)},
                   {"value_before", l.value_before},
                   {"value_after", l.value_after},
                   {"best", moves_json(l.best)},
                   {"unproved", moves_json(l.unproved)}};
    losing = std::move(m);
  }
  o["losing_move"] = std::move(losing);
  return o;
}

}  // namespace

std::string to_line(const MoveValues& m) {
  json::array moves;
  for (const auto& [move, value] : m.moves)
    moves.push_back(json::array{move_json(move), value ? json::value(*value) : json::value(nullptr)});
  return json::serialize(json::object{{"id", m.id}, {"ply", m.ply}, {"moves", std::move(moves)}}) + "\n";
}

std::optional<MoveValues> move_values_from_line(std::string_view line) {
  boost::system::error_code ec;
  const json::value v = json::parse(line, ec);
  const json::object* o = ec ? nullptr : v.if_object();
  if (!o || o->size() != 3) return std::nullopt;
  const json::value *id = o->if_contains("id"), *ply = o->if_contains("ply"), *moves = o->if_contains("moves");
  if (!id || !id->is_string() || !ply || !ply->is_int64() || ply->as_int64() < 1 || !moves || !moves->is_array())
    return std::nullopt;
  MoveValues out{std::string(id->as_string()), static_cast<int>(ply->as_int64()), {}};
  for (const json::value& entry : moves->as_array()) {
    const json::array* pair = entry.if_array();
    if (!pair || pair->size() != 2) return std::nullopt;
    const std::optional<Move> move = move_of((*pair)[0]);
    if (!move || (!(*pair)[1].is_null() && !(*pair)[1].is_int64())) return std::nullopt;
    std::optional<int> value;
    if ((*pair)[1].is_int64()) value = static_cast<int>((*pair)[1].as_int64());
    out.moves.emplace_back(*move, value);
  }
  return out;
}

MoveValues value_moves(analysis::Analyser& analyser, const GameRecord& game, std::size_t index) {
  MoveValues out{game.id, static_cast<int>(index) + 1, {}};
  Position p = game.initial_position();
  for (std::size_t i = 0; i < index; ++i) apply(game.variant, p, game.moves[i]);
  for (Move m : legal_moves(game.variant, p)) {
    const Position next = after(game.variant, p, m);
    // The next position's value is its mover's: the same player's after an extra turn (a swap changes seats).
    const bool same_player = (next.to_move == p.to_move) != m.is_swap();
    std::optional<int> value = analyser.value(game.variant, next);
    if (value && !same_player) value = -*value;
    out.moves.emplace_back(m, value);
  }
  return out;
}

Expected<GameVerdict> judge_ladder_game(const GameRecord& game, const analysis::GameAnalysis& analysis,
                                        const std::optional<MoveValues>& losing) {
  Expected<analysis::GameJudgement> judged = analysis::judge_game(game, analysis);
  if (!judged) return Error{judged.error()};
  GameVerdict out;
  out.id = game.id;
  out.result = to_string(game.result);
  out.termination = to_string(game.termination);
  out.plies = static_cast<int>(game.moves.size());
  out.south.engine = game.south;
  out.north.engine = game.north;
  for (const analysis::PlyJudgement& p : judged->plies) {
    out.proved += p.value.has_value();
    (p.mover == game.south ? out.south : out.north).quality.add(p);
  }
  out.losing_ply = judged->losing_ply;
  if (judged->losing_ply) {
    const bool fits = losing && losing->id == game.id && losing->ply == *judged->losing_ply + 1;
    out.losing =
        losing_move(game, judged->plies[static_cast<std::size_t>(*judged->losing_ply)], fits ? &*losing : nullptr);
  }
  return out;
}

bool is_revision_of(std::string_view public_name, std::string_view engine) {
  if (!engine.starts_with(public_name) || engine.substr(public_name.size(), 2) != "-r") return false;
  const std::string_view number = engine.substr(public_name.size() + 2);
  return !number.empty() && std::all_of(number.begin(), number.end(), [](char c) { return std::isdigit(c) != 0; });
}

json::object author_analysis_json(std::string_view public_name, const AuthorGames& games) {
  json::array shown;
  for (const GameVerdict& g : games.newest_first) {
    if (is_revision_of(public_name, g.south.engine))
      shown.push_back(side_json(g, true));
    else if (is_revision_of(public_name, g.north.engine))
      shown.push_back(side_json(g, false));
  }
  return json::object{
      {"games", games.games}, {"lost", games.lost}, {"losing_moves", games.losing_moves}, {"shown", std::move(shown)}};
}

}  // namespace kalah::season
