#include "arena/serve/author_page.h"

namespace kalah::serve {
namespace {

constexpr std::string_view kHtml = R"KALAH(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your submissions – Kalah Arena</title>
<link rel="stylesheet" href="/app.css">
<script src="/author.js" defer></script>
</head>
<body>
<header><h1><a href="/">Kalah Arena</a></h1><span id="status"></span></header>
<main>
<h2>Your submissions</h2>
<form id="login">
<label>author <input id="author" autocomplete="username" required></label>
<label>token <input id="token" type="password" autocomplete="current-password" required></label>
<button type="submit">Show</button>
</form>
<p id="message" class="note"></p>
<p id="public-name" class="note"></p>
<div class="scroll"><table><thead><tr><th>revision</th><th>status</th><th>received</th><th>file</th><th>why</th></tr></thead><tbody id="revisions"></tbody></table></div>
<div id="logs"></div>
<h3>On the ladder</h3>
<div class="scroll"><table><thead><tr><th>#</th><th>engine</th><th>Elo</th><th>games</th><th>W-D-L</th></tr></thead><tbody id="ladder"></tbody></table></div>
<h3>Your ladder games</h3>
<p id="games-note" class="note"></p>
<ol id="author-games" reversed></ol>
<h3>Analysis of your ladder games</h3>
<p id="analysis-note" class="note"></p>
<div class="scroll"><table><thead><tr><th>game</th><th>engine</th><th>result</th><th>perfect / proved</th><th>blunders</th><th>mean loss</th><th>the move that lost</th></tr></thead><tbody id="analysis"></tbody></table></div>
</main>
</body>
</html>
)KALAH";

constexpr std::string_view kScript = R"KALAH('use strict';
const $ = (id) => document.getElementById(id);
// The server's read token (a page opened as /author.html?token=...), for the ladder's data; the author's own token
// goes only into the Authorization header of their submissions' request.
const readToken = new URLSearchParams(location.search).get('token');
const withToken = (url) => readToken ? url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(readToken) : url;
const kMaxGamePages = 40;  // of 500 games each
const kGamesShown = 100;

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text === undefined || text === null ? '' : String(text);
  row.appendChild(td);
}

function say(text) { $('message').textContent = text; }

async function json(url, init) {
  const r = await fetch(url, init);
  if (!r.ok) {
    let reason = 'HTTP ' + r.status;
    try { reason = (await r.json()).error || reason; } catch (e) { /* not JSON */ }
    throw new Error(reason);
  }
  return r.json();
}

function showRevisions(page) {
  const body = $('revisions');
  body.replaceChildren();
  $('logs').replaceChildren();
  for (const r of [...page.revisions].reverse()) {
    const row = document.createElement('tr');
    cell(row, 'r' + r.revision); cell(row, r.status); cell(row, r.received_at); cell(row, r.file); cell(row, r.reason);
    body.appendChild(row);
    for (const [name, text] of Object.entries(r.logs || {})) {
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = 'r' + r.revision + ' ' + name;
      const pre = document.createElement('pre');
      pre.textContent = text;
      details.append(summary, pre);
      $('logs').appendChild(details);
    }
  }
}

const pit = (m) => m === 'swap' ? 'swap' : 'pit ' + m;
const signed = (v) => (v > 0 ? '+' : '') + v;

// The perfect-play analysis of the author's own ladder games (their side of each), newest first: each lost game's
// move that lost it, a link to the viewer at that ply.
function showAnalysis(a) {
  const body = $('analysis');
  body.replaceChildren();
  if (!a || a.games === 0) {
    $('analysis-note').textContent = 'None of your ladder games is analysed yet: the analysis follows the ladder, ' +
        'behind its games.';
    return;
  }
  $('analysis-note').textContent = a.games + ' of your games analysed with perfect play; ' + a.lost + ' lost, ' +
      a.losing_moves + ' of them with the move that lost proved' +
      (a.shown.length < a.games ? '; the last ' + a.shown.length + ' shown' : '') + '. Loss in seeds of the final ' +
      'store difference (a seed that changes hands counts 2).';
  for (const g of a.shown) {
    const row = document.createElement('tr');
    const td = document.createElement('td');
    const link = document.createElement('a');
    const at = g.losing_move ? '/' + g.losing_move.ply : '';
    link.href = withToken('/tournaments/ladder/games/' + encodeURIComponent(g.id)) + '#game-' +
        encodeURIComponent(g.id) + at;
    link.textContent = g.id;
    td.appendChild(link);
    row.appendChild(td);
    cell(row, g.engine + ' (' + g.side + ') v ' + g.opponent);
    cell(row, g.result + ' ' + g.outcome);
    cell(row, g.perfect + ' / ' + g.judged + ' of ' + g.moves);
    cell(row, g.blunders);
    cell(row, typeof g.mean_loss === 'number' ? g.mean_loss.toFixed(2) : '');
    const l = g.losing_move;
    cell(row, !l ? (g.outcome === 'lost' ? 'not proved' : '') :
        'ply ' + l.ply + ': ' + pit(l.move) + ' (' + signed(l.value_before) + ' before, ' + signed(l.value_after) +
        ' after); best: ' + (l.best.length ? l.best.map(pit).join(', ') : 'not proved') +
        (l.unproved.length ? ' (not proved: ' + l.unproved.map(pit).join(', ') + ')' : ''));
    body.appendChild(row);
  }
}

const mine = (author, name) => typeof name === 'string' && name.startsWith(author + '-r');

function showLadder(author, standings) {
  const body = $('ladder');
  body.replaceChildren();
  for (const e of standings.engines || []) {
    if (!mine(author, e.name)) continue;
    const row = document.createElement('tr');
    cell(row, typeof e.rank === 'number' ? e.rank : (e.status || ''));
    cell(row, e.name);
    cell(row, typeof e.elo === 'number' ? (e.elo >= 0 ? '+' : '') + e.elo.toFixed(0) + ' ± ' + e.ci95.toFixed(0) : '');
    cell(row, e.games);
    cell(row, e.wins + '-' + e.draws + '-' + e.losses);
    body.appendChild(row);
  }
}

// The result of a game for the author's side: won, drawn or lost.
function outcome(author, g) {
  if (g.result === '1/2-1/2') return 'drawn';
  const southWon = g.result === '1-0';
  if (g.result !== '1-0' && g.result !== '0-1') return g.result;
  return southWon === mine(author, g.south) ? 'won' : 'lost';
}

async function showGames(author) {
  const games = [];
  let after = null, pages = 0;
  do {
    const page = await json(withToken('/api/tournaments/ladder/games?limit=500' +
        (after ? '&after=' + encodeURIComponent(after) : '')));
    for (const g of page.games) if (mine(author, g.south) || mine(author, g.north)) games.push(g);
    after = page.next;
  } while (after && ++pages < kMaxGamePages);
  const list = $('author-games');
  list.replaceChildren();
  const shown = games.slice(-kGamesShown).reverse();
  for (const g of shown) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = withToken('/tournaments/ladder/games/' + encodeURIComponent(g.id)) + '#game-' + encodeURIComponent(g.id);
    link.textContent = g.id;
    item.append(link, ': ' + g.south + ' – ' + g.north + ' ' + g.result + ' (' + outcome(author, g) + ', ' +
        g.termination + ')');
    list.appendChild(item);
  }
  $('games-note').textContent = games.length === 0 ? 'No ladder game yet.' :
      games.length + ' game' + (games.length === 1 ? '' : 's') + ' on the ladder' +
      (games.length > shown.length ? ', the last ' + shown.length + ' shown' : '') + ', newest first.';
}

async function show(author, token) {
  $('status').textContent = 'loading';
  say('');
  $('public-name').textContent = '';
  let shown = author;  // the name the ladder knows the author by
  try {
    const page = await json('/api/submissions/' + encodeURIComponent(author),
        { headers: { Authorization: 'Bearer ' + token } });
    showRevisions(page);
    showAnalysis(page.analysis);
    if (page.revisions.length === 0) say('No revision yet: upload one (docs/SEASON.md).');
    // In a season with pseudonyms the public pages know the author by theirs alone.
    if (typeof page.pseudonym === 'string') {
      shown = page.pseudonym;
      $('public-name').textContent = 'On the public pages you are ' + shown + ' (your revisions: ' + shown +
          '-r1, ' + shown + '-r2, ...); nobody else sees who that is.';
    }
  } catch (e) {
    $('status').textContent = 'error';
    say('Your submissions could not be read: ' + e.message);
    return;
  }
  try {
    showLadder(shown, await json(withToken('/api/tournaments/ladder/standings')));
    await showGames(shown);
  } catch (e) {
    $('games-note').textContent = 'The ladder could not be read: ' + e.message;
  }
  $('status').textContent = 'shown';
}

// Name and token from the link's fragment (#author=NAME&token=TOKEN: never sent to the server), kept for this tab
// only and taken out of the address bar, or from the form.
const given = new URLSearchParams(location.hash.slice(1));
if (given.get('author') && given.get('token')) {
  sessionStorage.setItem('author', given.get('author'));
  sessionStorage.setItem('token', given.get('token'));
  history.replaceState(null, '', location.pathname + location.search);
}
$('login').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem('author', $('author').value);
  sessionStorage.setItem('token', $('token').value);
  show($('author').value, $('token').value);
});
if (sessionStorage.getItem('author') && sessionStorage.getItem('token')) {
  $('author').value = sessionStorage.getItem('author');
  show(sessionStorage.getItem('author'), sessionStorage.getItem('token'));
}
)KALAH";

}  // namespace

std::string_view author_html() { return kHtml; }
std::string_view author_script() { return kScript; }

}  // namespace kalah::serve
