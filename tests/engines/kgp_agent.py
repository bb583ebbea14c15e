#!/usr/bin/env python3
"""A minimal KGP agent in the style of the Kalah course's Python client library (pykgp), written for
the tests (docs/KGP.md): standard library only, TCP to KGP_HOST:KGP_PORT, an agent is a generator that
yields 0-based pit indexes, each revising its choice ("anytime"), and the library sends `yield` when the
generator ends. The agent here yields the first legal pit, then the pit whose sowing puts the most seeds
in its own store (an extra turn counts one more).

  kgp_agent.py [--sleep-ms N] [--server ADDRESS] [--silent | --chatty | --garbage | --think | --no-pong | --mute | --eval]
    --sleep-ms waits N ms before it connects (a slow start)
    --server   the server as the course's Go client kgpc takes it, its first argument: `:PORT` (this
               machine) or `HOST:PORT`; KGP_HOST and KGP_PORT are then ignored
    --silent   never moves (answers ping): yields every state without a move
    --chatty   writes 64 KiB to stdout and to stderr per state: the host must drain both
    --garbage  answers the first state with a line that is not KGP
    --think    sends its moves but no yield: it searches until told `stop`, answering `ping` meanwhile
    --no-pong  as --think, but never answers `ping`
    --mute     never moves nor yields (answers ping): every state ends at the stop without a move
    --eval     asks for the eval mode and answers each state with `eval` (the seeds of South's store and row
               less North's, a row's seeds counting a quarter) and `yield`

With KGP_AGENT_STARTS set, the agent appends its process id to that file when it connects.
"""
import os
import re
import socket
import sys
import time

LINE = re.compile(r"^\s*(\d*)(?:@(\d+))?\s+(\w+)\s*(.*)$|^\s*(\w+)\s*(.*)$")


class Board:
    def __init__(self, literal):
        numbers = [int(x) for x in literal.strip("<>").split(",")]
        self.size = numbers[0]
        self.south_store, self.north_store = numbers[1], numbers[2]
        self.south = numbers[3:3 + self.size]
        self.north = numbers[3 + self.size:3 + 2 * self.size]

    def value(self):
        return self.south_store - self.north_store + (sum(self.south) - sum(self.north)) / 4

    def legal(self):
        return [i for i in range(self.size) if self.south[i] > 0]

    def gain(self, pit):
        """Seeds a sowing from `pit` puts into South's store, plus one for an extra turn."""
        seeds, cells, i, stored = self.south[pit], 2 * self.size + 1, pit, 0
        while seeds > 0:
            i = (i + 1) % cells
            seeds -= 1
            stored += i == self.size
        return stored + (i == self.size)


def greedy_agent(board):
    legal = board.legal()
    yield legal[0]
    yield max(legal, key=board.gain)


def silent_agent(board):
    return
    yield


def connect(agent, host="localhost", port=2671, name=None, authors=(), mode="", server=None):
    if server is not None:
        named, _, number = server.rpartition(":")
        host, port = named or "127.0.0.1", int(number)
    else:
        host = os.environ.get("KGP_HOST", host)
        port = int(os.environ.get("KGP_PORT", port))
    sock = socket.create_connection((host, port))
    if os.environ.get("KGP_AGENT_STARTS"):
        with open(os.environ["KGP_AGENT_STARTS"], "a", encoding="utf-8") as starts:
            starts.write("%d\n" % os.getpid())
    # `move` and `yield` are two small writes: without this the second waits for the first's delayed ACK.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stream = sock.makefile("rw", encoding="utf-8", newline="")

    def send(text, ref=None):
        stream.write(("" if ref is None else "@%s " % ref) + text + "\r\n")
        stream.flush()

    for line in stream:
        match = LINE.match(line.rstrip("\r\n"))
        if not match:
            continue
        if match.group(3):
            cid, ref, command, args = match.group(1), match.group(2), match.group(3), match.group(4)
        else:
            cid, ref, command, args = "", None, match.group(5), match.group(6)
        if command == "kgp":
            if name:
                send('set info:name "%s"' % name)
            if authors:
                send('set info:authors "%s"' % ", ".join(authors))
            send("mode eval" if mode == "--eval" else "mode freeplay")
        elif command == "ping":
            if mode != "--no-pong":
                send("pong", cid or None)
        elif command == "state":
            if mode == "--chatty":
                sys.stdout.write("x" * 65535 + "\n")
                sys.stdout.flush()
                sys.stderr.write("y" * 65535 + "\n")
                sys.stderr.flush()
            if mode == "--garbage":
                send("move <<not kgp")
                continue
            if mode == "--mute":
                continue
            if mode == "--eval":
                send("eval %g" % Board(args.split()[0]).value(), cid)
                send("yield", cid)
                continue
            for pit in agent(Board(args.split()[0])):
                send("move %d" % (pit + 1), cid)
            if mode not in ("--think", "--no-pong"):
                send("yield", cid)
        elif command == "goodbye":
            break


if __name__ == "__main__":
    words = sys.argv[1:]
    address = None
    if words[:1] == ["--sleep-ms"]:
        time.sleep(int(words[1]) / 1000)
        words = words[2:]
    if words[:1] == ["--server"]:
        address, words = words[1], words[2:]
    chosen = words[0] if words else ""
    connect(silent_agent if chosen == "--silent" else greedy_agent, name="pykgp-style greedy",
            authors=["Kalah Arena tests"], mode=chosen, server=address)
