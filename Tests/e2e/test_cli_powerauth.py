"""The `assent` CLI as a PowerAuth device: activate, add the (simulated) biometry factor, and approve a push and a QR
challenge under a tenant policy that requires `possession_biometry` — refused without the factor, accepted with it —
with Authsignal's Python SDK as the backend."""
import json
import os
import subprocess
import tempfile
import uuid

import requests
from authsignal.client import AuthsignalClient

from conftest import BIN, assent


def device(home, *args, password=None, ok=True):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
    if password is not None:
        env["ASSENT_DEVICE_PASSWORD"] = password
    out = subprocess.run([os.path.join(BIN, "assent"), "device", *args, "--home", os.path.join(home, "d"), "--json"],
                         capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert (out.returncode == 0) == ok, out.stderr + out.stdout
    return json.loads(out.stdout) if out.stdout.strip() else {}


def test_cli_device_meets_a_possession_biometry_approval_policy(server):
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-powerauth")
    tenant_id = tenant["tenantId"]
    assent("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant_id,
           "--required-approval-factor", "possession_biometry")
    master = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant_id)
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    user = f"pa-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        device(home, "push", "enrol", "--url", server.url, "--tenant", tenant_id, "--token", token)
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        activated = device(home, "activate", "--token", token, "--master-public-key", master["masterPublicKey"],
                           password="2468")
        assert activated["activationStatus"] == "ACTIVE"
        device(home, "biometry", "add", password="2468")
        assert device(home, "biometry", "status")["isAuthenticationWithBiometricsAvailable"] is True

        tracked = sdk.track(user, "signIn")
        bearer = {"Authorization": "Bearer " + tracked["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer).json()
        refused = device(home, "push", "approve", ok=False)
        assert refused["errorCode"] == "factor_required"
        knowledge = device(home, "push", "approve", "--factor", "possession_knowledge", password="2468", ok=False)
        assert knowledge["errorCode"] == "factor_required"

        # The simulated sensor refuses once: nothing is sent, then it recognises the user.
        device(home, "biometry", "simulate", "--next", "fail")
        failed = device(home, "push", "approve", "--factor", "possession_biometry", ok=False)
        assert failed["errorCode"] == "user_authentication_failed"
        device(home, "push", "approve", "--factor", "possession_biometry")
        verified = requests.post(f"{server.api}/client/verify/push", json={"challengeId": started["challengeId"]},
                                 headers=bearer).json()
        assert verified["isVerified"] is True
        assert sdk.validate_challenge({"token": verified["accessToken"]})["is_valid"] is True

        # The same device approves a QR challenge under the same policy.
        device(home, "qr", "enrol", "--url", server.url, "--tenant", tenant_id,
               "--token", sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"])
        page = {"Authorization": "Basic " + __import__("base64").b64encode(f"{tenant_id}:".encode()).decode()}
        qr = requests.post(f"{server.api}/client/challenge/qr-code", json={"action": "signIn"}, headers=page).json()
        device(home, "qr", "claim", qr["challengeId"])
        assert device(home, "qr", "approve", ok=False)["errorCode"] == "factor_required"
        device(home, "qr", "approve", "--challenge", qr["challengeId"], "--factor", "possession_biometry")
        polled = requests.post(f"{server.api}/client/verify/qr-code",
                               json={"challengeId": qr["challengeId"], "deviceCode": qr["deviceCode"]}, headers=page).json()
        assert polled["isVerified"] is True

        status = device(home, "status")
        assert status["state"] == "ACTIVE" and status["failCount"] == 0 and status["counterDistance"] == 0


def test_activate_takes_the_platform_and_the_setup_prompt_switch(server):
    """Issue 22 §3.5: what the SDK's PowerAuthConfiguration and DeviceInfo take, `device activate` now takes too:
    `--platform` (iOS never prompts when the biometry factor is added) and `--no-biometric-prompt-at-setup` (Android's
    authenticateOnBiometricKeySetup = false). The simulated sensor is told to fail its next prompt: adding the factor
    fails where it prompts and succeeds where it does not."""
    tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-activate-options")
    master = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant["tenantId"])
    sdk = AuthsignalClient(tenant["secretKey"], api_url=server.api)
    for flags, prompts in [([], True), (["--platform", "android"], True), (["--platform", "ios"], False),
                           (["--platform", "android", "--no-biometric-prompt-at-setup"], False)]:
        with tempfile.TemporaryDirectory() as home:
            user = f"pa-{uuid.uuid4().hex[:6]}"
            token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
            activated = device(home, "activate", "--url", server.url, "--tenant", tenant["tenantId"], "--token", token,
                               "--master-public-key", master["masterPublicKey"], *flags, password="2468")
            assert activated["activationStatus"] == "ACTIVE", flags
            device(home, "biometry", "simulate", "--next", "fail")
            added = device(home, "biometry", "add", password="2468", ok=not prompts)
            if prompts:
                assert added["errorCode"] == "user_authentication_failed", (flags, added)
            else:
                assert added == {"added": True}, (flags, added)
