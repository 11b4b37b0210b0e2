"""Attacks that once worked against a real assentd, each tried again as an attacker would: each test is named after
the attack and proves it now fails, on SQLite and PostgreSQL."""

# --- V10, V2: enrolment tokens, anonymous QR expiry ---
import threading
import uuid

import requests
from authsignal.client import AuthsignalClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import assent
from device import Device, b64


def _v10_tenant(server):
    created = assent("admin", "tenant", "create", "--database", server.database,
                      "--name", "v10-" + uuid.uuid4().hex[:6])
    # The tenant's PowerAuth application exists before any activation, as once one device has activated: it is the
    # tenant's, not an enrolment's, so the snapshots below compare only what a token enrols.
    assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", created["tenantId"])
    return created["tenantId"], AuthsignalClient(created["secretKey"], api_url=server.api)


def _v10_enrolment_token(sdk):
    user = f"v10-{uuid.uuid4().hex[:8]}"
    return sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]


def _v10_activate(server, token):
    """POST /v1/client/activations with a fresh device key, as a PowerAuth device does."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return requests.post(server.api + "/client/activations",
                         json={"devicePublicKey": b64(point), "activationName": "v10 phone"},
                         headers={"Authorization": "Bearer " + token}, timeout=10)


def _v10_refused_as_used(r):
    """The refusal a token that already enrolled another key gets."""
    assert r.status_code == 403, r.text
    body = r.json()
    assert body["errorCode"] == "forbidden" and "already enrolled another device" in body["errorDescription"], body


def test_v10_one_enrolment_token_enrols_one_credential(server):
    tenant_id, sdk = _v10_tenant(server)
    token = _v10_enrolment_token(sdk)
    phone = Device(server, tenant_id)
    assert phone.add(token).status_code == 200
    assert phone.add(token).status_code == 200, "the same key again with the same token stays an idempotent retry"
    before = server.snapshot()
    _v10_refused_as_used(_v10_activate(server, token))
    assert server.snapshot() == before, "the refused activation created nothing"


def test_v10_one_enrolment_token_enrols_one_credential_activation_then_qr(server):
    tenant_id, sdk = _v10_tenant(server)
    token = _v10_enrolment_token(sdk)
    assert _v10_activate(server, token).status_code == 200
    before = server.snapshot()
    kiosk = Device(server, tenant_id)
    _v10_refused_as_used(kiosk.add(token, kind="qr-code"))
    _v10_refused_as_used(kiosk.add(token))
    assert server.snapshot() == before, "the refused enrolments created nothing"


def test_v10_concurrent_enrolments_of_every_kind_with_one_token_enrol_one(server):
    tenant_id, sdk = _v10_tenant(server)
    for _ in range(3):
        token = _v10_enrolment_token(sdk)
        attempts = [lambda: Device(server, tenant_id).add(token), lambda: _v10_activate(server, token),
                    lambda: Device(server, tenant_id).add(token, kind="qr-code")]
        results, gate = [None] * len(attempts), threading.Barrier(len(attempts))

        def run(i):
            gate.wait()
            results[i] = attempts[i]()
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status_code for r in results) == [200, 403, 403], [r.text for r in results]
        for r in results:
            if r.status_code != 200:
                _v10_refused_as_used(r)
