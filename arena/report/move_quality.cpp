#include "arena/report/move_quality.h"

#include <algorithm>

#include <fmt/format.h>

#include "arena/report/text_util.h"

namespace kalah::report {

const analysis::EngineQuality* MoveQuality::find(const std::string& engine) const {
  const auto it = engines.find(engine);
  return it == engines.end() ? nullptr : &it->second;
}

std::string blunder_rule() {
  return fmt::format("blunder: a move that loses ≥ {} (store difference)", analysis::kBlunderLoss);
}

std::string move_quality_explained(const MoveQuality& q) {
  return fmt::format(
      "Move quality from the perfect-play analysis (analysis.jsonl) of {} game{}. Mean loss: what a move gives "
      "away against perfect play, per judged move, as a store difference (a seed that changes hands counts 2). "
      "Perfect: the share of judged moves that lose nothing. Blunders: how many ({}). Analysed: judged moves / "
      "all the engine's moves (forced opening plies left out); a move is judged where the analysis proved its "
      "loss.",
      q.games, q.games == 1 ? "" : "s", blunder_rule());
}

std::string mean_loss_text(const analysis::EngineQuality& q) { return q.judged ? fixed(q.mean_loss(), 2) : "–"; }
std::string perfect_text(const analysis::EngineQuality& q) { return q.judged ? percent(q.perfect_share(), 0) : "–"; }
std::string analysed_text(const analysis::EngineQuality& q) { return fmt::format("{}/{}", q.judged, q.moves); }

MoveQualityBuilder::MoveQualityBuilder(std::map<std::string, AnalysisSource> sources) : sources_(std::move(sources)) {}

void MoveQualityBuilder::warn(std::string text) {
  if (warnings_.size() < kMaxAnalysisWarnings)
    warnings_.push_back(std::move(text));
  else
    ++unshown_warnings_;
}

std::optional<analysis::GameJudgement> MoveQualityBuilder::add(const GameRecord& game, const std::string& tournament) {
  const auto source = sources_.find(tournament);
  if (source != sources_.end()) {
    if (const auto misfit = source->second.misfits.find(game.id); misfit != source->second.misfits.end()) {
      warn(fmt::format("{}: {}; its analysis line is ignored", source->second.label,
                       analysis::plies_mismatch(game, misfit->second)));
      source->second.misfits.erase(misfit);
    }
    const auto line = source->second.games.find(game.id);
    if (line != source->second.games.end()) {
      Expected<analysis::GameJudgement> judged = analysis::judge_game(game, line->second);
      // Each line is used once: those left at the end name games that are in no journal.
      source->second.games.erase(line);
      if (judged) {
        ++quality_.games;
        analysis::add_game(quality_.engines, *judged);
        return std::move(judged).value();
      }
      warn(fmt::format("{}: {}; its analysis line is ignored", source->second.label, judged.error()));
    }
  }
  // Not analysed: its moves count, none of them judged.
  analysis::GameAnalysis none{game.id, std::vector<std::optional<int>>(game.moves.size()),
                              std::vector<std::optional<int>>(game.moves.size())};
  // A move the rules refuse stops the game's replay in report.html too; its moves are not counted then.
  if (Expected<analysis::GameJudgement> movers = analysis::judge_game(game, none))
    analysis::add_game(quality_.engines, *movers);
  return std::nullopt;
}

MoveQuality MoveQualityBuilder::finish(std::vector<std::string>& warnings) {
  for (auto& [tournament, source] : sources_) {
    // The lines no game used, by id: those kept (the journals changed between the two reads) and the
    // smallest of those for games in no journal; the others of these are counted.
    const std::size_t unnamed = source.unknown - std::min(source.unknown, source.unknown_named.size());
    std::set<std::string> unused = std::move(source.unknown_named);
    for (const auto& [id, line] : source.games) unused.insert(id);
    for (const auto& [id, plies] : source.misfits) unused.insert(id);
    for (const std::string& id : unused)
      warn(fmt::format("{}: game '{}' is in no journal read; its analysis line is ignored", source.label, id));
    unshown_warnings_ += unnamed;
  }
  sources_.clear();
  for (std::string& w : warnings_) warnings.push_back(std::move(w));
  if (unshown_warnings_ > 0)
    warnings.push_back(fmt::format("{} more analysis line{} ignored (only the first {} are named)", unshown_warnings_,
                                   unshown_warnings_ == 1 ? " was" : "s were", kMaxAnalysisWarnings));
  warnings_.clear();
  unshown_warnings_ = 0;
  return std::move(quality_);
}

namespace {

const analysis::EngineQuality kNone{};

const analysis::EngineQuality& of(const MoveQuality& q, const std::string& engine) {
  const analysis::EngineQuality* found = q.find(engine);
  return found ? *found : kNone;
}

// A row of the move-quality tables: the engine, its figures and its place by mean loss.
struct QualityRow {
  const rating::EngineStanding* engine;
  const analysis::EngineQuality* quality;
  std::string rank;  // "1", "2=" when another engine has the same mean loss, "-" without a judged move
};

// The tables' order: by mean loss, the least first; a tie, and the engines without a judged move (last, unranked),
// in the standings' order.
std::vector<QualityRow> by_mean_loss(const rating::Standings& s, const MoveQuality& q) {
  std::vector<QualityRow> rows;
  for (const rating::EngineStanding& e : s.engines) rows.push_back({&e, &of(q, e.name), "-"});
  std::stable_sort(rows.begin(), rows.end(), [](const QualityRow& a, const QualityRow& b) {
    if ((a.quality->judged > 0) != (b.quality->judged > 0)) return a.quality->judged > 0;
    return a.quality->judged > 0 && a.quality->mean_loss() < b.quality->mean_loss();
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].quality->judged == 0) continue;
    std::size_t first = i;
    while (first > 0 && rows[first - 1].quality->mean_loss() == rows[i].quality->mean_loss()) --first;
    const bool shared = first < i || (i + 1 < rows.size() && rows[i + 1].quality->judged > 0 &&
                                      rows[i + 1].quality->mean_loss() == rows[i].quality->mean_loss());
    rows[i].rank = std::to_string(first + 1) + (shared ? "=" : "");
  }
  return rows;
}

}  // namespace

std::string move_quality_order_text() {
  return "Ranked by mean loss, the least first, not in the standings' order (engines without a judged move last, "
         "unranked).";
}

std::string move_quality_text(const rating::Standings& s, const MoveQuality& q) {
  std::size_t width = 6;
  for (const rating::EngineStanding& e : s.engines) width = std::max(width, e.name.size());
  std::string out = fmt::format("Move quality from analysis.jsonl ({} game{} analysed; {}), ranked by mean loss:\n",
                                q.games, q.games == 1 ? "" : "s", blunder_rule());
  out += fmt::format("{:>4}  {:<{}}  {:>9}  {:>7}  {:>8}  {:>13}\n", "Rank", "Engine", width, "Mean loss", "Perfect",
                     "Blunders", "Analysed");
  for (const QualityRow& row : by_mean_loss(s, q)) {
    const analysis::EngineQuality& x = *row.quality;
    // ASCII in the terminal's columns: fmt pads by code points, and a dash of three bytes would shift them.
    out +=
        fmt::format("{:>4}  {:<{}}  {:>9}  {:>7}  {:>8}  {:>13}\n", row.rank, row.engine->name, width,
                    x.judged ? mean_loss_text(x) : "-", x.judged ? perfect_text(x) : "-", x.blunders, analysed_text(x));
  }
  return out;
}

std::string move_quality_markdown(const rating::Standings& s, const MoveQuality& q) {
  std::string out = "\n## Move quality\n\n" + markdown_escape(move_quality_explained(q)) + " " +
                    markdown_escape(move_quality_order_text()) + "\n\n";
  out += "| Rank | Engine | Mean loss | Perfect | Blunders | Analysed |\n|---:|:---|---:|---:|---:|---:|\n";
  for (const QualityRow& row : by_mean_loss(s, q)) {
    const analysis::EngineQuality& x = *row.quality;
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", row.rank == "-" ? "–" : row.rank,
                       markdown_escape(row.engine->name), mean_loss_text(x), perfect_text(x), x.blunders,
                       analysed_text(x));
  }
  return out;
}

std::string move_quality_html(const rating::Standings& s, const MoveQuality& q) {
  std::string out = "<h2 id=\"move-quality\">Move quality</h2>\n<p class=\"note\">" +
                    html_escape(move_quality_explained(q)) + " " + html_escape(move_quality_order_text()) +
                    " A game's losses are on its graph in the viewer below; an engine's page lists its worst "
                    "moves.</p>\n<div class=\"scroll\"><table><thead><tr><th>Rank</th><th class=\"name\">Engine</th>"
                    "<th>Mean loss</th><th>Perfect</th><th>Blunders</th><th>Analysed</th></tr></thead><tbody>\n";
  for (const QualityRow& row : by_mean_loss(s, q)) {
    const analysis::EngineQuality& x = *row.quality;
    out += fmt::format("<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       row.rank == "-" ? "–" : row.rank, html_escape(row.engine->name), mean_loss_text(x),
                       perfect_text(x), x.blunders, analysed_text(x));
  }
  return out + "</tbody></table></div>\n";
}

std::string move_quality_csv_header() {
  return fmt::format(",mean_loss,perfect_pct,blunders_loss_ge_{},judged_moves,moves", analysis::kBlunderLoss);
}

std::string move_quality_csv_cells(const analysis::EngineQuality* q) {
  const analysis::EngineQuality& x = q ? *q : kNone;
  return fmt::format(",{},{},{},{},{}", x.judged ? fixed(x.mean_loss(), 2) : "",
                     x.judged ? fixed(100 * x.perfect_share(), 1) : "", x.blunders, x.judged, x.moves);
}

}  // namespace kalah::report
