"""The full push flow with the `assent` CLI as the device and Authsignal's Python SDK as the backend."""
import json
import os
import re
import subprocess
import tempfile
import time
import uuid

import requests
from authsignal.client import AuthsignalClient

from conftest import BIN, assent


def device(home, *args):
    out = subprocess.run([os.path.join(BIN, "assent"), "device", "push", *args, "--home", home, "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_full_push_flow_with_the_cli_as_the_device(server):
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-device")
    assent("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant["tenantId"],
           "--number-matching", "on")
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    user = f"cli-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        enrolled = device(home, "enrol", "--url", server.url, "--tenant", tenant["tenantId"], "--token", token)
        assert enrolled["userId"] == user

        tracked = sdk.track(user, "signIn", {"ipAddress": "192.0.2.8", "userAgent": "Safari"})
        bearer = {"Authorization": "Bearer " + tracked["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer).json()

        pending = device(home, "challenge")
        assert pending["challengeId"] == started["challengeId"]
        assert pending["ipAddress"] == "192.0.2.8" and pending["userAgent"] == "Safari"

        device(home, "approve", "--code", started["verificationCode"])
        verified = requests.post(f"{server.api}/client/verify/push", json={"challengeId": started["challengeId"]},
                                 headers=bearer).json()
        assert verified["isVerified"] is True
        result = sdk.validate_challenge({"token": verified["accessToken"]})
        assert result["is_valid"] is True and result["verification_method"] == "PUSH"

        device(home, "remove")
        assert sdk.get_authenticators(user) == []


def credential_gets(server):
    """How many `GET`s of a push credential the server has logged (one JSON request line each)."""
    count = 0
    for line in server.log_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("msg") == "request" and entry.get("method") == "GET" \
                and entry.get("route", "").endswith("/client/user-authenticators/push"):
            count += 1
    return count


def test_cli_device_signs_with_the_credential_id_kept_in_its_key_file(server):
    """The CLI (a new process per command) keeps the credential id in its key file at enrolment, so approving and
    removing send no GET of the credential first."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-credential-id")
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    user = f"cli-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        enrolled = device(home, "enrol", "--url", server.url, "--tenant", tenant["tenantId"], "--token", token)
        key_files = [os.path.join(d, f) for d, _, files in os.walk(home) for f in files if f.endswith(".key")]
        stored = [json.load(open(path)).get("credentialId") for path in key_files]
        assert enrolled["credentialId"] in stored, (enrolled, stored)

        before = credential_gets(server)
        tracked = sdk.track(user, "signIn")
        bearer = {"Authorization": "Bearer " + tracked["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer).json()
        device(home, "approve", "--challenge", started["challengeId"])
        verified = requests.post(f"{server.api}/client/verify/push", json={"challengeId": started["challengeId"]},
                                 headers=bearer).json()
        assert verified["isVerified"] is True
        device(home, "remove")
        assert sdk.get_authenticators(user) == []
        assert credential_gets(server) == before


def test_one_timeline_under_the_provider_none_in_the_api_the_cli_and_the_console(server):
    """Issue 22 §3.3: with nothing delivered (provider `none`, the default) the API and the CLI answered `404 No delivery
    records` while the console's challenge page showed the start and the approval. Now all three show one timeline."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-timeline")
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    user = f"cli-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        enrolled = device(home, "enrol", "--url", server.url, "--tenant", tenant["tenantId"], "--token", token)
        bearer = {"Authorization": "Bearer " + sdk.track(user, "signIn", {"ipAddress": "192.0.2.8"})["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer,
                                timeout=10).json()
        assert started["deliveryResults"][0]["errorCode"] == "no_push_provider", started
        challenge = started["challengeId"]
        device(home, "approve")

    r = requests.get(f"{server.api}/challenges/{challenge}/timeline", auth=(tenant["secretKey"], ""), timeout=10)
    assert r.status_code == 200, r.text
    api = r.json()
    assert api["deliveries"] == []
    assert [e["event"] for e in api["timeline"]] == ["challenge.started", "challenge.approved"], api
    assert api["timeline"][1]["userAuthenticatorId"] == enrolled["credentialId"], (api, enrolled)

    out = subprocess.run([os.path.join(BIN, "assent"), "admin", "challenge", "timeline", "--challenge", challenge,
                          "--url", server.url, "--json"], capture_output=True, text=True, timeout=30,
                         env={**os.environ, "ASSENT_SECRET_KEY": tenant["secretKey"]})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == api

    signed_in = requests.post(server.url + "/admin/sign-in", data={"credential": tenant["secretKey"]},
                              allow_redirects=False, headers={"Origin": server.url}, timeout=10)
    page = requests.get(f"{server.url}/admin/challenges/{challenge}", cookies=signed_in.cookies, timeout=10)
    assert page.status_code == 200, page.text
    table = page.text.split('id="timeline"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r"\b(?:challenge|push|webhook)\.[a-z_]+\b", table) == [e["event"] for e in api["timeline"]]

    unknown = requests.get(f"{server.api}/challenges/{'0' * 64}/timeline", auth=(tenant["secretKey"], ""), timeout=10)
    assert unknown.status_code == 404 and unknown.json()["errorCode"] == "not_found", unknown.text


def test_a_passphrase_mistake_says_what_to_do_without_internals(server):
    """Issue 22 §3.6: a wrong or unexpected passphrase printed `KeyStoreError.protectionMismatch` and the key file's
    absolute path. Now: what happened, in words, and which setting to change."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-passphrase")
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    for stored, given in [(None, "typed-by-mistake"), ("right-one", "wrong-one"), ("right-one", None)]:
        with tempfile.TemporaryDirectory() as home:
            env = {"PATH": "/usr/bin:/bin"}
            if stored:
                env["ASSENT_DEVICE_PASSPHRASE"] = stored
            token = sdk.track(f"cli-{uuid.uuid4().hex[:6]}", "enrol", {"scope": "add:authenticators"})["token"]
            enrolled = subprocess.run(
                [os.path.join(BIN, "assent"), "device", "push", "enrol", "--home", home, "--url", server.url,
                 "--tenant", tenant["tenantId"], "--token", token], capture_output=True, text=True, timeout=60, env=env)
            assert enrolled.returncode == 0, enrolled.stderr
            env.pop("ASSENT_DEVICE_PASSPHRASE", None)
            if given:
                env["ASSENT_DEVICE_PASSPHRASE"] = given
            out = subprocess.run([os.path.join(BIN, "assent"), "device", "push", "challenge", "--home", home],
                                 capture_output=True, text=True, timeout=60, env=env)
            assert out.returncode == 1, (stored, given, out)
            assert "KeyStoreError" not in out.stderr and home not in out.stderr, (stored, given, out.stderr)
            assert "passphrase" in out.stderr and "ASSENT_DEVICE_PASSPHRASE" in out.stderr, (stored, given, out.stderr)


def test_small_inconsistencies_of_enrolment_and_user_lookup(server):
    """Issue 22 §3.9: re-enrolling the same key answered a new createdAt where `admin authenticators list` kept the
    first; `device qr enrol` left out the `expires:` line `device push enrol` prints; `admin user get` of a user the
    tenant never saw exited 0 with `enrolled: no`."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-consistency")
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    env = {**os.environ, "ASSENT_SECRET_KEY": tenant["secretKey"], "ASSENT_URL": server.url}
    user = f"cli-{uuid.uuid4().hex[:6]}"

    def cli(*args):
        return subprocess.run([os.path.join(BIN, "assent"), *args], capture_output=True, text=True, timeout=60, env=env)

    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as qr_home:
        first = device(home, "enrol", "--url", server.url, "--tenant", tenant["tenantId"],
                       "--token", sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"])
        time.sleep(1.1)  # a new verification time would differ from the first in its ISO-8601 milliseconds
        again = device(home, "enrol", "--url", server.url, "--tenant", tenant["tenantId"],
                       "--token", sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"])
        assert again["credentialId"] == first["credentialId"] and again["createdAt"] == first["createdAt"], (first, again)
        listed = json.loads(cli("admin", "authenticators", "list", "--user", user, "--json").stdout)
        assert [a["createdAt"] for a in listed if a["userAuthenticatorId"] == first["credentialId"]] == \
            [first["createdAt"]], (listed, first)

        qr = cli("device", "qr", "enrol", "--home", qr_home, "--url", server.url, "--tenant", tenant["tenantId"],
                 "--token", sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"])
        assert qr.returncode == 0, qr.stderr
        assert re.search(r"^expires:\s+never$", qr.stdout, re.M), qr.stdout
        push = cli("device", "push", "show", "--home", home)
        assert re.search(r"^expires:\s+\S+", push.stdout, re.M), push.stdout

    nobody = cli("admin", "user", "get", "--user", f"nobody-{uuid.uuid4().hex[:6]}")
    assert nobody.returncode == 1 and "no such user" in nobody.stderr, nobody
    as_json = cli("admin", "user", "get", "--user", "nobody-json", "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["isEnrolled"] is False, as_json  # the wire answer
    known = cli("admin", "user", "get", "--user", user)
    assert known.returncode == 0 and re.search(r"^enrolled:\s+yes", known.stdout, re.M), known
    sdk.track("tracked-only-" + user, "signIn")
    tracked = cli("admin", "user", "get", "--user", "tracked-only-" + user)
    assert tracked.returncode == 0 and re.search(r"^enrolled:\s+no", tracked.stdout, re.M), tracked


def test_enrol_takes_the_android_key_policy_and_track_takes_a_location(server):
    """Issue 22 §3.5: `device push|qr enrol` take what addCredential takes on Android (userAuthenticationRequired,
    timeout, authorizationType), recorded with the key; `admin track --location` reaches the device's QR claim."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-policy")
    env = {**os.environ, "ASSENT_SECRET_KEY": tenant["secretKey"], "ASSENT_URL": server.url}
    user = f"cli-{uuid.uuid4().hex[:6]}"

    def cli(*args):
        return subprocess.run([os.path.join(BIN, "assent"), *args], capture_output=True, text=True, timeout=60, env=env)

    def enrol_token():
        return json.loads(cli("admin", "track", "--user", user, "--action", "enrol", "--scope", "add:authenticators",
                              "--json").stdout)["token"]

    with tempfile.TemporaryDirectory() as push_home, tempfile.TemporaryDirectory() as qr_home:
        misuse = cli("device", "push", "enrol", "--home", push_home, "--tenant", tenant["tenantId"], "--token", "t",
                     "--timeout", "30")
        assert misuse.returncode == 2 and "--user-authentication-required" in misuse.stderr, misuse
        for kind, home, mask, recorded in [("push", push_home, "BIOMETRIC", "BIOMETRIC"),
                                           ("qr", qr_home, "1", "DEVICE_CREDENTIAL")]:
            out = cli("device", kind, "enrol", "--home", home, "--tenant", tenant["tenantId"], "--token", enrol_token(),
                      "--user-authentication-required", "--timeout", "30", "--authorization-type", mask)
            assert out.returncode == 0, out.stderr
            keys = [json.load(open(os.path.join(home, "keys", f))) for f in os.listdir(os.path.join(home, "keys"))
                    if f.endswith(".key")]
            assert [(k["userAuthenticationRequired"], k["timeout"], k["authorizationType"]) for k in keys] == [
                (True, 30, recorded)], (kind, keys)

    with tempfile.TemporaryDirectory() as home:
        assert cli("device", "qr", "enrol", "--home", home, "--tenant", tenant["tenantId"],
                   "--token", enrol_token()).returncode == 0
        tracked = json.loads(cli("admin", "track", "--user", user, "--action", "signIn", "--location",
                                 "Wellington, New Zealand", "--json").stdout)
        started = requests.post(f"{server.api}/client/challenge/qr-code", json={},
                                headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10).json()
        claimed = cli("device", "qr", "claim", "--home", home, "--payload", started["qrPayload"], "--json")
        assert claimed.returncode == 0, claimed.stderr
        assert json.loads(claimed.stdout)["location"] == "Wellington, New Zealand"
