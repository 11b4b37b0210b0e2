"""Domain metrics and health routes against a live assentd, on each store: real flows (push approved, denied and left
to expire with deliveries to a fake APNs; QR approved and left to expire; PowerAuth signatures valid, invalid and
blocked; a rate-limited request; webhook events stuck in the outbox) move the counters they should, the scrape passes
`promtool check metrics`, and `/healthz/live` and `/healthz/ready` answer."""
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import uuid

import pytest
import requests

from conftest import Server, assent, free_port
from device import Device
from fakes.apns import FakeAPNs
from fakes.http_fakes import FakeFCM
from powerauth_device import PowerAuthDevice, b64
from test_push_delivery import Keys, PushTenant, token_hex

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})? (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse(text):
    """{(name, frozenset(labels)): value} for every sample line."""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        labels = frozenset(LABEL.findall(match.group(2) or ""))
        samples[(match.group(1), labels)] = float(match.group(3))
    return samples


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture(scope="module")
def env(store):
    with tempfile.TemporaryDirectory() as directory:
        apns = FakeAPNs(directory).start()
        fcm = FakeFCM()
        keys = Keys(directory, fcm.url + "/token")
        server = Server(directory)
        metrics_port = free_port()
        # Limits on, all generous but one: the address limit on fetching the pending push challenge.
        server.start("--apns-url", apns.url, "--push-ca-file", apns.ca_file, "--push-retry", "0.05",
                     "--metrics-listen", f"127.0.0.1:{metrics_port}", "--metrics-sample", "1",
                     "--rate-limits", "on", "--rate-limit", "*=100000/1m", "--rate-limit", "get-challenge-address=1/1h")
        server.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        try:
            yield server, apns
        finally:
            server.stop()
            apns.stop()
            fcm.stop()


def scrape(server):
    r = requests.get(server.metrics_url, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    return r.text


def test_health_routes(env):
    server, _ = env
    live = requests.get(server.url + "/healthz/live", timeout=10)
    assert live.status_code == 200 and live.json() == {"status": "ok"}
    ready = requests.get(server.url + "/healthz/ready", timeout=10)
    assert ready.status_code == 200 and ready.json()["status"] == "ready", ready.text
    assert requests.get(server.url + "/healthz", timeout=10).status_code == 200, "the combined check is kept"


def test_counters_move_with_real_flows_and_the_scrape_passes_promtool(env):
    server, apns = env
    dead = free_port()  # nothing listens: webhook events wait in the outbox
    tenant = PushTenant(server, Keys(server.directory, "http://127.0.0.1:1/token"), "apns",
                        "--challenge-timeout", "10", "--max-failed-attempts", "2", "--anonymous-actions", "signIn",
                        "--webhook-url", f"http://127.0.0.1:{dead}/hook", "--allow-private-urls")
    before = parse(scrape(server))

    # Push: approved, denied, and one left to expire; each delivered to the fake APNs.
    user = "metrics-" + uuid.uuid4().hex[:8]
    device = tenant.enrol(user, "ios", token_hex())
    delivered_before = len(apns.requests)
    outcomes = []
    for index, approved in enumerate([True, False, None]):
        _, r, _ = tenant.start(user)
        assert r.status_code == 200, r.text
        challenge_id = r.json()["challengeId"]
        # Delivered before it is answered: a challenge answered first is no longer sent (its delivery ends as
        # challenge_answered), which a busy machine made happen here.
        apns.wait_for(delivered_before + index + 1)
        if approved is not None:
            answer = device.answer(challenge_id, approved=approved)
            assert answer.status_code == 200, answer.text
        outcomes.append(challenge_id)
    apns.wait_for(delivered_before + 3)

    # QR: one claimed and approved by a QR credential, one anonymous left to expire.
    basic = {"Authorization": "Basic " + base64.b64encode((tenant.id + ":").encode()).decode()}
    token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    qr_device = Device(server, tenant.id)
    assert qr_device.add(token, kind="qr-code").status_code == 200
    for answer in [True, None]:
        r = requests.post(f"{server.api}/client/challenge/qr-code", json={"action": "signIn"}, headers=basic, timeout=10)
        assert r.status_code == 200, r.text
        if answer:
            challenge_id = r.json()["challengeId"]
            assert qr_device.claim(challenge_id).status_code == 200
            assert qr_device.answer(challenge_id, approved=True, kind="qr-code").status_code == 200

    # PowerAuth: valid, invalid (wrong knowledge key), then blocked at the tenant's limit of 2.
    powerauth = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant.id)
    pa = PowerAuthDevice(server.api, powerauth["masterPublicKey"], tenant.id)
    pa.activate(tenant.sdk.track(user, "activate", {"scope": "add:authenticators"})["token"])
    body = b'{"amount":"1.00"}'
    secret = {"Authorization": "Basic " + base64.b64encode((tenant.secret + ":").encode()).decode()}

    def verify(knowledge_key=None):
        header = pa.header("POST", "/pay", body, "possession_knowledge", knowledge_key=knowledge_key)
        r = requests.post(server.api + "/signatures/verify", headers=secret, timeout=10,
                          json={"method": "POST", "uriId": "/pay", "body": b64(body), "authorization": header})
        assert r.status_code == 200, r.text
        return r.json()

    assert verify()["valid"]
    wrong = os.urandom(16)
    assert not verify(wrong)["valid"]
    assert verify(wrong)["activationStatus"] == "BLOCKED"
    assert verify()["activationStatus"] == "BLOCKED"

    # Rate limited: the second fetch from this address within the hour.
    statuses = [requests.get(f"{server.api}/client/user-authenticators/push/challenge", timeout=10).status_code
                for _ in range(2)]
    assert statuses[-1] == 429, statuses

    # The expiries are counted by the sampler (every second here) once the 10 s timeout has passed.
    deadline = time.time() + 40
    while True:
        text = scrape(server)
        after = parse(text)
        expired = (value(after, "assent_challenges_total", kind="push", outcome="expired")
                   - value(before, "assent_challenges_total", kind="push", outcome="expired"),
                   value(after, "assent_challenges_total", kind="qr", outcome="expired")
                   - value(before, "assent_challenges_total", kind="qr", outcome="expired"))
        if expired == (1, 1) or time.time() > deadline:
            break
        time.sleep(0.5)
    assert expired == (1, 1), text

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("assent_challenges_total", kind="push", outcome="started") == 3
    assert delta("assent_challenges_total", kind="push", outcome="approved") == 1
    assert delta("assent_challenges_total", kind="push", outcome="denied") == 1
    assert delta("assent_challenges_total", kind="qr", outcome="started") == 2
    assert delta("assent_challenges_total", kind="qr", outcome="approved") == 1
    assert delta("assent_challenges_total", kind="qr", outcome="denied") == 0
    assert delta("assent_push_deliveries_total", provider="apns", result="delivered") == 3
    assert delta("assent_powerauth_verifications_total", result="valid") == 1
    assert delta("assent_powerauth_verifications_total", result="invalid") == 1
    assert delta("assent_powerauth_verifications_total", result="blocked") == 2
    assert delta("assent_rate_limited_requests_total", **{"class": "get-challenge-address"}) == 1
    # authenticator.created for the push and QR credentials, at least, wait for a receiver that is not there.
    assert value(after, "assent_webhook_outbox_depth") >= 2
    assert value(after, "assent_webhook_outbox_oldest_age_seconds") > 0
    assert value(after, "assent_store_operation_duration_seconds_count", operation="insertPushChallenge") >= 3
    assert value(after, "assent_store_operation_duration_seconds_count", operation="answerChallenge") >= 3
    assert not any(("tenant_id", tenant.id) in labels or any(v == tenant.id for _, v in labels)
                   for _, labels in after), "no series names a tenant"

    promtool = shutil.which("promtool")
    assert promtool, "promtool is missing: `make test` installs the prometheus package"
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_grafana_dashboard_queries_only_series_assentd_exports(env, tmp_path):
    """deploy/grafana/assent-dashboard.json: a dashboard Grafana imports (panels with unique ids, a grid position and
    Prometheus targets over the `datasource` variable), every expression valid PromQL (`promtool check rules` parses
    them as recording rules) naming only series the live scrape declares."""
    server, _ = env
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "deploy", "grafana", "assent-dashboard.json")) as f:
        dashboard = json.load(f)
    assert dashboard["uid"] and dashboard["title"] and isinstance(dashboard["schemaVersion"], int)
    assert [v["name"] for v in dashboard["templating"]["list"] if v["type"] == "datasource"] == ["datasource"]
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels) >= 8
    text = scrape(server)
    exported = set(re.findall(r"^# TYPE (\w+) (\w+)$", text, re.M))
    names = {name for name, _ in exported}
    names |= {name + suffix for name, kind in exported if kind == "histogram" for suffix in ("_bucket", "_sum", "_count")}
    exprs = []
    for panel in panels:
        assert panel["type"] == "timeseries" and panel["datasource"]["uid"] == "${datasource}"
        assert {"x", "y", "w", "h"} <= panel["gridPos"].keys() and panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            expr = target["expr"]
            used = set(re.findall(r"\bassent_\w+", expr))
            assert used and used <= names, f"{panel['title']}: {used - names} not exported"
            exprs.append(expr.replace("$__rate_interval", "5m"))
    rules = tmp_path / "dashboard-rules.yml"
    rules.write_text("groups:\n- name: dashboard\n  rules:\n" + "".join(
        f"  - record: dashboard:expr{i}\n    expr: {json.dumps(expr)}\n" for i, expr in enumerate(exprs)))
    checked = subprocess.run([shutil.which("promtool"), "check", "rules", str(rules)], capture_output=True, text=True,
                             timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
