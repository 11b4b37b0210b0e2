#!/usr/bin/env python3
"""Floods assentd with anonymous QR starts from one loopback source address, at a set rate, until stopped.

Usage: scripts/qr-flood.py URL TENANT_ID RATE [SOURCE_ADDRESS]   (default source 127.0.0.2)

An attacker's load for benchmarks (scripts/bench.sh with BENCH_QR_FLOOD=RATE): keep-alive connections bound to
SOURCE_ADDRESS send POST /v1/client/challenge/qr-code with the tenant's Basic header, paced to RATE a second in all.
On SIGTERM or SIGINT it prints one JSON line to stderr: seconds, requests sent, the rate reached, and counts by status.
"""
import base64
import collections
import http.client
import json
import signal
import sys
import threading
import time
import urllib.parse

THREADS = 4


def start(connection, host, port, source, headers, body, counts):
    """Sends one anonymous QR start on `connection` (a new keep-alive one bound to `source` when None), counting its
    status (or "error") in `counts`; returns the connection to reuse, None after an error."""
    try:
        if connection is None:
            connection = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
        connection.request("POST", "/v1/client/challenge/qr-code", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        counts[response.status] += 1
        return connection
    except (OSError, http.client.HTTPException):
        counts["error"] += 1
        return None


def main():
    url, tenant, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
    source = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.2"
    parsed = urllib.parse.urlsplit(url)
    headers = {"Content-Type": "application/json",
               "Authorization": "Basic " + base64.b64encode((tenant + ":").encode()).decode()}
    body = json.dumps({"action": "signIn"})
    stop = threading.Event()
    counts = collections.Counter()
    lock = threading.Lock()

    def flood():
        interval = THREADS / rate
        connection, due = None, time.monotonic()
        local = collections.Counter()
        while not stop.is_set():
            now = time.monotonic()
            if due > now:
                time.sleep(due - now)
            due += interval
            connection = start(connection, parsed.hostname, parsed.port, source, headers, body, local)
        with lock:
            counts.update(local)

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    started = time.monotonic()
    threads = [threading.Thread(target=flood, daemon=True) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    while not stop.is_set():
        stop.wait(0.2)
    for thread in threads:
        thread.join(timeout=15)
    seconds = time.monotonic() - started
    sent = sum(counts.values())
    print(json.dumps({"qrFlood": {"source": source, "seconds": round(seconds, 1), "sent": sent,
                                  "perSecond": round(sent / seconds, 1),
                                  "byStatus": {str(k): v for k, v in sorted(counts.items(), key=str)}}}),
          file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
