"""Approvals that require an attested credential (tenant settings `requireAttestedApprovals` and
`attestedApprovalActions`), App Attest assertions on those approvals (`appAttestAssertion`, a counter that only grows,
stored with the answer), and PowerAuth activations carrying an App Attest attestation — all with attestations and
assertions made by the test authority (Tests/tools/attestation_test_authority.py), whose root the server gets through
`--attestation-roots`."""
import base64
import concurrent.futures
import hashlib
import json
import os
import sys
import uuid

import requests
from authsignal.client import AuthsignalClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import assent
from device import Device
from powerauth_device import PowerAuthDevice

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import attestation_test_authority as test_authority  # noqa: E402
# The module's server trusting a fresh test authority's root (`--attestation-roots`), and the authority.
from test_attestation import attesting  # noqa: E402,F401

b64 = lambda raw: base64.b64encode(raw).decode()


class Tenant:
    """A tenant with the test authority's app identities and the given settings (PATCH /v1/tenant/settings)."""

    def __init__(self, attesting, **settings):
        self.server, self.authority = attesting
        created = assent("admin", "tenant", "create", "--database", self.server.database,
                         "--name", "attested-" + uuid.uuid4().hex[:6])
        self.id, self.secret = created["tenantId"], created["secretKey"]
        self.sdk = AuthsignalClient(self.secret, api_url=self.server.api)
        self.auth = {"Authorization": "Basic " + b64((self.secret + ":").encode())}
        self.basic = {"Authorization": "Basic " + b64((self.id + ":").encode())}
        body = {"attestationPolicy": "record", "appleAppIds": [test_authority.APP_ID], "appleAttestationEnvironment": "both",
                "androidPackages": [{"packageName": test_authority.PACKAGE,
                                     "signingCertificateSha256": [test_authority.SIGNING_DIGEST.hex()]}],
                "maxPendingPushChallenges": 10, **settings}
        r = requests.patch(f"{self.server.api}/tenant/settings", headers=self.auth, json=body, timeout=10)
        assert r.status_code == 200, r.text

    def token(self, user):
        return self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]

    def challenge(self, token):
        r = requests.post(f"{self.server.api}/client/attestation/challenge", headers={"Authorization": "Bearer " + token},
                          timeout=10)
        assert r.status_code == 200, r.text
        return r.json()["challenge"]

    def enrol(self, user, attest=None, kind="push"):
        """A new device enrolled for `user`: unattested, or attested `android` or `apple`. Returns (device, App Attest
        key or None)."""
        device = Device(self.server, self.id)
        token = self.token(user)
        extra, app_attest_key = {}, None
        if attest == "android":
            challenge = self.challenge(token)
            chain = self.authority.android(challenge, device.public_key, device.key)
            extra["attestation"] = {"format": "android-key", "challenge": challenge, "certificateChain": [b64(c) for c in chain]}
        elif attest == "apple":
            challenge = self.challenge(token)
            app_attest_key, key_id, attestation = self.authority.app_attest(challenge, device.public_key)
            extra["attestation"] = {"format": "apple-appattest", "challenge": challenge, "keyId": b64(key_id),
                                    "attestationObject": b64(attestation)}
        r = device.add(token, kind=kind, **extra)
        assert r.status_code == 200, r.text
        return device, app_attest_key

    def start_push(self, user, action):
        tracked = self.sdk.track(user, action, {})
        r = requests.post(f"{self.server.api}/client/challenge/push", json={"action": action},
                          headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert r.status_code == 200, r.text
        return tracked["token"], r.json()["challengeId"]

    def verify_push(self, token, challenge_id):
        r = requests.post(f"{self.server.api}/client/verify/push", json={"challengeId": challenge_id},
                          headers={"Authorization": "Bearer " + token}, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def start_qr(self, user, action):
        tracked = self.sdk.track(user, action, {})
        r = requests.post(f"{self.server.api}/client/challenge/qr-code", json={"action": action},
                          headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def poll_qr(self, started):
        r = requests.post(f"{self.server.api}/client/verify/qr-code", headers=self.basic, timeout=10,
                          json={"challengeId": started["challengeId"], "deviceCode": started["deviceCode"]})
        assert r.status_code == 200, r.text
        return r.json()


def answer(device, challenge_id, approved=True, kind="push", assertion=None):
    """The device's answer, signed over the challenge id with a bound signature over the decision beside it, and an
    App Attest assertion when given."""
    body = {"challengeId": challenge_id, "publicKey": device.public_key, "approved": approved,
            "signature": device.sign(challenge_id),
            "boundSignature": device.sign(device.decision_message(challenge_id, approved, kind=kind))}
    if assertion is not None:
        body["appAttestAssertion"] = b64(assertion)
    return device.session.post(device.url(kind + "/challenge"), json=body, headers=device.basic, timeout=10)


def assertion(device, key, challenge_id, counter, approved=True, kind="push", **variant):
    """An App Attest assertion by `key` over SHA-256 of the device's bound decision message."""
    decision = device.decision_message(challenge_id, approved, kind=kind)
    return test_authority.Authority.assertion(key, hashlib.sha256(decision.encode()).digest(), counter, **variant)


def refused(response, status, code):
    assert response.status_code == status, response.text
    assert response.json()["errorCode"] == code, response.text
    return response.json()["errorDescription"]


def pending(tenant, token, challenge_id):
    return tenant.verify_push(token, challenge_id) == {"isVerified": False, "isConsumed": False}


def user():
    return "attested-" + uuid.uuid4().hex[:8]


# --- Approvals that require an attested credential ----------------------------------------------------------------

def test_a_listed_action_refuses_an_unattested_credential_and_the_challenge_stays_pending(attesting):
    tenant = Tenant(attesting, attestedApprovalActions=["pay"])
    alice = user()
    phone, _ = tenant.enrol(alice)
    pay_token, pay = tenant.start_push(alice, "pay")
    # Neither an approval nor a decline from the unattested phone changes anything.
    for approved in (True, False):
        refused(answer(phone, pay, approved), 403, "attestation_required")
        assert pending(tenant, pay_token, pay)
    # An action not on the list is answered as before.
    token, sign_in = tenant.start_push(alice, "signIn")
    r = answer(phone, sign_in)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    assert tenant.verify_push(token, sign_in)["isVerified"] is True
    # An attested phone (Android key attestation) of the same user answers the listed action.
    attested, _ = tenant.enrol(alice, "android")
    r = answer(attested, pay)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    assert tenant.verify_push(pay_token, pay)["isVerified"] is True


def test_an_attested_credential_answers_a_listed_action_approve_and_decline(attesting):
    tenant = Tenant(attesting, attestedApprovalActions=["pay", "transfer"])
    bob = user()
    phone, _ = tenant.enrol(bob, "android")
    token, pay = tenant.start_push(bob, "pay")
    r = answer(phone, pay)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    assert tenant.verify_push(token, pay)["isVerified"] is True
    token, transfer = tenant.start_push(bob, "transfer")
    r = answer(phone, transfer, approved=False)
    assert r.status_code == 200 and r.json() == {"isVerified": False}, r.text
    assert tenant.verify_push(token, transfer) == {"isVerified": False, "isConsumed": True}


def test_require_attested_approvals_covers_every_action(attesting):
    tenant = Tenant(attesting, requireAttestedApprovals=True)
    carol = user()
    unattested, _ = tenant.enrol(carol)
    attested, _ = tenant.enrol(carol, "android")
    for action in ("signIn", "pay", "anything"):
        token, challenge = tenant.start_push(carol, action)
        refused(answer(unattested, challenge), 403, "attestation_required")
        assert pending(tenant, token, challenge)
        r = answer(attested, challenge)
        assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
        assert tenant.verify_push(token, challenge)["isVerified"] is True


def test_without_the_settings_unattested_credentials_answer_as_before(attesting):
    tenant = Tenant(attesting, attestationPolicy="off")
    dave = user()
    phone, _ = tenant.enrol(dave)
    token, challenge = tenant.start_push(dave, "pay")
    r = answer(phone, challenge)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text


def test_a_qr_challenge_of_a_listed_action_cannot_be_claimed_by_an_unattested_credential(attesting):
    tenant = Tenant(attesting, attestedApprovalActions=["pay"])
    erin = user()
    unattested, _ = tenant.enrol(erin, kind="qr-code")
    attested, _ = tenant.enrol(erin, "android", kind="qr-code")
    started = tenant.start_qr(erin, "pay")
    refused(unattested.claim(started["challengeId"]), 403, "attestation_required")
    assert tenant.poll_qr(started) == {"isClaimed": False, "isConsumed": False, "isVerified": False}
    r = attested.claim(started["challengeId"])
    assert r.status_code == 200, r.text
    r = answer(attested, started["challengeId"], kind="qr-code")
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    polled = tenant.poll_qr(started)
    assert polled["isVerified"] is True and polled["accessToken"]
    # An action not on the list: the unattested device claims and answers as before.
    other = tenant.start_qr(erin, "signIn")
    assert unattested.claim(other["challengeId"]).status_code == 200
    r = answer(unattested, other["challengeId"], kind="qr-code")
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text


def test_an_approval_signed_with_a_powerauth_factor_is_still_refused_from_an_unattested_credential(attesting):
    tenant = Tenant(attesting, attestedApprovalActions=["pay"], requiredApprovalFactor="possession_biometry")
    powerauth = assent("admin", "tenant", "powerauth", "--database", tenant.server.database, "--tenant", tenant.id)
    ivan = user()
    activation = PowerAuthDevice(tenant.server.api, powerauth["masterPublicKey"], tenant.id)
    activation.activate(tenant.token(ivan))
    path = "/v1/client/user-authenticators/push/challenge"

    def signed_answer(device, challenge_id):
        body = json.dumps({"challengeId": challenge_id, "publicKey": device.public_key, "approved": True,
                           "signature": device.sign(challenge_id)}).encode()
        headers = dict(device.basic, **{"Content-Type": "application/json", "X-PowerAuth-Authorization":
                                        activation.header("POST", path, body, "possession_biometry")})
        return requests.post(tenant.server.url + path, data=body, headers=headers, timeout=10)

    unattested, _ = tenant.enrol(ivan)
    token, pay = tenant.start_push(ivan, "pay")
    refused(signed_answer(unattested, pay), 403, "attestation_required")
    assert pending(tenant, token, pay)
    attested, _ = tenant.enrol(ivan, "android")
    r = signed_answer(attested, pay)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    assert tenant.verify_push(token, pay)["isVerified"] is True


# --- App Attest assertions ----------------------------------------------------------------------------------------

def test_an_app_attest_credential_answers_with_an_assertion_whose_counter_only_grows(attesting):
    tenant = Tenant(attesting, requireAttestedApprovals=True)
    frank = user()
    phone, key = tenant.enrol(frank, "apple")

    # Without an assertion (what the official SDKs send): refused, still pending.
    token, first = tenant.start_push(frank, "signIn")
    refused(answer(phone, first), 403, "attestation_required")
    assert pending(tenant, token, first)
    # Bad assertions name their step and change nothing.
    for bad, step in [
        (assertion(phone, key, first, 1, approved=False), "signature"),  # signed over the decline
        (assertion(phone, ec.generate_private_key(ec.SECP256R1()), first, 1), "signature"),  # another key
        (assertion(phone, key, first, 1, app_id="TESTTEAM01.other.app"), "app id"),
        (b"\xa1\x61x\x01", "malformed"),
    ]:
        assert step in refused(answer(phone, first, assertion=bad), 400, "attestation_invalid")
        assert pending(tenant, token, first)
    r = answer(phone, first, assertion=assertion(phone, key, first, 1))
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text
    assert tenant.verify_push(token, first)["isVerified"] is True

    # The same counter again (a replay) and a lower one (a rollback) are refused; a higher one passes.
    token, second = tenant.start_push(frank, "signIn")
    assert "counter" in refused(answer(phone, second, assertion=assertion(phone, key, second, 1)), 400, "attestation_invalid")
    r = answer(phone, second, assertion=assertion(phone, key, second, 5))
    assert r.status_code == 200, r.text
    token, third = tenant.start_push(frank, "signIn")
    assert "counter" in refused(answer(phone, third, assertion=assertion(phone, key, third, 4)), 400, "attestation_invalid")
    assert pending(tenant, token, third)
    # A decline carries an assertion too.
    r = answer(phone, third, approved=False, assertion=assertion(phone, key, third, 6, approved=False))
    assert r.status_code == 200 and r.json() == {"isVerified": False}, r.text


def test_an_app_attest_credential_needs_no_assertion_where_attestation_is_not_required(attesting):
    tenant = Tenant(attesting, attestedApprovalActions=["pay"])
    gina = user()
    phone, key = tenant.enrol(gina, "apple")
    token, challenge = tenant.start_push(gina, "signIn")
    r = answer(phone, challenge)
    assert r.status_code == 200 and r.json() == {"isVerified": True}, r.text


def test_concurrent_answers_with_one_assertion_counter_exactly_one_wins(attesting):
    tenant = Tenant(attesting, requireAttestedApprovals=True)
    hank = user()
    phone, key = tenant.enrol(hank, "apple")
    for counter in (1, 2, 3, 4):
        started = [tenant.start_push(hank, "signIn") for _ in range(3)]
        bodies = [(challenge, assertion(phone, key, challenge, counter)) for _, challenge in started]
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(bodies)) as pool:
            answers = list(pool.map(lambda pair: answer(phone, pair[0], assertion=pair[1]), bodies))
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [200, 400, 400], [r.text for r in answers]
        for r in answers:
            if r.status_code == 400:
                assert r.json()["errorCode"] == "attestation_invalid" and "counter" in r.json()["errorDescription"]
        states = [tenant.verify_push(token, challenge) for token, challenge in started]
        assert sorted(s["isVerified"] for s in states) == [False, False, True]
        assert sum(s == {"isVerified": False, "isConsumed": False} for s in states) == 2


# --- PowerAuth activations ----------------------------------------------------------------------------------------

class Activation:
    def __init__(self, tenant, user_id):
        self.tenant = tenant
        self.user = user_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.device_public_key = b64(self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def create(self, attestation=None, token=None):
        body = {"devicePublicKey": self.device_public_key, "activationName": "attested phone"}
        if attestation is not None:
            body["attestation"] = attestation
        return requests.post(f"{self.tenant.server.api}/client/activations", json=body, timeout=10,
                             headers={"Authorization": "Bearer " + (token or self.tenant.token(self.user))})

    def apple(self, token, bound_to=None, **variant):
        challenge = self.tenant.challenge(token)
        _, key_id, attestation = self.tenant.authority.app_attest(challenge, bound_to or self.device_public_key, **variant)
        return {"format": "apple-appattest", "challenge": challenge, "keyId": b64(key_id),
                "attestationObject": b64(attestation)}

    def android(self, token):
        challenge = self.tenant.challenge(token)
        key = ec.generate_private_key(ec.SECP256R1())
        chain = self.tenant.authority.android(challenge, self.device_public_key, key)
        return {"format": "android-key", "challenge": challenge, "certificateChain": [b64(c) for c in chain]}

    def listed(self):
        r = requests.get(f"{self.tenant.server.api}/users/{self.user}/activations", headers=self.tenant.auth, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()["activations"]


def test_activation_policy_off_ignores_attestations(attesting):
    tenant = Tenant(attesting, attestationPolicy="off")
    # Attested, unattested and bad (bound to another key, and Android's format): all activate, none has a verdict.
    for make in (lambda a, t: a.apple(t), lambda a, t: None, lambda a, t: a.apple(t, bound_to="another key"),
                 lambda a, t: a.android(t)):
        activation = Activation(tenant, user())
        token = tenant.token(activation.user)
        r = activation.create(make(activation, token), token=token)
        assert r.status_code == 200, r.text
        assert [a.get("attestation") for a in activation.listed()] == [None]


def test_activation_policy_record_stores_verdicts_and_refuses_bad_attestations(attesting):
    tenant = Tenant(attesting, attestationPolicy="record")
    # Attested: the verdict is in the server API's activation list.
    activation = Activation(tenant, user())
    token = tenant.token(activation.user)
    r = activation.create(activation.apple(token), token=token)
    assert r.status_code == 200, r.text
    [listed] = activation.listed()
    verdict = listed["attestation"]
    assert verdict["format"] == "apple-appattest" and verdict["verified"] is True
    assert verdict["app"] == test_authority.APP_ID and verdict["environment"] == "development"
    r = requests.get(f"{tenant.server.api}/activations/{listed['activationId']}", headers=tenant.auth, timeout=10)
    assert r.status_code == 200 and r.json()["attestation"] == verdict, r.text
    # Unattested: accepted, no verdict.
    plain = Activation(tenant, user())
    assert plain.create().status_code == 200
    assert "attestation" not in plain.listed()[0]
    # Bad: bound to another key, Android's format, another user's challenge, a spent challenge — nothing stored.
    bad = Activation(tenant, user())
    token = tenant.token(bad.user)
    assert "nonce" in refused(bad.create(bad.apple(token, bound_to="another key"), token=token), 400, "attestation_invalid")
    assert "format" in refused(bad.create(bad.android(token), token=token), 400, "attestation_invalid")
    stranger = tenant.token(user())
    refused(bad.create(bad.apple(stranger), token=token), 400, "attestation_challenge_invalid")
    assert bad.listed() == []
    # The same token then activates with a good attestation: the refusals spent nothing.
    r = bad.create(bad.apple(token), token=token)
    assert r.status_code == 200, r.text
    assert bad.listed()[0]["attestation"]["verified"] is True


def test_activation_policy_require_refuses_unattested_activations(attesting):
    tenant = Tenant(attesting, attestationPolicy="require")
    activation = Activation(tenant, user())
    token = tenant.token(activation.user)
    refused(activation.create(token=token), 403, "attestation_required")
    assert "format" in refused(activation.create(activation.android(token), token=token), 400, "attestation_invalid")
    assert activation.listed() == []
    statement = activation.apple(token)
    r = activation.create(statement, token=token)
    assert r.status_code == 200, r.text
    assert activation.listed()[0]["attestation"]["format"] == "apple-appattest"
    # The challenge was spent with the activation.
    again = Activation(tenant, activation.user)
    refused(again.create(statement), 400, "attestation_challenge_invalid")
