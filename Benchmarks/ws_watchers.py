#!/usr/bin/env python3
"""How many idle QR watchers one assentd holds, and what they cost.

Opens N WebSockets to /v1/ws-v1-challenge (anonymous, tenant subprotocol), each creating one QR challenge and then
staying idle, watching it, as the QR sign-in page does. Reports the server's resident memory before and after
(from /proc/PID/status), then proves the last watcher still gets its state pushed by claiming its challenge.

usage: ws_watchers.py --url http(s)://127.0.0.1:PORT --tenant ID --pid SERVER_PID [--count 10000] [--cafile CA.pem]
       (an https URL opens wss:// watchers over TLS, trusting --cafile)
       (needs a QR device: --database DB to enrol one with the assent CLI through the server API secret in
       ASSENT_BENCH_SECRET)
"""
import argparse
import base64
import json
import os
import resource
import socket
import ssl
import struct
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def frame(text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    else:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_frame(s):
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                raise RuntimeError("connection closed")
            data += chunk
        return data
    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", exactly(2))[0]
    elif length == 127:
        length = struct.unpack("!Q", exactly(8))[0]
    return json.loads(exactly(length))


def open_watcher(host, port, tenant, tls=None):
    s = socket.create_connection((host, port), timeout=30)
    if tls is not None:
        s = tls.wrap_socket(s, server_hostname=host)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /v1/ws-v1-challenge HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Sec-WebSocket-Protocol: authsignal-ws, x.authsignal.tenant.{tenant}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            raise RuntimeError("closed during handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(head.decode(errors="replace").splitlines()[0])
    s.sendall(frame(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": "signIn"}})))
    created = read_frame(s)
    assert created["type"] == "CHALLENGE_CREATED", created
    return s, created["data"]["challengeId"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--cafile", help="PEM CA to trust for an https URL")
    args = parser.parse_args()
    tls = ssl.create_default_context(cafile=args.cafile) if args.url.startswith("https://") else None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.count + 1000), hard))
    host, port = args.url.split("//")[1].split(":")
    port = int(port.rstrip("/"))
    before = rss_kib(args.pid)
    started = time.time()
    sockets = []
    for i in range(args.count):
        sockets.append(open_watcher(host, port, args.tenant, tls))
    opened = time.time() - started
    time.sleep(2)
    after = rss_kib(args.pid)
    # Every watcher is still open: the server has sent nothing and closed nothing.
    for s, _ in sockets[:: max(1, args.count // 100)]:
        s.setblocking(False)
        try:
            data = s.recv(1)
            # A ping (0x89) is the server's keep-alive, sent once a socket has been idle for the ping interval (30 s),
            # which a slow opening of many TLS watchers can reach; anything else, or EOF, is a failure.
            if data != b"\x89":
                raise RuntimeError(f"a watcher got unexpected data or was closed: {data!r}")
        except (BlockingIOError, ssl.SSLWantReadError):
            pass
        s.setblocking(True)
    delta = after - before
    print(json.dumps({
        "watchers": args.count, "openSeconds": round(opened, 1), "serverRssBeforeKiB": before,
        "serverRssAfterKiB": after, "bytesPerWatcher": round(delta * 1024 / args.count),
        "lastChallengeId": sockets[-1][1], "tls": tls is not None,
    }))
    sys.stdout.flush()
    # Keep them open until told to stop (the caller may claim the last challenge and check the push).
    if os.environ.get("WS_WATCHERS_HOLD"):
        line = sys.stdin.readline()
        s, challenge_id = sockets[-1]
        print(json.dumps(read_frame(s)))
    for s, _ in sockets:
        s.close()


if __name__ == "__main__":
    main()
