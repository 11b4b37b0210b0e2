"""QR code verification over the wire in REST polling mode: anonymous and token-bound challenges, exactly one claim
wins a race, only the claimer answers, only the device-code holder learns the result."""
import base64
import http.client
import json
import threading
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import assent
from device import Device


class QRTenant:
    def __init__(self, server, *settings):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "qr-" + uuid.uuid4().hex[:6])
        self.id, self.secret, self.server = created["tenantId"], created["secretKey"], server
        if settings:
            assent("admin", "tenant", "settings", "--database", server.database, "--tenant", self.id, *settings)
        self.sdk = AuthsignalClient(self.secret, api_url=server.api)
        self.basic = {"Authorization": "Basic " + base64.b64encode((self.id + ":").encode()).decode()}

    def enrol(self, user):
        token = self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        device = Device(self.server, self.id)
        r = device.add(token, kind="qr-code")
        assert r.status_code == 200, r.text
        device.user = user
        return device

    def start(self, token=None, **body):
        headers = {"Authorization": "Bearer " + token} if token else self.basic
        r = requests.post(f"{self.server.api}/client/challenge/qr-code", json=body,
                          headers={**headers, "User-Agent": "KioskBrowser/1.0"})
        assert r.status_code == 200, r.text
        return r.json()

    def poll(self, challenge):
        r = requests.post(f"{self.server.api}/client/verify/qr-code", headers=self.basic,
                          json={"challengeId": challenge["challengeId"], "deviceCode": challenge["deviceCode"]})
        assert r.status_code == 200, r.text
        return r.json()


def claim(device, challenge_id):
    body = {"challengeId": challenge_id, "publicKey": device.public_key, "signature": device.sign(challenge_id)}
    return device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=device.basic)


def answer(device, challenge_id, approved=True):
    body = {"challengeId": challenge_id, "publicKey": device.public_key, "approved": approved,
            "signature": device.sign(challenge_id), "verificationCode": None}
    return device.session.post(device.url("qr-code/challenge"), json=body, headers=device.basic)


@pytest.fixture(scope="module")
def tenant(server):
    return QRTenant(server, "--public-custom-keys", "terminal", "--anonymous-actions", "signIn,kioskSignIn,race")


def test_anonymous_qr_flow_binds_the_claiming_user(tenant):
    device = tenant.enrol(f"qr-{uuid.uuid4().hex[:6]}")
    challenge = tenant.start(action="kioskSignIn", custom={"terminal": "Lobby 2", "secret": "x"})
    assert challenge["qrPayload"] == f"assent://qr?tenant={tenant.id}&challenge={challenge['challengeId']}"
    assert tenant.poll(challenge) == {"isClaimed": False, "isConsumed": False, "isVerified": False}

    claimed = claim(device, challenge["challengeId"])
    assert claimed.status_code == 200, claimed.text
    c = claimed.json()
    assert c["success"] is True and c["actionCode"] == "kioskSignIn"
    assert c["userAgent"] == "KioskBrowser/1.0" and c["ipAddress"] == "127.0.0.1"
    # An anonymous caller is not the tenant: what it sent as custom data never reaches the device (V5).
    assert "custom" not in c and c["idempotencyKey"]
    assert tenant.poll(challenge) == {"isClaimed": True, "isConsumed": False, "isVerified": False}

    assert answer(device, challenge["challengeId"]).json() == {"isVerified": True}
    result = tenant.poll(challenge)
    assert result["isVerified"] is True and result["accessToken"]
    valid = tenant.sdk.validate_challenge({"token": result["accessToken"]})
    assert valid["is_valid"] is True and valid["user_id"] == device.user and valid["verification_method"] == "DEVICE"
    assert tenant.sdk.validate_challenge({"token": result["accessToken"]})["is_valid"] is False


def test_a_claim_always_carries_ip_address_and_user_agent(tenant):
    """Issue 22 §3.9: the QR document marks both required, and the SDK types them as plain strings: a page that sent
    no User-Agent gets an empty one, never a missing field."""
    device = tenant.enrol(f"qr-{uuid.uuid4().hex[:6]}")
    # http.client sends no User-Agent of its own (requests and urllib3 always add one).
    connection = http.client.HTTPConnection("127.0.0.1", tenant.server.port, timeout=10)
    connection.request("POST", "/v1/client/challenge/qr-code", body=json.dumps({"action": "signIn"}),
                       headers={**tenant.basic, "Content-Type": "application/json"})
    started = connection.getresponse()
    assert started.status == 200
    challenge_id = json.loads(started.read())["challengeId"]
    connection.close()
    c = claim(device, challenge_id).json()
    assert c["userAgent"] == "" and c["ipAddress"] == "127.0.0.1", c


def test_token_bound_qr_flow_and_decline(tenant):
    user = f"qr-{uuid.uuid4().hex[:6]}"
    device = tenant.enrol(user)
    tracked = tenant.sdk.track(user, "approvePayment", {"ipAddress": "203.0.113.50", "custom": {"terminal": "T9"}})
    challenge = tenant.start(token=tracked["token"])
    c = claim(device, challenge["challengeId"]).json()
    assert c["ipAddress"] == "203.0.113.50" and c["idempotencyKey"] == tracked["idempotency_key"]
    assert answer(device, challenge["challengeId"], approved=False).json() == {"isVerified": False}
    assert tenant.poll(challenge) == {"isClaimed": True, "isConsumed": True, "isVerified": False}
    assert tenant.sdk.get_action(user, "approvePayment", tracked["idempotency_key"])["state"] == "CHALLENGE_FAILED"
    # Another user's device cannot claim a token-bound challenge.
    other = tenant.enrol(f"qr-{uuid.uuid4().hex[:6]}")
    fresh = tenant.start(token=tenant.sdk.track(user, "approvePayment")["token"])
    r = claim(other, fresh["challengeId"])
    assert r.status_code == 403 and r.json()["errorCode"] == "forbidden"


def test_twenty_devices_race_for_one_claim_and_exactly_one_wins(tenant, server):
    devices = [tenant.enrol(f"racer-{i}-{uuid.uuid4().hex[:4]}") for i in range(20)]
    for _ in range(3):
        challenge = tenant.start(action="race")
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
        for i, r in enumerate(results):
            if i not in winners:
                assert r.status_code == 410 and r.json()["errorCode"] == "challenge_closed", r.text
        # Only the winner may answer.
        loser = devices[(winners[0] + 1) % len(devices)]
        before = server.snapshot()
        refused = answer(loser, challenge["challengeId"])
        assert refused.status_code == 403 and refused.json()["errorCode"] == "forbidden"
        assert server.snapshot() == before
        assert answer(devices[winners[0]], challenge["challengeId"]).status_code == 200


def test_refusals_change_nothing(tenant, server):
    device = tenant.enrol(f"qr-{uuid.uuid4().hex[:6]}")
    challenge = tenant.start(action="signIn")
    before = server.snapshot()
    r = requests.post(f"{server.api}/client/verify/qr-code", headers=tenant.basic,
                      json={"challengeId": challenge["challengeId"], "deviceCode": "wrong"})
    assert r.status_code == 404
    r = answer(device, challenge["challengeId"])
    assert r.status_code == 403 and r.json()["errorCode"] == "forbidden", "only the claiming device answers"
    stranger = Device(server, tenant.id)
    assert claim(stranger, challenge["challengeId"]).json()["errorCode"] == "invalid_credential"
    body = {"challengeId": challenge["challengeId"], "publicKey": device.public_key,
            "signature": device.sign("another-challenge")}
    r = device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=device.basic)
    assert r.status_code == 401 and r.json()["errorCode"] == "invalid_signature"
    r = requests.post(f"{server.api}/client/challenge/qr-code", json={}, headers=tenant.basic)
    assert r.status_code == 400, "an anonymous challenge needs an action"
    assert server.snapshot() == before
    assert claim(device, challenge["challengeId"]).status_code == 200
    after = server.snapshot()
    assert claim(device, challenge["challengeId"]).status_code == 410, "already claimed"
    assert server.snapshot() == after


def test_the_png_and_svg_images_decode_to_the_payload_with_a_real_qr_reader(tenant, server, tmp_path):
    import subprocess
    challenge = tenant.start(action="signIn")
    base = f"{server.api}/client/challenge/qr-code/{challenge['challengeId']}/image"
    png = requests.get(base + ".png", params={"tenant": tenant.id})
    assert png.status_code == 200 and png.headers["Content-Type"] == "image/png"
    (tmp_path / "qr.png").write_bytes(png.content)
    svg = requests.get(base + ".svg", params={"tenant": tenant.id})
    assert svg.status_code == 200 and svg.headers["Content-Type"] == "image/svg+xml"
    (tmp_path / "qr.svg").write_bytes(svg.content)
    subprocess.run(["rsvg-convert", "-o", str(tmp_path / "svg.png"), str(tmp_path / "qr.svg")], check=True, timeout=30)
    for name in ["qr.png", "svg.png"]:
        out = subprocess.run(["zbarimg", "-q", "--raw", str(tmp_path / name)], capture_output=True, text=True, timeout=30)
        assert out.stdout.strip() == challenge["qrPayload"], name
    # Another tenant's id, an unknown challenge: no image.
    assert requests.get(base + ".png", params={"tenant": str(uuid.uuid4())}).status_code == 404
    assert requests.get(f"{server.api}/client/challenge/qr-code/{'0' * 64}/image.svg", params={"tenant": tenant.id}).status_code == 404
