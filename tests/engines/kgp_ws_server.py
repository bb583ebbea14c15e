#!/usr/bin/env python3
"""A hostile KGP server behind a WebSocket, written for the tests of `referee kgp-client --server ws://...`
(docs/KGP.md): standard library only. It listens on a free port of 127.0.0.1, prints the port on stdout,
takes one connection and misbehaves in one way:

  kgp_ws_server.py MODE
    oversized   upgrades, greets with `kgp 1 0 0`, then sends a text message of 20,000 characters
    binary      upgrades, greets with `kgp 1 0 0`, then sends a binary message
    no-upgrade  answers the upgrade request with `HTTP/1.1 200 OK` and a page, as a web server would
    mute        reads the upgrade request and never answers it

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
