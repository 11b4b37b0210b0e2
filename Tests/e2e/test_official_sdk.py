"""Authsignal's official Python server SDK (authsignal==4.1.0 from PyPI) against a real assentd."""
import json
import os
import unittest
import uuid

import pytest
from authsignal.client import ApiException, AuthsignalClient


def client(server, secret=None):
    return AuthsignalClient(secret or server.secret, api_url=server.api)


def test_the_sdks_own_test_suite_passes_against_assentd(server):
    """The wheel ships its own integration tests (authsignal/client_tests.py); they run against assentd unchanged.
    They expect user123 to be enrolled, as in Authsignal's own test tenant."""
    c = client(server)
    c.enroll_verified_authenticator("user123", {"verificationMethod": "EMAIL_OTP", "email": "user123@example.com"})
    os.environ["AUTHSIGNAL_API_SECRET"] = server.secret
    os.environ["AUTHSIGNAL_API_URL"] = server.api
    import authsignal.client_tests as suite
    result = unittest.TextTestRunner(verbosity=0).run(unittest.defaultTestLoader.loadTestsFromModule(suite))
    assert result.testsRun == 9
    assert result.wasSuccessful(), [str(f) for f in result.failures + result.errors]


def test_track_get_update_and_validate_follow_the_action_state(server):
    c = client(server)
    user = f"u-{uuid.uuid4()}"
    c.enroll_verified_authenticator(user, {"verificationMethod": "SMS", "phoneNumber": "+6421000000"})
    custom = {"amount": 12, "one": 1, "zero": 0, "yes": True, "no": False, "pi": 3.5, "nested": {"list": [1, "a", None]}}
    tracked = c.track(user, "signIn", {"ipAddress": "203.0.113.9", "userAgent": "pytest", "custom": custom})
    assert tracked["state"] == "CHALLENGE_REQUIRED"
    assert tracked["is_enrolled"] is True
    assert tracked["enrolled_verification_methods"] == ["SMS"]
    assert tracked["token"].count(".") == 2
    assert tracked["url"].startswith(server.url + "/")
    key = tracked["idempotency_key"]

    action = c.get_action(user, "signIn", key)
    assert action["state"] == "CHALLENGE_REQUIRED"
    assert action["output"]["ip_address"] == "203.0.113.9"
    # Compared as JSON text: in Python 1 == True, and numbers must stay numbers.
    assert json.dumps(action["output"]["custom"], sort_keys=True) == json.dumps(custom, sort_keys=True)
    assert action["created_at"].endswith("Z")

    # Not succeeded yet: the token is recognised but not valid.
    v = c.validate_challenge({"token": tracked["token"]})
    assert v["is_valid"] is False and v["state"] == "CHALLENGE_REQUIRED" and v["user_id"] == user

    assert c.update_action(user, "signIn", key, {"state": "CHALLENGE_SUCCEEDED"})["state"] == "CHALLENGE_SUCCEEDED"
    # Even then a track token proves nothing: only the access token a completed challenge gives is valid (and once;
    # see test_push.py and test_qr.py).
    v = c.validate_challenge({"token": tracked["token"], "userId": user, "action": "signIn"})
    assert v["is_valid"] is False and v["state"] == "CHALLENGE_SUCCEEDED" and "track token" in v["error"]
    assert v["action"] == "signIn" and v["idempotency_key"] == key


def test_a_user_without_authenticators_is_allowed_by_default(server):
    c = client(server)
    tracked = c.track(f"new-{uuid.uuid4()}", "signIn")
    assert tracked["state"] == "ALLOW"
    assert tracked["is_enrolled"] is False
    assert set(tracked["allowed_verification_methods"]) == {"PUSH", "DEVICE"}


def test_same_idempotency_key_returns_the_same_action_and_another_user_conflicts(server):
    c = client(server)
    key = str(uuid.uuid4())
    a = c.track("idem-user", "signIn", {"idempotencyKey": key})
    b = c.track("idem-user", "signIn", {"idempotencyKey": key})
    assert a["idempotency_key"] == b["idempotency_key"] == key
    with pytest.raises(ApiException) as e:
        c.track("someone-else", "signIn", {"idempotencyKey": key})
    assert e.value.status_code == 409 and e.value.error_code == "conflict"


def test_users_and_authenticators(server):
    c = client(server)
    user = f"u-{uuid.uuid4()}"
    assert c.get_user(user)["is_enrolled"] is False, "an unknown user answers 200, not enrolled"
    updated = c.update_user(user, {"email": "a@example.com", "displayName": "A", "custom": {"tier": "gold"}})
    assert updated["email"] == "a@example.com" and updated["custom"] == {"tier": "gold"}
    enrolled = c.enroll_verified_authenticator(user, {"verificationMethod": "EMAIL_OTP", "email": "a@example.com"})
    auth_id = enrolled["authenticator"]["user_authenticator_id"]
    listed = c.get_authenticators(user)
    assert [a["user_authenticator_id"] for a in listed] == [auth_id]
    assert c.get_user(user)["is_enrolled"] is True
    with pytest.raises(ApiException) as e:
        c.delete_authenticator(user, "no-such-authenticator")
    assert e.value.status_code == 404
    c.delete_authenticator(user, auth_id)
    assert c.get_authenticators(user) == []
    c.enroll_verified_authenticator(user, {"verificationMethod": "EMAIL_OTP", "email": "a@example.com"})
    c.delete_user(user)
    after = c.get_user(user)
    assert after["is_enrolled"] is False and after.get("email") is None
    assert c.get_authenticators(user) == []


def test_device_credentials_cannot_be_enrolled_by_the_backend(server):
    with pytest.raises(ApiException) as e:
        client(server).enroll_verified_authenticator("x", {"verificationMethod": "PUSH"})
    assert e.value.status_code == 400


def test_tenants_are_isolated(server):
    import requests
    from device import Device
    a, b = client(server), client(server, server.other_secret)
    user = f"u-{uuid.uuid4()}"
    device = Device(server, server.tenant_id)
    assert device.add(a.track(user, "enrol", {"scope": "add:authenticators"})["token"]).status_code == 200
    tracked = a.track(user, "signIn")
    bearer = {"Authorization": "Bearer " + tracked["token"]}
    challenge_id = requests.post(f"{server.api}/client/challenge/push", json={}, headers=bearer).json()["challengeId"]
    assert device.answer(challenge_id).status_code == 200
    access = requests.post(f"{server.api}/client/verify/push", json={"challengeId": challenge_id},
                           headers=bearer).json()["accessToken"]
    with pytest.raises(ApiException) as e:
        b.get_action(user, "signIn", tracked["idempotency_key"])
    assert e.value.status_code == 404
    assert b.get_authenticators(user) == []
    assert b.get_user(user)["is_enrolled"] is False
    v = b.validate_challenge({"token": access})
    assert v["is_valid"] is False, "another tenant's token never validates"
    # ...and trying did not consume it for its own tenant.
    assert a.validate_challenge({"token": access})["is_valid"] is True
