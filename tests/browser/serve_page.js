// Opens a page of `arena serve` in headless Chromium and waits until it shows what CHECK asks for
// (tests/serve_browser_test.cpp, tools/serve-screenshots.sh). Drives the browser over the DevTools protocol with
// Node's own WebSocket (node --experimental-websocket): no npm package, no browser download.
//   node --experimental-websocket serve_page.js CHROMIUM PROFILE_DIR URL [CHECK [WIDTH [SCREENSHOT.png]]]
// CHECK: `flight` (default: the stream live, the standings, a game in flight and a crosstable cell with numbers),
// `sprt` (the SPRT gauge drawn with an LLR and its bounds, and a crosstable cell), `viewer` (a game shown on
// the viewer's board) or `past` (the list of the games in the journals, each a link to the viewer). WIDTH: the window's width in pixels (360). SCREENSHOT: a PNG of the page once it shows it.
// Prints the page's state as one JSON line; exit 0 once it shows it, 1 after 60 s without.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const [chromium, profile, url, check = 'flight', width = '360', screenshot = ''] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = Date.now() + 60000;
const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0',
  '--hide-scrollbars', '--user-data-dir=' + profile, '--window-size=' + width + ',900', url], { stdio: 'ignore' });

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
  }); } catch (e) { return ''; } })()`;

const numbers = /^\d+(\.\d+)?\/\d+$/;
const shows = {
  flight: (s) => s.status === 'live' && s.standings > 0 && s.flight.includes('moved') &&
      s.crosstable.some((t) => numbers.test(t)),
  sprt: (s) => s.status === 'live' && /LLR -?\d+\.\d\d in \[-?\d+\.\d\d, -?\d+\.\d\d\] after [1-9]/.test(s.sprt) &&
      s.sprt_points >= 2 && s.crosstable.some((t) => numbers.test(t)),
  viewer: (s) => s.title !== '' && s.board > 0 && s.info.startsWith('Ply '),
  past: (s) => s.past > 0 && s.past_link.startsWith('/tournaments/'),
};

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
