// Opens a page of `arena serve` in headless Chromium and waits until it shows what CHECK asks for
// (tests/serve_browser_test.cpp, tools/serve-screenshots.sh). Drives the browser over the DevTools protocol with
// Node's own WebSocket (node --experimental-websocket): no npm package, no browser download.
//   node --experimental-websocket serve_page.js CHROMIUM PROFILE_DIR URL [CHECK [WIDTH [SCREENSHOT.png]]]
// CHECK: `flight` (default: the stream live, the standings, a game in flight and a crosstable cell with numbers),
// `sprt` (the SPRT gauge drawn with an LLR and its bounds, and a crosstable cell), `viewer` (a game shown on
// the viewer's board), `past` (the list of the games in the journals, each a link to the viewer), `author` (a
// season's author page with the revisions, the author's ladder rows and games), `author-refused` (that
// page saying it could not read them) or `reconnect` (below). WIDTH: the window's width in pixels (360). SCREENSHOT: a PNG of the page once it shows it. Prints the
// page's state as one JSON line; exit 0 once it shows it, 1 after 60 s without.
// `reconnect`: the page is opened through a TCP proxy of this script's own (loopback), with a recorder of its
// stream's events set before its own script runs; once a game in flight shows 3 plies, every connection through
// the proxy is cut. The page's EventSource reconnects by itself (with Last-Event-ID, which the proxy notes); when
// each game that was in flight at the cut has ended, prints per game the plies the stream delivered (their
// indices, in order), the game's moves and what the page showed of it just before it ended.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const path = require('path');

const [chromium, profile, url, check = 'flight', width = '360', screenshot = ''] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = Date.now() + 60000;
const reconnect = check === 'reconnect';
const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0',
  '--hide-scrollbars', '--user-data-dir=' + profile, '--window-size=' + width + ',900', reconnect ? 'about:blank' : url],
{ stdio: 'ignore' });

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
async function reconnectCheck(send) {
  const proxy = await startProxy(new URL(url));
  const proxied = new URL(url);
  proxied.port = String(proxy.port);
  await send('Page.enable', {});
  await send('Page.addScriptToEvaluateOnNewDocument', { source: recorder });
  await send('Page.navigate', { url: proxied.href });
  const read = async () => JSON.parse((await send('Runtime.evaluate', {
    expression: 'JSON.stringify({log: window.__live || null, status: (document.getElementById("status") || {}).textContent})',
  })).result.value || '{}');
  const inFlight = (log) => Object.keys(log.plies).filter((id) => !(id in log.ended));
  let seen = {}, cut = null;
  while (!cut && Date.now() < deadline) {
    seen = await read();
    const log = seen.log;
    if (seen.status === 'live' && log && inFlight(log).some((id) => log.plies[id].length >= 3))
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

async function main() {
  let port = null;
  while (!port && Date.now() < deadline) {
    await sleep(100);
    try { port = fs.readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]; } catch {}
  }
  let target = null;
  while (!target && Date.now() < deadline) {
    try { target = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()).find((t) => t.type === 'page'); } catch {}
    if (!target) await sleep(100);
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve) => { socket.onopen = resolve; });
  let id = 0;
  const send = (method, params) => new Promise((resolve) => {
    const mine = ++id;
    socket.onmessage = (m) => { const reply = JSON.parse(m.data); if (reply.id === mine) resolve(reply.result); };
    socket.send(JSON.stringify({ id: mine, method, params }));
  });
  // The window's width as a phone's or a desktop's screen (a headless window is never narrower than ~500 px).
  await send('Emulation.setDeviceMetricsOverride',
             { width: Number(width), height: 900, deviceScaleFactor: 1, mobile: Number(width) < 600 });
  if (reconnect) return reconnectCheck(send);
  let last = '';
  while (Date.now() < deadline) {
    last = ((await send('Runtime.evaluate', { expression: state })).result.value) || '';
    const seen = last ? JSON.parse(last) : null;
    if (seen && shows[check](seen)) {
      if (screenshot) {
        const size = (await send('Page.getLayoutMetrics', {})).cssContentSize;
        const clip = { x: 0, y: 0, width: Number(width), height: Math.min(2400, Math.ceil(size.height)), scale: 1 };
        const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip });
        fs.writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));
      }
      console.log(last);
      return 0;
    }
    await sleep(200);
  }
  console.log(last || '{}');
  return 1;
}

main().then((code) => { browser.kill(); process.exit(code); },
            (error) => { console.log(String(error)); browser.kill(); process.exit(1); });
