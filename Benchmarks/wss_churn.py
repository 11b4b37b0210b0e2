#!/usr/bin/env python3
"""Opens and closes WebSockets over TLS in rounds: the check for a crash of assentd under wss churn, since fixed (see
BENCHMARKS.md, "Idle QR watchers under TLS"). Each round opens COUNT watchers (ws_watchers.open_watcher: handshake and
CREATE_CHALLENGE), then closes them, alternately with a close frame and by dropping the TCP connection.

usage: wss_churn.py --url https://127.0.0.1:PORT --tenant ID --cafile CA.pem [--count 150] [--rounds 8]
Exits non-zero when the server stops answering.
"""
import argparse
import os
import ssl
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ws_watchers import open_watcher  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    host, port = args.url.split("//")[1].rstrip("/").split(":")
    tls = ssl.create_default_context(cafile=args.cafile)
    close_frame = bytes([0x88, 0x82]) + b"abcd" + bytes(b ^ m for b, m in zip(b"\x03\xe8", b"ab"))
    for round_number in range(args.rounds):
        sockets = [open_watcher(host, int(port), args.tenant, tls) for _ in range(args.count)]
        for s, _ in sockets:
            if round_number % 2:
                s.close()
            else:
                s.sendall(close_frame)
        if round_number % 2 == 0:
            time.sleep(0.5)
            for s, _ in sockets:
                s.close()
        print(f"round {round_number}: {args.count} opened and closed", flush=True)


if __name__ == "__main__":
    main()
