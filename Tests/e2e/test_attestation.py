"""Device attestation over the wire: the single-use challenge an enrolment's attestation commits to
(`POST /v1/client/attestation/challenge`, Bearer enrolment token)."""
import base64
import time
import uuid

import requests
from authsignal.client import AuthsignalClient

from conftest import assent


def tenant(server):
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "attest-" + uuid.uuid4().hex[:6])
    return created["tenantId"], AuthsignalClient(created["secretKey"], api_url=server.api)


def ask(server, token, **headers):
    return requests.post(f"{server.api}/client/attestation/challenge",
                         headers={"Authorization": "Bearer " + token, **headers})


def test_a_challenge_is_32_random_bytes_valid_for_at_most_five_minutes(server):
    tenant_id, sdk = tenant(server)
    token = sdk.track("attest-" + uuid.uuid4().hex[:8], "enrol", {"scope": "add:authenticators"})["token"]
    before = int(time.time())
    first, second = ask(server, token, **{"X-Authsignal-Tenant-ID": tenant_id}), ask(server, token)
    assert first.status_code == 200, first.text
    assert second.status_code == 200, second.text
    body = first.json()
    assert set(body) == {"challenge", "expiresAt"}
    challenge = body["challenge"]
    assert "=" not in challenge and "+" not in challenge and "/" not in challenge
    assert len(base64.urlsafe_b64decode(challenge + "=")) == 32
    assert before + 290 <= body["expiresAt"] <= int(time.time()) + 300
    assert second.json()["challenge"] != challenge


def test_a_challenge_needs_an_enrolment_token(server):
    tenant_id, sdk = tenant(server)
    user = "attest-" + uuid.uuid4().hex[:8]
    no_scope = sdk.track(user, "signIn")["token"]
    refused = ask(server, no_scope)
    assert (refused.status_code, refused.json()["errorCode"]) == (403, "forbidden")
    refused = ask(server, no_scope[:-2] + "xx")
    assert (refused.status_code, refused.json()["errorCode"]) == (401, "invalid_token")
    refused = requests.post(f"{server.api}/client/attestation/challenge")
    assert refused.status_code == 401, refused.text
    token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    refused = ask(server, token, **{"X-Authsignal-Tenant-ID": server.tenant_id})
    assert (refused.status_code, refused.json()["errorCode"]) == (403, "tenant_mismatch")
