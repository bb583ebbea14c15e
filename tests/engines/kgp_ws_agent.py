#!/usr/bin/env python3
"""A KGP agent that reaches its server only over a WebSocket (RFC 6455), as an agent of the course's Python
or Java client library does when its host is a ws:// URL (docs/KGP.md). Written for the tests, standard
library only: it plays as tests/engines/kgp_agent.py's greedy agent does (its Board and greedy_agent are
imported from there), each line it sends one masked text message with its CR LF.

  kgp_ws_agent.py [--server URL] [--sleep-ms N]
    --server    the server's ws:// URL (as the Go client kgpc takes it); else KGP_HOST, which must be one
    --sleep-ms  waits N ms before it connects (a slow start)

A server that is not a ws:// URL ends it at once (exit 2): it speaks no plain TCP. Every read is bounded:
the upgrade's answer by 64 KiB, a message by 1 MiB, each wait by 60 s.
"""
import base64
import hashlib
import os
import random
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kgp_agent import LINE, Board, greedy_agent  # noqa: E402  (the tests' agent, beside this file)

WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_MESSAGE = 1 << 20


class WebSocket:
    def __init__(self, url):
        if not url.lower().startswith("ws://"):
            raise ValueError("speaks KGP only over a WebSocket, and its server '%s' is no ws:// URL" % url)
        rest = url[5:]
        authority, slash, path = rest.partition("/")
        host, _, port = authority.rpartition(":") if ":" in authority else (authority, "", "80")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        key = base64.b64encode(bytes(random.getrandbits(8) for _ in range(16))).decode()
        self.sock.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           % (path if slash else "", authority, key)).encode())
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > 65536 or not self._more():
                raise ValueError("no answer to the WebSocket upgrade")
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        expected = base64.b64encode(hashlib.sha1((key + WEBSOCKET_GUID).encode()).digest()).decode()
        accepted = any(l.lower().startswith("sec-websocket-accept:") and l.split(":", 1)[1].strip() == expected
                       for l in lines[1:])
        if " 101 " not in lines[0] + " " or not accepted:
            raise ValueError("the server did not upgrade: " + lines[0])

    def _more(self):
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return bool(chunk)

    def _take(self, n):
        while len(self.buffer) < n:
            if not self._more():
                return None
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def send_frame(self, opcode, payload):
        mask = bytes(random.getrandbits(8) for _ in range(4))
        head = bytes([0x80 | opcode])
        if len(payload) < 126:
            head += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_line(self, text):
        self.send_frame(0x1, (text + "\r\n").encode())

    def messages(self):
        """Each text message (its fragments joined); ends at a close or the end of the connection."""
        parts = b""
        while True:
            head = self._take(2)
            if head is None:
                return
            length = head[1] & 0x7F
            if length >= 126:
                extended = self._take(2 if length == 126 else 8)
                if extended is None:
                    return
                length = int.from_bytes(extended, "big")
            if length + len(parts) > MAX_MESSAGE:
                return
            mask = self._take(4) if head[1] & 0x80 else b"\0\0\0\0"
            payload = self._take(length) if length else b""
            if mask is None or payload is None:
                return
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = head[0] & 0x0F
            if opcode == 0x8:
                self.send_frame(0x8, payload[:2])
                return
            if opcode == 0x9:
                self.send_frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1):
                parts += payload
                if head[0] & 0x80:
                    yield parts.decode("utf-8", "replace")
                    parts = b""


def play(ws):
    for message in ws.messages():
        for line in message.replace("\r", "").split("\n"):
            match = LINE.match(line)
            if not line.strip() or not match:
                continue
            if match.group(3):
                cid, command, args = match.group(1), match.group(3), match.group(4)
            else:
                cid, command, args = "", match.group(5), match.group(6)
            prefix = "@%s " % cid if cid else ""
            if command == "kgp":
                ws.send_line('set info:name "websocket greedy"')
                ws.send_line("mode freeplay")
            elif command == "ping":
                ws.send_line(prefix + "pong")
            elif command == "state":
                for pit in greedy_agent(Board(args.split()[0])):
                    ws.send_line(prefix + "move %d" % (pit + 1))
                ws.send_line(prefix + "yield")
            elif command == "goodbye":
                return


def main():
    words = sys.argv[1:]
    server = os.environ.get("KGP_HOST", "")
    while words[:1] in (["--server"], ["--sleep-ms"]) and len(words) >= 2:
        if words[0] == "--server":
            server = words[1]
        else:
            time.sleep(int(words[1]) / 1000)
        words = words[2:]
    try:
        ws = WebSocket(server)
    except (ValueError, OSError) as e:
        print("kgp_ws_agent: %s" % e, file=sys.stderr)
        sys.exit(2)
    play(ws)


if __name__ == "__main__":
    main()
