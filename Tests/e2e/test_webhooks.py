"""Webhooks from the durable outbox: signed with the tenant's secret key (X-Signature-V2), retried after failures,
and not lost when assentd restarts before delivering them."""
import base64
import hashlib
import hmac
import json
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from authsignal.client import AuthsignalClient

from conftest import Server, assent, free_port
from device import Device


class Receiver:
    """A webhook receiver on loopback that records what it gets and fails the first `fail` attempts."""

    def __init__(self, fail=0, port=None):
        self.received, self.attempts, self.fail = [], 0, fail
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    receiver.attempts += 1
                    failing = receiver.attempts <= receiver.fail
                    if not failing:
                        receiver.received.append((dict(self.headers), body.decode()))
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port or free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hooks"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def wait_for(self, count, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} webhooks, got {len(self.received)}")

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def verify(headers, body, secret, tolerance=300):
    """The official verification scheme (authsignal-python webhook.py / authsignal-node webhook.ts)."""
    parts = dict(p.split("=", 1) for p in headers["X-Signature-V2"].split(","))
    t = int(parts["t"])
    assert t >= time.time() - tolerance
    expected = base64.b64encode(hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).digest()).decode().rstrip("=")
    return hmac.compare_digest(expected, parts["v2"])


def setup(directory, receiver_url, *flags):
    s = Server(directory)
    tenant = assent("admin", "tenant", "create", "--database", s.database)
    assent("admin", "tenant", "settings", "--database", s.database, "--tenant", tenant["tenantId"],
           "--webhook-url", receiver_url)
    s.start("--webhook-retry", "1", *flags)
    return s, tenant, AuthsignalClient(tenant["secretKey"], api_url=s.api)


def enrol(s, tenant, sdk, user):
    token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    device = Device(s, tenant["tenantId"])
    r = device.add(token)
    assert r.status_code == 200, r.text
    device.authenticator_id = r.json()["userAuthenticatorId"]
    return device


def test_created_updated_deleted_are_signed_with_the_tenant_secret():
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as directory:
        s, tenant, sdk = setup(directory, receiver.url)
        try:
            user = f"wh-{uuid.uuid4().hex[:6]}"
            device = enrol(s, tenant, sdk, user)
            r, _, _ = device.update(push_token="new-token")
            assert r.status_code == 200
            assert device.remove().status_code == 200
            events = receiver.wait_for(3)
        finally:
            s.stop()
            receiver.close()
    bodies = [json.loads(b) for _, b in events]
    assert sorted(e["type"] for e in bodies) == ["authenticator.created", "authenticator.deleted", "authenticator.updated"]
    for (headers, body), event in zip(events, bodies):
        assert headers["Content-Type"] == "application/json"
        assert verify(headers, body, tenant["secretKey"]), "signature verifies with the tenant's secret key"
        assert not verify(headers, body, "sk_wrong")
        assert event["version"] == 1 and event["tenantId"] == tenant["tenantId"] and event["id"]
        assert event["data"]["userId"] == user and event["data"]["userAuthenticatorId"] == device.authenticator_id
        assert event["data"]["verificationMethod"] == "PUSH"
        assert event["time"].endswith("Z")


def test_a_failing_receiver_gets_retries_until_it_accepts():
    receiver = Receiver(fail=2)
    with tempfile.TemporaryDirectory() as directory:
        s, tenant, sdk = setup(directory, receiver.url)
        try:
            started = time.time()
            enrol(s, tenant, sdk, "retry-user")
            events = receiver.wait_for(1, timeout=30)
            elapsed = time.time() - started
        finally:
            s.stop()
            receiver.close()
    assert receiver.attempts == 3, "two failures, then the delivery"
    assert elapsed >= 1 + 2 - 0.5, "retries back off (1 s, then 2 s)"
    assert json.loads(events[0][1])["type"] == "authenticator.created"


def test_a_restart_between_the_change_and_the_delivery_loses_no_event():
    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        # Nothing listens on the webhook port yet: deliveries fail and stay queued.
        s, tenant, sdk = setup(directory, f"http://127.0.0.1:{port}/hooks", "--webhook-attempts", "10")
        users = [f"restart-{i}" for i in range(3)]
        for user in users:
            enrol(s, tenant, sdk, user)
        s.stop()
        receiver = Receiver(port=port)
        try:
            s.start("--webhook-retry", "1", "--webhook-attempts", "10")
            events = receiver.wait_for(3, timeout=30)
            time.sleep(0.5)
        finally:
            s.stop()
            receiver.close()
    created = [json.loads(b) for _, b in events]
    assert sorted(e["data"]["userId"] for e in created) == users
    assert len({e["id"] for e in created}) == 3
