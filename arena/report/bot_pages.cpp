#include "arena/report/bot_pages.h"

#include <algorithm>
#include <cstdint>

#include <fmt/core.h>

#include "arena/report/move_quality.h"
#include "arena/report/text_util.h"

namespace kalah::report {

namespace {

constexpr const char* kStyle = R"css(
:root{--fg:#222;--bg:#fafafa;--card:#fff;--line:#ddd;--head:#f0f0f0;--muted:#555;--code:#f4f4f4}
@media (prefers-color-scheme:dark){:root{--fg:#ddd;--bg:#161616;--card:#1f1f1f;--line:#444;--head:#2a2a2a;--muted:#aaa;--code:#222}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1em 1.5em;color:var(--fg);background:var(--bg)}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid var(--line)}h3{font-size:1.05em;margin-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0;background:var(--card)}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap}
th{background:var(--head)}td.name,th.name{text-align:left}
a{color:inherit}p.note{color:var(--muted);max-width:60em}
.scroll{max-width:100%;overflow-x:auto}
pre{background:var(--code);border:1px solid var(--line);padding:.5em;max-height:30em;overflow:auto;white-space:pre-wrap;word-break:break-all}
div.forfeit{border-left:4px solid #c44;padding-left:.8em;margin:1em 0}
p.entry{background:#fff3cd;color:#222;border:1px solid #e0c060;padding:.4em .6em;max-width:60em}
summary{cursor:pointer}
)css";

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string result_word(double points) { return points == 1 ? "win" : points == 0 ? "loss" : "draw"; }

std::string viewer_link(const std::string& id) {
  return fmt::format("<a href=\"../report.html#game-{0}/end\">replay {0}</a>", html_escape(id));
}

std::string forfeit_section(const BotResults& bot, const std::map<std::string, ShownTranscript>& transcripts) {
  if (bot.forfeits == 0) return "<h2>Forfeits</h2>\n<p>None: every game ended by the rules or the referee.</p>\n";
  std::map<Termination, long long> by_reason;
  for (const BotGame& g : bot.forfeit_games) ++by_reason[g.forfeit->reason];
  std::string reasons;
  for (const auto& [reason, count] : by_reason)
    reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", count, to_string(reason));
  std::string out = fmt::format(
      "<h2>Forfeits</h2>\n<p>{} forfeit{}{}. Each says why the referee stopped the game; where the arena kept "
      "the game's transcript (<code>[tournament] transcripts</code>), it follows with every line exchanged and the "
      "end of what the engine wrote to stderr. <code>referee replay-transcript</code> plays the game again with "
      "another build of the engine (docs/WRITING_A_BOT.md, \"Why did my bot lose?\").</p>\n",
      bot.forfeits, bot.forfeits == 1 ? "" : "s", reasons.empty() ? "" : " (" + reasons + ")");
  if (bot.forfeits > static_cast<long long>(bot.forfeit_games.size()))
    out += fmt::format("<p class=\"note\">The first {} are listed.</p>\n", bot.forfeit_games.size());
  std::size_t inline_shown = 0;
  for (const BotGame& g : bot.forfeit_games) {
    out += fmt::format("<div class=\"forfeit\" id=\"forfeit-{}\">\n<h3>{}, round {}, as {} against {}: {}</h3>\n",
                       html_escape(g.id), html_escape(g.id), g.round, g.south ? "South" : "North",
                       html_escape(g.opponent), to_string(g.forfeit->reason));
    out += "<p>" + html_escape(g.forfeit->detail) + "</p>\n";
    out += "<p>" + viewer_link(g.id);
    const auto t = transcripts.find(g.id);
    if (t != transcripts.end()) out += fmt::format(" · <a href=\"../{0}\">{0}</a>", html_escape(t->second.file));
    out += "</p>\n";
    if (t == transcripts.end()) {
      out += "<p class=\"note\">No transcript was kept for this game.</p>\n</div>\n";
      continue;
    }
    const ShownTranscript& shown = t->second;
    if (!shown.error.empty()) {
      out += "<p class=\"note\">The transcript could not be read: " + html_escape(shown.error) + "</p>\n</div>\n";
      continue;
    }
    if (inline_shown++ >= kBotPageTranscripts) {
      out += "<p class=\"note\">The transcript is in the file above (this page shows the first " +
             std::to_string(kBotPageTranscripts) + " inline).</p>\n</div>\n";
      continue;
    }
    const auto lines = std::count(shown.lines.begin(), shown.lines.end(), '\n');
    out += fmt::format("<details><summary>Protocol transcript ({} lines)</summary>\n<pre>{}</pre>\n</details>\n", lines,
                       html_escape(shown.lines));
    if (shown.stderr_tail)
      out += fmt::format(
          "<details open><summary>stderr in this game: the last {} of {} bytes</summary>\n<pre>{}</pre>\n"
          "</details>\n",
          shown.stderr_tail->size(), shown.stderr_total, html_escape(*shown.stderr_tail));
    else
      out += "<p class=\"note\">It wrote nothing to stderr in this game.</p>\n";
    out += "</div>\n";
  }
  return out;
}

// Its move quality and its worst moves, each with a link that opens the viewer after that move.
std::string quality_section(const BotResults& bot, const analysis::EngineQuality& q) {
  std::string out = fmt::format(
      "<h2 id=\"move-quality\">Move quality</h2>\n<p>Mean loss {} per judged move, {} perfect moves, {} "
      "blunder{}; {} of its {} moves analysed.</p>\n<p class=\"note\">From the perfect-play analysis of the games "
      "(analysis.jsonl). A move's loss is what it gives away against perfect play, as a store difference (a seed "
      "that changes hands counts 2); {}. The mean and the share of perfect moves are over the judged moves: those "
      "whose loss the analysis proved (forced opening plies are nobody's choice and left out).</p>\n",
      mean_loss_text(q), perfect_text(q), q.blunders, q.blunders == 1 ? "" : "s", q.judged, q.moves, blunder_rule());
  out += "<h3>Worst moves</h3>\n";
  if (bot.worst_moves.empty()) return out + "<p>None: no judged move of it lost anything.</p>\n";
  out += fmt::format(
      "<p class=\"note\">Its {} largest losses. The link opens the game in report.html's viewer after the "
      "move.</p>\n<div class=\"scroll\"><table><thead><tr><th class=\"name\">Game</th><th>Ply</th>"
      "<th class=\"name\">Opponent</th><th>Loss</th><th>Value before</th><th class=\"name\"></th><th></th></tr>"
      "</thead><tbody>\n",
      bot.worst_moves.size());
  for (const WorstMove& m : bot.worst_moves)
    out += fmt::format(
        "<tr><td class=\"name\">{0}</td><td>{1}</td><td class=\"name\">{2}</td><td>{3}</td><td>{4}</td>"
        "<td class=\"name\">{5}</td><td><a href=\"../report.html#game-{0}/{1}\">replay {0} at ply {1}</a></td></tr>\n",
        html_escape(m.id), m.ply, html_escape(m.opponent), m.loss, m.value ? std::to_string(*m.value) : "–",
        m.lost_game ? "the move that lost the game" : "");
  return out + "</tbody></table></div>\n";
}

}  // namespace

std::string page_file_name(const std::string& name) {
  std::string file;
  for (char c : name) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    file += plain ? c : '_';
  }
  if (!file.empty() && file.front() == '.') file.front() = '_';  // no hidden file, no ".."
  if (file != name) file += fmt::format("-{:08x}", static_cast<std::uint32_t>(fnv1a(name)));
  return file;
}

std::string_view page_style() { return kStyle; }

std::string bot_page_path(const std::string& engine) { return "bots/" + page_file_name(engine) + ".html"; }

BotPagesBuilder::BotPagesBuilder(const std::vector<std::string>& engine_names,
                                 const arena::TournamentDescription& description)
    : description_(description) {
  for (const std::string& name : engine_names) bot(name);
}

BotResults& BotPagesBuilder::bot(const std::string& name) {
  auto [it, added] = bots_.try_emplace(name);
  BotResults& b = it->second;
  if (added) {
    b.name = name;
    if (const auto entry = description_.entries.find(name); entry != description_.entries.end())
      b.entry = entry->second;
  }
  return b;
}

void BotPagesBuilder::add(const GameRecord& game, const std::string& journal_dir) {
  const double south_points = game.result == Outcome::FirstWins ? 1 : game.result == Outcome::Draw ? 0.5 : 0;
  const bool voided = bot(game.south).entry.games_kept == false || bot(game.north).entry.games_kept == false;
  for (const bool south : {true, false}) {
    BotResults& b = bot(south ? game.south : game.north);
    BotGame g{game.id,
              game.round,
              south,
              south ? game.north : game.south,
              south ? south_points : 1 - south_points,
              game.termination,
              std::nullopt,
              game.moves.size(),
              journal_dir};
    if (game.forfeit && game.forfeit->engine == b.name) g.forfeit = game.forfeit;
    g.voided = voided;
    if (voided) {
      ++b.voided;
    } else {
      ++b.games;
      BotResults::VersusOpponent& v = b.versus[g.opponent];
      (g.points == 1 ? v.wins : g.points == 0 ? v.losses : v.draws)++;
      v.points += g.points;
    }
    if (g.forfeit) {
      ++b.forfeits;
      if (b.forfeit_games.size() < kBotPageForfeits) b.forfeit_games.push_back(g);
    }
    b.recent.push_back(std::move(g));
    if (b.recent.size() > kBotPageGames) b.recent.pop_front();
  }
}

void BotPagesBuilder::add_judgement(const GameRecord& game, const analysis::GameJudgement& judgement) {
  for (const analysis::PlyJudgement& p : judgement.plies) {
    if (p.opening || !p.loss || *p.loss == 0) continue;
    std::vector<WorstMove>& worst = bot(p.mover).worst_moves;
    if (worst.size() == kBotPageWorstMoves && worst.back().loss >= *p.loss) continue;
    WorstMove m{game.id,
                p.ply + 1,
                *p.loss,
                p.value,
                p.mover == game.south ? game.north : game.south,
                judgement.losing_ply == p.ply};
    // After the moves that lost as much: the one read first stays first.
    const auto at = std::upper_bound(worst.begin(), worst.end(), m.loss,
                                     [](int loss, const WorstMove& other) { return loss > other.loss; });
    worst.insert(at, std::move(m));
    if (worst.size() > kBotPageWorstMoves) worst.pop_back();
  }
}

std::string bot_page_html(const BotResults& bot, const std::string& event,
                          const std::map<std::string, ShownTranscript>& transcripts, double bye_points,
                          const analysis::EngineQuality* quality) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + html_escape(bot.name) + " – " + html_escape(event) + "</title>\n<style>" + kStyle +
         "</style>\n</head>\n<body>\n";
  out += "<h1>" + html_escape(bot.name) + "</h1>\n";
  out += "<p><a href=\"../report.html\">" + html_escape(event) + ": standings and every game</a></p>\n";
  const arena::EntryDescription& entry = bot.entry;
  if (entry.status)
    out += fmt::format("<p class=\"entry\"><b>{}</b>{}. Its games are {}.</p>\n",
                       entry.status == arena::EntryStatus::Withdrawn      ? "Withdrawn"
                       : entry.status == arena::EntryStatus::Disqualified ? "Disqualified"
                                                                          : "active",
                       entry.reason.value_or("").empty() ? "" : ": " + html_escape(*entry.reason),
                       entry.games_kept == false ? "voided: left out of the standings, ratings and tie-breaks"
                                                 : "kept in the standings");
  if (entry.gate && !entry.gate->empty())
    out += "<p class=\"entry\">Entered through the contest's sanity gate: " + html_escape(*entry.gate) + ".</p>\n";

  int wins = 0, draws = 0, losses = 0;
  double points = 0;
  for (const auto& [opponent, v] : bot.versus) wins += v.wins, draws += v.draws, losses += v.losses, points += v.points;
  // A Swiss bye's points count in the total as in every table; the score is the games' own.
  std::string score = percent(bot.games > 0 ? points / static_cast<double>(bot.games) : 0, 1);
  if (bye_points > 0)
    score =
        fmt::format("{} of them for byes, points without a game; {} of the games' points", fixed(bye_points, 1), score);
  out +=
      fmt::format("<h2>Results</h2>\n<p>{} games, {} points ({}), {} wins, {} draws, {} losses, {} by forfeit.</p>\n",
                  bot.games, fixed(points + bye_points, 1), score, wins, draws, losses, bot.forfeits);
  if (bot.voided > 0)
    out += fmt::format(
        "<p class=\"note\">{} more game{} voided (played against or by an entrant whose games were voided): listed "
        "below, not counted.</p>\n",
        bot.voided, bot.voided == 1 ? " was" : "s were");
  out +=
      "<div class=\"scroll\"><table><thead><tr><th class=\"name\">Opponent</th><th>Games</th><th>W</th><th>D</th>"
      "<th>L</th><th>Points</th><th>Score</th></tr></thead><tbody>\n";
  for (const auto& [opponent, v] : bot.versus) {
    const int games = v.wins + v.draws + v.losses;
    out += fmt::format(
        "<tr><td class=\"name\"><a href=\"../{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        html_escape(bot_page_path(opponent)), html_escape(opponent), games, v.wins, v.draws, v.losses,
        fixed(v.points, 1), percent(games > 0 ? v.points / games : 0, 1));
  }
  out += "</tbody></table></div>\n";

  if (quality) out += quality_section(bot, *quality);
  out += forfeit_section(bot, transcripts);

  out += "<h2>Games</h2>\n";
  if (bot.games + bot.voided > static_cast<long long>(bot.recent.size()))
    out +=
        fmt::format("<p class=\"note\">The last {} of its {} games.</p>\n", bot.recent.size(), bot.games + bot.voided);
  out +=
      "<div class=\"scroll\"><table><thead><tr><th class=\"name\">Game</th><th>Round</th><th>Side</th>"
      "<th class=\"name\">Opponent</th><th>Result</th><th class=\"name\">Termination</th><th>Plies</th>"
      "<th></th></tr></thead><tbody>\n";
  for (const BotGame& g : bot.recent) {
    std::string termination = to_string(g.termination);
    if (g.forfeit)
      termination = fmt::format("<a href=\"#forfeit-{}\">{} (its forfeit)</a>", html_escape(g.id), termination);
    out += fmt::format(
        "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td class=\"name\">{}</td><td>{}</td>"
        "<td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>\n",
        html_escape(g.id), g.round, g.south ? "South" : "North", html_escape(g.opponent),
        g.voided ? result_word(g.points) + " (voided)" : result_word(g.points), termination, g.plies,
        viewer_link(g.id));
  }
  out += "</tbody></table></div>\n</body>\n</html>\n";
  return out;
}

}  // namespace kalah::report
