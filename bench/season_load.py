#!/usr/bin/env python3
"""A season under load (issue 40, docs/PERFORMANCE.md "A season under load").

Makes a season of N authors with `arena season init`, serves it with `arena serve --season` on loopback, and has
every author upload a small C bot (configs/contest/submissions/ada/ada.c, made distinct per author) at a random
moment of a window. Then it watches, bounded in time:
  - each upload's acknowledgement (the 201's latency) and that every acknowledged revision is stored;
  - each revision's final status (GET /api/submissions/AUTHOR with the author's token);
  - each entered revision's first game on the ladder (DIR/results/ladder/games.jsonl, polled).
It prints the acknowledgement latencies (p50, p95, max), lost uploads, the processed count, the time from upload to
first ladder game (p50, p95) and the time until the queue drained (or what was processed by --max-seconds).

Loopback only; every loop is bounded in count and time; the server is stopped at the end.
  bench/season_load.py [--authors 200] [--window 600] [--max-seconds 3600] [--arena build/arena] [--keep DIR]
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]


def multipart(filename, content):
    boundary = "----season-load-" + "".join(random.choice("0123456789abcdef") for _ in range(16))
    body = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def request(port, method, path, token=None, body=None, content_type=None, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {}
    if token:
        headers["Authorization"] = "Bearer " + token
    if content_type:
        headers["Content-Type"] = content_type
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def start_server(arena, season_toml):
    server = subprocess.Popen(
        [arena, "serve", "--season", season_toml, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if match:
            # Keep draining its output so that it never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            return server, int(match.group(1))
    server.kill()
    sys.exit("season_load: the server did not say where it listens within 30 s")


def ladder_first_games(journal, seen, now):
    """Records in `seen` the first time each bot is found in the ladder's journal."""
    try:
        with open(journal, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f):
                if n > 1_000_000:
                    break
                try:
                    game = json.loads(line)
                except ValueError:
                    continue  # a line being written
                for side in ("south", "north"):
                    bot = game.get(side)
                    if isinstance(bot, str) and bot not in seen:
                        seen[bot] = now
    except FileNotFoundError:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--authors", type=int, default=200)
    parser.add_argument("--window", type=float, default=600, help="seconds over which the uploads are spread")
    parser.add_argument("--max-seconds", type=float, default=3600, help="the whole run's bound")
    parser.add_argument("--arena", default=os.path.join(ROOT, "build", "arena"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="make the season in this new folder and keep it")
    o = parser.parse_args()
    if not 1 <= o.authors <= 10000:
        sys.exit("season_load: --authors must be 1 to 10000")
    random.seed(o.seed)
    began = time.monotonic()

    base = o.keep or tempfile.mkdtemp(prefix="season-load-")
    os.makedirs(base, exist_ok=True)
    os.chmod(base, 0o711)  # sandboxed bots run as other users: let them through
    roster = os.path.join(base, "AUTHORS.txt")
    names = [f"author{i:04d}" for i in range(o.authors)]
    with open(roster, "w") as f:
        f.write("\n".join(names) + "\n")
    season = os.path.join(base, "term")
    subprocess.run([o.arena, "season", "init", season, "--roster", roster], check=True, stdout=subprocess.DEVNULL)
    tokens = {}
    with open(os.path.join(season, "tokens.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                author, token = line.split()
                tokens[author] = token
    with open(os.path.join(ROOT, "configs", "contest", "submissions", "ada", "ada.c"), "rb") as f:
        ada = f.read()

    server, port = start_server(o.arena, os.path.join(season, "season.toml"))
    print(f"season_load: {o.authors} authors, uploads over {o.window:.0f} s, bound {o.max_seconds:.0f} s; "
          f"season in {season}, server on 127.0.0.1:{port}", flush=True)

    # The uploads, each at its own moment of the window, from a few threads.
    moments = sorted((random.uniform(0, o.window), author) for author in names)
    acks, failures, uploaded_at = {}, [], {}
    lock = threading.Lock()
    start = time.monotonic()

    def uploader(part):
        for moment, author in part:
            delay = start + moment - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            body, content_type = multipart("ada.c", ada + f"/* {author} */\n".encode())
            sent = time.monotonic()
            try:
                status, data = request(port, "POST", "/api/submissions", tokens[author], body, content_type)
            except OSError as e:
                status, data = 0, str(e).encode()
            took = time.monotonic() - sent
            with lock:
                if status == 201:
                    acks[author] = took
                    uploaded_at[author] = sent
                else:
                    failures.append((author, status, data[:200]))

    threads = [threading.Thread(target=uploader, args=(moments[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=o.window + 120)

    # Statuses and first ladder games until every revision is final (the queue drained) or the bound.
    final, first_game = {}, {}
    journal = os.path.join(season, "results", "ladder", "games.jsonl")
    drained_at = None
    for _ in range(100000):
        now = time.monotonic()
        ladder_first_games(journal, first_game, now)
        for author in acks:
            if author in final:
                continue
            try:
                status, data = request(port, "GET", f"/api/submissions/{author}", tokens[author])
            except OSError:
                continue
            if status != 200:
                continue
            revisions = json.loads(data).get("revisions", [])
            if revisions and revisions[-1].get("status") not in ("queued", "building"):
                final[author] = (revisions[-1].get("status"), now)
        if len(final) == len(acks) and drained_at is None:
            drained_at = now
        entered = [a for a in final if final[a][0] == "entered"]
        if drained_at is not None and all(f"{a}-r1" in first_game for a in entered):
            break
        if now - began > o.max_seconds:
            break
        time.sleep(1.0)

    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=120)
    except subprocess.TimeoutExpired:
        server.kill()

    stored = sum(1 for a in acks if os.path.isdir(os.path.join(season, "revisions", a, "1")))
    latencies = list(acks.values())
    statuses = {}
    for status, _ in final.values():
        statuses[status] = statuses.get(status, 0) + 1
    to_first = [first_game[f"{a}-r1"] - uploaded_at[a] for a in acks if f"{a}-r1" in first_game]
    print(f"uploads: {len(acks)} acknowledged (201), {len(failures)} refused or failed; ack latency "
          f"p50 {1000 * percentile(latencies, 50):.0f} ms, p95 {1000 * percentile(latencies, 95):.0f} ms, "
          f"max {1000 * max(latencies, default=float('nan')):.0f} ms")
    print(f"stored: {stored} of {len(acks)} acknowledged revisions are in revisions/ (lost: {len(acks) - stored})")
    print(f"processed: {len(final)} of {len(acks)} ({', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))})")
    if drained_at is not None:
        print(f"queue drained {drained_at - start:.0f} s after the first upload "
              f"({drained_at - start - o.window:.0f} s after the window closed)")
    else:
        rate = len(final) / max(1e-9, time.monotonic() - start)
        print(f"queue not drained within the bound: {len(final)} processed, {rate * 60:.1f} a minute")
    if to_first:
        print(f"upload to first ladder game: p50 {percentile(to_first, 50):.0f} s, p95 {percentile(to_first, 95):.0f} s, "
              f"max {max(to_first):.0f} s ({len(to_first)} revisions)")
    for author, status, data in failures[:5]:
        print(f"  refused: {author} {status} {data!r}")
    if not o.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0 if not failures and stored == len(acks) else 1


if __name__ == "__main__":
    sys.exit(main())
