"""Two assentd instances on one PostgreSQL database, as behind a load balancer: a QR challenge watched over the
WebSocket on instance A is claimed and approved through instance B and A's socket hears each state at once; twenty
devices racing through both instances for one claim leave exactly one winner; killing one instance with SIGKILL under
load loses no acknowledged approval while the other keeps serving; an access token validated through both at once is
valid once; the webhook outbox, drained by both, delivers each event exactly once, and push notifications queued
through both are each sent once; a PowerAuth counter value is consumed once however its verifications are spread over
both instances. PostgreSQL only: several instances need a shared database (conftest runs this module on that store
alone)."""
import base64
import json
import os
import signal
import tempfile
import threading
import time
import uuid

import pytest
import requests
import websocket
from authsignal.client import AuthsignalClient

from conftest import Server, assent
from device import Device
from powerauth_device import PowerAuthDevice, b64
from test_qr import QRTenant, answer, claim
from test_push import Tenant
from test_powerauth import BODY
from test_webhooks import Receiver

# Several instances (or the tools between stores) need PostgreSQL: the session store fixture runs this module
# on PostgreSQL alone.
pytestmark = pytest.mark.parametrize("store", ["postgres"], indirect=True, scope="session")


class Pair:
    """Instances A and B on one database (and, through the environment, one master key)."""

    def __init__(self, directory, *flags):
        self.a = Server(os.path.join(directory, "a"))
        self.b = Server(os.path.join(directory, "b"), database=self.a.database)
        os.makedirs(self.a.directory)
        os.makedirs(self.b.directory)
        self.flags = flags

    def start(self):
        self.a.start(*self.flags)
        self.b.start(*self.flags)

    def stop(self):
        for s in (self.a, self.b):
            if s.process:
                s.stop()


@pytest.fixture(scope="module")
def pair(store):
    with tempfile.TemporaryDirectory() as directory:
        p = Pair(directory, "--webhook-retry", "1")
        p.start()
        try:
            yield p
        finally:
            p.stop()


def on(device, server):
    """The same device (same key) talking to another instance."""
    twin = Device(server, device.tenant_id, device.style, key=device.key, bound=device.bound)
    for name in ("user", "authenticator_id"):
        if hasattr(device, name):
            setattr(twin, name, getattr(device, name))
    twin.credential_ids = dict(device.credential_ids)
    return twin


def test_a_qr_challenge_watched_on_a_is_claimed_and_approved_through_b(pair):
    tenant = QRTenant(pair.a)
    device_b = on(tenant.enrol(f"so-{uuid.uuid4().hex[:6]}"), pair.b)
    ws = websocket.create_connection(f"ws://127.0.0.1:{pair.a.port}/v1/ws-v1-challenge", timeout=10,
                                     subprotocols=["authsignal-ws", f"x.authsignal.tenant.{tenant.id}"])
    try:
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": "signIn"}}))
        created = json.loads(ws.recv())
        challenge_id = created["data"]["challengeId"]

        started = time.time()
        assert claim(device_b, challenge_id).status_code == 200
        assert json.loads(ws.recv()) == {"type": "STATE_CHANGE", "data": {"challengeId": challenge_id, "state": "claimed"}}
        claimed_after = time.time() - started

        started = time.time()
        assert answer(device_b, challenge_id).status_code == 200
        approved = json.loads(ws.recv())
        approved_after = time.time() - started
        assert approved["data"]["state"] == "approved" and approved["data"]["accessToken"]
        # The periodic re-check runs every 5 s; these arrive through LISTEN/NOTIFY well before.
        assert claimed_after < 1 and approved_after < 1, (claimed_after, approved_after)
        sdk_b = AuthsignalClient(tenant.secret, api_url=pair.b.api)
        assert sdk_b.validate_challenge({"token": approved["data"]["accessToken"]})["is_valid"] is True
        assert tenant.sdk.validate_challenge({"token": approved["data"]["accessToken"]})["is_valid"] is False
    finally:
        ws.close()


def test_twenty_devices_racing_through_both_instances_leave_one_winner(pair):
    tenant = QRTenant(pair.a)
    devices = [tenant.enrol(f"race-{i}-{uuid.uuid4().hex[:4]}") for i in range(20)]
    devices = [d if i % 2 == 0 else on(d, pair.b) for i, d in enumerate(devices)]
    for _ in range(3):
        challenge = tenant.start(action="signIn")
        barrier = threading.Barrier(len(devices))
        results = [None] * len(devices)

        def go(i):
            barrier.wait()
            results[i] = claim(devices[i], challenge["challengeId"])

        threads = [threading.Thread(target=go, args=(i,)) for i in range(len(devices))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        winners = [i for i, r in enumerate(results) if r.status_code == 200]
        assert len(winners) == 1, [r.status_code for r in results]
        assert all(r.status_code == 410 for i, r in enumerate(results) if i != winners[0])
        assert answer(devices[winners[0]], challenge["challengeId"]).status_code == 200
        assert tenant.poll(challenge)["isVerified"] is True


def test_an_access_token_validated_through_both_instances_at_once_is_valid_once(pair):
    tenant = QRTenant(pair.a)
    device = on(tenant.enrol(f"once-{uuid.uuid4().hex[:6]}"), pair.b)
    sdks = [tenant.sdk, AuthsignalClient(tenant.secret, api_url=pair.b.api)]
    for _ in range(3):
        challenge = tenant.start(action="signIn")
        assert claim(device, challenge["challengeId"]).status_code == 200
        assert answer(device, challenge["challengeId"]).status_code == 200
        token = tenant.poll(challenge)["accessToken"]
        barrier = threading.Barrier(16)
        results = [None] * 16

        def go(i):
            barrier.wait()
            results[i] = sdks[i % 2].validate_challenge({"token": token})["is_valid"]

        threads = [threading.Thread(target=go, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert results.count(True) == 1 and results.count(False) == 15, results


def test_the_outbox_drained_by_both_instances_delivers_each_event_exactly_once(pair):
    receiver = Receiver()
    try:
        tenant = Tenant(pair.a, "--webhook-url", receiver.url)
        sdk_b = AuthsignalClient(tenant.secret, api_url=pair.b.api)
        devices = []
        for i in range(20):
            server, sdk = (pair.a, tenant.sdk) if i % 2 == 0 else (pair.b, sdk_b)
            token = sdk.track(f"hook-{i}-{uuid.uuid4().hex[:4]}", "enrol", {"scope": "add:authenticators"})["token"]
            device = Device(server, tenant.id)
            assert device.add(token).status_code == 200
            devices.append(device)
        for device in devices:
            assert device.update(push_token="rotated")[0].status_code == 200
        events = receiver.wait_for(40, timeout=30)
        time.sleep(2)  # both dispatchers poll twice a second: a duplicate would have arrived by now
        with receiver.lock:
            events = list(receiver.received)
    finally:
        receiver.close()
    ids = [json.loads(body)["id"] for _, body in events]
    assert len(ids) == 40 and len(set(ids)) == 40, f"{len(ids)} deliveries of {len(set(ids))} events"
    assert sorted(json.loads(body)["type"] for _, body in events) == ["authenticator.created"] * 20 + ["authenticator.updated"] * 20


def test_killing_one_instance_under_load_loses_no_acknowledged_approval():
    with tempfile.TemporaryDirectory() as directory:
        p = Pair(directory)
        p.start()
        try:
            tenant = Tenant(p.a)
            sdk_b = AuthsignalClient(tenant.secret, api_url=p.b.api)
            workers = 8
            devices = []
            for i in range(workers):
                user = f"kill-{i}-{uuid.uuid4().hex[:4]}"
                device = tenant.enrol(user)
                device.user_id = user
                devices.append(device)
            acknowledged, lock = [], threading.Lock()
            served_by_b_after_kill = [0]
            killed = threading.Event()
            stop = threading.Event()

            def flow(device, server, sdk):
                """One push flow through `server`; returns the action's idempotency key once the approval is acknowledged."""
                tracked = sdk.track(device.user_id, "signIn")
                r = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"},
                                  headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
                assert r.status_code == 200, r.text
                twin = on(device, server)
                twin.user_id = device.user_id
                assert twin.answer(r.json()["challengeId"]).status_code == 200
                return tracked["idempotency_key"]

            def worker(i):
                device = devices[i]
                n = 0
                while not stop.is_set():
                    n += 1
                    use_a = (n + i) % 2 == 0 and not killed.is_set()
                    server, sdk = (p.a, tenant.sdk) if use_a else (p.b, sdk_b)
                    try:
                        key = flow(device, server, sdk)
                    except Exception:
                        if use_a:
                            continue  # A died mid-flow: nothing acknowledged, go on with B
                        raise
                    with lock:
                        acknowledged.append((device.user_id, key))
                        if killed.is_set() and not use_a:
                            served_by_b_after_kill[0] += 1

            errors = []

            def run(i):
                try:
                    worker(i)
                except Exception as e:  # noqa: BLE001 - reported below
                    errors.append(repr(e))

            threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
            for t in threads:
                t.start()
            time.sleep(2)
            p.a.process.send_signal(signal.SIGKILL)
            p.a.process.wait(timeout=10)
            killed.set()
            time.sleep(3)
            stop.set()
            for t in threads:
                t.join(timeout=60)
            assert not errors, errors[:3]
            assert served_by_b_after_kill[0] > 0, "B kept serving after A was killed"
            assert len(acknowledged) > 20
            for user, key in acknowledged:
                assert sdk_b.get_action(user, "signIn", key)["state"] == "CHALLENGE_SUCCEEDED", (user, key)
        finally:
            p.stop()


def test_a_powerauth_counter_cannot_be_consumed_twice_across_instances(pair):
    # The tenant and its PowerAuth application are made by the admin CLI on the shared PostgreSQL database.
    created = assent("admin", "tenant", "create", "--database", pair.a.database, "--name", "pa-" + uuid.uuid4().hex[:6])
    tenant_id, secret = created["tenantId"], created["secretKey"]
    powerauth = assent("admin", "tenant", "powerauth", "--database", pair.a.database, "--tenant", tenant_id)
    assert assent("admin", "tenant", "powerauth", "--database", pair.a.database, "--tenant", tenant_id) == powerauth
    auth = {"Authorization": "Basic " + base64.b64encode((secret + ":").encode()).decode()}
    tracked = requests.post(f"{pair.a.api}/users/erin/actions/activate", json={"scope": "add:authenticators"},
                            headers=auth, timeout=10)
    assert tracked.status_code == 200, tracked.text
    device = PowerAuthDevice(pair.b.api, powerauth["masterPublicKey"], tenant_id)
    device.activate(tracked.json()["token"])

    def verify(server, header):
        r = requests.post(server.api + "/signatures/verify", json={"method": "POST", "uriId": "/payments", "body": b64(BODY),
                                                                   "authorization": header}, headers=auth, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    # Each round sends one header sixteen times at once: exactly one copy is accepted, and the fifteen replays are
    # not counted. In the last round the header carries a wrong PIN: its possession component verifies, so it counts
    # exactly once across both instances (its counter value is then used up), and no copy is accepted.
    rounds = [("possession", None), ("possession", None), ("possession_knowledge", None),
              ("possession_knowledge", bytes(16))]
    for signature_type, knowledge_key in rounds:
        header = device.header("POST", "/payments", BODY, signature_type, knowledge_key=knowledge_key)
        barrier = threading.Barrier(16)
        results = [None] * 16

        def go(i):
            barrier.wait()
            results[i] = verify(pair.a if i % 2 == 0 else pair.b, header)

        threads = [threading.Thread(target=go, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        valid = [i for i, r in enumerate(results) if r and r["valid"]]
        assert len(valid) == (0 if knowledge_key else 1), (signature_type, [r and r["valid"] for r in results])
        assert all(r is not None for r in results)
        counted = requests.get(f"{pair.b.api}/activations/{device.activation_id}", headers=auth, timeout=10).json()
        assert counted["activationStatus"] == "ACTIVE" and counted["failedAttempts"] == (1 if knowledge_key else 0), counted
    # The counter moved once per round, on both instances alike: the next signature is in step on either.
    assert verify(pair.b, device.header("POST", "/payments", BODY, "possession_knowledge"))["valid"] is True
    assert verify(pair.a, device.header("POST", "/payments", BODY, "possession"))["valid"] is True
    assert device.status()["inSync"] is True


def test_push_notifications_queued_through_both_instances_are_each_sent_once():
    from fakes.apns import FakeAPNs
    from test_push_delivery import Keys, PushTenant, token_hex

    with tempfile.TemporaryDirectory() as directory:
        apns = FakeAPNs(directory).start()
        keys = Keys(directory, "http://127.0.0.1:1/token")
        p = Pair(directory, "--apns-url", apns.url, "--push-ca-file", apns.ca_file, "--push-retry", "0.05")
        p.start()
        try:
            tenant = PushTenant(p.a, keys, "apns")
            sdk_b = AuthsignalClient(tenant.secret, api_url=p.b.api)
            users = [f"fan-{i}-{uuid.uuid4().hex[:4]}" for i in range(4)]
            for user in users:
                tenant.enrol(user, "ios", token_hex())
            started = []
            for n in range(24):
                server, sdk = (p.a, tenant.sdk) if n % 2 == 0 else (p.b, sdk_b)
                tracked = sdk.track(users[n % len(users)], "signIn")
                r = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"},
                                  headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
                assert r.status_code == 200, r.text
                started.append(r.json()["challengeId"])
            apns.wait_for(24, timeout=30)
            time.sleep(2.5)  # both workers poll every second: a second send would have arrived by now
            sent = [request["headers"]["apns-collapse-id"] for request in apns.requests]
            assert sorted(sent) == sorted(started), f"{len(sent)} sends for {len(set(sent))} of {len(started)} challenges"
            for challenge_id in started[:4]:
                r = requests.get(f"{p.b.api}/challenges/{challenge_id}/timeline", auth=(tenant.secret, ""), timeout=10)
                assert [e["event"] for e in r.json()["timeline"]] == [
                    "challenge.started", "push.queued", "push.delivered"], r.text
        finally:
            p.stop()
            apns.stop()
