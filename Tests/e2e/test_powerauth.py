"""PowerAuth activations and signatures end to end: an independent Python device, the backend's verify endpoint, the
admin CLI against a running server, and a push approval under a possession_biometry policy."""
import base64
import json
import os
import subprocess
import tempfile

import pytest
import requests

from conftest import BIN, Server, assent
from powerauth_device import PowerAuthDevice, b64

BODY = b'{"amount":"12.50","to":"carol"}'


@pytest.fixture(scope="module")
def pa_server(store):
    """Its own server with a possession_biometry approval policy, so the policy never reaches the other tests' tenant."""
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        created = assent("admin", "tenant", "create", "--database", s.database, "--name", "PowerAuth")
        s.tenant_id, s.secret = created["tenantId"], created["secretKey"]
        s.powerauth = assent("admin", "tenant", "powerauth", "--database", s.database, "--tenant", s.tenant_id)
        # Set before the start: a running server sees settings changed by the CLI only within a second.
        assent("admin", "tenant", "settings", "--database", s.database, "--tenant", s.tenant_id,
               "--required-approval-factor", "possession_biometry")
        s.start()
        try:
            yield s
        finally:
            s.stop()


def secret_auth(s):
    return {"Authorization": "Basic " + base64.b64encode((s.secret + ":").encode()).decode()}


def track(s, user, scope=None):
    body = {"scope": scope} if scope else {}
    r = requests.post(f"{s.api}/users/{user}/actions/{'activate' if scope else 'signIn'}", json=body,
                      headers=secret_auth(s), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def activate(s, user):
    device = PowerAuthDevice(s.api, s.powerauth["masterPublicKey"], s.tenant_id)
    device.activate(track(s, user, "add:authenticators"))
    return device


def verify(s, header, method="POST", uri_id="/payments", body=BODY):
    r = requests.post(s.api + "/signatures/verify", json={"method": method, "uriId": uri_id, "body": b64(body),
                                                          "authorization": header}, headers=secret_auth(s), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def cli(s, *args):
    env = dict(os.environ, ASSENT_URL=s.url, ASSENT_SECRET_KEY=s.secret)
    out = subprocess.run([os.path.join(BIN, "assent"), *args, "--json"], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_independent_device_activates_and_its_signatures_verify(pa_server):
    device = activate(pa_server, "alice")
    result = verify(pa_server, device.header("POST", "/payments", BODY, "possession_knowledge"))
    assert result == {"valid": True, "activationId": device.activation_id, "userId": "alice", "activationStatus": "ACTIVE",
                      "signatureType": "possession_knowledge", "remainingAttempts": 5}
    assert verify(pa_server, device.header("POST", "/payments", BODY, "possession_knowledge_biometry"))["valid"]
    assert device.status() == {"status": 3, "ctrByte": 2, "failed": 0, "maxFailed": 5, "lookAhead": 20, "inSync": True}
    # The CLI's diagnostic computes the same signature as this independent device.
    counter = device.counter
    header = device.header("POST", "/x", b"", "possession_biometry")
    nonce = header.split('pa_nonce="')[1].split('"')[0]
    data = "&".join(["POST", b64(b"/x"), nonce, "", device.application_secret]).encode()
    out = subprocess.run([os.path.join(BIN, "assent"), "signature", "compute", "--possession-key", b64(device.keys["possession"]),
                          "--biometry-key", b64(device.keys["biometry"]), "--counter-data", b64(counter),
                          "--type", "possession_biometry", "--data", b64(data)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == header.split('pa_signature="')[1].split('"')[0]


def test_admin_cli_reads_blocks_and_unblocks_activations(pa_server):
    device = activate(pa_server, "bob")
    got = cli(pa_server, "admin", "activation", "get", "--activation", device.activation_id)
    assert got["activationStatus"] == "ACTIVE" and got["userId"] == "bob" and got["activationName"] == "e2e phone"
    listed = cli(pa_server, "admin", "activation", "list", "--user", "bob")
    assert [a["activationId"] for a in listed["activations"]] == [device.activation_id]
    for _ in range(5):
        assert not verify(pa_server, device.header("POST", "/payments", BODY, "possession_knowledge", knowledge_key=bytes(16)))["valid"]
    assert cli(pa_server, "admin", "activation", "get", "--activation", device.activation_id)["activationStatus"] == "BLOCKED"
    right = device.header("POST", "/payments", BODY, "possession_knowledge")
    refused = verify(pa_server, right)
    assert refused["valid"] is False and refused["activationStatus"] == "BLOCKED"
    # The block is logged with ids; no header, signature or key material ever is.
    log = pa_server.log_text()
    assert "activation blocked" in log and device.activation_id in log
    signature = right.split('pa_signature="')[1].split('"')[0]
    assert "PowerAuth pa_" not in log and signature not in log and b64(device.keys["possession"]) not in log
    assert cli(pa_server, "admin", "activation", "unblock", "--activation", device.activation_id)["activationStatus"] == "ACTIVE"
    assert verify(pa_server, device.header("POST", "/payments", BODY, "possession_knowledge"))["valid"]
    assert cli(pa_server, "admin", "activation", "remove", "--activation", device.activation_id)["activationStatus"] == "REMOVED"
    assert device.status()["status"] == 5


def test_push_approval_under_possession_biometry_policy(pa_server):
    from device import Device
    push = Device(pa_server, pa_server.tenant_id)
    assert push.add(track(pa_server, "carol", "add:authenticators")).status_code == 200
    device = activate(pa_server, "carol")
    started = requests.post(pa_server.api + "/client/challenge/push", json={"action": "signIn"},
                            headers={"Authorization": "Bearer " + track(pa_server, "carol")}, timeout=10)
    challenge_id = started.json()["challengeId"]
    path = "/v1/client/user-authenticators/push/challenge"
    body = json.dumps({"challengeId": challenge_id, "publicKey": push.public_key, "approved": True,
                       "signature": push.sign(challenge_id)}).encode()
    headers = dict(push.basic, **{"Content-Type": "application/json"})

    def answer(extra):
        return requests.post(pa_server.url + path, data=body, headers=dict(headers, **extra), timeout=10)

    assert answer({}).json()["errorCode"] == "factor_required"
    weak = answer({"X-PowerAuth-Authorization": device.header("POST", path, body, "possession_knowledge")})
    assert weak.status_code == 403 and weak.json()["errorCode"] == "factor_required"
    assert push.challenge().json()["challengeId"] == challenge_id  # still open
    strong = answer({"X-PowerAuth-Authorization": device.header("POST", path, body, "possession_biometry")})
    assert strong.status_code == 200 and strong.json()["isVerified"] is True
