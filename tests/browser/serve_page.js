// Opens `arena serve`'s page in headless Chromium and waits until it shows a game in flight and the standings
// (tests/serve_browser_test.cpp). Drives the browser over the DevTools protocol with Node's own WebSocket
// (node --experimental-websocket): no npm package, no browser download.
//   node --experimental-websocket serve_page.js CHROMIUM PROFILE_DIR URL
// Prints the page's state as one JSON line; exit 0 once it shows both, 1 after 60 s without.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const [chromium, profile, url] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const deadline = Date.now() + 60000;
const browser = spawn(chromium, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0',
  '--user-data-dir=' + profile, '--window-size=360,800', url], { stdio: 'ignore' });

// The page's state, or '' while it is not loaded yet.
const state = `(() => { try { return JSON.stringify({
  status: document.getElementById('status').textContent,
  standings: document.getElementById('standings').rows.length,
  flight: document.getElementById('flight').textContent,
  finished: document.getElementById('finished').children.length,
}); } catch (e) { return ''; } })()`;

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
  const evaluate = (expression) => new Promise((resolve) => {
    const mine = ++id;
    socket.onmessage = (m) => { const reply = JSON.parse(m.data); if (reply.id === mine) resolve(reply.result.result.value); };
    socket.send(JSON.stringify({ id: mine, method: 'Runtime.evaluate', params: { expression } }));
  });
  let last = '';
  while (Date.now() < deadline) {
    last = (await evaluate(state)) || '';
    const seen = last ? JSON.parse(last) : null;
    if (seen && seen.status === 'live' && seen.standings > 0 && seen.flight.includes('moved')) {
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
