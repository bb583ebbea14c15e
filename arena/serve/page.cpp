#include "arena/serve/page.h"

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
<h3>Standings</h3>
<table><thead><tr><th>#</th><th>engine</th><th>points</th><th>games</th><th>Elo</th></tr></thead><tbody id="standings"></tbody></table>
<h3>Games in flight</h3>
<div id="flight"></div>
<h3>Finished</h3>
<ol id="finished" reversed></ol>
</section>
</main>
</body>
</html>
)KALAH";

constexpr std::string_view kScript = R"KALAH('use strict';
// Kalah Arena's live page: the list of tournaments, then one tournament's standings and games over its
// Server-Sent Events. Every string from the server is set as text, never as markup.
const token = new URLSearchParams(location.search).get('token');
const withToken = (path) => token ? path + '?token=' + encodeURIComponent(token) : path;
const $ = (id) => document.getElementById(id);
const cell = (row, text) => { const td = document.createElement('td'); td.textContent = text ?? ''; row.appendChild(td); return td; };
let source = null;
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

function showStandings(standings) {
  const body = $('standings');
  body.replaceChildren();
  for (const e of standings.engines) {
    const row = document.createElement('tr');
    cell(row, e.rank); cell(row, e.name); cell(row, e.points); cell(row, e.games);
    cell(row, typeof e.elo === 'number' ? e.elo.toFixed(0) : '');
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

function showGame(record) {
  const game = games.get(record.id);
  if (game) { game.element.remove(); games.delete(record.id); }
  const item = document.createElement('li');
  item.textContent = record.id + ': ' + record.south + ' - ' + record.north + ' ' + record.result + ' (' + record.termination + ')';
  $('finished').prepend(item);
  while ($('finished').children.length > 50) $('finished').lastChild.remove();
}

function showTournament(name) {
  $('list').hidden = true;
  $('tournament').hidden = false;
  $('name').textContent = name;
  games.clear();
  $('flight').replaceChildren();
  $('finished').replaceChildren();
  $('standings').replaceChildren();
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

window.addEventListener('hashchange', route);
route();
)KALAH";

constexpr std::string_view kStyle =
    R"KALAH(body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 0.75rem; }
header { display: flex; align-items: baseline; gap: 1rem; }
header a { color: inherit; text-decoration: none; }
#status { color: #666; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #ddd; }
.game { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
)KALAH";

}  // namespace

std::optional<PageFile> page_file(std::string_view name) {
  if (name == "index.html") return PageFile{"text/html; charset=utf-8", kIndex};
  if (name == "app.js") return PageFile{"text/javascript; charset=utf-8", kScript};
  if (name == "app.css") return PageFile{"text/css; charset=utf-8", kStyle};
  return std::nullopt;
}

}  // namespace kalah::serve
