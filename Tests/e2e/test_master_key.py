"""Master-key rotation end to end, on each store (on PostgreSQL with two instances sharing the database and the ring
file): `assent admin master-key rotate` while devices, backends and a console session keep working loses no request;
the running servers pick the new version up without a restart; tokens signed under the old version verify until
`retire`, then are refused; `retire` is refused while a tenant's secret still derives from the version; webhooks stay
verifiable with the tenant's secret key; an APNs key sealed before the rotation still signs pushes after the old
version is retired; `assent admin audit verify` passes across it; and a backup carries the ring back."""
import base64
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import uuid

import pytest
import requests

from conftest import BIN, CURRENT, Server, assent, postgres
from device import Device
from fakes.apns import FakeAPNs
from test_push_delivery import KEY_ID, TEAM_ID, TOPIC, verify_es256
from test_webhooks import Receiver, verify

COOKIE = "assent_console"


def run(*args, env):
    """The CLI's exit status, stdout and stderr."""
    out = subprocess.run([os.path.join(BIN, "assent"), *args], capture_output=True, text=True, timeout=180, env=env)
    return out.returncode, out.stdout, out.stderr + out.stdout


def cli(*args, env):
    """The CLI's --json answer; fails the test when it exits non-zero."""
    code, out, err = run(*args, "--json", env=dict(env, ASSENT_ALLOW_PRIVATE_URLS="1"))
    assert code == 0, err
    return json.loads(out)


def key_id(token):
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


class Setup:
    """A database with its own ring file (never the run's shared PostgreSQL key file: this test rotates it), the
    environment the CLI needs to find both, and the servers on it — two on PostgreSQL, one on SQLite."""

    def __init__(self, directory):
        self.directory = directory
        self.servers = [Server(os.path.join(directory, "a"))]
        os.makedirs(self.servers[0].directory)
        self.database = self.servers[0].database
        self.env = {k: v for k, v in os.environ.items() if k not in ("ASSENT_MASTER_KEY_FILE", "ASSENT_MASTER_KEY")}
        self.flags = ["--master-key-reload", "1"]
        if CURRENT["store"] == "postgres":
            self.key_file = os.path.join(directory, "ring.key")
            with open(self.key_file, "w") as f:
                f.write(base64.b64encode(os.urandom(32)).decode() + "\n")
            os.chmod(self.key_file, 0o600)
            self.env["ASSENT_MASTER_KEY_FILE"] = self.key_file
            self.flags += ["--master-key-file", self.key_file]
            os.makedirs(os.path.join(directory, "b"))
            self.servers.append(Server(os.path.join(directory, "b"), database=self.database))
        else:
            self.key_file = os.path.join(os.path.dirname(self.database), "master.key")

    def start(self, *extra):
        for s in self.servers:
            s.start(*self.flags, *extra)

    def stop(self):
        for s in self.servers:
            s.stop()

    def create_tenant(self, name):
        return cli("admin", "tenant", "create", "--database", self.database, "--name", name, env=self.env)


def track(server, secret, user, action="signIn", scope=None):
    body = {"scope": scope} if scope else {}
    r = requests.post(f"{server.api}/users/{user}/actions/{action}", auth=(secret, ""), json=body, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def start_push(server, token):
    return requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"},
                         headers={"Authorization": "Bearer " + token}, timeout=10)


def enrol(setup, secret, tenant_id, user, **extra):
    token = track(setup.servers[0], secret, user, "enrol", "add:authenticators")
    device = Device(setup.servers[0], tenant_id)
    r = device.add(token, **extra)
    assert r.status_code == 200, r.text
    device.authenticator_id = r.json()["userAuthenticatorId"]
    return device


def webhooks_by_user(receiver, user, timeout=30):
    """The webhooks received so far by the user they name, once one names `user`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with receiver.lock:
            signed = {json.loads(body)["data"].get("userId"): (headers, body) for headers, body in receiver.received}
        if user in signed:
            return signed
        time.sleep(0.1)
    raise AssertionError(f"no webhook for {user}")


def sign_in(server, secret):
    r = requests.post(server.url + "/admin/sign-in", data={"credential": secret}, allow_redirects=False,
                      headers={"Origin": server.url}, timeout=10)
    assert r.status_code == 303, r.text
    return r.cookies.get(COOKIE)


def csrf_of(server, session):
    page = requests.get(server.url + "/admin/", cookies={COOKIE: session}, timeout=10).text
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_rotation_under_load_loses_nothing_and_old_tokens_live_until_the_version_is_retired():
    receiver = Receiver()
    with tempfile.TemporaryDirectory(prefix="assent-e2e-ring-") as directory:
        setup = Setup(directory)
        apns = FakeAPNs(directory).start()
        p8 = os.path.join(directory, "AuthKey.p8")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                       check=True, capture_output=True, timeout=30)
        from cryptography.hazmat.primitives import serialization
        with open(p8, "rb") as f:
            apns_public = serialization.load_pem_private_key(f.read(), None).public_key()
        tenant = setup.create_tenant("Rotated")
        tenant_id, secret = tenant["tenantId"], tenant["secretKey"]
        cli("admin", "tenant", "settings", "--database", setup.database, "--tenant", tenant_id,
            "--webhook-url", receiver.url, "--max-pending-push", "100", env=setup.env)
        cli("admin", "tenant", "push", "--database", setup.database, "--tenant", tenant_id, "--provider", "apns",
            "--apns-key-file", p8, "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID, "--apns-topic", TOPIC,
            "--apns-environment", "sandbox", env=setup.env)
        setup.start("--apns-url", apns.url, "--push-ca-file", apns.ca_file, "--token-lifetime", "3600")
        try:
            servers = setup.servers
            a, b = servers[0], servers[-1]
            device = enrol(setup, secret, tenant_id, "loader", pushToken=uuid.uuid4().hex * 2)
            devices = [device] + [Device(s, tenant_id, key=device.key) for s in servers[1:]]
            session = sign_in(a, secret)
            csrf_before = csrf_of(a, session)
            enrol(setup, secret, tenant_id, "old-token-user")
            # Each starts one push challenge; two per instance (after the rotation, after the refused retirement).
            old_tokens = [track(a, secret, "old-token-user") for _ in range(2 * len(servers))]
            assert all("~" not in key_id(t) for t in old_tokens), "an unrotated install signs as it always did"

            failures, rounds, kids, lock, stop = [], [0], set(), threading.Lock(), threading.Event()

            def load():
                http = requests.Session()
                i = 0
                while not stop.is_set():
                    # Issue on one instance, answer and verify on the other (the same one on SQLite).
                    issue, answer = servers[i % len(servers)], servers[(i + 1) % len(servers)]
                    try:
                        token = track(issue, secret, "loader")
                        r = start_push(issue, token)
                        assert r.status_code == 200, ("start", r.status_code, r.text)
                        challenge_id = r.json()["challengeId"]
                        pulled = devices[(i + 1) % len(servers)].challenge(signed=True)
                        assert pulled.status_code == 200, ("pull", pulled.status_code, pulled.text)
                        r = devices[(i + 1) % len(servers)].answer(challenge_id, approved=True)
                        assert r.status_code == 200, ("answer", r.status_code, r.text)
                        r = http.post(f"{answer.api}/client/verify/push", json={"challengeId": challenge_id},
                                      headers={"Authorization": "Bearer " + token}, timeout=10)
                        assert r.status_code == 200 and r.json()["isVerified"], ("verify", r.status_code, r.text)
                        page = http.get(answer.url + "/admin/", cookies={COOKIE: session}, timeout=10)
                        assert page.status_code == 200 and 'id="sign-out"' in page.text, ("console", page.status_code)
                        with lock:
                            kids.add(key_id(token).rpartition(".")[2])
                            rounds[0] += 1
                    except (AssertionError, requests.RequestException) as failure:
                        with lock:
                            failures.append(repr(failure))
                    i += 1

            thread = threading.Thread(target=load, daemon=True)
            thread.start()
            try:
                deadline = time.time() + 60
                while rounds[0] < 5 and time.time() < deadline:
                    time.sleep(0.05)
                before = rounds[0]
                rotated = cli("admin", "master-key", "rotate", "--database", setup.database, env=setup.env)
                assert rotated["current"] == 2 and rotated["pushCredentialTenants"] == 1
                deadline = time.time() + 60
                while (rounds[0] < before + 10 or "1~2" not in kids) and time.time() < deadline:
                    time.sleep(0.05)
            finally:
                stop.set()
                thread.join(timeout=60)
            assert failures == [], failures[:3]
            assert "1~2" in kids, f"the servers sign under version 2 without a restart: {kids}"
            for s in servers:
                fresh = track(s, secret, "after-rotation")
                assert key_id(fresh).endswith("~2"), key_id(fresh)

            # Tokens signed under version 1 still work on every instance.
            for s, token in zip(servers, old_tokens):
                r = start_push(s, token)
                assert r.status_code == 200, r.text
            # The APNs key sealed under version 1 was re-sealed; it still reads as configured.
            view = cli("admin", "tenant", "push", "--database", setup.database, "--tenant", tenant_id, env=setup.env)
            assert view["apns"]["configured"] is True
            # A webhook made now is signed with the secret key the tenant holds (derived from version 1). It is
            # signed when delivered, with the secret of that moment: wait for it before rotating the secret.
            enrol(setup, secret, tenant_id, "webhook-before-secret-rotation")
            webhooks_by_user(receiver, "webhook-before-secret-rotation")

            # Retiring version 1 is refused while the tenant's secret derives from it, and changes nothing.
            code, _, err = run("admin", "master-key", "retire", "1", "--database", setup.database, "--json",
                               env=setup.env)
            assert code != 0 and "master_key_in_use" in err and tenant_id in err, err
            for s, token in zip(servers, old_tokens[len(servers):]):
                r = start_push(s, token)
                assert r.status_code == 200, r.text
            status = cli("admin", "master-key", "status", "--database", setup.database, env=setup.env)
            assert [(v["version"], v["retired"], v["tenantSecrets"]) for v in status["versions"]] == \
                [(1, False, 1), (2, False, 0)]

            rotated_secret = cli("admin", "tenant", "rotate-secret", "--database", setup.database,
                                 "--tenant", tenant_id, env=setup.env)["secretKey"]
            time.sleep(1.2)  # the tenant cache's second
            enrol(setup, rotated_secret, tenant_id, "webhook-after-secret-rotation")
            signed = webhooks_by_user(receiver, "webhook-after-secret-rotation")
            headers, body = signed["webhook-before-secret-rotation"]
            assert verify(headers, body, secret)
            headers, body = signed["webhook-after-secret-rotation"]
            assert verify(headers, body, rotated_secret) and not verify(headers, body, secret)

            # The console page loaded before the rotation still posts (its CSRF token is under version 1).
            out = requests.post(a.url + "/admin/sign-out", data={"csrf": csrf_before}, cookies={COOKIE: session},
                                headers={"Origin": a.url}, allow_redirects=False, timeout=10)
            assert out.status_code == 303, out.text

            retired = cli("admin", "master-key", "retire", "1", "--database", setup.database, env=setup.env)
            assert retired["current"] == 2 and retired["retired"] == [1]
            with open(setup.key_file) as f:
                ring = f.read()
            assert oct(os.stat(setup.key_file).st_mode & 0o777) == "0o600"
            assert ring.startswith("assent-master-key-ring 1\ncurrent 2\n1 retired ") and "\n2 active " in ring

            # Every instance reads the ring again within its reload interval: version 1's tokens are refused.
            deadline = time.time() + 15
            old_token = old_tokens[0]
            while time.time() < deadline and any(start_push(s, old_token).status_code != 401 for s in servers):
                time.sleep(0.2)
            for s in servers:
                refused = start_push(s, old_token)
                assert refused.status_code == 401, refused.text
                assert refused.json()["errorCode"] == "invalid_token"
                fresh = track(s, rotated_secret, "old-token-user")
                assert start_push(s, fresh).status_code == 200

            # The APNs key, re-sealed under version 2, still signs pushes now that version 1 opens nothing.
            pushed = enrol(setup, rotated_secret, tenant_id, "apns-after-retire", pushToken=uuid.uuid4().hex * 2)
            seen = len(apns.requests)
            r = start_push(a, track(a, rotated_secret, "apns-after-retire"))
            assert r.status_code == 200, r.text
            got = apns.wait_for(seen + 1)[-1]
            verify_es256(got["headers"]["authorization"][len("bearer "):], apns_public)
            assert pushed.authenticator_id

            verified = cli("admin", "audit", "verify", "--database", setup.database, "--tenant", tenant_id,
                           env=setup.env)
            assert verified["intact"] is True
            kinds = [e["kind"] for e in cli("admin", "audit", "list", "--database", setup.database, "--tenant",
                                            tenant_id, "--limit", "100000", env=setup.env)["entries"]]
            assert "master_key.rotated" in kinds and "master_key.retired" in kinds
            assert kinds.index("master_key.rotated") < kinds.index("tenant.secret_rotated") < \
                kinds.index("master_key.retired")
        finally:
            setup.stop()
            apns.stop()
            receiver.close()


def test_a_backup_carries_the_ring_and_a_restore_puts_it_back():
    with tempfile.TemporaryDirectory(prefix="assent-e2e-ring-") as directory:
        setup = Setup(directory)
        tenant = setup.create_tenant("Backed up ring")
        cli("admin", "master-key", "rotate", "--database", setup.database, env=setup.env)
        folder = os.path.join(directory, "backup")
        cli("admin", "backup", "--database", setup.database, "--to", folder, env=setup.env)
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        assert manifest["masterKeyRing"] == {"current": 2, "versions": [1, 2], "retired": []}
        with open(os.path.join(folder, "master.key")) as f, open(setup.key_file) as g:
            assert f.read() == g.read()

        if CURRENT["store"] == "postgres":
            target = postgres().create_database()
        else:
            target = os.path.join(directory, "restored", "assent.sqlite")
        env = dict(setup.env)
        restored = cli("admin", "restore", "--from", folder, "--database", target, env=env)
        if CURRENT["store"] == "postgres":
            env["ASSENT_MASTER_KEY_FILE"] = os.path.join(folder, "master.key")
        else:
            assert restored["masterKeyFile"] == os.path.join(directory, "restored", "master.key")
            with open(restored["masterKeyFile"]) as f, open(setup.key_file) as g:
                assert f.read() == g.read()
            assert oct(os.stat(restored["masterKeyFile"]).st_mode & 0o777) == "0o600"
        assert cli("admin", "audit", "verify", "--database", target, "--tenant", tenant["tenantId"],
                   env=env)["intact"] is True

        # A server on the restored database recognises the secret key derived from version 1 and signs under 2.
        os.makedirs(os.path.join(directory, "c"))
        s = Server(os.path.join(directory, "c"), database=target)
        s.start(*(["--master-key-file", env["ASSENT_MASTER_KEY_FILE"]] if CURRENT["store"] == "postgres" else []))
        try:
            token = track(s, tenant["secretKey"], "restored-user")
            assert key_id(token).endswith("~2")
        finally:
            s.stop()


def test_the_current_version_cannot_be_retired_and_a_key_from_the_environment_cannot_be_rotated():
    with tempfile.TemporaryDirectory(prefix="assent-e2e-ring-") as directory:
        setup = Setup(directory)
        setup.create_tenant("Refusals")
        with open(setup.key_file) as f:
            before = f.read()
        code, _, err = run("admin", "master-key", "retire", "1", "--database", setup.database, "--json", env=setup.env)
        assert code != 0 and "master_key_current_version" in err, err
        code, _, err = run("admin", "master-key", "retire", "7", "--database", setup.database, "--json", env=setup.env)
        assert code != 0 and "master_key_unknown_version" in err, err
        env = dict(setup.env, ASSENT_MASTER_KEY=before.strip())
        code, _, err = run("admin", "master-key", "rotate", "--database", setup.database, "--json", env=env)
        assert code != 0 and "master_key_not_rotatable" in err, err
        with open(setup.key_file) as f:
            assert f.read() == before, "a refused command leaves the ring as it was"


# SIGHUP is the same on both stores; one SQLite server shows it.
@pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
def test_sighup_makes_a_server_sign_under_a_new_version_before_its_timer_would(store):
    with tempfile.TemporaryDirectory(prefix="assent-e2e-ring-") as directory:
        setup = Setup(directory)
        tenant = setup.create_tenant("Hangup")
        s = setup.servers[0]
        s.start("--master-key-reload", "3600")
        try:
            assert key_id(track(s, tenant["secretKey"], "u")).endswith(".1")
            cli("admin", "master-key", "rotate", "--database", setup.database, env=setup.env)
            time.sleep(1)
            assert key_id(track(s, tenant["secretKey"], "u")).endswith(".1"), "the hour-long timer has not fired"
            s.process.send_signal(signal.SIGHUP)
            deadline = time.time() + 10
            while not key_id(track(s, tenant["secretKey"], "u")).endswith("~2") and time.time() < deadline:
                time.sleep(0.1)
            assert key_id(track(s, tenant["secretKey"], "u")).endswith("~2")
            deadline = time.time() + 10  # the log is written behind the requests
            while "master key ring reloaded" not in s.log_text() and time.time() < deadline:
                time.sleep(0.1)
            assert "master key ring reloaded" in s.log_text(), s.log_text()
        finally:
            s.stop()
