// Opens a page of `arena serve` in headless Chromium and waits until it shows what CHECK asks for
// (tests/serve_browser_test.cpp, tests/season_e2e_test.cpp, tools/serve-screenshots.sh). Drives Debian's chromium
// with the npm package playwright-core (tests/browser/package.json, installed by `npm ci --prefix tests/browser`;
// it downloads no browser).
//   node serve_page.js CHROMIUM PROFILE_DIR URL [CHECK [WIDTH [SCREENSHOT.png]]]
// CHECK: `flight` (default: the stream live, the standings, a game in flight and a crosstable cell with numbers),
// `sprt` (the SPRT gauge drawn with an LLR and its bounds, and a crosstable cell), `viewer` (a game shown on
// the viewer's board), `past` (the list of the games in the journals, each a link to the viewer), `author` (a
// season's author page with the revisions, the author's ladder rows and games), `author-refused` (that
// page saying it could not read them), `watch` or `reconnect` (below). WIDTH: the viewport's width in pixels (360). SCREENSHOT: a PNG of the page once it shows it. Prints the
// page's state as one JSON line; exit 0 once it shows it, 1 after 60 s without.
// `watch`: URL is the index; the first tournament listed is opened by a click on its link, and the page is watched
// until a ply arrives in a game in flight and the standings change (more games in them); then the layout is
// measured at WIDTH and again at 1280 pixels. Prints what it saw at each step.
// `reconnect`: the page is opened through a TCP proxy of this script's own (loopback), with a recorder of its
// stream's events set before its own script runs; once a game in flight shows 3 to 10 plies, every connection through
// the proxy is cut. The page's EventSource reconnects by itself (with Last-Event-ID, which the proxy notes); when
// each game that was in flight at the cut has ended, prints per game the plies the stream delivered (their
// indices, in order), the game's moves and what the page showed of it just before it ended.
'use strict';
const net = require('net');
const { chromium: playwright } = require('playwright-core');

const [chromium, profile, url, check = 'flight', width = '360', screenshot = ''] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = Date.now() + 60000;
const reconnect = check === 'reconnect';
// The page's state, or '' while it is not loaded yet.
const state = `(() => { try {
  const text = (id) => document.getElementById(id) ? document.getElementById(id).textContent : '';
  const cross = [...document.querySelectorAll('#crosstable td')].map((td) => td.textContent).filter((t) => t);
  const course = document.getElementById('sprt-course');
  const finished = document.querySelector('#finished a');
  const past = document.querySelector('#past a');
  return JSON.stringify({
    status: text('status'),
    standings: document.getElementById('standings') ? document.getElementById('standings').rows.length : 0,
    flight: text('flight'),
    finished: document.getElementById('finished') ? document.getElementById('finished').children.length : 0,
    finished_link: finished ? finished.getAttribute('href') : '',
    past: document.getElementById('past') ? document.getElementById('past').children.length : 0,
    past_link: past ? past.getAttribute('href') : '',
    past_text: past ? past.parentElement.textContent : '',
    crosstable: cross,
    sprt: text('sprt-text'),
    sprt_points: course ? course.getAttribute('points').trim().split(' ').length : 0,
    title: text('title'),
    board: document.getElementById('board') ? document.getElementById('board').children.length : 0,
    info: text('info'),
    revisions: [...document.querySelectorAll('#revisions tr')].map((tr) => tr.textContent),
    logs: [...document.querySelectorAll('#logs pre')].map((pre) => pre.textContent).join(' '),
    ladder: [...document.querySelectorAll('#ladder tr')].map((tr) => tr.textContent),
    author_games: document.getElementById('author-games') ? document.getElementById('author-games').children.length : 0,
    author_link: document.querySelector('#author-games a') ? document.querySelector('#author-games a').getAttribute('href') : '',
    analysis: [...document.querySelectorAll('#analysis tr')].map((tr) => tr.textContent),
    analysis_links: [...document.querySelectorAll('#analysis a')].map((link) => link.getAttribute('href')),
    message: text('message'),
    public_name: text('public-name'),
    address: location.href,
  }); } catch (e) { return ''; } })()`;

const numbers = /^\d+(\.\d+)?\/\d+$/;
const shows = {
  flight: (s) => s.status === 'live' && s.standings > 0 && s.flight.includes('moved') &&
      s.crosstable.some((t) => numbers.test(t)),
  sprt: (s) => s.status === 'live' && /LLR -?\d+\.\d\d in \[-?\d+\.\d\d, -?\d+\.\d\d\] after [1-9]/.test(s.sprt) &&
      s.sprt_points >= 2 && s.crosstable.some((t) => numbers.test(t)),
  viewer: (s) => s.title !== '' && s.board > 0 && s.info.startsWith('Ply '),
  past: (s) => s.past > 0 && s.past_link.startsWith('/tournaments/'),
  author: (s) => s.status === 'shown' && s.revisions.length > 0 && s.ladder.length > 0 && s.author_games > 0,
  'author-refused': (s) => s.status === 'error',
};

// Set in the page before its own script (reconnect): each EventSource made records the stream's events before the
// page's listeners see them (they are added first): per game the plies received as [index, connection] (the
// connection counted by the stream's `open` events), and at its `game` event its moves and the text the page
// showed of it in flight.
const recorder = `(() => {
  const Native = window.EventSource;
  const log = window.__live = { opens: 0, plies: {}, ended: {}, shown: {} };
  window.EventSource = function (url, init) {
    const source = new Native(url, init);
    source.addEventListener('open', () => { log.opens++; });
    source.addEventListener('ply', (e) => {
      const p = JSON.parse(e.data);
      (log.plies[p.game] = log.plies[p.game] || []).push([p.ply, log.opens]);
    });
    source.addEventListener('game', (e) => {
      const g = JSON.parse(e.data);
      const shown = [...document.querySelectorAll('#flight .game')].find((x) => x.textContent.startsWith(g.id + ': '));
      log.ended[g.id] = g.moves;
      log.shown[g.id] = shown ? shown.textContent : null;
    });
    return source;
  };
  window.EventSource.prototype = Native.prototype;
})();`;

// A TCP proxy to the server on loopback: each connection piped both ways and kept, so that all can be cut at once;
// the Last-Event-ID of each request that sends one noted.
function startProxy(target) {
  const sockets = new Set(), lastIds = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.on('data', (chunk) => {
      const found = /^last-event-id: *(\S+)/im.exec(chunk.toString('latin1'));
      if (found) lastIds.push(found[1]);
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port, lastIds,
    cut: () => { for (const s of sockets) s.destroy(); },
    close: () => { for (const s of sockets) s.destroy(); server.close(); },
  })));
}

// The `reconnect` check (above): 0 when the page reconnected and every game in flight at the cut has ended.
async function reconnectCheck(page) {
  const proxy = await startProxy(new URL(url));
  const proxied = new URL(url);
  proxied.port = String(proxy.port);
  await page.addInitScript(recorder);
  await page.goto(proxied.href, { waitUntil: 'commit' });
  const read = async () => {
    try {
      return JSON.parse(await page.evaluate(
          'JSON.stringify({log: window.__live || null, status: (document.getElementById("status") || {}).textContent})'));
    } catch { return {}; }  // between documents
  };
  const inFlight = (log) => Object.keys(log.plies).filter((id) => !(id in log.ended));
  let seen = {}, cut = null;
  while (!cut && Date.now() < deadline) {
    seen = await read();
    const log = seen.log;
    // Early in a game (3 to 10 plies): one seen first near its end (a page that loaded late gets a game's plies so
    // far at once) could end before the cut, and nothing of it would come after; a later game is waited for.
    const early = (id) => log.plies[id].length >= 3 && log.plies[id].length <= 10;
    if (seen.status === 'live' && log && inFlight(log).some(early))
      cut = Object.fromEntries(inFlight(log).map((id) => [id, log.plies[id].length]));
    else await sleep(100);
  }
  if (cut) proxy.cut();
  const done = (s) => s.log && s.log.opens >= 2 && s.status === 'live' &&
      Object.keys(cut).every((id) => id in s.log.ended);
  while (cut && !done(seen) && Date.now() < deadline) {
    await sleep(200);
    seen = await read();
  }
  const log = seen.log || { opens: 0, plies: {}, ended: {}, shown: {} };
  const games = Object.keys(cut || {}).map((id) => ({
    id, at_cut: cut[id], plies: log.plies[id], moves: log.ended[id] || null, shown: log.shown[id] || null }));
  console.log(JSON.stringify({ opens: log.opens, status: seen.status, last_event_ids: proxy.lastIds, games }));
  proxy.close();
  return cut && done(seen) ? 0 : 1;
}

// The page's state now, or '' while it is not loaded yet (or between two documents).
async function current(page) {
  try { return (await page.evaluate(state)) || ''; } catch { return ''; }
}

// The `watch` check (above): 0 once the index listed the tournament, its page showed a ply arrive and the standings
// change, and its layout was measured at both widths.
async function watchCheck(page) {
  await page.goto(url, { waitUntil: 'commit', timeout: Math.max(1, deadline - Date.now()) });
  const evaluate = async (expression) => { try { return await page.evaluate(expression); } catch { return null; } };
  const until = async (expression) => {
    for (let v = await evaluate(expression); Date.now() < deadline; v = await evaluate(expression)) {
      if (v) return v;
      await sleep(100);
    }
    return null;
  };
  const out = { index: null, before: null, after: null, layout: {} };
  out.index = await until(`(() => { const rows = [...document.querySelectorAll('#tournaments tr')];
    return rows.length ? { rows: rows.length, first: rows[0].textContent,
                           cells: [...rows[0].children].map((td) => td.textContent) } : null; })()`);
  if (!out.index) { console.log(JSON.stringify(out)); return 1; }
  await page.click('#tournaments a');
  // A game in flight's plies, the standings' games (from the summary line "N games; leading: X").
  const snapshot = `(() => { const s = JSON.parse(${state}); const g = /^(\\d+) games/.exec(document.getElementById('summary').textContent);
    const flight = [...document.querySelectorAll('#flight .game')].map((e) => e.textContent);
    return s.status === 'live' && g && s.standings > 0 && flight.length ?
        { ...s, games: Number(g[1]), summary: document.getElementById('summary').textContent, games_in_flight: flight } : null; })()`;
  out.before = await until(snapshot);
  if (!out.before) { console.log(JSON.stringify(out)); return 1; }
  // A ply arrives: a game in flight at the first look shows more moves (or has ended, and another is in flight);
  // the standings change: more games in them.
  const before = out.before;
  const moved = (after) => after.games_in_flight.some((text) => !before.games_in_flight.includes(text));
  for (let after = await evaluate(snapshot); Date.now() < deadline; after = await evaluate(snapshot)) {
    if (after) out.after = after;
    if (after && moved(after) && after.games > before.games) break;
    await sleep(200);
  }
  const layout = `(() => { const top = (id) => document.getElementById(id).getBoundingClientRect().top;
    const first = document.querySelector('#standings tr');
    return { width: window.innerWidth, page_width: document.documentElement.scrollWidth,
             summary_top: top('summary'), standings_top: top('standings'), flight_top: top('flight'),
             crosstable_top: top('crosstable'), leader_row_bottom: first ? first.getBoundingClientRect().bottom : null,
             leader: first ? first.children[1].textContent : null, screen_height: window.innerHeight }; })()`;
  out.layout[width] = await evaluate(layout);
  await page.setViewportSize({ width: 1280, height: 900 });
  out.layout['1280'] = await evaluate(layout);
  console.log(JSON.stringify(out));
  return out.after && moved(out.after) && out.after.games > before.games ? 0 : 1;
}

async function main(context) {
  const page = context.pages()[0] || await context.newPage();
  if (reconnect) return reconnectCheck(page);
  if (check === 'watch') return watchCheck(page);
  await page.goto(url, { waitUntil: 'commit', timeout: Math.max(1, deadline - Date.now()) });
  let last = '';
  while (Date.now() < deadline) {
    last = await current(page);
    const seen = last ? JSON.parse(last) : null;
    if (seen && shows[check](seen)) {
      if (screenshot) {
        const height = await page.evaluate('document.documentElement.scrollHeight');
        // At most 2400 pixels of the page, from its top: the viewport made that tall for the shot.
        const clip = { x: 0, y: 0, width: Number(width), height: Math.min(2400, Math.ceil(height)) };
        await page.setViewportSize({ width: clip.width, height: Math.max(900, clip.height) });
        await page.screenshot({ path: screenshot, clip });
      }
      console.log(last);
      return 0;
    }
    await sleep(200);
  }
  console.log(last || '{}');
  return 1;
}

// Chromium as the probe of this machine starts it (no background connections: the network is closed), with a
// profile folder of the caller's and the viewport's width as a phone's or a desktop's screen.
playwright.launchPersistentContext(profile, {
  executablePath: chromium, headless: true, chromiumSandbox: false,
  viewport: { width: Number(width), height: 900 }, deviceScaleFactor: 1, isMobile: Number(width) < 600,
  args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--hide-scrollbars'],
}).then((context) => main(context).then(
  async (code) => { await context.close(); process.exit(code); },
  async (error) => { console.log(String(error)); await context.close(); process.exit(1); }),
(error) => { console.log(String(error)); process.exit(1); });
