#include "referee/suite/run.h"

#include <chrono>
#include <string>

#include <fmt/core.h>

#include "referee/game/game.h"

namespace kalah::suite {

std::string legal_text(const Variant& v, const Position& p) {
  std::string text;
  for (Move m : legal_moves(v, p)) text += (text.empty() ? "" : " ") + to_string(m);
  return text;
}

std::vector<Answer> run_positions(EnginePlayer& player, const Variant& v,
                                  const std::vector<LabelledPosition>& positions, const RunSettings& settings,
                                  const std::function<void(std::size_t, const Answer&)>& report) {
  std::vector<Answer> answers;
  answers.reserve(positions.size());
  int unready_in_a_row = 0;
  std::string unready_detail;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const LabelledPosition& p = positions[i];
    Answer a;
    if (unready_in_a_row >= kMaxUnreadyInARow) {
      a.fault =
          Fault{Termination::Startup, "not sent: the engine could not be made ready for the last " +
                                          std::to_string(kMaxUnreadyInARow) + " positions (" + unready_detail + ")"};
    } else {
      player.set_seed(settings.seed_of ? settings.seed_of(i) : game_seed(settings.seed, "p" + std::to_string(i + 1)));
      if (std::optional<Fault> f = player.new_game(v, std::nullopt, settings.time)) {
        a.fault = Fault{f->kind, "on newgame: " + f->detail};
        unready_detail = f->detail;
        ++unready_in_a_row;
        player.forfeited();
      } else {
        unready_in_a_row = 0;
        kep::Go go;
        go.movetime = settings.time.movetime_ms;
        std::chrono::milliseconds allowed(settings.time.movetime_ms + settings.time.margin_ms);
        if (settings.go) {
          go = *settings.go;
          allowed = settings.allowed;
        }
        const Reply r = player.play(p.candidate.moves, go, allowed);
        a.elapsed_ms = r.elapsed_ms;
        a.score = r.info.score;
        if (r.fault)
          a.fault = r.fault;
        else if (r.elapsed_ms > static_cast<double>(allowed.count()))
          a.fault = Fault{Termination::Time,
                          fmt::format("answered after {:.0f} ms, allowed {} ms", r.elapsed_ms, allowed.count())};
        else if (!is_legal(v, p.candidate.position, r.move))
          a.fault = Fault{Termination::Illegal,
                          "bestmove " + to_string(r.move) + " (legal: " + legal_text(v, p.candidate.position) + ")"};
        else
          a.move = r.move;
        if (a.fault) {
          a.score.reset();
          player.forfeited();
        }
      }
    }
    report(i, a);
    answers.push_back(std::move(a));
  }
  return answers;
}

}  // namespace kalah::suite
