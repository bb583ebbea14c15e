#!/usr/bin/env python3
"""A TLS front for a KGP server's WebSocket, written for the tests of `referee kgp-client --server wss://...`
(docs/KGP.md): standard library only. It listens on a free port of 127.0.0.1, prints the port on stdout,
and for each connection makes a TLS handshake as the server with CERT and KEY (PEM files), then passes the
bytes both ways between that connection and 127.0.0.1:PORT (`referee kgp-server --websocket`), untouched.
A handshake that fails (a client that refuses the certificate) prints `refused: REASON` on stdout.

  kgp_tls_proxy.py CERT KEY PORT

It exits when its stdin ends (the test is done) or after 60 s; every wait is bounded.
"""
import os
import select
import socket
import ssl
import sys
import threading
import time

LIFETIME = 60.0


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def relay(tls, plain, until):
    """Bytes both ways until either side closes, from one thread (an SSL object takes one caller at a time)."""
    while time.monotonic() < until:
        ready = [tls] if tls.pending() else []
        if not ready:
            ready, _, _ = select.select([tls, plain], [], [], max(0.0, until - time.monotonic()))
        for source in ready:
            data = source.recv(65536)
            if not data:
                return
            (plain if source is tls else tls).sendall(data)


def serve(conn, context, port, until):
    conn.settimeout(10)
    try:
        tls = context.wrap_socket(conn, server_side=True)
    except (ssl.SSLError, OSError) as e:
        say("refused: %s" % e)
        conn.close()
        return
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as plain:
            relay(tls, plain, until)
    except (ssl.SSLError, OSError):
        pass
    finally:
        tls.close()


def main():
    cert, key, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    until = time.monotonic() + LIFETIME
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.5)
    say(str(listener.getsockname()[1]))
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    while time.monotonic() < until:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn, context, port, until), daemon=True).start()
    os._exit(0)


if __name__ == "__main__":
    main()
