"""Authsignal's older official Python server SDKs (authsignal==3.0.0 and 2.0.7, still installed by pinned projects)
against a real assentd. They update a user with `POST /v1/users/{id}` (4.x sends PATCH) and take the base URL without
`/v1`. Each runs in a virtualenv of its own (`make test-deps` makes .build/venv-authsignal-VERSION), driven through
older_sdk_driver.py; the device side is device.py, as in test_official_sdk.py."""
import json
import os
import subprocess
import uuid

import pytest
import requests

from conftest import ROOT
from device import Device

VERSIONS = ["3.0.0", "2.0.7"]


class OlderSDK:
    """One SDK version's `authsignal.Client`, running in its own virtualenv, pointed at `base_url` (no /v1)."""

    def __init__(self, version, base_url, secret):
        python = os.path.join(ROOT, ".build", f"venv-authsignal-{version}", "bin", "python")
        assert os.path.exists(python), f"{python} is missing: `make test-deps` creates it"
        self.process = subprocess.Popen(
            [python, os.path.join(ROOT, "Tests", "e2e", "older_sdk_driver.py"), base_url, secret],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.read()["result"]["version"] == version, "the virtualenv holds another SDK version"

    def read(self):
        line = self.process.stdout.readline()
        assert line, "the SDK driver ended"
        return json.loads(line)

    def answer(self, method, *args):
        self.process.stdin.write(json.dumps({"method": method, "args": list(args)}) + "\n")
        self.process.stdin.flush()
        return self.read()

    def __call__(self, method, *args):
        answer = self.answer(method, *args)
        assert "result" in answer, f"{method}{args}: {answer}"
        return answer["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(params=VERSIONS)
def sdk(request, server):
    client = OlderSDK(request.param, server.url, server.secret)
    client.version = request.param
    yield client
    client.close()


def field(answer, snake):
    """3.0.0's update_user returns the server's camelCase body as is; every other call is decamelized."""
    camel = snake.split("_")[0] + "".join(part.title() for part in snake.split("_")[1:])
    return answer.get(snake, answer.get(camel))


def test_update_user_by_post_is_the_same_operation_as_patch(sdk, server):
    user = f"old-{uuid.uuid4()}"
    assert sdk("get_user", user)["is_enrolled"] is False
    updated = sdk("update_user", user, {"email": "old@example.com", "displayName": "Old", "custom": {"tier": "gold"}})
    assert field(updated, "email") == "old@example.com" and updated["custom"] == {"tier": "gold"}, updated
    assert field(updated, "display_name") == "Old"
    # The same handler as PATCH: a later PATCH of one field keeps what the POST set.
    r = requests.patch(f"{server.api}/users/{user}", json={"displayName": "New"}, auth=(server.secret, ""))
    assert r.status_code == 200 and r.json()["email"] == "old@example.com" and r.json()["displayName"] == "New", r.text
    # Bad input through the POST spelling is refused as PATCH refuses it, and changes nothing.
    before = server.snapshot()
    r = requests.post(f"{server.api}/users/{user}", data="{", auth=(server.secret, ""),
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["errorCode"] == "invalid_request", r.text
    r = requests.post(f"{server.api}/users/{user}", json={"email": "x@example.com"}, auth=("wrong-secret", ""))
    assert r.status_code == 401 and r.json()["errorCode"] == "unauthorized", r.text
    assert server.snapshot() == before


def test_track_get_action_enrol_validate_and_delete(sdk, server):
    user = f"old-{uuid.uuid4()}"
    enrolled = sdk("enroll_verified_authenticator", user, {"verificationMethod": "EMAIL_OTP", "email": "o@example.com"})
    authenticator_id = enrolled["authenticator"]["user_authenticator_id"]
    tracked = sdk("track", user, "signIn", {"ipAddress": "203.0.113.7", "custom": {"amount": 3}})
    assert tracked["state"] == "CHALLENGE_REQUIRED" and tracked["is_enrolled"] is True
    action = sdk("get_action", user, "signIn", tracked["idempotency_key"])
    assert action["state"] == "CHALLENGE_REQUIRED" and action["output"]["custom"] == {"amount": 3}, action
    missing = sdk.answer("get_action", user, "signIn", "no-such-key")
    assert missing.get("status") == 404, missing
    assert sdk("get_user", user)["is_enrolled"] is True

    # A push challenge a device approves gives an access token, which the old SDK's validate accepts once.
    device = Device(server, server.tenant_id)
    enrol = sdk("track", user, "enrol", {"scope": "add:authenticators"})
    assert device.add(enrol["token"]).status_code == 200
    push = sdk("track", user, "transfer")
    bearer = {"Authorization": "Bearer " + push["token"]}
    challenge_id = requests.post(f"{server.api}/client/challenge/push", json={}, headers=bearer).json()["challengeId"]
    assert device.answer(challenge_id).status_code == 200
    access = requests.post(f"{server.api}/client/verify/push", json={"challengeId": challenge_id},
                           headers=bearer).json()["accessToken"]
    first = sdk("validate_challenge", access, user, "transfer")
    assert first["is_valid"] is True and first["user_id"] == user and first["action"] == "transfer", first
    # All three arguments again: 3.0.0 drops None fields from a JSON body after computing its Content-Length, so a
    # call without userId or action declares more bytes than it sends and waits for the server's idle timeout (the
    # same against any server; 2.0.7 and 4.x build the body without them).
    again = sdk("validate_challenge", access, user, "transfer")
    assert again["is_valid"] is False, "an access token validates once"

    remove = "delete_authenticator" if sdk.version == "3.0.0" else "delete_user_authenticator"
    sdk(remove, user, authenticator_id)
    sdk("delete_user", user)
    assert sdk("get_user", user)["is_enrolled"] is False


def test_a_wrong_secret_is_refused(server):
    for version in VERSIONS:
        client = OlderSDK(version, server.url, "not-the-secret")
        try:
            answer = client.answer("track", "someone", "signIn")
            assert answer.get("status") == 401, (version, answer)
        finally:
            client.close()
