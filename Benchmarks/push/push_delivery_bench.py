#!/usr/bin/env python3
"""Notifications per second from assentd to a fake APNs over one HTTP/2 connection.

Setup (not measured): a throwaway database, one tenant with the `apns` provider, one enrolled iOS device and one open
push challenge. assentd is stopped, N deliveries for that challenge are queued straight into the database, and
assentd is started again against the fake: its worker claims and sends all N. The figure is (N - 1) / (last - first
delivery time), from the delivery records; the fake reports how many connections it saw.

Fakes: `nghttpd` (Debian nghttp2-server, C; answers 200 for a file under htdocs) and the Python `h2` fake of the
end-to-end tests (a single Python thread per connection; it bounds the rate well before assentd does).

usage: Benchmarks/push/push_delivery_bench.py [--count N] [--fake nghttpd|h2|both] [--bin .build/release]
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))

import requests  # noqa: E402

from conftest import Server, free_port  # noqa: E402
from device import Device  # noqa: E402
from fakes.apns import FakeAPNs, make_certificate  # noqa: E402


def cli(bin_dir, *args):
    out = subprocess.run([os.path.join(bin_dir, "assent"), *args, "--json"], check=True, capture_output=True, text=True,
                         timeout=60)
    return json.loads(out.stdout)


def run(fake_kind, count, bin_dir, concurrency):
    os.environ["ASSENT_BIN"] = bin_dir
    import conftest
    conftest.BIN = os.path.join(ROOT, bin_dir) if not os.path.isabs(bin_dir) else bin_dir
    directory = tempfile.mkdtemp(prefix="assent-push-bench-")
    token = uuid.uuid4().hex * 2
    nghttpd = None
    fake = None
    server = Server(directory)
    try:
        port = free_port()
        if fake_kind == "nghttpd":
            cert, key = make_certificate(directory)
            htdocs = os.path.join(directory, "htdocs", "3", "device")
            os.makedirs(htdocs)
            open(os.path.join(htdocs, token), "w").close()
            ca_file, url = cert, f"https://127.0.0.1:{port}"
        else:
            fake = FakeAPNs(directory, port)
            fake.record = False
            ca_file, url = fake.ca_file, fake.url
        p8 = os.path.join(directory, "AuthKey.p8")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                       check=True, capture_output=True)
        flags = ["--apns-url", url, "--push-ca-file", ca_file, "--log-level", "info",
                 "--push-concurrency", str(concurrency)]
        server.start(*flags)
        tenant = cli(bin_dir, "admin", "tenant", "create", "--database", server.database)
        tid, secret = tenant["tenantId"], tenant["secretKey"]
        cli(bin_dir, "admin", "tenant", "settings", "--database", server.database, "--tenant", tid,
            "--challenge-timeout", "600")
        time.sleep(1.1)
        r = requests.post(f"{server.api}/users/bench/actions/enrol", auth=(secret, ""),
                          json={"scope": "add:authenticators"})
        device = Device(server, tid, "ios")
        assert device.add(r.json()["token"], pushToken=token).status_code == 200
        r = requests.post(f"{server.api}/users/bench/actions/signIn", auth=(secret, ""), json={})
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"},
                                headers={"Authorization": "Bearer " + r.json()["token"]}).json()
        challenge = started["challengeId"]
        server.stop()
        cli(bin_dir, "admin", "tenant", "push", "--database", server.database, "--tenant", tid, "--provider", "apns",
            "--apns-key-file", p8, "--apns-key-id", "BENCHKEY01", "--apns-team-id", "BENCHTEAM1",
            "--apns-topic", "com.example.bench", "--apns-environment", "sandbox")
        db = sqlite3.connect(server.database)
        authenticator = db.execute("SELECT id FROM authenticators WHERE tenant_id = ?", (tid,)).fetchone()[0]
        now = int(time.time() * 1000)
        db.executemany(
            "INSERT INTO push_deliveries (id, tenant_id, challenge_id, authenticator_id, provider, created_at, expires_at,"
            " next_attempt_at, attempts, state) VALUES (?, ?, ?, ?, 'apns', ?, ?, ?, 0, 'queued')",
            [(str(uuid.uuid4()), tid, challenge, authenticator, now, now + 590_000, now) for _ in range(count)])
        db.commit()
        db.close()
        if fake_kind == "nghttpd":
            nghttpd = subprocess.Popen(["nghttpd", "--htdocs=" + os.path.join(directory, "htdocs"), str(port), key, cert],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.3)
        else:
            fake.start()
        server.start(*flags)
        deadline = time.time() + 300
        db = sqlite3.connect(f"file:{server.database}?mode=ro", uri=True)
        while time.time() < deadline:
            done = db.execute("SELECT COUNT(*) FROM push_deliveries WHERE challenge_id = ? AND state <> 'queued'",
                              (challenge,)).fetchone()[0]
            if done >= count:
                break
            time.sleep(0.1)
        states = dict(db.execute("SELECT state, COUNT(*) FROM push_deliveries WHERE challenge_id = ? GROUP BY state",
                                 (challenge,)).fetchall())
        first, last = db.execute("SELECT MIN(finished_at), MAX(finished_at) FROM push_deliveries WHERE challenge_id = ?",
                                 (challenge,)).fetchone()
        db.close()
        server.stop()
        connections = fake.connections if fake else None
        if connections is None:
            for line in server.log_text().splitlines():
                if "push clients stopped" in line:
                    connections = json.loads(line).get("providerConnectionsOpened")
        rate = (count - 1) / max((last - first) / 1000, 1e-6)
        return {"fake": fake_kind, "count": count, "delivered": states.get("delivered", 0), "states": states,
                "seconds": round((last - first) / 1000, 3), "per_second": round(rate, 1), "connections": connections,
                "concurrency": concurrency}
    finally:
        server.stop() if server.process and server.process.poll() is None else None
        if nghttpd:
            nghttpd.terminate()
            nghttpd.wait(timeout=10)
        if fake:
            fake.stop()
        shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=int(os.environ.get("BENCH_PUSH_COUNT", "5000")))
    parser.add_argument("--fake", default=os.environ.get("BENCH_PUSH_FAKE", "both"))
    parser.add_argument("--bin", default=os.environ.get("BENCH_PUSH_BIN", ".build/release"))
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_PUSH_RUNS", "3")))
    args = parser.parse_args()
    kinds = ["nghttpd", "h2"] if args.fake == "both" else [args.fake]
    for kind in kinds:
        results = [run(kind, args.count, args.bin, args.concurrency) for _ in range(args.runs)]
        for result in results:
            print(json.dumps(result))
        print(f"push delivery to fake APNs ({kind}): median {statistics.median(r['per_second'] for r in results):.0f} "
              f"notifications/s over {results[0]['connections']} connection(s), {args.count} per run, {args.runs} runs")


if __name__ == "__main__":
    main()
