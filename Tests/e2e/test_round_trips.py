"""Round trips to PostgreSQL per push sign-in, read from assentd's own counter (`assent_database_round_trips_total` on
/metrics): one flow as the benchmark runs it (track, start, get, approve, verify, validate), step by step.

Each step is measured twice: warm (its tenant read within the last second, as under load, where one read a second
serves every request) and cold (the tenant cache expired first, so the step pays for reading the tenant's settings
again). The per-step figures are printed (pytest -s) and bounded; the bounds are what the store reaches today, so a
change that adds a round trip to the hot path fails here. On SQLite there is no server to talk to, and /metrics has
no such series."""
import re
import time
import uuid

import requests
from authsignal.client import AuthsignalClient

from conftest import Server, assent, free_port
from device import Device

STEPS = ["track", "start", "get", "approve", "verify", "validate"]
# Most round trips each step may take with its tenant freshly cached, and the whole flow's.
WARM_BOUNDS = {"track": 2, "start": 2, "get": 2, "approve": 4, "verify": 1, "validate": 1}
WARM_FLOW_BOUND = 12
# The same with every step reading its tenant again (the tenant cache lives a second).
COLD_FLOW_BOUND = 20
SERIES = re.compile(r"^assent_database_round_trips_total (\d+)$", re.M)


class Flow:
    def __init__(self, server, tenant_id, secret, metrics_url):
        self.server, self.tenant_id, self.metrics_url = server, tenant_id, metrics_url
        self.sdk = AuthsignalClient(secret, api_url=server.api)
        self.user = "rt-" + uuid.uuid4().hex[:8]
        self.device = Device(server, tenant_id, "ios")
        token = self.sdk.track(self.user, "enrol", {"scope": "add:authenticators"})["token"]
        r = self.device.add(token)
        assert r.status_code == 200, r.text

    def metrics(self):
        r = requests.get(self.metrics_url, timeout=10)
        assert r.status_code == 200, r.text
        return r.text

    def round_trips(self):
        found = SERIES.search(self.metrics())
        assert found, "no assent_database_round_trips_total on /metrics"
        return int(found.group(1))

    def run(self, before_each=lambda: None, count=True):
        """One push sign-in; the round trips each step took (when `count`)."""
        counts = {}
        state = {}

        def step(name, body):
            before_each()
            start = self.round_trips() if count else 0
            body()
            counts[name] = (self.round_trips() if count else 0) - start

        def track():
            state["tracked"] = self.sdk.track(self.user, "signIn", {"ipAddress": "203.0.113.7", "userAgent": "rt"})

        def start():
            r = requests.post(f"{self.server.api}/client/challenge/push", json={"action": "signIn"},
                              headers={"Authorization": "Bearer " + state["tracked"]["token"]}, timeout=10)
            assert r.status_code == 200, r.text
            state["challenge"] = r.json()["challengeId"]

        def get():
            r = self.device.session.get(self.device.url("push/challenge") + "?publicKey=" + self.device.query,
                                        headers=self.device.basic, timeout=10)
            assert r.status_code == 200 and r.json()["challengeId"] == state["challenge"], r.text

        def approve():
            r = self.device.answer(state["challenge"], approved=True)
            assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text

        def verify():
            r = requests.post(f"{self.server.api}/client/verify/push", json={"challengeId": state["challenge"]},
                              headers={"Authorization": "Bearer " + state["tracked"]["token"]}, timeout=10)
            assert r.status_code == 200 and r.json()["isVerified"] is True, r.text
            state["access"] = r.json()["accessToken"]

        def validate():
            assert self.sdk.validate_challenge({"token": state["access"]})["is_valid"] is True

        for name, body in zip(STEPS, [track, start, get, approve, verify, validate]):
            step(name, body)
        return counts


def started_server(tmp_path):
    server = Server(str(tmp_path))
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "round-trips")
    port = free_port()
    server.start("--metrics-listen", f"127.0.0.1:{port}")
    return server, created, f"http://127.0.0.1:{port}/metrics"


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def test_push_flow_round_trips(store, tmp_path):
    server, created, metrics_url = started_server(tmp_path)
    try:
        flow = Flow(server, created["tenantId"], created["secretKey"], metrics_url)
        if store == "sqlite":
            flow.run(count=False)
            assert "assent_database_round_trips_total" not in flow.metrics(), "SQLite has no server to talk to"
            return
        flow.run()  # opens the pool's connections this sequence uses
        warm_runs = [flow.run() for _ in range(5)]
        # Past the tenant cache's second before every step: each step reads its tenant's settings afresh.
        cold_runs = [flow.run(before_each=lambda: time.sleep(1.1)) for _ in range(2)]
        warm = {step: median([run[step] for run in warm_runs]) for step in STEPS}
        cold = {step: max(run[step] for run in cold_runs) for step in STEPS}
        print(f"\nround trips per step, warm (median of 5): {warm}, total {sum(warm.values())}")
        print(f"round trips per step, cold tenant cache (max of 2): {cold}, total {sum(cold.values())}")
        for step in STEPS:
            assert warm[step] <= WARM_BOUNDS[step], (step, warm)
        assert sum(warm.values()) <= WARM_FLOW_BOUND, warm
        assert sum(cold.values()) <= COLD_FLOW_BOUND, cold
    finally:
        server.stop()
