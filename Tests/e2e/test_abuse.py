"""Attacks that once worked against a real assentd, each tried again as an attacker would: each test is named after
the attack and proves it now fails, on SQLite and PostgreSQL."""

import base64
import http.client
import json
import os
import socket
import stat
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
import websocket
from authsignal.client import AuthsignalClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from conftest import BIN, Server, assent, free_port, postgres
from device import Device, b64
from powerauth_device import VAULT_UNLOCK_BODY, PowerAuthDevice
from test_push import Tenant
from test_qr import QRTenant, claim
from test_scale_out import Pair, on
from test_webhooks import Receiver, verify


# --- V10, V2: enrolment tokens, anonymous QR expiry ---


def _v10_tenant(server):
    created = assent("admin", "tenant", "create", "--database", server.database,
                     "--name", "v10-" + uuid.uuid4().hex[:6])
    # The tenant's PowerAuth application exists before any activation, as once one device has activated: it is the
    # tenant's, not an enrolment's, so the snapshots below compare only what a token enrols.
    assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", created["tenantId"])
    return created["tenantId"], AuthsignalClient(created["secretKey"], api_url=server.api)


def _v10_enrolment_token(sdk):
    user = f"v10-{uuid.uuid4().hex[:8]}"
    return sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]


def _v10_activate(server, token):
    """POST /v1/client/activations with a fresh device key, as a PowerAuth device does."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return requests.post(server.api + "/client/activations",
                         json={"devicePublicKey": b64(point), "activationName": "v10 phone"},
                         headers={"Authorization": "Bearer " + token}, timeout=10)


def _v10_refused_as_used(r):
    """The refusal a token that already enrolled another key gets."""
    assert r.status_code == 403, r.text
    body = r.json()
    assert body["errorCode"] == "forbidden" and "already enrolled another device" in body["errorDescription"], body


def test_v10_one_enrolment_token_enrols_one_credential(server):
    tenant_id, sdk = _v10_tenant(server)
    token = _v10_enrolment_token(sdk)
    phone = Device(server, tenant_id)
    assert phone.add(token).status_code == 200
    assert phone.add(token).status_code == 200, "the same key again with the same token stays an idempotent retry"
    before = server.snapshot()
    _v10_refused_as_used(_v10_activate(server, token))
    assert server.snapshot() == before, "the refused activation created nothing"


def test_v10_one_enrolment_token_enrols_one_credential_activation_then_qr(server):
    tenant_id, sdk = _v10_tenant(server)
    token = _v10_enrolment_token(sdk)
    assert _v10_activate(server, token).status_code == 200
    before = server.snapshot()
    kiosk = Device(server, tenant_id)
    _v10_refused_as_used(kiosk.add(token, kind="qr-code"))
    _v10_refused_as_used(kiosk.add(token))
    assert server.snapshot() == before, "the refused enrolments created nothing"


def test_v10_concurrent_enrolments_of_every_kind_with_one_token_enrol_one(server):
    tenant_id, sdk = _v10_tenant(server)
    for _ in range(3):
        token = _v10_enrolment_token(sdk)
        attempts = [lambda: Device(server, tenant_id).add(token), lambda: _v10_activate(server, token),
                    lambda: Device(server, tenant_id).add(token, kind="qr-code")]
        results, gate = [None] * len(attempts), threading.Barrier(len(attempts))

        def run(i):
            gate.wait()
            results[i] = attempts[i]()
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status_code for r in results) == [200, 403, 403], [r.text for r in results]
        for r in results:
            if r.status_code != 200:
                _v10_refused_as_used(r)


# --- V8, V9: input validation ---
# SQLite (and libpq's C strings) end a string at NUL, so `<id>\0junk` used to reach the row of `<id>`; control and
# bidi characters in identifiers reached devices and /v1/validate. Every such string is refused 400 invalid_request at
# input, before any store, and nothing changes. The WebSocket's CREATE_CHALLENGE is read by the same request type as
# the HTTP start, so it refuses the same action codes with the same error.


@pytest.fixture(scope="module")
def v8_tenant(server):
    return QRTenant(server)


def v8_refused(response, field=None):
    assert response.status_code == 400, response.text
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= {"error", "errorCode", "errorDescription"}, body
    assert body["errorCode"] == "invalid_request", body
    if field:
        assert field in body["errorDescription"], body


def v8_secret_basic(tenant):
    return {"Authorization": "Basic " + base64.b64encode((tenant.secret + ":").encode()).decode()}


def test_v8_nul_in_challenge_id_does_not_claim_the_real_challenge(v8_tenant, server):
    device = v8_tenant.enrol(f"v8-{uuid.uuid4().hex[:6]}")
    real = v8_tenant.start(action="signIn")["challengeId"]
    forged = real + "\0junk"
    before = server.snapshot()
    body = {"challengeId": forged, "publicKey": device.public_key, "signature": device.sign(forged)}
    r = device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=device.basic)
    v8_refused(r, "challengeId")
    assert server.snapshot() == before
    assert claim(device, real).status_code == 200, "the real challenge is still unclaimed"


def test_v8_nul_in_idempotency_key_does_not_collapse_two_actions(v8_tenant, server):
    user = f"v8-{uuid.uuid4().hex[:6]}"
    headers = {**v8_secret_basic(v8_tenant), "Content-Type": "application/json"}
    before = server.snapshot()
    for key in ["order-17\0first", "order-17\0second"]:
        r = requests.post(f"{server.api}/users/{user}/actions/signIn", headers=headers,
                          data=json.dumps({"idempotencyKey": key}))
        v8_refused(r, "idempotencyKey")
    assert server.snapshot() == before


@pytest.mark.parametrize("field,value", [
    ("deviceName", "Alice's phone\x1b[2J"),
    ("deviceName", "phone\u202egnp.exe"),
    ("pushToken", "token\0other"),
])
def test_v8_control_characters_in_enrolment_strings_are_refused_before_any_store(v8_tenant, server, field, value):
    user = f"v8-{uuid.uuid4().hex[:6]}"
    token = v8_tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    before = server.snapshot()
    r = Device(server, v8_tenant.id).add(token, kind="push", **{field: value})
    v8_refused(r, field)
    assert server.snapshot() == before


def test_v8_nul_in_a_path_or_query_parameter_does_not_reach_the_real_challenge(v8_tenant, server):
    real = v8_tenant.start(action="signIn")["challengeId"]
    image = f"{server.api}/client/challenge/qr-code/{{}}/image.svg?tenant={{}}"
    assert requests.get(image.format(real, v8_tenant.id)).status_code == 200
    before = server.snapshot()
    v8_refused(requests.get(image.format(urllib.parse.quote(real + "\0junk"), v8_tenant.id)), "challengeId")
    v8_refused(requests.get(image.format(real, urllib.parse.quote(v8_tenant.id + "\0junk"))), "tenant")
    assert server.snapshot() == before


def test_v8_nul_in_the_tenant_id_of_the_basic_header_does_not_name_the_real_tenant(v8_tenant, server):
    device = v8_tenant.enrol(f"v8-{uuid.uuid4().hex[:6]}")
    real = v8_tenant.start(action="signIn")["challengeId"]
    forged = {"Authorization": "Basic " + base64.b64encode((v8_tenant.id + "\0junk:").encode()).decode()}
    before = server.snapshot()
    body = {"challengeId": real, "publicKey": device.public_key, "signature": device.sign(real)}
    r = device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=forged)
    v8_refused(r)
    assert server.snapshot() == before
    assert claim(device, real).status_code == 200


@pytest.mark.parametrize("action", ["sign\u202eIn", "signIn\x07", "signIn\0x"])
def test_v9_websocket_start_refuses_control_characters_in_the_action_code(v8_tenant, server, action):
    http = requests.post(f"{server.api}/client/challenge/qr-code", json={"action": action}, headers=v8_tenant.basic)
    v8_refused(http)
    before = server.snapshot()
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/v1/ws-v1-challenge", timeout=10,
                                     subprotocols=["authsignal-ws", f"x.authsignal.tenant.{v8_tenant.id}"])
    try:
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": action}}))
        answer = json.loads(ws.recv())
    finally:
        ws.close()
    assert answer["type"] == "ERROR", answer
    assert answer["data"] == {"errorCode": "invalid_request", "errorDescription": http.json()["errorDescription"]}
    assert server.snapshot() == before


# --- Files and logs: modes, master key, log flooding ---
# These start assentd (or the CLI) on a data directory of their own: file modes concern the SQLite database and the
# master key file beside it, so they run on SQLite only (with PostgreSQL there is no database file to protect, and the
# key file checks are the same code).


# File modes concern the SQLite data directory (PostgreSQL has no database file here), so these tests run in the
# SQLite round only: parametrized to it, nothing collected for PostgreSQL and skipped.
files_sqlite_only = pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")


def files_mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def files_env():
    """The environment without a shared master key, so each test names (or creates) its own."""
    env = dict(os.environ)
    env.pop("ASSENT_MASTER_KEY_FILE", None)
    env.pop("ASSENT_MASTER_KEY", None)
    return env


def files_umask_022():
    os.umask(0o022)  # what a shell usually has: files would be world-readable unless Assent asks otherwise


def files_write_key(path, mode):
    with open(path, "w") as f:
        f.write("BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=\n")
    os.chmod(path, mode)


def files_run_assentd(directory, key_file, timeout=15):
    """Starts assentd on a fresh SQLite database with `key_file`; returns (exit code or None if still running, output)."""
    database = os.path.join(directory, "data", "assent.sqlite")
    process = subprocess.Popen(
        [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{free_port()}",
         "--database", database, "--master-key-file", key_file],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=files_env(), preexec_fn=files_umask_022)
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.terminate()
        process.wait(timeout=20)
        code = None
    return code, process.stdout.read().decode("utf-8", "replace"), database


@files_sqlite_only
def test_world_readable_master_key_is_refused(store):
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "master.key")
        files_write_key(key, 0o644)
        code, output, database = files_run_assentd(directory, key)
        assert code not in (None, 0), f"assentd served with a world-readable master key:\n{output}"
        assert "readable by every user" in output and f"chmod 600 {key}" in output, output
        assert not os.path.exists(database), "refused only after opening the database"


@files_sqlite_only
def test_group_readable_master_key_starts_with_a_warning(store):
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "master.key")
        files_write_key(key, 0o640)  # a secret mount's usual mode
        code, output, _ = files_run_assentd(directory, key, timeout=5)
        assert code is None, f"assentd refused a group-readable key:\n{output}"
        warnings = [line for line in output.splitlines() if '"level":"warning"' in line and "readable by its group" in line]
        assert len(warnings) == 1, output


@files_sqlite_only
def test_data_directory_and_database_files_are_owner_only(store):
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "data", "nested", "assent.sqlite")
        port = free_port()
        process = subprocess.Popen(
            [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{port}", "--database", database],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=files_env(),
            preexec_fn=files_umask_022)
        try:
            deadline = time.time() + 30
            while not os.path.exists(database + "-shm") and time.time() < deadline:
                assert process.poll() is None, "assentd exited"
                time.sleep(0.1)
            # A write through the CLI while assentd serves the file (WAL): the -wal file holds data now.
            subprocess.run([os.path.join(BIN, "assent"), "admin", "tenant", "create", "--database",
                            database, "--name", "Modes", "--json"], check=True, capture_output=True,
                           env=files_env(), timeout=60)
            modes = {name: files_mode(os.path.join(directory, name)) for name in [
                "data", "data/nested", "data/nested/assent.sqlite", "data/nested/assent.sqlite-wal",
                "data/nested/assent.sqlite-shm", "data/nested/master.key"]}
        finally:
            process.terminate()
            process.wait(timeout=20)
        assert modes == {"data": 0o700, "data/nested": 0o700, "data/nested/assent.sqlite": 0o600,
                         "data/nested/assent.sqlite-wal": 0o600, "data/nested/assent.sqlite-shm": 0o600,
                         "data/nested/master.key": 0o600}, {k: oct(v) for k, v in modes.items()}


@files_sqlite_only
def test_cli_creates_the_database_and_master_key_owner_only(store):
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "cli", "assent.sqlite")
        subprocess.run([os.path.join(BIN, "assent"), "admin", "tenant", "create", "--database",
                        database, "--name", "Modes", "--json"], check=True, capture_output=True,
                       env=files_env(), timeout=60, preexec_fn=files_umask_022)
        modes = {name: files_mode(os.path.join(directory, name))
                 for name in ["cli", "cli/assent.sqlite", "cli/master.key"]}
        assert modes == {"cli": 0o700, "cli/assent.sqlite": 0o600, "cli/master.key": 0o600}, \
            {k: oct(v) for k, v in modes.items()}


@files_sqlite_only
def test_cli_refuses_a_world_readable_master_key(store):
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "master.key")
        files_write_key(key, 0o604)
        env = files_env()
        env["ASSENT_MASTER_KEY_FILE"] = key
        result = subprocess.run([os.path.join(BIN, "assent"), "admin", "tenant", "create",
                                 "--database", os.path.join(directory, "assent.sqlite"), "--name", "K"],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode != 0, result.stdout
        assert f"chmod 600 {key}" in result.stderr, result.stderr


def test_aborted_connection_flood_does_not_flood_the_log(server):
    # Any store: the log does not depend on it. Every aborted request made libmicrohttpd write a warning line; now the
    # first 10 a minute are written and the rest counted (their summary line comes when the minute ends, which this
    # test does not wait for: WarningLimiterTests checks it with a manual clock).
    before = server.log_text().count('"msg":"libmicrohttpd"')
    for _ in range(200):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"POST /v1/client/user-authenticators/qr-code HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc")
    time.sleep(1)
    written = server.log_text().count('"msg":"libmicrohttpd"') - before
    assert written <= 10, f"{written} warning lines for 200 aborted connections"  # 0 if earlier tests used the minute
    assert requests.get(server.url + "/healthz", timeout=5).status_code == 200


# --- V11, HTTP edges: metrics access, request framing ---


def v11_not_found(response):
    """The JSON envelope of an unknown path: /metrics looks like any other path that does not exist."""
    assert response.status_code == 404, response.text
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["errorCode"] == "not_found", response.text


def v11_server(*extra):
    """A server of the test's own, started with `extra` flags; stop it with `.stop()` and clean `.tmp` up."""
    tmp = tempfile.TemporaryDirectory()
    s = Server(tmp.name)
    s.tmp = tmp
    s.start(*extra)
    return s


def v11_stop(s):
    s.stop()
    s.tmp.cleanup()


def test_v11_metrics_are_not_public_on_the_api_listener(server):
    v11_not_found(requests.get(server.url + "/metrics", timeout=10))
    v11_not_found(requests.get(server.url + "/metrics", headers={"Authorization": "Bearer guess"}, timeout=10))
    assert requests.get(server.url + "/healthz", timeout=10).status_code == 200, "/healthz stays public"


def test_v11_metrics_listener_serves_metrics_and_nothing_else():
    port = free_port()
    s = v11_server("--metrics-listen", f"127.0.0.1:{port}")
    try:
        metrics = f"http://127.0.0.1:{port}"
        requests.post(s.api + "/validate", json={"token": "x"}, timeout=10)
        r = requests.get(metrics + "/metrics", timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
        assert 'route="/v1/validate"' in r.text and "# TYPE" in r.text
        for path in ["/healthz", "/v1/validate", "/web/", "/metrics/x"]:
            v11_not_found(requests.get(metrics + path, timeout=10))
        assert requests.post(metrics + "/metrics", timeout=10).status_code == 405
        v11_not_found(requests.get(s.url + "/metrics", timeout=10))
    finally:
        v11_stop(s)


def test_v11_metrics_token_is_required_for_metrics_on_the_api_listener():
    token = "v11-" + "s" * 40
    s = v11_server("--metrics-token", token)
    try:
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer " + token[:-1]},
                        {"Authorization": "Bearer " + token + "x"}, {"Authorization": "Basic " + token}]:
            r = requests.get(s.url + "/metrics", headers=headers, timeout=10)
            assert r.status_code == 401, (headers, r.text)
            assert r.headers["Content-Type"] == "application/json" and r.json()["errorCode"] == "unauthorized"
            assert r.headers["WWW-Authenticate"].startswith("Bearer")
        r = requests.get(s.url + "/metrics", headers={"Authorization": "Bearer " + token}, timeout=10)
        assert r.status_code == 200 and "# TYPE" in r.text
        assert token not in s.log_text()
    finally:
        v11_stop(s)


def v11_raw(port, request):
    """Sends exact bytes; returns (status, headers, body, closed, rest) where `closed` says whether the server closed the
    connection after its one response (instead of reading on, e.g. a smuggled request)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise AssertionError(f"closed before a response: {data!r}")
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        rest, closed = body[length:], False
        sock.settimeout(5)
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    closed = True
                    break
                rest += chunk
        except ConnectionResetError:
            closed = True
        except socket.timeout:
            pass
        return status, headers, body[:length], closed, rest


def v11_refused_framing(server, request):
    before = server.snapshot()
    status, headers, body, closed, rest = v11_raw(server.port, request)
    assert status == 400, (status, body)
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["errorCode"] == "invalid_request", body
    assert closed, "the connection is closed after the refusal"
    assert rest == b"", f"nothing answers the smuggled request: {rest!r}"
    assert server.snapshot() == before


def test_request_with_content_length_and_transfer_encoding_is_refused(server):
    smuggled = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    body = b"0\r\n\r\n" + smuggled
    v11_refused_framing(server, b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(body) + body)
    v11_refused_framing(server, b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                                b"Content-Length: 4\r\n\r\n" + body)


def test_request_with_two_content_lengths_is_refused(server):
    smuggled = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    v11_refused_framing(server, b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                                b"Content-Length: %d\r\n\r\n{}" % (2 + len(smuggled)) + smuggled)
    v11_refused_framing(server, b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                                b"Content-Length: 2\r\n\r\n{}")


# --- V3: PowerAuth failed attempts, tenant-scoped client endpoints, legacy 3.0 ---
# Anyone who knew an activation id blocked it with five made-up signatures on POST /v1/client/vault/unlock (another
# application key counted too, and one captured request replayed 20 times counted 19 failures). A failure now counts
# only when the signature's possession component verifies, i.e. the device itself signed this very request with a
# wrong PIN or biometry key; such a failure moves the counter past the value it used, so its replay counts nothing.


def _v3_device(server, *settings):
    """A fresh tenant (with `settings`) and an activated independent PowerAuth device of one of its users."""
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "v3-" + uuid.uuid4().hex[:6])
    tenant_id, secret = created["tenantId"], created["secretKey"]
    if settings:
        assent("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant_id, *settings)
    powerauth = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant_id)
    sdk = AuthsignalClient(secret, api_url=server.api)
    token = sdk.track(f"v3-{uuid.uuid4().hex[:8]}", "enrol", {"scope": "add:authenticators"})["token"]
    device = PowerAuthDevice(server.api, powerauth["masterPublicKey"], tenant_id)
    device.activate(token)
    device.secret_basic = {"Authorization": "Basic " + b64((secret + ":").encode())}
    return device


def _v3_backend_view(server, device):
    r = requests.get(f"{server.api}/activations/{device.activation_id}", headers=device.secret_basic, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def _v3_stranger_header(device, signature_type, application_key=None, version="3.3"):
    """What a stranger who knows the activation id (and the application key, sent in every header) can send."""
    components = len(signature_type.split("_"))
    if version == "3.0":
        value = "-".join("%08d" % (int.from_bytes(os.urandom(4), "big") % 10**8) for _ in range(components))
    else:
        value = b64(os.urandom(16 * components))
    return (f'PowerAuth pa_version="{version}", pa_activation_id="{device.activation_id}", '
            f'pa_application_key="{application_key or device.application_key}", pa_nonce="{b64(os.urandom(16))}", '
            f'pa_signature_type="{signature_type}", pa_signature="{value}"')


def _v3_refused(r):
    assert r.status_code == 401 and r.json()["errorCode"] == "invalid_signature", r.text


def _v3_unlocked(r):
    assert r.status_code == 200, r.text
    assert "encryptedVaultEncryptionKey" in r.json()


def test_v3_strangers_cannot_block_an_activation_with_random_signatures(server):
    device = _v3_device(server)
    for _ in range(10):
        for signature_type in ("possession_knowledge", "possession_knowledge_biometry"):
            _v3_refused(device.unlock_vault(_v3_stranger_header(device, signature_type)))
    # Nor through a backend that passes a stranger's header on to /v1/signatures/verify.
    for signature_type in ("possession_knowledge", "possession_biometry", "knowledge", "biometry"):
        r = requests.post(server.api + "/signatures/verify", headers=device.secret_basic, timeout=10, json={
            "method": "POST", "uriId": "/payments", "body": b64(b"{}"),
            "authorization": _v3_stranger_header(device, signature_type)})
        assert r.status_code == 200 and r.json()["valid"] is False and r.json()["remainingAttempts"] == 5, r.text
    view = _v3_backend_view(server, device)
    assert view["activationStatus"] == "ACTIVE" and view["failedAttempts"] == 0, view
    status = device.status()
    assert status["status"] == 3 and status["failed"] == 0 and status["inSync"], status
    # The device still works: its next right PIN unlocks the vault.
    _v3_unlocked(device.unlock_vault(device.vault_header()))


def test_v3_wrong_application_key_is_not_counted(server):
    device = _v3_device(server)
    other_key = b64(os.urandom(16))
    for _ in range(6):
        _v3_refused(device.unlock_vault(_v3_stranger_header(device, "possession_knowledge", application_key=other_key)))
    # Not even the device's own wrong PIN under another application key counts.
    wrong_pin = device.vault_header(knowledge_key=bytes(16))
    wrong_pin = wrong_pin.replace(f'pa_application_key="{device.application_key}"', f'pa_application_key="{other_key}"')
    _v3_refused(device.unlock_vault(wrong_pin))
    view = _v3_backend_view(server, device)
    assert view["activationStatus"] == "ACTIVE" and view["failedAttempts"] == 0, view
    _v3_unlocked(device.unlock_vault(device.vault_header()))


def test_v3_replayed_wrong_pin_request_counts_once(server):
    device = _v3_device(server)
    captured = device.vault_header(knowledge_key=bytes(16))
    for _ in range(20):
        _v3_refused(device.unlock_vault(captured))
    view = _v3_backend_view(server, device)
    assert view["activationStatus"] == "ACTIVE" and view["failedAttempts"] == 1, view
    # The counted failure moved the server's counter past the value it used: the device is in step.
    status = device.status()
    assert status["failed"] == 1 and status["inSync"], status
    _v3_unlocked(device.unlock_vault(device.vault_header()))
    assert _v3_backend_view(server, device)["failedAttempts"] == 0


def test_v3_the_devices_own_wrong_pin_still_counts_and_blocks_after_the_limit(server):
    device = _v3_device(server)
    for attempt in range(1, 6):
        r = device.unlock_vault(device.vault_header(knowledge_key=bytes(16)))
        _v3_refused(r)
        view = _v3_backend_view(server, device)
        assert view["failedAttempts"] == attempt, view
        assert view["activationStatus"] == ("ACTIVE" if attempt < 5 else "BLOCKED"), view
    assert device.status()["status"] == 4
    _v3_refused(device.unlock_vault(device.vault_header()))
    r = requests.post(f"{server.api}/activations/{device.activation_id}/unblock", headers=device.secret_basic, timeout=10)
    assert r.status_code == 200 and r.json()["activationStatus"] == "ACTIVE", r.text
    _v3_unlocked(device.unlock_vault(device.vault_header()))


def test_v3_legacy_3_0_signatures_are_refused_unless_the_tenant_enables_them(server):
    device = _v3_device(server)
    # Refused on a default tenant: the device's right PIN, its wrong one and a stranger's guess alike, none counted.
    _v3_refused(device.unlock_vault(device.vault_header(version="3.0")))
    _v3_refused(device.unlock_vault(device.vault_header(knowledge_key=bytes(16), version="3.0")))
    for _ in range(6):
        _v3_refused(device.unlock_vault(_v3_stranger_header(device, "possession_knowledge", version="3.0")))
    r = requests.post(server.api + "/signatures/verify", headers=device.secret_basic, timeout=10, json={
        "method": "POST", "uriId": "/payments", "body": b64(b"{}"),
        "authorization": device.header("POST", "/payments", b"{}", "possession_knowledge", version="3.0")})
    assert r.status_code == 200 and r.json()["valid"] is False, r.text
    assert _v3_backend_view(server, device)["failedAttempts"] == 0
    _v3_unlocked(device.unlock_vault(device.vault_header()))

    # Where the tenant enables legacy 3.0, the decimal format verifies, and its possession component is separable.
    legacy = _v3_device(server, "--allow-legacy-powerauth-30", "on")
    _v3_unlocked(legacy.unlock_vault(legacy.vault_header(version="3.0")))
    for _ in range(6):
        _v3_refused(legacy.unlock_vault(_v3_stranger_header(legacy, "possession_knowledge", version="3.0")))
    assert _v3_backend_view(server, legacy)["failedAttempts"] == 0
    _v3_refused(legacy.unlock_vault(legacy.vault_header(knowledge_key=bytes(16), version="3.0")))
    assert _v3_backend_view(server, legacy)["failedAttempts"] == 1


def test_v3_client_powerauth_endpoints_are_tenant_scoped(server):
    device = _v3_device(server)
    challenge = {"activationId": device.activation_id, "challenge": b64(os.urandom(16))}
    anonymous = requests.post(server.api + "/client/activations/status", json=challenge, timeout=10)
    assert anonymous.status_code == 401 and anonymous.json()["errorCode"] == "unauthorized", anonymous.text
    other = {"Authorization": "Basic " + b64((server.other_tenant_id + ":").encode())}
    foreign = requests.post(server.api + "/client/activations/status", json=challenge, headers=other, timeout=10)
    assert foreign.status_code == 404 and foreign.json()["errorCode"] == "activation_not_found", foreign.text
    # Vault unlock too: without a tenant, or as another tenant, the device's own requests are refused and cost nothing.
    headers = {"Content-Type": "application/json", "X-PowerAuth-Authorization": device.vault_header(knowledge_key=bytes(16))}
    r = requests.post(server.api + "/client/vault/unlock", data=VAULT_UNLOCK_BODY, headers=headers, timeout=10)
    assert r.status_code == 401 and r.json()["errorCode"] == "unauthorized", r.text
    headers["X-PowerAuth-Authorization"] = device.vault_header(knowledge_key=bytes(16))
    r = requests.post(server.api + "/client/vault/unlock", data=VAULT_UNLOCK_BODY, headers=dict(headers, **other),
                      timeout=10)
    _v3_refused(r)
    assert _v3_backend_view(server, device)["failedAttempts"] == 0
    assert device.status()["status"] == 3
    _v3_unlocked(device.unlock_vault(device.vault_header()))


# --- Push bombing: consecutive failed pushes throttle push starts; "this wasn't me" locks them ---


def pb_user():
    return f"pb-{uuid.uuid4().hex[:8]}"


def pb_refused(r, code):
    """A push start refused 429 with `code` and a Retry-After; returns its seconds."""
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["error"] == code and body["errorCode"] == code and body["errorDescription"], body
    return int(r.headers["Retry-After"])


def pb_started(tenant, user):
    tracked, r = tenant.start(user)
    assert r.status_code == 200, r.text
    return tracked, r.json()["challengeId"]


def pb_deny(device, challenge_id):
    r = device.answer(challenge_id, approved=False)
    assert r.status_code == 200, r.text


def pb_decision(device, challenge_id, approved=False, fraud=False, sign_fraud=None, code=""):
    """An update-challenge body with Assent's bound signature; `sign_fraud` (default `fraud`) is what the device
    signed, `fraud` what travels."""
    signed = fraud if sign_fraud is None else sign_fraud
    message = device.decision_message(challenge_id, approved, code, report_fraud=signed)
    body = {"challengeId": challenge_id, "publicKey": device.public_key, "approved": approved,
            "signature": device.sign(challenge_id), "boundSignature": device.sign(message)}
    if fraud:
        body["reportFraud"] = True
    return body


def pb_post(device, body):
    return requests.post(device.url("push/challenge"), json=body, headers=device.basic)


def pb_reset_api(tenant, user):
    r = requests.post(f"{tenant.server.api}/users/{user}/push/reset", auth=(tenant.secret, ""), timeout=10)
    assert r.status_code == 200, r.text
    assert r.json() == {"userId": user, "reset": True}


def pb_throttled(server):
    """A user whose three pushes were denied, with a fourth still open; returns it and the first Retry-After."""
    tenant = Tenant(server, "--max-pending-push", "5")
    user = pb_user()
    device = tenant.enrol(user)
    challenges = [pb_started(tenant, user)[1] for _ in range(4)]
    for challenge_id in challenges[:3]:
        pb_deny(device, challenge_id)
    return tenant, user, device, challenges[3], pb_refused(tenant.start(user)[1], "push_throttled")


def test_push_bombing_three_denials_throttle_new_push_starts(server):
    tenant, user, device, open_challenge, first = pb_throttled(server)
    assert 50 <= first <= 60, first
    # Another denial before any approval doubles the wait.
    pb_deny(device, open_challenge)
    second = pb_refused(tenant.start(user)[1], "push_throttled")
    assert 110 <= second <= 120 and second > first, (first, second)
    # Another user of the tenant is not affected, and the pending cap keeps its own code.
    other = pb_user()
    tenant.enrol(other)
    for _ in range(5):
        pb_started(tenant, other)
    r = tenant.start(other)[1]
    assert r.status_code == 429 and r.json()["errorCode"] == "too_many_requests", r.text


def test_push_bombing_wrong_codes_and_expiries_count_each_once(server):
    tenant = Tenant(server, "--number-matching", "on", "--challenge-timeout", "10", "--max-pending-push", "5")
    user = pb_user()
    device = tenant.enrol(user)
    pb_started(tenant, user)
    pb_started(tenant, user)
    time.sleep(10.5)
    # Two expiries counted (once: the second start does not count them again), not yet three.
    _, r = tenant.start(user)
    assert r.status_code == 200, r.text
    third, code = r.json()["challengeId"], r.json()["verificationCode"]
    pb_started(tenant, user)
    # A wrong verification code declines the challenge and is the third failure.
    r = device.answer(third, approved=True, code=f"{(int(code) + 1) % 1000:03d}")
    assert r.status_code == 400, r.text
    pb_refused(tenant.start(user)[1], "push_throttled")


def test_push_bombing_approval_resets_the_count(server):
    tenant = Tenant(server, "--max-pending-push", "5")
    user = pb_user()
    device = tenant.enrol(user)
    for approved in (False, False, True, False, False):
        _, challenge_id = pb_started(tenant, user)
        assert device.answer(challenge_id, approved=approved).status_code == 200
    # Two failures since the approval: starts go on.
    _, challenge_id = pb_started(tenant, user)
    pb_deny(device, challenge_id)
    pb_refused(tenant.start(user)[1], "push_throttled")


def test_push_bombing_approval_of_an_open_challenge_ends_the_throttle(server):
    tenant, user, device, open_challenge, _ = pb_throttled(server)
    assert device.answer(open_challenge, approved=True).status_code == 200
    pb_started(tenant, user)


def test_push_bombing_admin_push_reset_ends_the_throttle_cli_and_api(server):
    tenant = Tenant(server, "--max-pending-push", "5")
    user = pb_user()
    device = tenant.enrol(user)
    for reset in ("cli", "api"):
        for _ in range(3):
            pb_deny(device, pb_started(tenant, user)[1])
        pb_refused(tenant.start(user)[1], "push_throttled")
        if reset == "cli":
            out = assent("admin", "user", "push-reset", "--database", server.database, "--tenant", tenant.id,
                         "--user", user)
            assert out == {"tenantId": tenant.id, "userId": user, "reset": True}
        else:
            pb_reset_api(tenant, user)
        # Starts go on at once.
        assert device.answer(pb_started(tenant, user)[1], approved=True).status_code == 200
    # The reset needs the tenant's secret key.
    r = requests.post(f"{server.api}/users/{user}/push/reset", auth=("wrong", ""), timeout=10)
    assert r.status_code == 401, r.text


def test_fraud_report_locks_push_and_fires_webhook(store):
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        tenant = Tenant(s, "--webhook-url", receiver.url, "--fraud-lock", "3600", "--max-pending-push", "5")
        s.start("--webhook-retry", "1")
        try:
            user = pb_user()
            device = tenant.enrol(user)
            tracked, challenge_id = pb_started(tenant, user)
            _, other = pb_started(tenant, user)
            r = pb_post(device, pb_decision(device, challenge_id, fraud=True))
            assert r.status_code == 200 and r.json() == {"isVerified": False}, r.text
            locked = pb_refused(tenant.start(user)[1], "push_locked")
            assert 3590 <= locked <= 3600, locked
            # The action failed and its challenge's timeline records the report.
            assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_FAILED"
            t = requests.get(f"{s.api}/challenges/{challenge_id}/timeline", auth=(tenant.secret, ""), timeout=10).json()
            reported = [e for e in t["timeline"] if e["event"] == "push.fraud_reported"]
            assert len(reported) == 1 and reported[0]["userAuthenticatorId"] == device.authenticator_id, t
            # The backend hears of it through the webhook outbox, signed like every event.
            deadline = time.time() + 20
            hooks = []
            while time.time() < deadline and not hooks:
                hooks = [(h, b) for h, b in receiver.received if json.loads(b)["type"] == "push.fraud_reported"]
                time.sleep(0.1)
            assert len(hooks) == 1, receiver.received
            headers, body = hooks[0]
            assert verify(headers, body, tenant.secret)
            event = json.loads(body)
            assert event["tenantId"] == tenant.id
            assert event["data"]["userId"] == user and event["data"]["challengeId"] == challenge_id
            assert event["data"]["userAuthenticatorId"] == device.authenticator_id and event["data"]["lockedUntil"]
            # Approving another open challenge does not lift the lock; an administrator does.
            assert device.answer(other, approved=True).status_code == 200
            pb_refused(tenant.start(user)[1], "push_locked")
            pb_reset_api(tenant, user)
            pb_started(tenant, user)
            # A report goes only with a denial.
            _, third = pb_started(tenant, user)
            r = pb_post(device, pb_decision(device, third, approved=True, fraud=True))
            assert r.status_code == 400 and r.json()["errorCode"] == "invalid_request", r.text
        finally:
            s.stop()
            receiver.close()


def test_fraud_report_from_the_cli_not_me_locks_push(server):
    tenant = Tenant(server)
    user = pb_user()
    with tempfile.TemporaryDirectory() as home:
        def device(*args):
            out = subprocess.run([os.path.join(BIN, "assent"), "device", "push", *args, "--home", home, "--json"],
                                 capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            return json.loads(out.stdout)

        token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        device("enrol", "--url", server.url, "--tenant", tenant.id, "--token", token)
        tracked, challenge_id = pb_started(tenant, user)
        answered = device("deny", "--not-me")
        assert answered["challengeId"] == challenge_id and answered["approved"] is False and answered["reportedFraud"]
        pb_refused(tenant.start(user)[1], "push_locked")


def test_fraud_report_flipped_by_an_on_path_box_is_refused_for_a_bound_signature(server):
    tenant = Tenant(server)
    user = pb_user()
    device = tenant.enrol(user)
    _, challenge_id = pb_started(tenant, user)
    before = server.snapshot()
    # The device denied without a report; the box adds one to lock the user out of push.
    r = pb_post(device, pb_decision(device, challenge_id, fraud=True, sign_fraud=False))
    assert r.status_code == 401 and r.json()["errorCode"] == "invalid_signature", r.text
    # The device reported fraud; the box strips the report so the backend never hears of it.
    body = pb_decision(device, challenge_id, fraud=False, sign_fraud=True)
    r = pb_post(device, body)
    assert r.status_code == 401 and r.json()["errorCode"] == "invalid_signature", r.text
    assert server.snapshot() == before
    # The device's own answer still goes through, and push is not locked.
    assert pb_post(device, pb_decision(device, challenge_id)).status_code == 200
    pb_started(tenant, user)


@pytest.mark.parametrize("store", ["postgres"], indirect=True, scope="session")
def test_push_bombing_state_holds_across_two_instances(store):
    with tempfile.TemporaryDirectory() as directory:
        pair = Pair(directory)
        pair.start()
        try:
            tenant = Tenant(pair.a, "--max-pending-push", "5")
            user = pb_user()
            device_a = tenant.enrol(user)
            device_b = on(device_a, pair.b)
            tenant_b = Tenant.__new__(Tenant)
            tenant_b.__dict__.update(tenant.__dict__, server=pair.b)
            # Three denials at once, through both instances: each counts.
            challenges = [pb_started(tenant, user)[1] for _ in range(3)]
            with ThreadPoolExecutor(3) as pool:
                answers = list(pool.map(lambda x: (device_a if x[0] % 2 else device_b).answer(x[1], approved=False),
                                        enumerate(challenges)))
            assert [r.status_code for r in answers] == [200, 200, 200]
            assert pb_refused(tenant.start(user)[1], "push_throttled") <= 60
            assert pb_refused(tenant_b.start(user)[1], "push_throttled") <= 60
            # A reset through B holds on A; a fraud report through B locks A's starts.
            pb_reset_api(tenant_b, user)
            _, challenge_id = pb_started(tenant, user)
            assert pb_post(device_b, pb_decision(device_b, challenge_id, fraud=True)).status_code == 200
            pb_refused(tenant.start(user)[1], "push_locked")
            pb_refused(tenant_b.start(user)[1], "push_locked")
        finally:
            pair.stop()


# --- V5, V6, --dev: anonymous QR context, signing messages no stranger can evict, the development tenant ---


class _V5Tenant:
    def __init__(self, server, *settings):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "v5-" + uuid.uuid4().hex[:6])
        self.id, self.server = created["tenantId"], server
        if settings:
            assent("admin", "tenant", "settings", "--database", server.database, "--tenant", self.id, *settings)
        self.sdk = AuthsignalClient(created["secretKey"], api_url=server.api)
        self.basic = {"Authorization": "Basic " + base64.b64encode((self.id + ":").encode()).decode()}

    def enrol(self, kind="push"):
        user = f"v5-{uuid.uuid4().hex[:8]}"
        device = Device(self.server, self.id)
        r = device.add(self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"], kind=kind)
        assert r.status_code == 200, r.text
        device.user = user
        return device

    def start_anonymous(self, **body):
        return requests.post(f"{self.server.api}/client/challenge/qr-code", json=body, headers=self.basic, timeout=10)


def _v5_claim(device, challenge_id):
    body = {"challengeId": challenge_id, "publicKey": device.public_key, "signature": device.sign(challenge_id)}
    return device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=device.basic, timeout=10)


def test_v5_anonymous_qr_start_cannot_present_custom_data_as_trusted(server):
    tenant = _V5Tenant(server, "--public-custom-keys", "merchant,amount")
    victim = tenant.enrol(kind="qr-code")
    # The attacker knows only the tenant ID (it is in every QR code) and names a key the tenant marked public.
    r = tenant.start_anonymous(action="signIn", custom={"merchant": "Your Bank (verified)", "amount": "0.00"})
    assert r.status_code == 200, r.text
    started = r.json()
    claimed = _v5_claim(victim, started["challengeId"])
    assert claimed.status_code == 200, claimed.text
    assert "custom" not in claimed.json(), f"the caller's words reached the device as the tenant's: {claimed.json()}"
    # The backend's own tracked context still reaches the device: only anonymous custom data is left out.
    tracked = tenant.sdk.track(victim.user, "signIn", {"custom": {"merchant": "Shop", "internal": "x"}})
    own = requests.post(f"{server.api}/client/challenge/qr-code", json={},
                        headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10).json()
    assert _v5_claim(victim, own["challengeId"]).json()["custom"] == {"merchant": "Shop"}


def test_v5_anonymous_qr_start_naming_an_action_off_the_allowlist_is_refused(server):
    tenant = _V5Tenant(server)
    before = server.snapshot()
    for action in ["payment", "approvePayment", "signin"]:
        r = tenant.start_anonymous(action=action)
        assert r.status_code == 403, r.text
        body = r.json()
        assert body["errorCode"] == "action_not_allowed" and "signIn" in body["errorDescription"], body
    ws = websocket.create_connection(f"ws://127.0.0.1:{server.port}/v1/ws-v1-challenge", timeout=10,
                                     subprotocols=["authsignal-ws", f"x.authsignal.tenant.{tenant.id}"])
    try:
        ws.send(json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": "payment"}}))
        refused = json.loads(ws.recv())
        assert refused["type"] == "ERROR" and refused["data"]["errorCode"] == "action_not_allowed", refused
    finally:
        ws.close()
    assert server.snapshot() == before, "a refused start stored nothing"
    assert tenant.start_anonymous(action="signIn").status_code == 200, "the default allowlist is signIn"
    # The tenant widens its allowlist; then, and only then, the code may be named anonymously.
    assent("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant.id,
           "--anonymous-actions", "signIn,kioskSignIn")
    time.sleep(1.1)  # a tenant changed by the CLI is read again within a second
    widened = tenant.start_anonymous(action="kioskSignIn")
    assert widened.status_code == 200, widened.text
    assert tenant.start_anonymous(action="payment").status_code == 403


def test_v5_anonymous_settings_are_set_over_the_server_api(server):
    tenant = _V5Tenant(server)
    secret = {"Authorization": "Basic " + base64.b64encode((tenant.sdk.api_secret_key + ":").encode()).decode()}
    url = f"{server.api}/tenant/qr-code"
    assert requests.get(url, headers=secret, timeout=10).json() == {
        "anonymousActionCodes": ["signIn"], "anonymousApprovalFactor": None}
    assert requests.get(url, headers=tenant.basic, timeout=10).status_code == 401, "the tenant ID alone is no secret"
    before = server.snapshot()
    for bad in [{"anonymousActionCodes": ["pay\u202ement"]}, {"anonymousActionCodes": "signIn"},
                {"anonymousApprovalFactor": "none_at_all"}, {"anonymousActionCodes": ["a"] * 65}]:
        r = requests.patch(url, json=bad, headers=secret, timeout=10)
        assert r.status_code == 400 and r.json()["errorCode"] == "invalid_request", (bad, r.text)
    assert server.snapshot() == before
    r = requests.patch(url, json={"anonymousActionCodes": ["signIn", "kiosk"],
                                  "anonymousApprovalFactor": "possession_biometry"}, headers=secret, timeout=10)
    assert r.status_code == 200 and r.json() == {"anonymousActionCodes": ["signIn", "kiosk"],
                                                 "anonymousApprovalFactor": "possession_biometry"}, r.text
    assert tenant.start_anonymous(action="kiosk").status_code == 200, "the server's own change is seen at once"
    r = requests.patch(url, json={"anonymousActionCodes": [], "anonymousApprovalFactor": None}, headers=secret, timeout=10)
    assert r.json() == {"anonymousActionCodes": [], "anonymousApprovalFactor": None}, r.text
    assert tenant.start_anonymous(action="signIn").status_code == 403, "an empty allowlist allows no anonymous start"


def _v5_cli_device(home, *args, password=None, ok=True):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
    if password is not None:
        env["ASSENT_DEVICE_PASSWORD"] = password
    out = subprocess.run([os.path.join(BIN, "assent"), "device", *args, "--home", os.path.join(home, "d"),
                          "--json"], capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert (out.returncode == 0) == ok, out.stderr + out.stdout
    return json.loads(out.stdout) if out.stdout.strip() else {}


def test_v5_anonymous_approvals_follow_the_anonymous_approval_factor_whatever_the_action(server):
    # `kiosk` has the weakest rule (a PIN); anonymous approvals must prove biometry whatever code the start names.
    tenant = _V5Tenant(server, "--anonymous-actions", "signIn,kiosk", "--action-approval-factor",
                       "kiosk:possession_knowledge", "--anonymous-approval-factor", "possession_biometry")
    master = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant.id)
    user = f"v5-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        enrol = lambda: tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        _v5_cli_device(home, "activate", "--url", server.url, "--tenant", tenant.id, "--token", enrol(),
                       "--master-public-key", master["masterPublicKey"], password="2468")
        _v5_cli_device(home, "biometry", "add", password="2468")
        _v5_cli_device(home, "qr", "enrol", "--url", server.url, "--tenant", tenant.id, "--token", enrol())

        anonymous = tenant.start_anonymous(action="kiosk").json()
        _v5_cli_device(home, "qr", "claim", anonymous["challengeId"])
        weak = _v5_cli_device(home, "qr", "approve", "--challenge", anonymous["challengeId"],
                              "--factor", "possession_knowledge", password="2468", ok=False)
        assert weak["errorCode"] == "factor_required", weak
        _v5_cli_device(home, "qr", "approve", "--challenge", anonymous["challengeId"], "--factor", "possession_biometry")
        polled = requests.post(f"{server.api}/client/verify/qr-code", headers=tenant.basic, timeout=10,
                               json={"challengeId": anonymous["challengeId"], "deviceCode": anonymous["deviceCode"]})
        assert polled.json()["isVerified"] is True, polled.text

        # A challenge the backend tracked for `kiosk` keeps the action's own rule.
        tracked = tenant.sdk.track(user, "kiosk")
        own = requests.post(f"{server.api}/client/challenge/qr-code", json={}, timeout=10,
                            headers={"Authorization": "Bearer " + tracked["token"]}).json()
        _v5_cli_device(home, "qr", "claim", own["challengeId"])
        _v5_cli_device(home, "qr", "approve", "--challenge", own["challengeId"], "--factor", "possession_knowledge",
                       password="2468")


def _v6_sign(device, what):
    r = requests.post(device.url(what) + "?publicKey=" + device.query, headers=device.basic, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def test_v6_nonce_flood_does_not_make_a_device_update_fail(server):
    tenant = _V5Tenant(server)
    device = tenant.enrol()
    nonce = _v6_sign(device, "push/sign")
    before = server.snapshot()
    for _ in range(50):  # anyone who knows the tenant ID and the public key
        _v6_sign(device, "push/sign")
    assert server.snapshot() == before, "asking for nonces stores nothing"
    body = {"challengeId": nonce["challengeId"], "publicKey": device.public_key, "signature": device.sign(nonce["message"]),
            "pushToken": "after-the-flood"}
    r = requests.patch(device.url("push"), json=body, headers=device.basic, timeout=10)
    assert r.status_code == 200, f"the flood made the device's update fail: {r.text}"
    assert r.json()["pushToken"] == "after-the-flood"


def test_v6_replayed_update_nonce_is_refused(server):
    tenant = _V5Tenant(server)
    device = tenant.enrol()
    r, nonce, body = device.update(push_token="first")
    assert r.status_code == 200, r.text
    before = server.snapshot()
    replay = requests.patch(device.url("push"), json={**body, "pushToken": "replayed"}, headers=device.basic, timeout=10)
    assert replay.status_code == 401 and replay.json()["errorCode"] == "invalid_signature", replay.text
    assert server.snapshot() == before
    # Nor does a nonce serve another credential, nor a forged one (its MAC is the server's).
    other = tenant.enrol()
    fresh = _v6_sign(device, "push/sign")
    for challenge_id in [fresh["challengeId"], fresh["challengeId"][:-2] + ("AA" if fresh["challengeId"][-2:] != "AA" else "AB")]:
        stolen = {"challengeId": challenge_id, "publicKey": other.public_key, "signature": other.sign(challenge_id)}
        refused = requests.patch(other.url("push"), json=stolen, headers=other.basic, timeout=10)
        assert refused.status_code == 401 and refused.json()["errorCode"] == "invalid_signature", refused.text


def test_v6_get_challenge_flood_does_not_withhold_public_custom_data(server):
    tenant = _V5Tenant(server, "--public-custom-keys", "amount")
    device = tenant.enrol()
    tracked = tenant.sdk.track(device.user, "signIn", {"custom": {"amount": 5}})
    started = requests.post(f"{server.api}/client/challenge/push", json={}, timeout=10,
                            headers={"Authorization": "Bearer " + tracked["token"]})
    assert started.status_code == 200, started.text
    message = _v6_sign(device, "push/challenge/sign")["message"]
    before = server.snapshot()
    for _ in range(50):
        _v6_sign(device, "push/challenge/sign")
    assert server.snapshot() == before, "asking for messages stores nothing"
    r = requests.get(device.url("push/challenge") + "?publicKey=" + device.query, timeout=10,
                     headers={**device.basic, "X-Authsignal-Signature": device.sign(message)})
    assert r.status_code == 200 and r.json()["challengeId"] == started.json()["challengeId"], r.text
    assert r.json().get("custom") == {"amount": 5}, f"the flood withheld the public custom data: {r.json()}"
    # A signature over anything else, or by another key, still gets no custom data.
    stranger = Device(server, tenant.id)
    for signature in [device.sign("not-the-message"), stranger.sign(message)]:
        r = requests.get(device.url("push/challenge") + "?publicKey=" + device.query, timeout=10,
                         headers={**device.basic, "X-Authsignal-Signature": signature})
        assert r.status_code == 200 and "custom" not in r.json(), r.text


def _dev_run(database, *flags, timeout=5, env=None):
    """Starts assentd with `flags`; returns (exit code or None if it kept running, output)."""
    command = [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{free_port()}", "--database", database,
               *flags]
    key = {"PATH": "/usr/bin:/bin", "ASSENT_MASTER_KEY": "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}
    try:  # still serving after `timeout` seconds: stopped (killed) by subprocess.run
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                              env={**key, **(env or {})})
        return done.returncode, done.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as running:
        return None, (running.output or b"").decode("utf-8", "replace")


_dev_sqlite_only = pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
_dev_postgres_only = pytest.mark.parametrize("store", ["postgres"], indirect=True, scope="session")


@_dev_sqlite_only
def test_no_development_tenant_without_dev(store):
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "assent.sqlite")
        code, output = _dev_run(database)
        assert code is None, output
        # No tenant and no key printed (the console's sign-in hint names "a tenant's secret key" on every start).
        assert "development tenant" not in output and "secret key:" not in output and "sk_" not in output, output
        assert assent("admin", "tenant", "list", "--database", database) == [], "an empty database stays empty"
        code, output = _dev_run(database, "--no-dev-tenant")  # still accepted, and changes nothing
        assert code is None and "secret key:" not in output and "sk_" not in output, output


@_dev_sqlite_only
def test_dev_creates_the_development_tenant_on_sqlite(store):
    with tempfile.TemporaryDirectory() as directory:
        for index, (flags, env) in enumerate([(["--dev"], None), ([], {"ASSENT_DEV": "1"})]):
            database = os.path.join(directory, f"assent{index}.sqlite")
            code, output = _dev_run(database, *flags, env=env)
            assert code is None, output
            assert "Created a development tenant" in output and "secret key:" in output, output
            tenants = assent("admin", "tenant", "list", "--database", database)
            assert [t["name"] for t in tenants] == ["Development"], tenants


@_dev_postgres_only
def test_dev_is_refused_on_postgresql(store):
    database = postgres().create_database()
    for flags, env in [(["--dev"], None), ([], {"ASSENT_DEV": "yes"})]:
        code, output = _dev_run(database, *flags, env=env, timeout=15)
        assert code == 2, f"assentd served a PostgreSQL database with --dev:\n{output}"
        assert "--dev" in output and "PostgreSQL" in output, output
    code, output = _dev_run(database)
    assert code is None, output
    assert assent("admin", "tenant", "list", "--database", database) == []


# --- V4: server-side request forgery through tenant URLs ---
# A tenant's webhook URL, push webhook URL and FCM service account's token_uri once reached any address, and the
# start's error (`connect_failed`, `HTTP 405`) told the tenant which internal ports were open. These tests run a server
# WITHOUT --allow-private-urls, and a listener on 127.0.0.1 standing for an internal service, which must never see a
# connection. Nothing leaves loopback: every host named is an address literal or `localhost` (the hosts file and
# libcurl answer those; no name server is asked).


class V4Listener:
    """An 'internal service' on 127.0.0.1 that counts connections and answers 405, as the scanned service did."""

    def __init__(self, response=b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"):
        self.response = response
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.running = True
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            try:
                conn.recv(65536)
                conn.sendall(self.response)
            except OSError:
                pass
            conn.close()

    def stop(self):
        self.running = False
        self.sock.close()


@pytest.fixture(scope="module")
def v4(store):
    """A server that refuses private tenant URLs (no --allow-private-urls) and the internal listener."""
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        s.start("--push-retry", "0.2", "--webhook-retry", "1", allow_private_urls=False)
        listener = V4Listener()
        s.directory_path = directory
        try:
            yield s, listener
        finally:
            listener.stop()
            s.stop()


def v4_private_urls(port):
    """The internal listener in every spelling a resolver or libcurl reads as loopback, and other private places."""
    return [f"http://127.0.0.1:{port}/push", f"http://[::1]:{port}/push", f"http://127.1:{port}/push",
            f"http://0x7f.1:{port}/push", f"http://2130706433:{port}/push", f"http://[::ffff:127.0.0.1]:{port}/push",
            f"http://localhost:{port}/push", f"http://LOCALHOST.:{port}/push", f"http://127.0.0.1.:{port}/push",
            "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[fd00::1]/", "http://100.64.0.1/",
            "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/", "http://0.0.0.0/"]


def v4_tenant(server):
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", "v4-" + uuid.uuid4().hex[:6])
    return created["tenantId"], created["secretKey"]


def v4_cli(*args, allow_private=False):
    """The CLI as an operator runs it, without ASSENT_ALLOW_PRIVATE_URLS unless asked."""
    env = {k: v for k, v in os.environ.items() if k != "ASSENT_ALLOW_PRIVATE_URLS"}
    extra = ["--allow-private-urls"] if allow_private else []
    return subprocess.run([os.path.join(BIN, "assent"), *args, *extra, "--json"], capture_output=True,
                          text=True, timeout=60, env=env)


def v4_refused(r):
    assert r.status_code == 400, r.text
    assert r.headers["Content-Type"] == "application/json"
    body = r.json()
    assert set(body) >= {"error", "errorCode", "errorDescription"} and body["errorCode"] == "invalid_request", body
    assert "publicly reachable" in body["errorDescription"], body


def v4_cli_refused(out):
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert "publicly reachable" in out.stderr, out.stderr


def v4_service_account(directory, token_uri):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    account = {"type": "service_account", "project_id": "v4-test", "private_key_id": "kid",
               "private_key": key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()).decode(),
               "client_email": "push@v4-test.iam.gserviceaccount.com", "token_uri": token_uri}
    path = os.path.join(directory, f"sa-{uuid.uuid4().hex[:6]}.json")
    with open(path, "w") as f:
        json.dump(account, f)
    return account, path


def v4_wait(predicate, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_v4_push_webhook_url_at_a_private_address_is_refused(v4):
    server, listener = v4
    tenant_id, secret = v4_tenant(server)
    before = server.snapshot()
    for url in v4_private_urls(listener.port):
        v4_refused(requests.patch(f"{server.api}/tenant/push", auth=(secret, ""), timeout=10,
                                  json={"provider": "webhook", "webhookUrl": url}))
        v4_cli_refused(v4_cli("admin", "tenant", "push", "--database", server.database, "--tenant", tenant_id,
                              "--provider", "webhook", "--webhook-url", url))
    assert server.snapshot() == before, "a refused URL changed nothing"
    # A public address is accepted (configuring sends nothing: no request is made to it here).
    r = requests.patch(f"{server.api}/tenant/push", auth=(secret, ""), timeout=10,
                       json={"provider": "webhook", "webhookUrl": "https://203.0.114.1/push"})
    assert r.status_code == 200 and r.json()["webhookUrl"] == "https://203.0.114.1/push", r.text
    assert listener.connections == 0


def test_v4_tenant_webhook_url_at_a_private_address_is_refused(v4):
    server, listener = v4
    tenant_id, _ = v4_tenant(server)
    before = server.snapshot()
    for url in v4_private_urls(listener.port):
        v4_cli_refused(v4_cli("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant_id,
                              "--webhook-url", url))
    assert server.snapshot() == before, "a refused URL changed nothing"
    assert listener.connections == 0


def test_v4_fcm_token_uri_at_a_private_address_is_refused(v4):
    server, listener = v4
    tenant_id, secret = v4_tenant(server)
    before = server.snapshot()
    for url in v4_private_urls(listener.port)[:9]:
        account, path = v4_service_account(server.directory_path, url)
        v4_refused(requests.patch(f"{server.api}/tenant/push", auth=(secret, ""), timeout=10,
                                  json={"provider": "fcm", "fcmServiceAccount": account}))
        v4_cli_refused(v4_cli("admin", "tenant", "push", "--database", server.database, "--tenant", tenant_id,
                              "--provider", "fcm", "--fcm-service-account", path))
    assert server.snapshot() == before, "a refused token_uri changed nothing"
    assert listener.connections == 0


def v4_push_start(server, tenant_id, secret, style="ios", push_token=None):
    """Enrols a device for a new user and starts a push challenge for it, as the tenant's page does."""
    sdk = AuthsignalClient(secret, api_url=server.api)
    user = "v4-" + uuid.uuid4().hex[:8]
    device = Device(server, tenant_id, style)
    extra = {"pushToken": push_token} if push_token else {}
    assert device.add(sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"], **extra).status_code == 200
    token = sdk.track(user, "signIn", {})["token"]
    return requests.post(f"{server.api}/client/challenge/push", json={"action": "signIn"},
                         headers={"Authorization": "Bearer " + token}, timeout=30)


def v4_no_connect_detail(text, port):
    for leak in [str(port), "connect", "127.0.0.1", "::1", "refused", "405", "timeout", "address"]:
        assert leak not in text.lower(), (leak, text)


def v4_timeline_texts(timeline):
    """What a timeline says about failures: each event's detail and each delivery's last error."""
    return " ".join([str(e.get("detail")) for e in timeline["timeline"]]
                    + [str(d.get("lastError")) for d in timeline["deliveries"]])


def test_v4_a_name_that_resolves_to_loopback_is_refused_when_connecting(v4):
    """`localhost` stands for a name that led to a public address when configured and to loopback now (DNS
    rebinding): the operator's --allow-private-urls on the CLI let it in; the server, without the flag, refuses every
    address it resolves to before any packet, and the tenant learns only `delivery_failed`."""
    server, listener = v4
    tenant_id, secret = v4_tenant(server)
    out = v4_cli("admin", "tenant", "push", "--database", server.database, "--tenant", tenant_id, "--provider",
                 "webhook", "--webhook-url", f"http://localhost:{listener.port}/push", allow_private=True)
    assert out.returncode == 0, out.stderr
    time.sleep(1.1)  # assentd caches tenants for a second
    r = v4_push_start(server, tenant_id, secret)
    assert r.status_code == 502 and r.json()["errorCode"] == "push_delivery_failed", r.text
    assert "delivery_failed" in r.json()["errorDescription"]
    v4_no_connect_detail(r.text, listener.port)
    # Best effort: the start goes on, and the timeline says only delivery_failed.
    assert v4_cli("admin", "tenant", "push", "--database", server.database, "--tenant", tenant_id,
                  "--webhook-best-effort", "on").returncode == 0
    time.sleep(1.1)
    r = v4_push_start(server, tenant_id, secret)
    assert r.status_code == 200 and r.json()["deliveryResults"][0]["errorCode"] == "webhook_failed", r.text
    t = requests.get(f"{server.api}/challenges/{r.json()['challengeId']}/timeline", auth=(secret, ""), timeout=10)
    assert t.status_code == 200, t.text
    assert [(e["event"], e.get("detail"), e.get("status")) for e in t.json()["timeline"]][1:] == [
        ("webhook.failed", "delivery_failed", None)], t.text
    assert t.json()["timeline"][0]["event"] == "challenge.started", t.text
    v4_no_connect_detail(v4_timeline_texts(t.json()), listener.port)
    assert listener.connections == 0, "the internal listener was reached"
    log = server.log_text()
    assert "push webhook failed" in log and "address_refused" in log and f"localhost:{listener.port}" in log
    assert secret not in log


def test_v4_tenant_webhooks_are_refused_when_connecting(v4):
    """A webhook URL stored while private URLs were allowed: the outbox never connects to it."""
    server, listener = v4
    tenant_id, secret = v4_tenant(server)
    out = v4_cli("admin", "tenant", "settings", "--database", server.database, "--tenant", tenant_id,
                 "--webhook-url", f"http://127.0.0.1:{listener.port}/hooks", allow_private=True)
    assert out.returncode == 0, out.stderr
    time.sleep(1.1)
    sdk = AuthsignalClient(secret, api_url=server.api)
    token = sdk.track("v4-hooked", "enrol", {"scope": "add:authenticators"})["token"]
    assert Device(server, tenant_id).add(token).status_code == 200  # authenticator.created goes to the outbox
    assert v4_wait(lambda: tenant_id in server.log_text() and "webhook attempt failed" in server.log_text()
                   and "address_refused" in server.log_text())
    assert listener.connections == 0, "the internal listener was reached"


def test_v4_fcm_token_uri_is_refused_when_connecting(v4):
    server, listener = v4
    tenant_id, secret = v4_tenant(server)
    _, path = v4_service_account(server.directory_path, f"http://localhost:{listener.port}/token")
    out = v4_cli("admin", "tenant", "push", "--database", server.database, "--tenant", tenant_id, "--provider", "fcm",
                 "--fcm-service-account", path, allow_private=True)
    assert out.returncode == 0, out.stderr
    time.sleep(1.1)
    r = v4_push_start(server, tenant_id, secret, style="android", push_token="fcm-" + uuid.uuid4().hex)
    assert r.status_code == 200, r.text
    challenge = r.json()["challengeId"]

    def failed():
        t = requests.get(f"{server.api}/challenges/{challenge}/timeline", auth=(secret, ""), timeout=10).json()
        return any(e.get("detail") == "delivery_failed" for e in t["timeline"]) and t
    assert v4_wait(failed)
    t = requests.get(f"{server.api}/challenges/{challenge}/timeline", auth=(secret, ""), timeout=10)
    v4_no_connect_detail(v4_timeline_texts(t.json()), listener.port)
    assert listener.connections == 0, "the internal listener was reached"
    log = server.log_text()
    assert "fcm token request failed" in log and "address_refused" in log


def test_v4_push_webhook_redirect_is_not_followed(server):
    """A public endpoint could answer with a redirect to an internal one: assentd never follows it (here both sit on
    loopback, so the shared server's --allow-private-urls lets the first request through)."""
    internal = V4Listener()
    redirector = V4Listener(f"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:{internal.port}/push\r\n"
                            "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
    try:
        tenant_id, secret = v4_tenant(server)
        r = requests.patch(f"{server.api}/tenant/push", auth=(secret, ""), timeout=10,
                           json={"provider": "webhook", "webhookUrl": f"http://127.0.0.1:{redirector.port}/push"})
        assert r.status_code == 200, r.text
        time.sleep(1.1)  # assentd caches tenants for a second
        r = v4_push_start(server, tenant_id, secret)
        assert r.status_code == 502 and r.json()["errorCode"] == "push_delivery_failed", r.text
        assert redirector.connections == 1 and internal.connections == 0, "the redirect was followed"
    finally:
        internal.stop()
        redirector.stop()


# --- V1, V7: bound signatures (a scheme per credential, no downgrade, one purpose per signature), spent removals ---


BOUND_P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class BoundTenant:
    """A tenant, its backend (Authsignal's Python SDK) and the page's calls, for the V1 and V7 attacks."""

    def __init__(self, server, *settings):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "v1-" + uuid.uuid4().hex[:6])
        self.id, self.server = created["tenantId"], server
        if settings:
            assent("admin", "tenant", "settings", "--database", server.database, "--tenant", self.id, *settings)
        self.sdk = AuthsignalClient(created["secretKey"], api_url=server.api)
        self.basic = {"Authorization": "Basic " + base64.b64encode((self.id + ":").encode()).decode()}

    def token(self, user):
        return self.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]

    def enrol(self, device, user, kind="push", **extra):
        r = device.add(self.token(user), kind=kind, **extra)
        assert r.status_code == 200, r.text
        return r.json()["userAuthenticatorId"]

    def start_push(self, user):
        tracked = self.sdk.track(user, "signIn", {})
        r = requests.post(f"{self.server.api}/client/challenge/push", json={"action": "signIn"},
                          headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert r.status_code == 200, r.text
        return tracked, r.json()["challengeId"]

    def verify_push(self, tracked, challenge_id):
        r = requests.post(f"{self.server.api}/client/verify/push", json={"challengeId": challenge_id},
                          headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def start_qr(self):
        r = requests.post(f"{self.server.api}/client/challenge/qr-code", json={"action": "signIn"}, headers=self.basic, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    def poll_qr(self, challenge):
        r = requests.post(f"{self.server.api}/client/verify/qr-code", headers=self.basic, timeout=10,
                          json={"challengeId": challenge["challengeId"], "deviceCode": challenge["deviceCode"]})
        assert r.status_code == 200, r.text
        return r.json()


def bound_refused(response, status=401, code="invalid_signature"):
    assert response.status_code == status, response.text
    assert response.json()["errorCode"] == code, response.text


def bound_post(device, path, body):
    return device.session.post(device.url(path), json=body, headers=device.basic, timeout=10)


def test_v1_on_path_box_cannot_flip_a_decline_into_an_approval(server):
    tenant = BoundTenant(server)
    user = f"v1-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id, bound=True)
    tenant.enrol(phone, user)
    tracked, challenge_id = tenant.start_push(user)
    # The phone declines: it signs the bound "deny" message and sends it as signature and boundSignature.
    deny = phone.sign(phone.decision_message(challenge_id, False))
    declined = {"challengeId": challenge_id, "publicKey": phone.public_key, "approved": False,
                "signature": deny, "boundSignature": deny}
    # The box drops the bound signature and flips the decision; or keeps it and flips the decision.
    bound_refused(bound_post(phone, "push/challenge", {**{k: v for k, v in declined.items() if k != "boundSignature"},
                                                       "approved": True}))
    bound_refused(bound_post(phone, "push/challenge", {**declined, "approved": True}))
    # A bare signature over the challenge id (what an older Assent SDK sent as `signature`) is no downgrade either.
    bare = {"challengeId": challenge_id, "publicKey": phone.public_key, "approved": True,
            "signature": phone.sign(challenge_id)}
    bound_refused(bound_post(phone, "push/challenge", bare))
    bound_refused(bound_post(phone, "push/challenge", {**bare, "approved": False}))
    # Nothing changed: the challenge is still pending and the phone's own answer is the one recorded.
    assert tenant.verify_push(tracked, challenge_id) == {"isVerified": False, "isConsumed": False}
    assert phone.challenge().json()["challengeId"] == challenge_id
    assert bound_post(phone, "push/challenge", declined).status_code == 200
    assert tenant.verify_push(tracked, challenge_id)["isVerified"] is False
    assert tenant.sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_FAILED"


def test_v1_qr_claim_signature_is_refused_as_an_approval(server):
    tenant = BoundTenant(server)
    user = f"v1-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id, bound=True)
    tenant.enrol(phone, user, kind="qr-code")
    challenge = tenant.start_qr()
    claim_signature = phone.sign(phone.claim_message(challenge["challengeId"]))
    claimed = bound_post(phone, "qr-code/challenge/claim", {"challengeId": challenge["challengeId"],
                                                            "publicKey": phone.public_key, "signature": claim_signature})
    assert claimed.status_code == 200, claimed.text
    # The box reuses the claim's signature as an approval, with and without it as the bound signature.
    approval = {"challengeId": challenge["challengeId"], "publicKey": phone.public_key, "approved": True,
                "signature": claim_signature}
    bound_refused(bound_post(phone, "qr-code/challenge", approval))
    bound_refused(bound_post(phone, "qr-code/challenge", {**approval, "boundSignature": claim_signature}))
    assert tenant.poll_qr(challenge) == {"isClaimed": True, "isConsumed": False, "isVerified": False}
    assert phone.answer(challenge["challengeId"], approved=False, kind="qr-code").status_code == 200
    assert tenant.poll_qr(challenge) == {"isClaimed": True, "isConsumed": True, "isVerified": False}


def test_v1_on_path_box_cannot_downgrade_a_bound_credential_by_reenrolling_it(server):
    tenant = BoundTenant(server)
    user = f"v1-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id, bound=True)
    tenant.enrol(phone, user)
    # A re-enrolment of the same key without the scheme (stripped on the way) keeps the credential bound.
    stripped = Device(server, tenant.id, key=phone.key)
    tenant.enrol(stripped, user)
    _, challenge_id = tenant.start_push(user)
    bound_refused(stripped.answer(challenge_id, approved=True))
    bound_refused(stripped.remove())
    assert phone.get().status_code == 200
    assert phone.answer(challenge_id, approved=True).status_code == 200
    # An unknown scheme is refused before anything is stored.
    other = Device(server, tenant.id)
    bound_refused(other.add(tenant.token(user), signatureScheme="none"), 400, "invalid_request")
    bound_refused(other.get(), 401, "invalid_credential")


def test_v1_require_bound_signature_refuses_an_official_style_enrolments_bare_answers(server):
    # The on-path box strips `signatureScheme` from the enrolment; the tenant's setting enrols bound all the same.
    tenant = BoundTenant(server, "--require-bound-signature", "on")
    user = f"v1-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id)
    tenant.enrol(phone, user)
    tenant.enrol(phone, user, kind="qr-code")
    tracked, challenge_id = tenant.start_push(user)
    bound_refused(phone.answer(challenge_id, approved=True))
    bound_refused(phone.answer(challenge_id, approved=True, bound=True))
    qr = tenant.start_qr()
    bound_refused(phone.claim(qr["challengeId"]))
    bound_refused(phone.remove())
    bound_refused(phone.update(reset_expiry=True)[0])
    assert tenant.verify_push(tracked, challenge_id) == {"isVerified": False, "isConsumed": False}
    phone.bound = True
    assert phone.answer(challenge_id, approved=True).status_code == 200
    assert tenant.verify_push(tracked, challenge_id)["isVerified"] is True
    assert phone.claim(qr["challengeId"]).status_code == 200
    assert phone.update(reset_expiry=True)[0].status_code == 200
    assert phone.remove().status_code == 200


def test_v1_official_style_credentials_keep_authsignals_messages(server):
    """The compatibility exception: a credential enrolled as the official SDKs do signs Authsignal's messages."""
    tenant = BoundTenant(server)
    user = f"v1-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id, style="android")
    tenant.enrol(phone, user)
    tenant.enrol(phone, user, kind="qr-code")
    tracked, challenge_id = tenant.start_push(user)
    assert phone.answer(challenge_id, approved=True, null_code=True).status_code == 200
    assert tenant.verify_push(tracked, challenge_id)["isVerified"] is True
    qr = tenant.start_qr()
    assert phone.claim(qr["challengeId"]).status_code == 200
    assert phone.answer(qr["challengeId"], approved=True, kind="qr-code").status_code == 200
    assert tenant.poll_qr(qr)["isVerified"] is True
    assert phone.update(reset_expiry=True)[0].status_code == 200
    assert phone.remove().status_code == 200
    assert phone.remove(kind="qr-code").status_code == 200


def bound_replayed_remove(server, bound):
    tenant = BoundTenant(server)
    user = f"v7-{uuid.uuid4().hex[:8]}"
    phone = Device(server, tenant.id, bound=bound)
    tenant.enrol(phone, user)
    tenant.enrol(phone, user, kind="qr-code")
    # The box records the phone's removal of its push credential.
    captured = {"publicKey": phone.public_key, "signature": phone.sign(phone.removal_message("push"))}
    assert bound_post(phone, "push/remove", captured).status_code == 200
    # The user enrols the same key again; within the window, the box replays the removal at both credentials.
    tenant.enrol(phone, user)
    bound_refused(bound_post(phone, "push/remove", captured))
    bound_refused(bound_post(phone, "qr-code/remove", captured))
    # Nor as ECDSA's other valid form of the same signature, (r, n - s).
    r, s = decode_dss_signature(base64.b64decode(captured["signature"]))
    negated = {**captured, "signature": b64(encode_dss_signature(r, BOUND_P256_ORDER - s))}
    bound_refused(bound_post(phone, "push/remove", negated))
    assert phone.get().status_code == 200 and phone.get("qr-code").status_code == 200
    # The phone's own removals still work.
    assert phone.remove().status_code == 200
    assert phone.remove(kind="qr-code").status_code == 200


def test_v7_replayed_remove_after_reenrolment_is_refused_for_an_official_style_credential(server):
    bound_replayed_remove(server, bound=False)


def test_v7_replayed_remove_after_reenrolment_is_refused_for_a_bound_credential(server):
    bound_replayed_remove(server, bound=True)


def test_v7_a_removal_signature_spent_in_one_tenant_is_spent_in_every_other(server):
    """Authsignal's removal message names only the time window, so a credential enrolled without the bound scheme
    signs a removal that verifies for the same key in any tenant. Once used, it is spent everywhere: a box that saw it
    in tenant A cannot remove the key's credentials in tenant B (push or QR)."""
    first, second = BoundTenant(server), BoundTenant(server)
    user = f"v7-{uuid.uuid4().hex[:8]}"
    key = ec.generate_private_key(ec.SECP256R1())
    in_first = Device(server, first.id, style="android", key=key)
    in_second = Device(server, second.id, style="android", key=key)
    first.enrol(in_first, user)
    second.enrol(in_second, user)
    second.enrol(in_second, user, kind="qr-code")
    captured = {"publicKey": in_first.public_key, "signature": in_first.sign(in_first.removal_message("push"))}
    assert bound_post(in_first, "push/remove", captured).status_code == 200
    bound_refused(bound_post(in_second, "push/remove", captured))
    bound_refused(bound_post(in_second, "qr-code/remove", captured))
    assert in_second.get().status_code == 200 and in_second.get("qr-code").status_code == 200
    # The device's own, new removal signatures still work there.
    assert in_second.remove().status_code == 200
    assert in_second.remove(kind="qr-code").status_code == 200


# --- Rate limits (and V2's rate half): anonymous QR starts, nonces, get-challenge, claims, activation status, vault
# unlock, failed verifications, WebSocket connections; trusted proxies ---
# Each test starts a server of its own with `--rate-limits on` (the shared server runs with limits off: every test
# client is 127.0.0.1). 127.0.0.2 is loopback too and serves as a second client address (bound as the source).


class RLResponse:
    def __init__(self, status, headers, body):
        self.status_code, self.headers, self.text = status, headers, body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.text)


def rl_request(server, method, path, body=None, headers=None, source="127.0.0.1"):
    """One request from `source` (a loopback address) on a fresh connection."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, "/v1" + path, body=data,
                           headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return RLResponse(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


def rl_limited(response, rule=None):
    """`429 rate_limited` in the JSON envelope with a whole number of seconds in Retry-After."""
    assert response.status_code == 429, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "errorCode", "errorDescription"}, body
    assert body["errorCode"] == "rate_limited", body
    if rule:
        assert rule in body["errorDescription"], body
    assert int(response.headers["retry-after"]) >= 1, response.headers


@pytest.fixture
def rl_servers(store):
    """Starts servers with limits on (and more flags); each gets a tenant `tenant_id`/`secret` and a Basic header."""
    started = []

    def start(*extra):
        tmp = tempfile.TemporaryDirectory()
        s = Server(tmp.name)
        s.tmp = tmp
        created = assent("admin", "tenant", "create", "--database", s.database, "--name", "rl-" + uuid.uuid4().hex[:6])
        s.tenant_id, s.secret = created["tenantId"], created["secretKey"]
        s.basic = {"Authorization": "Basic " + base64.b64encode((s.tenant_id + ":").encode()).decode()}
        s.start("--rate-limits", "on", *extra)
        started.append(s)
        return s
    yield start
    for s in started:
        s.stop()
        s.tmp.cleanup()


def rl_flood(count, send):
    """Sends `count` requests; the statuses in order."""
    return [send(i).status_code for i in range(count)]


def rl_challenges(server):
    return len(server.snapshot()["challenges"])


def test_v2_anonymous_qr_start_flood_is_rate_limited(rl_servers):
    s = rl_servers()  # the default limits: 30 a minute per address
    before = rl_challenges(s)
    statuses = rl_flood(200, lambda i: rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic))
    accepted = statuses.count(200)
    assert 30 <= accepted <= 32, statuses  # the burst, and what refilled during the flood (0.5 a second)
    assert statuses[:30] == [200] * 30 and set(statuses[30:]) <= {200, 429}, statuses
    rl_limited(rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic),
               "anonymous-qr-start-address")
    assert rl_challenges(s) - before == accepted, "nothing is stored for a refused start"


def test_v2_anonymous_qr_starts_from_many_addresses_are_limited_per_tenant(rl_servers):
    s = rl_servers("--rate-limit", "anonymous-qr-start-tenant=40/1h")
    statuses = [rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic, source=source).status_code
                for source in ["127.0.0.1", "127.0.0.2"] for _ in range(30)]
    assert statuses.count(200) == 40 and statuses[40:] == [429] * 20, statuses
    rl_limited(rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic, source="127.0.0.3"),
               "anonymous-qr-start-tenant")


def test_v2_anonymous_qr_start_flood_over_the_websocket_is_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "anonymous-qr-start-address=5/1h")
    before = rl_challenges(s)
    ws = websocket.create_connection(f"ws://127.0.0.1:{s.port}/v1/ws-v1-challenge", timeout=10,
                                     subprotocols=["authsignal-ws", f"x.authsignal.tenant.{s.tenant_id}"])
    try:
        answers = []
        for _ in range(8):
            ws.send(json.dumps({"type": "CREATE_CHALLENGE",
                                "data": {"challengeType": "QR_CODE", "actionCode": "signIn"}}))
            answers.append(json.loads(ws.recv()))
    finally:
        ws.close()
    assert [a["type"] for a in answers] == ["CHALLENGE_CREATED"] * 5 + ["ERROR"] * 3, answers
    assert answers[-1]["data"]["errorCode"] == "rate_limited" and answers[-1]["data"]["retryAfter"] >= 1, answers
    assert rl_challenges(s) - before == 5
    rl_limited(rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic), "anonymous-qr-start-address")


def rl_push_device(s):
    sdk = AuthsignalClient(s.secret, api_url=s.api)
    token = sdk.track(f"rl-{uuid.uuid4().hex[:8]}", "enrol", {"scope": "add:authenticators"})["token"]
    device = Device(s, s.tenant_id)
    assert device.add(token).status_code == 200
    return device


def test_nonce_flood_is_rate_limited_per_credential_key(rl_servers):
    s = rl_servers()  # nonce-key: 30 a minute
    device = rl_push_device(s)
    for path in ["push/challenge/sign", "push/sign"]:  # one bucket for both
        statuses = rl_flood(15, lambda i: device.session.post(device.url(path) + "?publicKey=" + device.query,
                                                              headers=device.basic))
        assert statuses == [200] * 15, statuses
    r = device.session.post(device.url("push/sign") + "?publicKey=" + device.query, headers=device.basic)
    rl_limited(RLResponse(r.status_code, {k.lower(): v for k, v in r.headers.items()}, r.content), "nonce-key")
    assert Device(s, s.tenant_id).get().status_code == 401, "another key is not limited (and unknown)"


def test_get_challenge_flood_is_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "get-challenge-key=10/1h")
    device = rl_push_device(s)
    statuses = rl_flood(15, lambda i: device.challenge(signed=False))
    assert statuses == [200] * 10 + [429] * 5, statuses
    r = device.challenge(signed=False)
    rl_limited(RLResponse(r.status_code, {k.lower(): v for k, v in r.headers.items()}, r.content), "get-challenge-key")


def test_claim_flood_is_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "claim-key=10/1h,claim-address=15/1h")
    tenant = QRTenant(s)
    device = tenant.enrol("rl-claimer")
    other = tenant.enrol("rl-other")
    # A device guessing challenge ids: each guess costs a token whether or not the challenge exists.
    statuses = rl_flood(12, lambda i: claim(device, str(uuid.uuid4())))
    assert statuses == [404] * 10 + [429] * 2, statuses
    r = claim(device, str(uuid.uuid4()))
    assert r.status_code == 429 and r.json()["errorCode"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    # Another key from the same address has its own key bucket, until the address's runs out.
    challenge = tenant.start(action="signIn")
    assert claim(other, challenge["challengeId"]).status_code == 200
    statuses = rl_flood(3, lambda i: claim(other, str(uuid.uuid4())))
    assert 429 in statuses, statuses
    rl_limited(rl_request(s, "POST", "/client/user-authenticators/qr-code/challenge/claim",
                          {"challengeId": "x", "publicKey": other.public_key, "signature": "x"}, other.basic),
               "claim-address")


def test_activation_status_flood_is_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "activation-status-activation=10/1h")
    body = {"activationId": str(uuid.uuid4()), "challenge": base64.b64encode(os.urandom(16)).decode()}
    statuses = rl_flood(12, lambda i: rl_request(s, "POST", "/client/activations/status", body, s.basic))
    assert statuses == [404] * 10 + [429] * 2, statuses
    rl_limited(rl_request(s, "POST", "/client/activations/status", body, s.basic), "activation-status-activation")
    body["activationId"] = str(uuid.uuid4())
    assert rl_request(s, "POST", "/client/activations/status", body, s.basic).status_code == 404, \
        "another activation is not limited"


def rl_forged_header(activation_id):
    signature = base64.b64encode(os.urandom(16)).decode()
    return (f'PowerAuth pa_version="3.3", pa_activation_id="{activation_id}", pa_application_key="'
            f'{base64.b64encode(os.urandom(16)).decode()}", pa_nonce="{base64.b64encode(os.urandom(16)).decode()}", '
            f'pa_signature_type="possession_knowledge", pa_signature="{signature}"')


def rl_unlock(s, activation_id, source="127.0.0.1"):
    return rl_request(s, "POST", "/client/vault/unlock", {"reason": "FETCH_ENCRYPTION_KEY"},
                      {**s.basic, "X-PowerAuth-Authorization": rl_forged_header(activation_id)}, source=source)


def test_vault_unlock_flood_is_rate_limited(rl_servers):
    s = rl_servers()  # vault-unlock-activation: 10 a minute
    activation = str(uuid.uuid4())
    statuses = rl_flood(12, lambda i: rl_unlock(s, activation))
    assert statuses == [401] * 10 + [429] * 2, statuses
    rl_limited(rl_unlock(s, activation), "vault-unlock-activation")


def test_failed_client_verifications_are_rate_limited_per_activation(rl_servers):
    s = rl_servers("--rate-limit", "vault-unlock-activation=1000/1m,failed-verification-activation=5/1h")
    guessed = str(uuid.uuid4())
    statuses = rl_flood(8, lambda i: rl_unlock(s, guessed, source=f"127.0.0.{2 + i}"))
    assert statuses == [401] * 5 + [429] * 3, statuses
    rl_limited(rl_unlock(s, guessed, source="127.0.0.20"), "failed-verification-activation")
    assert rl_unlock(s, str(uuid.uuid4())).status_code == 401, "another activation is not limited"


def test_websocket_connections_per_address_are_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "websocket-address=5/1h")

    def connect(source="127.0.0.1"):
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10, source_address=(source, 0))
        return websocket.create_connection(
            f"ws://127.0.0.1:{s.port}/v1/ws-v1-challenge", timeout=10, socket=sock,
            subprotocols=["authsignal-ws", f"x.authsignal.tenant.{s.tenant_id}"])
    for _ in range(5):
        connect().close()
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        connect()
    assert refused.value.status_code == 429
    headers = {k.lower(): v for k, v in (refused.value.resp_headers or {}).items()}
    assert int(headers["retry-after"]) >= 1, headers
    assert json.loads(refused.value.resp_body)["errorCode"] == "rate_limited"
    connect("127.0.0.2").close()


def test_trusted_proxy_forwarded_addresses_count_separately_and_untrusted_ones_are_ignored(rl_servers):
    s = rl_servers("--trusted-proxy", "127.0.0.1", "--rate-limit", "anonymous-qr-start-address=3/1h")

    def start(forwarded, source="127.0.0.1", basic=s.basic):
        return rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"},
                          {**basic, "X-Forwarded-For": forwarded}, source=source)
    # Behind the proxy (127.0.0.1) each forwarded client has its own bucket; what a client wrote to the left of the
    # address the proxy appended is not believed.
    assert [start("198.51.100.1").status_code for _ in range(3)] == [200] * 3
    rl_limited(start("198.51.100.1"))
    rl_limited(start("203.0.113.9, 198.51.100.1"))
    assert [start("198.51.100.2").status_code for _ in range(3)] == [200] * 3
    # An untrusted peer (127.0.0.2) is itself the client, whatever X-Forwarded-For it sends.
    assert [start(f"198.51.100.{10 + i}", source="127.0.0.2").status_code for i in range(3)] == [200] * 3
    rl_limited(start("198.51.100.99", source="127.0.0.2"))
    # The IP a device sees on a QR claim is the real client's.
    tenant = QRTenant(s)
    device = tenant.enrol("rl-proxied")
    started = start("198.51.100.3", basic=tenant.basic).json()
    claimed = claim(device, started["challengeId"])
    assert claimed.status_code == 200 and claimed.json()["ipAddress"] == "198.51.100.3", claimed.text


def test_rate_limits_off_lets_a_flood_through(rl_servers):
    s = rl_servers("--rate-limits", "off")
    statuses = rl_flood(100, lambda i: rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic))
    assert statuses == [200] * 100
