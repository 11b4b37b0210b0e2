"""Push verification over the wire, with devices that speak exactly as the official iOS and Android SDKs do,
a backend on Authsignal's Python SDK, and the initiating page's raw HTTP calls."""
import base64
import time
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import assent
from device import Device


class Tenant:
    def __init__(self, server, *settings):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "push-" + uuid.uuid4().hex[:6])
        self.id, self.secret = created["tenantId"], created["secretKey"]
        if settings:
            assent("admin", "tenant", "settings", "--database", server.database, "--tenant", self.id, *settings)
        self.server = server
        self.sdk = AuthsignalClient(self.secret, api_url=server.api)

    def enrol(self, user, style="ios", **extra):
        token = self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        device = Device(self.server, self.id, style)
        r = device.add(token, **extra)
        assert r.status_code == 200, r.text
        device.authenticator_id = r.json()["userAuthenticatorId"]
        return device

    def start(self, user, action="signIn", attributes=None, **body):
        tracked = self.sdk.track(user, action, attributes or {})
        r = requests.post(f"{self.server.api}/client/challenge/push", json={"action": action, **body},
                          headers={"Authorization": "Bearer " + tracked["token"]})
        return tracked, r

    def verify(self, tracked, challenge_id):
        r = requests.post(f"{self.server.api}/client/verify/push", json={"challengeId": challenge_id},
                          headers={"Authorization": "Bearer " + tracked["token"]})
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture(scope="module")
def tenant(server):
    return Tenant(server, "--public-custom-keys", "amount,merchant", "--public-user-custom-keys", "tier")


@pytest.mark.parametrize("style", ["ios", "android"])
def test_full_push_flow(server, tenant, style):
    user = f"push-{style}-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user, style)
    tenant.sdk.update_user(user, {"custom": {"tier": "gold", "secretNote": "never shown"}})
    tracked, r = tenant.start(user, attributes={"ipAddress": "198.51.100.4", "userAgent": "Firefox/130",
                                                 "deviceId": "laptop-1", "custom": {"amount": 42, "internal": "x"}})
    assert r.status_code == 200, r.text
    started = r.json()
    # No push provider (the default): nothing is sent, and the answer says so; the device pulls.
    assert started["deliveryResults"] == [{"userAuthenticatorId": device.authenticator_id, "errorCode": "no_push_provider"}]
    assert tenant.verify(tracked, started["challengeId"]) == {"isVerified": False, "isConsumed": False}

    pending = device.challenge(signed=True)
    assert pending.status_code == 200, pending.text
    c = pending.json()
    assert c["challengeId"] == started["challengeId"] and c["userAuthenticatorId"] == device.authenticator_id
    assert (c["userId"], c["actionCode"], c["idempotencyKey"]) == (user, "signIn", tracked["idempotency_key"])
    assert (c["ipAddress"], c["userAgent"], c["deviceId"]) == ("198.51.100.4", "Firefox/130", "laptop-1")
    assert c["custom"] == {"amount": 42}, "only the keys the tenant marked public"
    assert c["user"] == {"custom": {"tier": "gold"}}
    assert isinstance(c["expiresAt"], int)

    answer = device.answer(c["challengeId"], approved=True, null_code=(style == "android"))
    assert answer.status_code == 200 and answer.json() == {"isVerified": True}, answer.text

    result = tenant.verify(tracked, c["challengeId"])
    assert result["isVerified"] is True and result["isConsumed"] is True and result["accessToken"]
    assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_SUCCEEDED"
    valid = tenant.sdk.validate_challenge({"token": result["accessToken"]})
    assert valid["is_valid"] is True and valid["verification_method"] == "PUSH" and valid["user_id"] == user
    again = tenant.sdk.validate_challenge({"token": result["accessToken"]})
    assert again["is_valid"] is False, "an access token validates once"
    assert device.challenge().json()["challengeId"] is None, "nothing left pending"


def test_unsigned_get_challenge_hides_custom_data_and_no_challenge_is_200_with_null(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    empty = device.challenge(signed=False)
    assert empty.status_code == 200
    assert empty.json()["challengeId"] is None and empty.json()["userAuthenticatorId"] == device.authenticator_id
    tenant.start(user, attributes={"custom": {"amount": 1}})
    c = device.challenge(signed=False).json()
    assert c["challengeId"] and "custom" not in c and "user" not in c


def test_every_tenant_basic_encoding_is_accepted(server, tenant):
    device = tenant.enrol(f"u-{uuid.uuid4().hex[:8]}")
    query = "?publicKey=" + device.query
    encodings = {
        "ios": base64.urlsafe_b64encode((tenant.id + ":").encode()).decode().rstrip("="),
        "android": base64.b64encode((tenant.id + ":").encode()).decode(),
        "browser": base64.b64encode(requests.utils.quote(tenant.id, safe="").encode()).decode(),
    }
    for name, encoded in encodings.items():
        r = requests.get(device.url("push") + query, headers={"Authorization": "Basic " + encoded})
        assert r.status_code == 200, (name, r.text)
        assert r.json()["userAuthenticatorId"] == device.authenticator_id


def test_both_public_key_query_encodings_and_a_plus_that_arrived_as_a_space(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    # A key whose plain base64 holds '+', for the single-encoded form (the double encoding never produces '+').
    while True:
        device = Device(server, tenant.id, "android")
        if "+" in device.public_key:
            break
    token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    assert device.add(token).status_code == 200
    ios_style = base64.urlsafe_b64encode(device.public_key.encode()).decode().rstrip("=")
    for query in [device.query, ios_style, device.query.rstrip("="),
                  device.public_key.replace("+", "%2B"), device.public_key.replace("+", "%20")]:
        r = requests.get(device.url("push") + "?publicKey=" + query, headers=device.basic)
        assert r.status_code == 200, (query, r.text)
    refused(requests.get(device.url("push") + "?publicKey=bm90LWEta2V5", headers=device.basic), 400, "invalid_request")
    refused(requests.get(device.url("push"), headers=device.basic), 400, "invalid_request")


def test_denial_fails_the_action_and_gives_no_token(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tracked, r = tenant.start(user)
    challenge_id = r.json()["challengeId"]
    assert device.answer(challenge_id, approved=False).json() == {"isVerified": False}
    assert tenant.verify(tracked, challenge_id) == {"isVerified": False, "isConsumed": True}
    assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_FAILED"
    assert tenant.sdk.validate_challenge({"token": tracked["token"]})["is_valid"] is False


def refused(r, status, code):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["errorCode"] == code and body["error"] and body["errorDescription"], body


def test_refusals_change_nothing(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    stranger = tenant.enrol(f"other-{uuid.uuid4().hex[:8]}")
    unknown = Device(server, tenant.id)
    other_tenant = Tenant(server)
    tracked, r = tenant.start(user)
    challenge_id = r.json()["challengeId"]
    _, r2 = tenant.start(user, action="transfer")
    other_challenge = r2.json()["challengeId"]
    before = server.snapshot()

    # A signature by another key (the key in the body is the device's).
    b = {"challengeId": challenge_id, "publicKey": device.public_key, "approved": True,
         "signature": stranger.sign(challenge_id)}
    refused(requests.post(device.url("push/challenge"), json=b, headers=device.basic), 401, "invalid_signature")
    # A signature over another challengeId.
    refused(device.answer(challenge_id, signed_id=other_challenge), 401, "invalid_signature")
    # Another user's device answering.
    refused(stranger.answer(challenge_id), 403, "forbidden")
    # A key never enrolled, and the device under another tenant.
    refused(unknown.answer(challenge_id), 401, "invalid_credential")
    foreign = Device(server, other_tenant.id, key=device.key)
    refused(foreign.answer(challenge_id), 401, "invalid_credential")
    refused(foreign.challenge(signed=False), 401, "invalid_credential")
    # A bound signature that does not match the decision.
    b = {"challengeId": challenge_id, "publicKey": device.public_key, "approved": True,
         "signature": device.sign(challenge_id),
         "boundSignature": device.sign(device.decision_message(challenge_id, False))}
    refused(requests.post(device.url("push/challenge"), json=b, headers=device.basic), 401, "invalid_signature")
    # Malformed bodies.
    refused(requests.post(device.url("push/challenge"), json={"challengeId": challenge_id}, headers=device.basic),
            400, "invalid_request")
    refused(requests.post(device.url("push/challenge"), data="{", headers={**device.basic, "Content-Type": "application/json"}),
            400, "invalid_request")
    # No or wrong tenant.
    refused(requests.get(device.url("push") + "?publicKey=" + device.query), 401, "unauthorized")
    assert server.snapshot() == before

    # The right answer works once; the second is refused and changes nothing but the sign-in history, which records
    # the verified device's refused attempt (docs/sign-in-history.md).
    assert device.answer(challenge_id).status_code == 200
    after_first = server.snapshot(history=True)
    refused(device.answer(challenge_id, approved=False), 410, "challenge_closed")
    after_second = server.snapshot(history=True)
    # (Other tests' challenges on this shared server may expire into the history meanwhile: only this user's rows.)
    added = sorted(r for r in set(after_second.pop("sign_in_history")) - set(after_first.pop("sign_in_history"))
                   if user in r)
    assert after_second == after_first
    assert len(added) == 1 and "refused" in added[0] and "challenge_closed" in added[0], added
    assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_SUCCEEDED"


def test_enrolment_needs_the_scope_and_a_valid_token(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    before = server.snapshot()
    device = Device(server, tenant.id)
    no_scope = tenant.sdk.track(user, "enrol")["token"]
    snap = server.snapshot()
    refused(device.add(no_scope), 403, "forbidden")
    refused(device.add(no_scope[:-2] + "xx"), 401, "invalid_token")
    refused(device.add("not.a.token"), 401, "invalid_token")
    other = Tenant(server)
    foreign = other.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    # A token of another tenant than the device names is refused at once, leaving no orphan credential under the
    # token's tenant; a device that names no tenant enrols under the token's.
    tracked = server.snapshot()
    refused(device.add(foreign), 403, "tenant_mismatch")
    assert server.snapshot() == tracked, "a refused enrolment stored nothing"
    refused(device.add(foreign, kind="qr-code"), 403, "tenant_mismatch")
    refused(device.get(), 401, "invalid_credential")
    r = requests.post(device.url("push"), json={"publicKey": device.public_key, "deviceName": "pytest"},
                      headers={"Authorization": "Bearer " + foreign})
    assert r.status_code == 200, r.text
    assert Device(server, other.id, key=device.key).get().status_code == 200
    assert before != snap  # (the tracks themselves were recorded)


def test_a_removed_credential_is_invalid_everywhere(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tracked, r = tenant.start(user)
    challenge_id = r.json()["challengeId"]
    removed = device.remove()
    assert removed.status_code == 200 and removed.json()["removedAuthenticatorId"] == device.authenticator_id
    refused(device.get(), 401, "invalid_credential")
    refused(device.challenge(signed=False), 401, "invalid_credential")
    refused(device.answer(challenge_id), 401, "invalid_credential")
    refused(device.remove(), 401, "invalid_credential")
    assert tenant.sdk.get_authenticators(user) == []


def test_remove_accepts_the_previous_window_but_not_older_or_a_bad_signature(server, tenant):
    device = tenant.enrol(f"u-{uuid.uuid4().hex[:8]}")
    before = server.snapshot()
    refused(device.remove(at=time.time() - 1300), 401, "invalid_signature")
    body = {"publicKey": device.public_key, "signature": device.sign("12345.0")}
    refused(requests.post(device.url("push/remove"), json=body, headers=device.basic), 401, "invalid_signature")
    assert server.snapshot() == before
    assert device.remove(at=time.time() - 600).status_code == 200


def test_update_credential_rotates_the_push_token_and_nonces_are_single_use(server):
    tenant = Tenant(server, "--push-credential-lifetime", "86400")
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user, pushToken="apns-token-1")
    first_expiry = device.get().json()["expiresAt"]
    time.sleep(0.01)
    r, nonce, body = device.update(push_token="apns-token-2", reset_expiry=True)
    assert r.status_code == 200, r.text
    updated = r.json()
    assert updated["pushToken"] == "apns-token-2" and updated["userAuthenticatorId"] == device.authenticator_id
    assert updated["expiresAt"] > first_expiry and updated["lastVerifiedAt"]
    before = server.snapshot()
    refused(requests.patch(device.url("push"), json=body, headers=device.basic), 401, "invalid_signature")
    # A nonce signed by another key is refused and is not used up by the attempt.
    stranger = Device(server, tenant.id)
    n = requests.post(device.url("push/sign") + "?publicKey=" + device.query, headers=device.basic).json()
    snap = server.snapshot()
    bad = {"challengeId": n["challengeId"], "publicKey": device.public_key, "signature": stranger.sign(n["message"])}
    refused(requests.patch(device.url("push"), json=bad, headers=device.basic), 401, "invalid_signature")
    assert server.snapshot() == snap
    good = {**bad, "signature": device.sign(n["message"]), "resetExpiry": True}
    assert requests.patch(device.url("push"), json=good, headers=device.basic).status_code == 200


def test_number_matching(server):
    tenant = Tenant(server, "--number-matching", "on")
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tracked, r = tenant.start(user)
    started = r.json()
    code = started["verificationCode"]
    assert len(code) == 3 and code.isdigit()
    assert device.challenge().json()["verificationCodeRequired"] is True
    # One guess only: a wrong (or missing) code declines the challenge, so codes cannot be found by trying.
    wrong = str((int(code) + 1) % 1000).zfill(3)
    refused(device.answer(started["challengeId"], code=wrong), 400, "invalid_request")
    assert tenant.verify(tracked, started["challengeId"]) == {"isVerified": False, "isConsumed": True}
    refused(device.answer(started["challengeId"], code=code), 410, "challenge_closed")
    tracked, r = tenant.start(user)
    started = r.json()
    refused(device.answer(started["challengeId"]), 400, "invalid_request")
    tracked, r = tenant.start(user)
    started = r.json()
    assert device.answer(started["challengeId"], code=started["verificationCode"], bound=True).status_code == 200
    assert tenant.verify(tracked, started["challengeId"])["isVerified"] is True


def test_bound_signature_policy(server):
    tenant = Tenant(server, "--require-bound-signature", "on")
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    _, r = tenant.start(user)
    challenge_id = r.json()["challengeId"]
    refused(device.answer(challenge_id), 401, "invalid_signature")
    refused(device.answer(challenge_id, bound=True), 401, "invalid_signature")
    # The tenant enrolled the credential bound although the device did not ask: it signs bound messages only.
    device.bound = True
    assert device.answer(challenge_id).status_code == 200


def test_pending_push_cap_defends_against_push_bombing(server):
    tenant = Tenant(server, "--max-pending-push", "2")
    user = f"u-{uuid.uuid4().hex[:8]}"
    tenant.enrol(user)
    assert tenant.start(user)[1].status_code == 200
    assert tenant.start(user)[1].status_code == 200
    refused(tenant.start(user)[1], 429, "too_many_requests")


def test_targeting_one_authenticator(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    phone, tablet = tenant.enrol(user), tenant.enrol(user)
    _, r = tenant.start(user, userAuthenticatorId=tablet.authenticator_id)
    assert r.json()["deliveryResults"] == [{"userAuthenticatorId": tablet.authenticator_id, "errorCode": "no_push_provider"}]
    assert phone.challenge().json()["challengeId"] is None
    challenge_id = tablet.challenge().json()["challengeId"]
    refused(phone.answer(challenge_id), 403, "forbidden")
    assert tablet.answer(challenge_id).status_code == 200
    refused(tenant.start(user, userAuthenticatorId="nope")[1], 404, "not_found")


def test_an_action_the_backend_blocked_is_never_turned_into_a_success(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tracked, r = tenant.start(user)
    challenge_id = r.json()["challengeId"]
    tenant.sdk.update_action(user, "signIn", tracked["idempotency_key"], {"state": "BLOCK"})
    before = server.snapshot()
    refused(device.answer(challenge_id), 409, "conflict")
    assert server.snapshot() == before
    assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "BLOCK"
    # ...and a blocked (or already answered) action gets no new challenge.
    refused(requests.post(f"{server.api}/client/challenge/push", json={},
                          headers={"Authorization": "Bearer " + tracked["token"]}), 409, "conflict")


def test_a_denied_action_gets_no_further_push(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tracked, r = tenant.start(user)
    assert device.answer(r.json()["challengeId"], approved=False).status_code == 200
    refused(requests.post(f"{server.api}/client/challenge/push", json={},
                          headers={"Authorization": "Bearer " + tracked["token"]}), 409, "conflict")


def test_an_enrolment_token_enrols_one_key(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    first = Device(server, tenant.id)
    assert first.add(token).status_code == 200
    assert first.add(token).status_code == 200, "the same key again is idempotent"
    before = server.snapshot()
    refused(Device(server, tenant.id).add(token), 403, "forbidden")
    assert server.snapshot() == before


def test_concurrent_starts_cannot_pass_the_pending_cap(server):
    import threading
    capped = Tenant(server, "--max-pending-push", "3")
    user = f"u-{uuid.uuid4().hex[:8]}"
    capped.enrol(user)
    tokens = [capped.sdk.track(user, "signIn")["token"] for _ in range(32)]
    barrier = threading.Barrier(len(tokens))
    codes = [None] * len(tokens)

    def go(i):
        barrier.wait()
        codes[i] = requests.post(f"{server.api}/client/challenge/push", json={},
                                 headers={"Authorization": "Bearer " + tokens[i]}).status_code

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(tokens))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert codes.count(200) == 3 and codes.count(429) == 29, codes


def test_a_flood_of_signing_messages_cannot_lock_the_device_out_of_its_challenges_nor_withhold_custom_data(server, tenant):
    user = f"u-{uuid.uuid4().hex[:8]}"
    device = tenant.enrol(user)
    tenant.start(user, attributes={"custom": {"amount": 5}})
    n = requests.post(device.url("push/challenge/sign") + "?publicKey=" + device.query, headers=device.basic).json()
    for _ in range(20):  # anyone who knows the tenant and the public key can ask for messages
        requests.post(device.url("push/challenge/sign") + "?publicKey=" + device.query, headers=device.basic)
    r = requests.get(device.url("push/challenge") + "?publicKey=" + device.query,
                     headers={**device.basic, "X-Authsignal-Signature": device.sign(n["message"])})
    # The message is the same for every request in its minute (a MAC, nothing stored), so the flood evicted nothing.
    assert r.status_code == 200 and r.json()["challengeId"], "the challenge still arrives"
    assert r.json()["custom"] == {"amount": 5}, "and with it the public custom data"


def test_the_client_api_answers_cors_preflights_and_the_server_api_does_not(server, tenant):
    origin = {"Origin": "https://shop.example", "Access-Control-Request-Method": "POST",
              "Access-Control-Request-Headers": "authorization, content-type"}
    r = requests.options(f"{server.api}/client/challenge/push", headers=origin)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in r.headers["Access-Control-Allow-Headers"]
    # Answers of the client API carry the header (errors too); the secret-key server API never does.
    r = requests.post(f"{server.api}/client/verify/push", json={"challengeId": "x"}, headers={"Origin": "https://shop.example"})
    assert r.status_code == 401 and r.headers["Access-Control-Allow-Origin"] == "*"
    r = requests.get(f"{server.api}/users/someone", headers={"Origin": "https://shop.example"})
    assert "Access-Control-Allow-Origin" not in r.headers
    assert requests.options(f"{server.api}/users/someone").status_code == 405
