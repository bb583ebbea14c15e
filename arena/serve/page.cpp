#include "arena/serve/page.h"

#include <cctype>
#include <string>

#include <fmt/core.h>

#include "arena/report/html_viewer.h"
#include "arena/report/text_util.h"
#include "arena/serve/author_page.h"

namespace kalah::serve {

namespace {

constexpr std::string_view kIndex = R"KALAH(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kalah Arena</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header><h1><a href="#">Kalah Arena</a></h1><span id="status"></span></header>
<main>
<section id="list"><h2>Tournaments</h2>
<table><thead><tr><th>name</th><th>kind</th><th>games</th><th>leader</th></tr></thead><tbody id="tournaments"></tbody></table>
</section>
<section id="tournament" hidden>
<h2 id="name"></h2>
<p id="summary" class="note"></p>
<div id="sprt" hidden>
<h3>SPRT</h3>
<p id="sprt-text"></p>
<svg id="sprt-gauge" viewBox="0 0 600 170" role="img" aria-label="the LLR over the pairs, between its bounds"></svg>
</div>
<div id="ranking-box" hidden>
<h3>Ranking</h3>
<div class="scroll"><table><thead><tr><th>#</th><th>engine</th><th>points</th><th>W-D-L</th><th>status</th></tr></thead><tbody id="ranking"></tbody></table></div>
</div>
<h3>Standings</h3>
<div class="scroll"><table><thead><tr><th>#</th><th>engine</th><th>points</th><th>games</th><th>W-D-L</th><th>Elo</th><th title="the 95% interval of the engine's rank">rank 95%</th></tr></thead><tbody id="standings"></tbody></table></div>
<p id="intervals" class="note"></p>
<h3>Games in flight</h3>
<div id="flight"></div>
<h3>Finished</h3>
<ol id="finished" reversed></ol>
<h3>All games</h3>
<p id="past-note" class="note"></p>
<ol id="past"></ol>
<p><button id="past-more" type="button" hidden>More games</button></p>
<h3>Crosstable</h3>
<p class="note">Points of the row engine against the column engine / games; W-D-L on hover.</p>
<div class="scroll"><table id="crosstable"></table></div>
<div id="analysis-box" hidden>
<h3>Move quality</h3>
<p id="analysis-note" class="note"></p>
<div class="scroll"><table><thead><tr><th>engine</th><th>moves</th><th>judged</th><th>perfect</th><th>blunders</th><th>mean loss</th></tr></thead><tbody id="analysis"></tbody></table></div>
</div>
</section>
</main>
</body>
</html>
)KALAH";

// The script, in two parts: what the standings document shows (standings, ranking, crosstable, SPRT, analysis),
// then the list, the live stream and the games.
constexpr std::string_view kStandingsScript = R"KALAH('use strict';
// Kalah Arena's live page: the list of tournaments, then one tournament's standings and games over its
// Server-Sent Events. Every string from the server is set as text, never as markup.
const token = new URLSearchParams(location.search).get('token');
const withToken = (path) => token ? path + '?token=' + encodeURIComponent(token) : path;
const withQuery = (path, params) => {
  const query = new URLSearchParams(params);
  if (token) query.set('token', token);
  return path + '?' + query.toString();
};
const $ = (id) => document.getElementById(id);
const cell = (row, text, title) => {
  const td = document.createElement('td'); td.textContent = text ?? ''; if (title) td.title = title;
  row.appendChild(td); return td;
};
const fixed = (x, d) => typeof x === 'number' ? x.toFixed(d) : '';
const wdl = (x) => x.wins + '-' + x.draws + '-' + x.losses;
const svgNS = 'http://www.w3.org/2000/svg';

function rankInterval(e) {
  if (typeof e.rank_low !== 'number') return '';
  return e.rank_low === e.rank_high ? String(e.rank_low) : e.rank_low + '–' + e.rank_high;
}

function showEngines(standings) {
  const body = $('standings');
  body.replaceChildren();
  for (const e of standings.engines) {
    const row = document.createElement('tr');
    cell(row, typeof e.rank === 'number' ? e.rank : (e.status || '')); cell(row, e.name); cell(row, e.points); cell(row, e.games); cell(row, wdl(e));
    cell(row, typeof e.elo === 'number' ? (e.elo >= 0 ? '+' : '') + e.elo.toFixed(0) + ' ± ' + fixed(e.ci95, 0) : '');
    cell(row, rankInterval(e));
    body.appendChild(row);
  }
  const r = standings.rank_intervals;
  $('intervals').textContent = r ? 'Rank 95%: the ranks each engine reached in ' + r.level + ' of ' + r.replicates +
      ' tournaments replayed from its results (' + r.method + ', by ' + r.order + ').' : '';
}

function showRanking(ranking) {
  $('ranking-box').hidden = !ranking;
  const body = $('ranking');
  body.replaceChildren();
  if (!ranking) return;
  for (const e of ranking.rows) {
    const row = document.createElement('tr');
    cell(row, e.rank_text); cell(row, e.name); cell(row, e.points); cell(row, wdl(e)); cell(row, e.status, e.reason);
    body.appendChild(row);
  }
}

function showCrosstable(crosstable) {
  const table = $('crosstable');
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  head.appendChild(document.createElement('th'));
  for (const c of crosstable) head.appendChild(document.createElement('th')).textContent = c.name;
  const body = table.createTBody();
  for (const r of crosstable) {
    const row = body.insertRow();
    row.appendChild(document.createElement('th')).textContent = r.name;
    for (const c of crosstable) {
      const x = r.against[c.name];
      const td = cell(row, x ? x.points + '/' + x.games : '', x ? wdl(x) + ' (W-D-L)' : '');
      if (c.name === r.name) td.className = 'self';
    }
  }
}

// The SPRT's gauge: the LLR after each pair as a line between its bounds, the decision when it comes.
function showSprt(sprt) {
  $('sprt').hidden = !sprt;
  const svg = $('sprt-gauge');
  svg.replaceChildren();
  if (!sprt) return;
  const decided = {H1: 'H1 accepted', H0: 'H0 accepted', continue: 'running'}[sprt.decision] ?? sprt.decision;
  $('sprt-text').textContent = sprt.base + ' vs ' + sprt.test + ': LLR ' + fixed(sprt.llr, 2) + ' in [' +
      fixed(sprt.lower, 2) + ', ' + fixed(sprt.upper, 2) + '] after ' + sprt.pairs + ' pairs (' + sprt.games +
      ' games); ' + decided + '. Elo ' + fixed(sprt.elo, 1) + ' ± ' + fixed(sprt.elo95, 1) + ', LOS ' +
      fixed(100 * sprt.los, 1) + '%.';
  const course = sprt.llr_by_pair ?? [];
  const W = 600, H = 170, left = 40, right = 10, top = 10, bottom = 20;
  const hi = course.reduce((a, v) => Math.max(a, v), sprt.upper) * 1.1;
  const lo = course.reduce((a, v) => Math.min(a, v), sprt.lower) * 1.1;
  const n = Math.max(1, course.length, sprt.params ? Math.min(sprt.params.max_pairs || 0, 2 * course.length) : 0);
  const X = (i) => left + i / n * (W - left - right), Y = (v) => top + (hi - v) / (hi - lo) * (H - top - bottom);
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(svgNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e); return e;
  };
  for (const [v, name, colour] of [[sprt.upper, 'H1', '#2a8a2a'], [0, '0', '#888'], [sprt.lower, 'H0', '#c44']]) {
    mk('line', {x1: left, x2: W - right, y1: Y(v), y2: Y(v), stroke: colour, 'stroke-dasharray': v ? '6 3' : ''});
    mk('text', {x: 2, y: Y(v) + 4, class: 'axis'}, name + ' ' + fixed(v, 2));
  }
  const points = [[0, 0], ...course.map((v, i) => [i + 1, v])];
  mk('polyline', {id: 'sprt-course', points: points.map(([i, v]) => X(i) + ',' + Y(v)).join(' '), fill: 'none',
      stroke: '#4a7bd0', 'stroke-width': 2});
  mk('circle', {cx: X(course.length), cy: Y(sprt.llr), r: 4, fill: '#4a7bd0'});
  const most = sprt.params && sprt.params.max_pairs > 0 ? ' of at most ' + sprt.params.max_pairs : '';
  mk('text', {x: left, y: H - 4, class: 'axis'}, 'pairs: ' + sprt.pairs + most);
}

function showAnalysis(standings) {
  const a = standings.analysis;
  $('analysis-box').hidden = !a;
  const body = $('analysis');
  body.replaceChildren();
  if (!a) return;
  $('analysis-note').textContent = a.games + ' games analysed (' + a.file + '); loss in ' + a.unit + '; ' + a.blunder + '.';
  for (const e of standings.engines) {
    if (!e.analysis) continue;
    const row = document.createElement('tr');
    const q = e.analysis;
    cell(row, e.name); cell(row, q.moves); cell(row, q.judged);
    cell(row, typeof q.perfect_pct === 'number' ? q.perfect + ' (' + q.perfect_pct.toFixed(1) + '%)' : q.perfect);
    cell(row, q.blunders); cell(row, fixed(q.mean_loss, 2));
    body.appendChild(row);
  }
}

function showStandings(standings) {
  $('summary').textContent = standings.games + ' games' + (standings.engines.length ? '; leading: ' +
      standings.engines[0].name : '');
  showSprt(standings.sprt);
  showRanking(standings.ranking);
  showEngines(standings);
  showCrosstable(standings.crosstable);
  showAnalysis(standings);
}
)KALAH";

constexpr std::string_view kStreamScript = R"KALAH(
let source = null, shown = '', pastNext = null;
const games = new Map();  // game id -> {element, plies}

async function showList() {
  const answer = await fetch(withToken('/api/tournaments'));
  const list = await answer.json();
  const body = $('tournaments');
  body.replaceChildren();
  for (const t of list.tournaments) {
    const row = document.createElement('tr');
    const link = document.createElement('a');
    link.href = '#' + encodeURIComponent(t.name);
    link.textContent = t.name;
    row.appendChild(document.createElement('td')).appendChild(link);
    cell(row, t.kind);
    cell(row, t.planned === null ? String(t.games) : t.games + ' / ' + t.planned + (t.running ? ' (running)' : ''));
    cell(row, t.leader);
    body.appendChild(row);
  }
}

function showPly(ply) {
  let game = games.get(ply.game);
  if (!game) {
    const element = document.createElement('p');
    element.className = 'game';
    game = {element, plies: []};
    games.set(ply.game, game);
    $('flight').appendChild(element);
  }
  if (ply.ply !== game.plies.length) return;  // seen already (a replay after a reconnect)
  game.plies.push(ply.move);
  const clocks = ply.clocks_ms.map((c) => c === null ? '' : (c / 1000).toFixed(1) + ' s').join(' / ');
  game.element.textContent = ply.game + ': ' + game.plies.join(' ') + '  (' + ply.mover + ' moved' +
      (clocks.trim() === '/' ? '' : '; clocks ' + clocks) + ')';
}

// A finished game as an item of a list: a link to it in the viewer (the viewer of report.html, served as a page of
// its own), its engines and result.
function gameItem(record) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = withToken('/tournaments/' + encodeURIComponent(shown) + '/games/' + encodeURIComponent(record.id)) +
      '#game-' + encodeURIComponent(record.id);
  link.textContent = record.id;
  item.append(link, ': ' + record.south + ' - ' + record.north + ' ' + record.result + ' (' + record.termination + ')');
  return item;
}

function showGame(record) {
  const game = games.get(record.id);
  if (game) { game.element.remove(); games.delete(record.id); }
  $('finished').prepend(gameItem(record));
  while ($('finished').children.length > 50) $('finished').lastChild.remove();
}

// The games already in the journals, in their order, a page of 100 at a time (GET .../games).
async function showPast(name, after) {
  const params = {limit: '100'};
  if (after) params.after = after;
  const answer = await fetch(withQuery('/api/tournaments/' + encodeURIComponent(name) + '/games', params));
  if (!answer.ok || name !== shown) return;
  const page = await answer.json();
  if (name !== shown) return;
  for (const record of page.games) $('past').appendChild(gameItem(record));
  $('past-note').textContent = page.total + ' games in the journals; ' + $('past').children.length + ' shown.';
  pastNext = page.next;
  $('past-more').hidden = !pastNext;
}

function showTournament(name) {
  $('list').hidden = true;
  $('tournament').hidden = false;
  $('name').textContent = name;
  shown = name;
  games.clear();
  for (const id of ['flight', 'finished', 'past', 'standings', 'crosstable', 'ranking', 'analysis'])
    $(id).replaceChildren();
  $('past-more').hidden = true;
  showPast(name, null);
  source = new EventSource(withToken('/api/tournaments/' + encodeURIComponent(name) + '/live'));
  source.addEventListener('ply', (e) => showPly(JSON.parse(e.data)));
  source.addEventListener('game', (e) => showGame(JSON.parse(e.data)));
  source.addEventListener('standings', (e) => showStandings(JSON.parse(e.data)));
  source.onopen = () => { $('status').textContent = 'live'; };
  source.onerror = () => { $('status').textContent = 'reconnecting'; };
}

function route() {
  if (source) { source.close(); source = null; }
  $('status').textContent = '';
  const name = decodeURIComponent(location.hash.slice(1));
  if (name) showTournament(name);
  else { $('tournament').hidden = true; $('list').hidden = false; showList(); }
}

$('past-more').addEventListener('click', () => {
  const after = pastNext;
  pastNext = null;
  $('past-more').hidden = true;  // until the next page is there: a second click asks for nothing
  if (after) showPast(shown, after);
});
window.addEventListener('hashchange', route);
route();
)KALAH";

constexpr std::string_view kStyle =
    R"KALAH(body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 0.75rem; }
header { display: flex; align-items: baseline; gap: 1rem; }
header a { color: inherit; text-decoration: none; }
#status { color: #666; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #ddd; white-space: nowrap; }
#crosstable { width: auto; }
#crosstable td { text-align: right; white-space: nowrap; }
#crosstable td.self { background: #eee; }
.scroll { max-width: 100%; overflow-x: auto; }
.note { color: #555; }
#sprt-gauge { width: 100%; max-width: 600px; height: auto; }
#sprt-gauge text { font-size: 11px; fill: #444; }
.game { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
)KALAH";

// The viewer page's links: what the back link's name needs encoded (everything but the unreserved bytes).
std::string url_encoded(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~')
      out += c;
    else
      out += fmt::format("%{:02X}", byte);
  }
  return out;
}

}  // namespace

std::optional<PageFile> page_file(std::string_view name) {
  static const std::string script = std::string(kStandingsScript) + std::string(kStreamScript);
  static const std::string viewer_script = report::viewer_script(false);
  static const std::string analysis_script = report::viewer_script(true);
  if (name == "index.html") return PageFile{"text/html; charset=utf-8", kIndex};
  if (name == "app.js") return PageFile{"text/javascript; charset=utf-8", script};
  if (name == "app.css") return PageFile{"text/css; charset=utf-8", kStyle};
  if (name == "viewer.js") return PageFile{"text/javascript; charset=utf-8", viewer_script};
  if (name == "viewer-analysis.js") return PageFile{"text/javascript; charset=utf-8", analysis_script};
  if (name == "viewer.css") return PageFile{"text/css; charset=utf-8", report::html_style()};
  if (name == "author.html") return PageFile{"text/html; charset=utf-8", author_html()};
  if (name == "author.js") return PageFile{"text/javascript; charset=utf-8", author_script()};
  return std::nullopt;
}

std::string game_page(std::string_view tournament, const GameRecord& game,
                      const std::optional<analysis::GameJudgement>& judgement,
                      const std::optional<std::string>& token) {
  const std::string back = "/" + (token ? "?token=" + url_encoded(*token) : "") + "#" + url_encoded(tournament);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + report::html_escape(game.id) + " – " + report::html_escape(tournament) + "</title>\n";
  out += "<link rel=\"stylesheet\" href=\"/viewer.css\">\n</head>\n<body>\n";
  out += "<p><a href=\"" + report::html_escape(back) + "\">" + report::html_escape(tournament) + "</a></p>\n";
  // With the game's analysis, the viewer of a report.html with one: each ply's loss, the move that lost.
  const bool analysed = judgement.has_value();
  out += report::viewer_html(analysed);
  // Data, not script: a JSON block runs nothing, and its text cannot close the element (html_safe).
  out += "<script type=\"application/json\" id=\"games-data\">" + report::viewer_games_json({game}, {judgement}) +
         "</script>\n<script src=\"/" + (analysed ? "viewer-analysis.js" : "viewer.js") +
         "\"></script>\n</body>\n</html>\n";
  return out;
}

}  // namespace kalah::serve
