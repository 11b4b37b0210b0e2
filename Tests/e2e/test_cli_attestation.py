"""Device attestation with the `assent` CLI as the device: a test authority made by
`assent admin attestation test-authority create DIR`, its root given to assentd with `--attestation-roots`, a tenant
that requires attestation, and `assent device push enrol --attest-with DIR` (and the QR code equivalent) enrolling with
an android-key chain or an App Attest object the CLI makes for its own key."""
import base64
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import BIN, ROOT, Server, assent

PACKAGE = "dev.assent.cli"
DIGEST = "ab" * 32
APP_ID = "CLITEAM001.dev.assent.cli"


def run(*args, home=None):
    """The CLI with --json: (exit status, parsed stdout or None, stderr)."""
    command = [os.path.join(BIN, "assent"), *args] + (["--home", home] if home else []) + ["--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    return out.returncode, (json.loads(out.stdout) if out.stdout.strip() else None), out.stderr


def ok(*args, home=None):
    status, body, stderr = run(*args, home=home)
    assert status == 0, stderr
    return body


@pytest.fixture(scope="module")
def attesting(store):
    """A test authority made by the CLI, and a server trusting its root."""
    directory = tempfile.mkdtemp(prefix="assent-cli-attest-")
    authority = os.path.join(directory, "authority")
    created = ok("admin", "attestation", "test-authority", "create", authority, "--android-package", PACKAGE,
                 "--signing-certificate-sha256", DIGEST, "--app-id", APP_ID)
    server = Server(directory)
    server.start("--attestation-roots", created["rootCertificate"])
    try:
        yield server, authority, created
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def basic(created):
    return {"Authorization": "Basic " + base64.b64encode((created["secretKey"] + ":").encode()).decode()}


def tenant(server, policy="require"):
    """A tenant with the attestation settings the CLI's test authority meets, set through the running server's API (so
    its very next request sees them; a change on the database reaches a running server only through its watcher)."""
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "cli-attest-" + uuid.uuid4().hex[:6])
    r = requests.patch(f"{server.api}/tenant/settings", headers=basic(created), json={
        "attestationPolicy": policy, "appleAppIds": [APP_ID], "appleAttestationEnvironment": "both",
        "androidPackages": [{"packageName": PACKAGE, "signingCertificateSha256": [DIGEST]}]})
    assert r.status_code == 200, r.text
    return created, AuthsignalClient(created["secretKey"], api_url=server.api)


def authenticators(server, created, user):
    r = requests.get(f"{server.api}/users/{user}/authenticators", headers=basic(created))
    assert r.status_code == 200, r.text
    return r.json()


def test_create_writes_an_owner_only_authority_and_prints_the_roots_path(attesting):
    _, authority, created = attesting
    assert created["rootCertificate"] == os.path.join(authority, "root.pem")
    assert created["identities"] == {"androidPackage": PACKAGE, "signingCertificateSha256": DIGEST, "appleAppId": APP_ID}
    assert stat.S_IMODE(os.stat(authority).st_mode) == 0o700
    for name in ("root.pem", "root-key.pem", "authority.json"):
        assert stat.S_IMODE(os.stat(os.path.join(authority, name)).st_mode) == 0o600
    # The key is a PKCS#8 P-256 key of the root certificate, as openssl reads them.
    key = subprocess.run(["openssl", "pkey", "-in", os.path.join(authority, "root-key.pem"), "-pubout"],
                         capture_output=True, text=True, check=True).stdout
    cert = subprocess.run(["openssl", "x509", "-in", created["rootCertificate"], "-noout", "-pubkey"],
                          capture_output=True, text=True, check=True).stdout
    assert key == cert and "PUBLIC KEY" in key
    # The human form prints the path alone, and a second create in the same place is refused.
    out = subprocess.run([os.path.join(BIN, "assent"), "admin", "attestation", "test-authority", "create", authority],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "already holds a test authority" in out.stderr
    fresh = os.path.join(os.path.dirname(authority), "second")
    out = subprocess.run([os.path.join(BIN, "assent"), "admin", "attestation", "test-authority", "create", fresh],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == os.path.join(fresh, "root.pem")


@pytest.mark.parametrize("attest_format", ["android-key", "apple-appattest"])
def test_an_attested_cli_enrolment_is_accepted_and_its_verdict_read_and_a_cli_approval_works(attesting, attest_format):
    server, authority, _ = attesting
    created, sdk = tenant(server)
    user = "cli-attest-" + uuid.uuid4().hex[:8]
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        enrolled = ok("device", "push", "enrol", "--url", server.url, "--tenant", created["tenantId"], "--token", token,
                      "--attest-with", authority, "--attest-format", attest_format, home=home)
        assert enrolled["userId"] == user
        [read] = authenticators(server, created, user)
        verdict = read["attestation"]
        assert verdict["verified"] is True and verdict["format"] == attest_format
        if attest_format == "android-key":
            assert (verdict["app"], verdict["securityLevel"], verdict["bootState"]) == (PACKAGE, "tee", "verified")
        else:
            assert (verdict["app"], verdict["environment"]) == (APP_ID, "development")

        # An approval from the attested credential (the tenant requires attested enrolment, not attested approvals).
        tracked = sdk.track(user, "signIn")
        bearer = {"Authorization": "Bearer " + tracked["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer)
        assert started.status_code == 200, started.text
        ok("device", "push", "approve", home=home)
        verified = requests.post(f"{server.api}/client/verify/push", json={"challengeId": started.json()["challengeId"]},
                                 headers=bearer).json()
        assert verified["isVerified"] is True


def refused_enrolment(server, created, sdk, user, *flags):
    """`assent device push enrol` for `user` with `flags` in a fresh home, which must fail: its error text."""
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        status, body, stderr = run("device", "push", "enrol", "--url", server.url, "--tenant", created["tenantId"],
                                   "--token", token, *flags, home=home)
    assert status != 0
    return stderr + json.dumps(body)


def test_an_unattested_cli_enrolment_is_refused_under_require(attesting):
    server, _, _ = attesting
    created, sdk = tenant(server)
    user = "cli-plain-" + uuid.uuid4().hex[:8]
    assert "attestation_required" in refused_enrolment(server, created, sdk, user)
    assert authenticators(server, created, user) == []


def test_the_qr_code_enrolment_attests_its_own_key(attesting):
    server, authority, _ = attesting
    created, sdk = tenant(server)
    user = "cli-qr-" + uuid.uuid4().hex[:8]
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        ok("device", "qr", "enrol", "--url", server.url, "--tenant", created["tenantId"], "--token", token,
           "--attest-with", authority, home=home)
    [read] = authenticators(server, created, user)
    assert read["verificationMethod"] == "DEVICE" and read["attestation"]["format"] == "android-key"


def test_an_attestation_naming_another_package_is_refused_and_nothing_is_stored(attesting):
    server, authority, _ = attesting
    created, sdk = tenant(server, policy="record")
    user = "cli-other-" + uuid.uuid4().hex[:8]
    text = refused_enrolment(server, created, sdk, user, "--attest-with", authority, "--android-package", "com.example.other")
    assert "attestation_invalid" in text and "app id" in text, text
    assert authenticators(server, created, user) == []


def test_attestation_flags_without_attest_with_are_a_usage_error(attesting):
    server, _, _ = attesting
    with tempfile.TemporaryDirectory() as home:
        status, body, stderr = run("device", "push", "enrol", "--url", server.url, "--tenant", "t", "--token", "x",
                                   "--attest-format", "apple-appattest", home=home)
        assert status != 0 and "--attest-format needs --attest-with" in stderr + json.dumps(body)
        status, body, stderr = run("device", "push", "enrol", "--url", server.url, "--tenant", "t", "--token", "x",
                                   "--attest-with", os.path.join(home, "missing"), home=home)
        assert status != 0 and "holds no test authority" in stderr + json.dumps(body)


def readme_block(heading):
    """The one ```sh block under the README's `## heading`."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"^```sh\n(.*?)^```$", section, re.M | re.S).group(1)


def test_the_readmes_attestation_block_runs_against_a_server_trusting_its_authority(store):
    """The README's block is skipped by test_readme.py (its server cannot be restarted with a root the block makes), so
    it runs here literally, as the README says: steps 1 and 2 (the authority, the tenant's settings) with the server
    stopped, then the server started trusting the authority's root, then steps 3 and 4 in the same shell."""
    block = readme_block("Device attestation with the CLI")
    offline, online = block.split("\n# 3.", 1)
    online = "# 3." + online
    assert "$A admin attestation test-authority create ~/.assent-authority" in offline
    directory = tempfile.mkdtemp(prefix="assent-readme-attest-")
    home = os.path.join(directory, "home")
    os.makedirs(home)
    server = Server(directory)
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "readme-attest")
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "A": os.path.join(BIN, "assent"),
           "ASSENT_URL": server.url, "ASSENT_SECRET_KEY": created["secretKey"], "ASSENT_TENANT": created["tenantId"],
           "ASSENT_DATABASE": server.database}
    if "ASSENT_MASTER_KEY_FILE" in os.environ:
        env["ASSENT_MASTER_KEY_FILE"] = os.environ["ASSENT_MASTER_KEY_FILE"]
    helper = "J() { python3 -c 'import json,sys;print(json.load(sys.stdin)[sys.argv[1]])' \"$1\"; }\n"

    def shell(script):
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", helper + script], env=env, capture_output=True,
                              text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        return done

    try:
        made = shell(offline)
        root = os.path.join(home, ".assent-authority", "root.pem")
        assert made.stdout.splitlines()[0] == root
        server.start("--attestation-roots", root)
        try:
            done = shell(online)
        finally:
            server.stop()
        output = done.stdout + done.stderr
        assert "attestation_required" in output and "refused, as required" in output, output
        [credential] = json.loads(done.stdout[done.stdout.index("\n[") + 1:])
        verdict = credential["attestation"]
        assert (verdict["format"], verdict["securityLevel"], verdict["bootState"]) == ("android-key", "tee", "verified")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.parametrize("attest_format,approves", [("android-key", True), ("apple-appattest", False)])
def test_attested_approvals_accept_the_cli_s_android_credential_and_refuse_its_app_attest_one(attesting, attest_format,
                                                                                               approves):
    """Where the tenant requires attested approvals, an android-key credential's signed answer is enough; an App Attest
    credential must add an assertion, which the CLI cannot make (it keeps no App Attest key), so its answer is
    403 attestation_required and the challenge stays pending."""
    server, authority, _ = attesting
    created, sdk = tenant(server)
    r = requests.patch(f"{server.api}/tenant/settings", headers=basic(created), json={"requireAttestedApprovals": True})
    assert r.status_code == 200, r.text
    user = "cli-approve-" + uuid.uuid4().hex[:8]
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        ok("device", "push", "enrol", "--url", server.url, "--tenant", created["tenantId"], "--token", token,
           "--attest-with", authority, "--attest-format", attest_format, home=home)
        bearer = {"Authorization": "Bearer " + sdk.track(user, "signIn")["token"]}
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"}, headers=bearer)
        assert started.status_code == 200, started.text
        status, body, stderr = run("device", "push", "approve", home=home)
        verified = requests.post(f"{server.api}/client/verify/push", json={"challengeId": started.json()["challengeId"]},
                                 headers=bearer).json()
        if approves:
            assert status == 0, stderr
            assert verified["isVerified"] is True
        else:
            assert status != 0 and "attestation_required" in stderr + json.dumps(body), stderr
            assert verified.get("isVerified") is not True and verified.get("state") != "CHALLENGE_SUCCEEDED", verified
