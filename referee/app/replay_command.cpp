#include <boost/json.hpp>
#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/rules/position.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

// The position after a game, in the format of tests/data/rules-vectors.jsonl.
boost::json::object describe(const Variant& v, const Position& p) {
  boost::json::array board;
  for (int i = 0; i < v.cells(); ++i) board.push_back(p.cells[i]);
  boost::json::object out;
  out["board"] = std::move(board);
  out["to_move"] = to_string(p.to_move);
  out["over"] = p.over;
  out["stores"] = boost::json::array{store(v, p, Side::South), store(v, p, Side::North)};
  const Outcome o = outcome(v, p);
  if (o == Outcome::Ongoing)
    out["result"] = nullptr;
  else
    out["result"] = to_string(o);
  return out;
}

struct ReplayOptions {
  std::string variant;
  std::string start;
  std::string moves;
};

int run_replay(const ReplayOptions& o) {
  Expected<Variant> variant = parse_variant(o.variant);
  if (!variant) throw UsageError(variant.error());
  Position p = parse_start_option(*variant, o.start).value_or(start_position(*variant));
  int ply = 0;
  for (std::string_view rest = o.moves; !rest.empty();) {
    const size_t space = rest.find(' ');
    const std::string_view word = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
    if (word.empty()) continue;
    ++ply;
    Expected<Move> move = parse_move(word);
    if (!move) throw UsageError(fmt::format("move {}: {}", ply, move.error()));
    if (!is_legal(*variant, p, *move)) {
      std::string legal;
      for (Move m : legal_moves(*variant, p)) legal += (legal.empty() ? "" : " ") + to_string(m);
      throw UsageError(fmt::format("move {}: '{}' is illegal here (legal: {})", ply, word,
                                   legal.empty() ? "none, the game is over" : legal));
    }
    apply(*variant, p, *move);
  }
  fmt::print("{}\n", boost::json::serialize(describe(*variant, p)));
  return 0;
}

}  // namespace

std::optional<Position> parse_start_option(const Variant& v, const std::string& text) {
  if (text.empty()) return std::nullopt;
  Expected<Position> start = parse_start(v, text);
  if (!start) throw UsageError("--start: " + start.error());
  return *start;
}

void add_start_option(CLI::App* command, std::string& text) {
  command->add_option("--start", text,
                      "Start position instead of the variant's: \"<South's pits>/<North's pits> <South store>-<North "
                      "store> <S|N>\", e.g. \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S\"");
}

void add_replay_command(cli::Commands& commands) {
  auto [cmd, opts] = commands.add<ReplayOptions>(
      "replay", "Play a move list from the start and print the position as JSON", run_replay);
  cmd->add_option("--variant", opts->variant, "Variant tokens; missing keys are standard");
  add_start_option(cmd, opts->start);
  cmd->add_option("--moves", opts->moves, "Moves separated by spaces: pit numbers 1..m or 'swap'");
}

}  // namespace kalah::referee_app
