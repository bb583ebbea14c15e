#!/usr/bin/env python3
"""A hostile KGP server behind a WebSocket, written for the tests of `referee kgp-client --server ws://...`
(docs/KGP.md): standard library only. It listens on a free port of 127.0.0.1, prints the port on stdout,
takes one connection and misbehaves in one way (or, with `lines`, plays one state by the book):

  kgp_ws_server.py MODE
    oversized   upgrades, greets with `kgp 1 0 0`, then sends a text message of 20,000 characters
    binary      upgrades, greets with `kgp 1 0 0`, then sends a binary message
    no-upgrade  answers the upgrade request with `HTTP/1.1 200 OK` and a page, as a web server would
    mute        reads the upgrade request and never answers it
    lines       upgrades and plays one state, several lines to a message and one without a line break:
                `kgp 1 0 0`, then `set time:mode relative`, `set time:clock 5` and `2 state <start>` in one
                message, `4 ping` without CR LF in the next; after the client's `@2 yield` and `@4 pong`, `6@2 stop` and
                `goodbye`. Every text message of the client's is printed on stdout, as Python's repr.

Then it waits (at most 30 s) for the client to close the connection. Every read is bounded.
"""
import base64
import hashlib
import socket
import sys

# RFC 6455's fixed key suffix of the upgrade.
WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode("latin-1")


def upgrade(conn, request):
    key = ""
    for line in request.split("\r\n"):
        name, _, value = line.partition(":")
        if name.strip().lower() == "sec-websocket-key":
            key = value.strip()
    accept = base64.b64encode(hashlib.sha1((key + WEBSOCKET_GUID).encode()).digest()).decode()
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())


def frame(opcode, payload):
    """One unmasked, final frame (a server's frames carry no mask)."""
    head = bytes([0x80 | opcode])
    if len(payload) < 126:
        head += bytes([len(payload)])
    elif len(payload) < 65536:
        head += bytes([126]) + len(payload).to_bytes(2, "big")
    else:
        head += bytes([127]) + len(payload).to_bytes(8, "big")
    return head + payload


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_frame(conn):
    """The client's next frame (masked, as every client's is): its opcode and payload, or None at the end."""
    head = recv_exact(conn, 2)
    if head is None:
        return None
    length = head[1] & 0x7F
    if length >= 126:
        extended = recv_exact(conn, 2 if length == 126 else 8)
        length = int.from_bytes(extended or b"", "big")
    if length > 65536:
        return None
    mask = recv_exact(conn, 4) if head[1] & 0x80 else b"\0\0\0\0"
    payload = recv_exact(conn, length) if length else b""
    if mask is None or payload is None:
        return None
    return head[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_until(conn, *texts):
    """Prints the client's text messages until each of `texts` was in one (at most 100 frames); False at the end."""
    missing = set(texts)
    for _ in range(100):
        got = read_frame(conn)
        if got is None:
            return False
        opcode, payload = got
        if opcode == 0x1:
            text = payload.decode("utf-8", "replace")
            print(repr(text), flush=True)
            missing = {m for m in missing if m not in text}
            if not missing:
                return True
    return False


def play_lines(conn, request):
    upgrade(conn, request)
    conn.sendall(frame(0x1, b"kgp 1 0 0\r\n"))
    if not read_until(conn, "mode freeplay"):
        return
    conn.sendall(frame(0x1, b"set time:mode relative\r\nset time:clock 5\r\n"
                            b"2 state <6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>\r\n"))
    conn.sendall(frame(0x1, b"4 ping"))
    if read_until(conn, "@2 yield", "@4 pong"):
        conn.sendall(frame(0x1, b"6@2 stop\r\n"))
        conn.sendall(frame(0x1, b"goodbye\r\n"))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(30)
    print(listener.getsockname()[1], flush=True)
    conn, _ = listener.accept()
    conn.settimeout(30)
    request = read_request(conn)
    if mode == "no-upgrade":
        page = b"<html><body>a web page, no WebSocket</body></html>"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(page) + page)
    elif mode == "lines":
        play_lines(conn, request)
    elif mode in ("oversized", "binary"):
        upgrade(conn, request)
        conn.sendall(frame(0x1, b"kgp 1 0 0\r\n"))
        if mode == "oversized":
            conn.sendall(frame(0x1, b"set info:comment \"" + b"x" * 20000 + b"\"\r\n"))
        else:
            conn.sendall(frame(0x2, b"\x00\x01\x02kgp"))
    try:
        for _ in range(100000):  # until the client closes; each read waits at most the timeout
            if not conn.recv(4096):
                break
    except OSError:
        pass


if __name__ == "__main__":
    main()
