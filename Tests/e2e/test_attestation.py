"""Device attestation over the wire: the single-use challenge an enrolment's attestation commits to
(`POST /v1/client/attestation/challenge`, Bearer enrolment token), and push and QR enrolments carrying App Attest
and Android key attestations made by the test authority (Tests/tools/attestation_test_authority.py), whose root the
server is given with `--attestation-roots`, under each tenant policy (off, record, require)."""
import base64
import os
import shutil
import sys
import tempfile
import time
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import Server, assent
from device import Device

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import attestation_test_authority as test_authority  # noqa: E402


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


# --- Enrolment with an attestation (a test authority's chains, its root given to assentd) -----------------------------

@pytest.fixture(scope="module")
def attesting(store):
    """A server trusting a fresh test authority's root (`--attestation-roots`), and the authority."""
    authority = test_authority.Authority()
    directory = tempfile.mkdtemp(prefix="assent-attest-")
    roots = os.path.join(directory, "roots.pem")
    with open(roots, "wb") as handle:
        handle.write(authority.root_pem())
    server = Server(directory)
    server.start("--attestation-roots", roots)
    try:
        yield server, authority
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


class AttestingTenant:
    def __init__(self, server, policy):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "attest-" + uuid.uuid4().hex[:6])
        self.id, self.secret = created["tenantId"], created["secretKey"]
        self.server = server
        self.sdk = AuthsignalClient(self.secret, api_url=server.api)
        auth = "Basic " + base64.b64encode((self.secret + ":").encode()).decode()
        r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": auth}, json={
            "attestationPolicy": policy, "appleAppIds": [test_authority.APP_ID], "appleAttestationEnvironment": "both",
            "androidPackages": [{"packageName": test_authority.PACKAGE,
                                 "signingCertificateSha256": [test_authority.SIGNING_DIGEST.hex()]}]})
        assert r.status_code == 200, r.text
        self.auth = auth

    def token(self, user):
        return self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]

    def challenge(self, token):
        r = ask(self.server, token)
        assert r.status_code == 200, r.text
        return r.json()["challenge"]

    def authenticators(self, user):
        r = requests.get(f"{self.server.api}/users/{user}/authenticators", headers={"Authorization": self.auth})
        assert r.status_code == 200, r.text
        return r.json()


def android_statement(authority, device, challenge, **variant):
    chain = authority.android(challenge, device.public_key, device.key, **variant)
    return {"format": "android-key", "challenge": challenge,
            "certificateChain": [base64.b64encode(c).decode() for c in chain]}


def apple_statement(authority, device, challenge, **variant):
    _, key_id, attestation = authority.app_attest(challenge, device.public_key, **variant)
    return {"format": "apple-appattest", "challenge": challenge, "keyId": base64.b64encode(key_id).decode(),
            "attestationObject": base64.b64encode(attestation).decode()}


def enrol(tenant, user, kind="push", make=None, token=None, device=None, **variant):
    token = token or tenant.token(user)
    device = device or Device(tenant.server, tenant.id)
    extra = {}
    if make is not None:
        extra["attestation"] = make(tenant.authority, device, tenant.challenge(token), **variant)
    return device, device.add(token, kind=kind, **extra)


def refused(response, status, code):
    assert response.status_code == status, response.text
    assert response.json()["errorCode"] == code, response.text
    return response.json()["errorDescription"]


def test_policy_off_ignores_attestations(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "off")
    tenant.authority = authority
    user = "off-" + uuid.uuid4().hex[:8]
    _, r = enrol(tenant, user, make=android_statement, level=0)  # a software key: would be refused if checked
    assert r.status_code == 200, r.text
    assert "attestation" not in tenant.authenticators(user)[0]


@pytest.mark.parametrize("make,kind", [(android_statement, "push"), (apple_statement, "push"), (android_statement, "qr-code")])
def test_record_stores_the_verdict_of_a_good_attestation(attesting, make, kind):
    server, authority = attesting
    tenant = AttestingTenant(server, "record")
    tenant.authority = authority
    user = "record-" + uuid.uuid4().hex[:8]
    _, r = enrol(tenant, user, kind=kind, make=make)
    assert r.status_code == 200, r.text
    [read] = tenant.authenticators(user)
    verdict = read["attestation"]
    assert verdict["verified"] is True
    if make is android_statement:
        assert verdict["format"] == "android-key"
        assert (verdict["securityLevel"], verdict["app"], verdict["bootState"]) == ("tee", test_authority.PACKAGE, "verified")
        assert (verdict["osVersion"], verdict["patchLevel"]) == (160000, 202606)
    else:
        assert (verdict["format"], verdict["app"], verdict["environment"]) == (
            "apple-appattest", test_authority.APP_ID, "development")
    assert verdict["verifiedAt"]
    r = requests.get(f"{server.api}/audit", headers={"Authorization": tenant.auth}, params={"kind": "credential.enrolled"})
    assert r.status_code == 200, r.text
    [entry] = r.json()["entries"]
    assert entry["details"]["attestationFormat"] == verdict["format"]
    assert entry["details"]["attestation"] == "verified"


def test_record_accepts_an_unattested_credential(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "record")
    tenant.authority = authority
    user = "record-none-" + uuid.uuid4().hex[:8]
    _, r = enrol(tenant, user)
    assert r.status_code == 200, r.text
    assert "attestation" not in tenant.authenticators(user)[0]


def test_require_refuses_unattested_and_bad_attestations_storing_nothing(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "require")
    tenant.authority = authority
    user = "require-" + uuid.uuid4().hex[:8]
    token = tenant.token(user)
    before = server.snapshot()
    _, r = enrol(tenant, user, token=token)
    refused(r, 403, "attestation_required")
    for variant, step in [(dict(level=0), "security level"), (dict(state=2, locked=False), "boot state"),
                          (dict(package="com.example.other"), "app id")]:
        _, r = enrol(tenant, user, make=android_statement, token=token, **variant)
        assert step in refused(r, 400, "attestation_invalid")
    _, r = enrol(tenant, user, make=apple_statement, token=token, app_id="OTHERTEAM.other.app")
    assert "app id" in refused(r, 400, "attestation_invalid")
    # Another key than the one attested.
    device = Device(server, tenant.id)
    challenge = tenant.challenge(token)
    statement = android_statement(authority, Device(server, tenant.id), challenge)
    assert "challenge" in refused(device.add(token, attestation=statement), 400, "attestation_invalid")
    after = server.snapshot()
    after.pop("attestation_challenges"), before.pop("attestation_challenges")
    assert after == before
    _, r = enrol(tenant, user, make=android_statement, token=token)
    assert r.status_code == 200, r.text
    assert tenant.authenticators(user)[0]["attestation"]["format"] == "android-key"


def test_a_challenge_is_single_use_and_bound_to_its_user(attesting):
    server, authority = attesting
    tenant = AttestingTenant(server, "require")
    tenant.authority = authority
    alice, bob = "alice-" + uuid.uuid4().hex[:8], "bob-" + uuid.uuid4().hex[:8]
    alice_token, bob_token = tenant.token(alice), tenant.token(bob)
    # Another user's challenge.
    bobs = tenant.challenge(bob_token)
    device = Device(server, tenant.id)
    refused(device.add(alice_token, attestation=android_statement(authority, device, bobs)), 400,
            "attestation_challenge_invalid")
    # Used once, then refused.
    challenge = tenant.challenge(alice_token)
    r = device.add(alice_token, attestation=android_statement(authority, device, challenge))
    assert r.status_code == 200, r.text
    other = Device(server, tenant.id)
    refused(other.add(bob_token, attestation=android_statement(authority, other, challenge)), 400,
            "attestation_challenge_invalid")
    refused(device.add(alice_token, attestation=android_statement(authority, device, challenge)), 400,
            "attestation_challenge_invalid")
    refused(other.add(bob_token, attestation=android_statement(authority, other, "never-issued")), 400,
            "attestation_challenge_invalid")
