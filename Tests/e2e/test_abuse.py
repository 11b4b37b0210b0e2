"""Attacks that once worked against a real assentd, each tried again as an attacker would: each test is named after
the attack and proves it now fails, on SQLite and PostgreSQL."""

# --- V10, V2: enrolment tokens, anonymous QR expiry ---
import threading
import uuid

import requests
from authsignal.client import AuthsignalClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import assent
from device import Device, b64


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
import base64 as v8_base64
import json as v8_json
import urllib.parse as v8_parse
import uuid as v8_uuid

import pytest as v8_pytest
import requests as v8_requests
import websocket as v8_websocket

from test_qr import QRTenant as V8QRTenant, claim as v8_claim


@v8_pytest.fixture(scope="module")
def v8_tenant(server):
    return V8QRTenant(server)


def v8_refused(response, field=None):
    assert response.status_code == 400, response.text
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= {"error", "errorCode", "errorDescription"}, body
    assert body["errorCode"] == "invalid_request", body
    if field:
        assert field in body["errorDescription"], body


def v8_secret_basic(tenant):
    return {"Authorization": "Basic " + v8_base64.b64encode((tenant.secret + ":").encode()).decode()}


def test_v8_nul_in_challenge_id_does_not_claim_the_real_challenge(v8_tenant, server):
    device = v8_tenant.enrol(f"v8-{v8_uuid.uuid4().hex[:6]}")
    real = v8_tenant.start(action="signIn")["challengeId"]
    forged = real + "\0junk"
    before = server.snapshot()
    body = {"challengeId": forged, "publicKey": device.public_key, "signature": device.sign(forged)}
    r = device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=device.basic)
    v8_refused(r, "challengeId")
    assert server.snapshot() == before
    assert v8_claim(device, real).status_code == 200, "the real challenge is still unclaimed"


def test_v8_nul_in_idempotency_key_does_not_collapse_two_actions(v8_tenant, server):
    user = f"v8-{v8_uuid.uuid4().hex[:6]}"
    headers = {**v8_secret_basic(v8_tenant), "Content-Type": "application/json"}
    before = server.snapshot()
    for key in ["order-17\0first", "order-17\0second"]:
        r = v8_requests.post(f"{server.api}/users/{user}/actions/signIn", headers=headers,
                             data=v8_json.dumps({"idempotencyKey": key}))
        v8_refused(r, "idempotencyKey")
    assert server.snapshot() == before


@v8_pytest.mark.parametrize("field,value", [
    ("deviceName", "Alice's phone\x1b[2J"),
    ("deviceName", "phone\u202egnp.exe"),
    ("pushToken", "token\0other"),
])
def test_v8_control_characters_in_enrolment_strings_are_refused_before_any_store(v8_tenant, server, field, value):
    from device import Device
    user = f"v8-{v8_uuid.uuid4().hex[:6]}"
    token = v8_tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    before = server.snapshot()
    r = Device(server, v8_tenant.id).add(token, kind="push", **{field: value})
    v8_refused(r, field)
    assert server.snapshot() == before


def test_v8_nul_in_a_path_or_query_parameter_does_not_reach_the_real_challenge(v8_tenant, server):
    real = v8_tenant.start(action="signIn")["challengeId"]
    image = f"{server.api}/client/challenge/qr-code/{{}}/image.svg?tenant={{}}"
    assert v8_requests.get(image.format(real, v8_tenant.id)).status_code == 200
    before = server.snapshot()
    v8_refused(v8_requests.get(image.format(v8_parse.quote(real + "\0junk"), v8_tenant.id)), "challengeId")
    v8_refused(v8_requests.get(image.format(real, v8_parse.quote(v8_tenant.id + "\0junk"))), "tenant")
    assert server.snapshot() == before


def test_v8_nul_in_the_tenant_id_of_the_basic_header_does_not_name_the_real_tenant(v8_tenant, server):
    device = v8_tenant.enrol(f"v8-{v8_uuid.uuid4().hex[:6]}")
    real = v8_tenant.start(action="signIn")["challengeId"]
    forged = {"Authorization": "Basic " + v8_base64.b64encode((v8_tenant.id + "\0junk:").encode()).decode()}
    before = server.snapshot()
    body = {"challengeId": real, "publicKey": device.public_key, "signature": device.sign(real)}
    r = device.session.post(device.url("qr-code/challenge/claim"), json=body, headers=forged)
    v8_refused(r)
    assert server.snapshot() == before
    assert v8_claim(device, real).status_code == 200


@v8_pytest.mark.parametrize("action", ["sign\u202eIn", "signIn\x07", "signIn\0x"])
def test_v9_websocket_start_refuses_control_characters_in_the_action_code(v8_tenant, server, action):
    http = v8_requests.post(f"{server.api}/client/challenge/qr-code", json={"action": action}, headers=v8_tenant.basic)
    v8_refused(http)
    before = server.snapshot()
    ws = v8_websocket.create_connection(f"ws://127.0.0.1:{server.port}/v1/ws-v1-challenge", timeout=10,
                                        subprotocols=["authsignal-ws", f"x.authsignal.tenant.{v8_tenant.id}"])
    try:
        ws.send(v8_json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": action}}))
        answer = v8_json.loads(ws.recv())
    finally:
        ws.close()
    assert answer["type"] == "ERROR", answer
    assert answer["data"] == {"errorCode": "invalid_request", "errorDescription": http.json()["errorDescription"]}
    assert server.snapshot() == before


# --- Files and logs: modes, master key, log flooding ---
# These start assentd (or the CLI) on a data directory of their own: file modes concern the SQLite database and the
# master key file beside it, so they run on SQLite only (with PostgreSQL there is no database file to protect, and the
# key file checks are the same code).
import os as files_os
import socket as files_socket
import stat as files_stat
import subprocess as files_subprocess
import tempfile as files_tempfile
import time as files_time

import pytest as files_pytest

from conftest import BIN as FILES_BIN, Server as FilesServer, free_port as files_free_port


# File modes concern the SQLite data directory (PostgreSQL has no database file here), so these tests run in the
# SQLite round only: parametrized to it, nothing collected for PostgreSQL and skipped.
files_sqlite_only = files_pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")


def files_mode(path):
    return files_stat.S_IMODE(files_os.stat(path).st_mode)


def files_env():
    """The environment without a shared master key, so each test names (or creates) its own."""
    env = dict(files_os.environ)
    env.pop("ASSENT_MASTER_KEY_FILE", None)
    env.pop("ASSENT_MASTER_KEY", None)
    return env


def files_umask_022():
    files_os.umask(0o022)  # what a shell usually has: files would be world-readable unless Assent asks otherwise


def files_write_key(path, mode):
    with open(path, "w") as f:
        f.write("BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=\n")
    files_os.chmod(path, mode)


def files_run_assentd(directory, key_file, timeout=15):
    """Starts assentd on a fresh SQLite database with `key_file`; returns (exit code or None if still running, output)."""
    database = files_os.path.join(directory, "data", "assent.sqlite")
    process = files_subprocess.Popen(
        [files_os.path.join(FILES_BIN, "assentd"), "--listen", f"127.0.0.1:{files_free_port()}",
         "--database", database, "--master-key-file", key_file, "--no-dev-tenant"],
        stdout=files_subprocess.PIPE, stderr=files_subprocess.STDOUT, env=files_env(), preexec_fn=files_umask_022)
    try:
        code = process.wait(timeout=timeout)
    except files_subprocess.TimeoutExpired:
        process.terminate()
        process.wait(timeout=20)
        code = None
    return code, process.stdout.read().decode("utf-8", "replace"), database


@files_sqlite_only
def test_world_readable_master_key_is_refused(store):
    with files_tempfile.TemporaryDirectory() as directory:
        key = files_os.path.join(directory, "master.key")
        files_write_key(key, 0o644)
        code, output, database = files_run_assentd(directory, key)
        assert code not in (None, 0), f"assentd served with a world-readable master key:\n{output}"
        assert "readable by every user" in output and f"chmod 600 {key}" in output, output
        assert not files_os.path.exists(database), "refused only after opening the database"


@files_sqlite_only
def test_group_readable_master_key_starts_with_a_warning(store):
    with files_tempfile.TemporaryDirectory() as directory:
        key = files_os.path.join(directory, "master.key")
        files_write_key(key, 0o640)  # a secret mount's usual mode
        code, output, _ = files_run_assentd(directory, key, timeout=5)
        assert code is None, f"assentd refused a group-readable key:\n{output}"
        warnings = [line for line in output.splitlines() if '"level":"warning"' in line and "readable by its group" in line]
        assert len(warnings) == 1, output


@files_sqlite_only
def test_data_directory_and_database_files_are_owner_only(store):
    with files_tempfile.TemporaryDirectory() as directory:
        database = files_os.path.join(directory, "data", "nested", "assent.sqlite")
        port = files_free_port()
        process = files_subprocess.Popen(
            [files_os.path.join(FILES_BIN, "assentd"), "--listen", f"127.0.0.1:{port}", "--database", database,
             "--no-dev-tenant"],
            stdout=files_subprocess.DEVNULL, stderr=files_subprocess.DEVNULL, env=files_env(),
            preexec_fn=files_umask_022)
        try:
            deadline = files_time.time() + 30
            while not files_os.path.exists(database + "-shm") and files_time.time() < deadline:
                assert process.poll() is None, "assentd exited"
                files_time.sleep(0.1)
            # A write through the CLI while assentd serves the file (WAL): the -wal file holds data now.
            files_subprocess.run([files_os.path.join(FILES_BIN, "assent"), "admin", "tenant", "create", "--database",
                                  database, "--name", "Modes", "--json"], check=True, capture_output=True,
                                 env=files_env(), timeout=60)
            modes = {name: files_mode(files_os.path.join(directory, name)) for name in [
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
    with files_tempfile.TemporaryDirectory() as directory:
        database = files_os.path.join(directory, "cli", "assent.sqlite")
        files_subprocess.run([files_os.path.join(FILES_BIN, "assent"), "admin", "tenant", "create", "--database",
                              database, "--name", "Modes", "--json"], check=True, capture_output=True,
                             env=files_env(), timeout=60, preexec_fn=files_umask_022)
        modes = {name: files_mode(files_os.path.join(directory, name))
                 for name in ["cli", "cli/assent.sqlite", "cli/master.key"]}
        assert modes == {"cli": 0o700, "cli/assent.sqlite": 0o600, "cli/master.key": 0o600}, \
            {k: oct(v) for k, v in modes.items()}


@files_sqlite_only
def test_cli_refuses_a_world_readable_master_key(store):
    with files_tempfile.TemporaryDirectory() as directory:
        key = files_os.path.join(directory, "master.key")
        files_write_key(key, 0o604)
        env = files_env()
        env["ASSENT_MASTER_KEY_FILE"] = key
        result = files_subprocess.run([files_os.path.join(FILES_BIN, "assent"), "admin", "tenant", "create",
                                       "--database", files_os.path.join(directory, "assent.sqlite"), "--name", "K"],
                                      capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode != 0, result.stdout
        assert f"chmod 600 {key}" in result.stderr, result.stderr


def test_aborted_connection_flood_does_not_flood_the_log(server):
    # Any store: the log does not depend on it. Every aborted request made libmicrohttpd write a warning line; now the
    # first 10 a minute are written and the rest counted (their summary line comes when the minute ends, which this
    # test does not wait for: WarningLimiterTests checks it with a manual clock).
    before = server.log_text().count('"msg":"libmicrohttpd"')
    for _ in range(200):
        with files_socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"POST /v1/client/user-authenticators/qr-code HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc")
    files_time.sleep(1)
    written = server.log_text().count('"msg":"libmicrohttpd"') - before
    assert written <= 10, f"{written} warning lines for 200 aborted connections"  # 0 if earlier tests used the minute
    assert requests.get(server.url + "/healthz", timeout=5).status_code == 200


# --- V11, HTTP edges: metrics access, request framing ---
import json as v11_json
import socket as v11_socket
import tempfile as v11_tempfile

import requests as v11_requests

from conftest import Server as V11Server, free_port as v11_free_port


def v11_not_found(response):
    """The JSON envelope of an unknown path: /metrics looks like any other path that does not exist."""
    assert response.status_code == 404, response.text
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["errorCode"] == "not_found", response.text


def v11_server(*extra):
    """A server of the test's own, started with `extra` flags; stop it with `.stop()` and clean `.tmp` up."""
    tmp = v11_tempfile.TemporaryDirectory()
    s = V11Server(tmp.name)
    s.tmp = tmp
    s.start(*extra)
    return s


def v11_stop(s):
    s.stop()
    s.tmp.cleanup()


def test_v11_metrics_are_not_public_on_the_api_listener(server):
    v11_not_found(v11_requests.get(server.url + "/metrics", timeout=10))
    v11_not_found(v11_requests.get(server.url + "/metrics", headers={"Authorization": "Bearer guess"}, timeout=10))
    assert v11_requests.get(server.url + "/healthz", timeout=10).status_code == 200, "/healthz stays public"


def test_v11_metrics_listener_serves_metrics_and_nothing_else():
    port = v11_free_port()
    s = v11_server("--metrics-listen", f"127.0.0.1:{port}")
    try:
        metrics = f"http://127.0.0.1:{port}"
        v11_requests.post(s.api + "/validate", json={"token": "x"}, timeout=10)
        r = v11_requests.get(metrics + "/metrics", timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
        assert 'route="/v1/validate"' in r.text and "# TYPE" in r.text
        for path in ["/healthz", "/v1/validate", "/web/", "/metrics/x"]:
            v11_not_found(v11_requests.get(metrics + path, timeout=10))
        assert v11_requests.post(metrics + "/metrics", timeout=10).status_code == 405
        v11_not_found(v11_requests.get(s.url + "/metrics", timeout=10))
    finally:
        v11_stop(s)


def test_v11_metrics_token_is_required_for_metrics_on_the_api_listener():
    token = "v11-" + "s" * 40
    s = v11_server("--metrics-token", token)
    try:
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer " + token[:-1]},
                        {"Authorization": "Bearer " + token + "x"}, {"Authorization": "Basic " + token}]:
            r = v11_requests.get(s.url + "/metrics", headers=headers, timeout=10)
            assert r.status_code == 401, (headers, r.text)
            assert r.headers["Content-Type"] == "application/json" and r.json()["errorCode"] == "unauthorized"
            assert r.headers["WWW-Authenticate"].startswith("Bearer")
        r = v11_requests.get(s.url + "/metrics", headers={"Authorization": "Bearer " + token}, timeout=10)
        assert r.status_code == 200 and "# TYPE" in r.text
        assert token not in s.log_text()
    finally:
        v11_stop(s)


def v11_raw(port, request):
    """Sends exact bytes; returns (status, headers, body, closed, rest) where `closed` says whether the server closed the
    connection after its one response (instead of reading on, e.g. a smuggled request)."""
    with v11_socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
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
        except v11_socket.timeout:
            pass
        return status, headers, body[:length], closed, rest


def v11_refused_framing(server, request):
    before = server.snapshot()
    status, headers, body, closed, rest = v11_raw(server.port, request)
    assert status == 400, (status, body)
    assert headers["content-type"] == "application/json"
    assert v11_json.loads(body)["errorCode"] == "invalid_request", body
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


# --- Rate limits (and V2's rate half): anonymous QR starts, nonces, get-challenge, claims, activation status, vault
# unlock, failed verifications, WebSocket connections; trusted proxies ---
# Each test starts a server of its own with `--rate-limits on` (the shared server runs with limits off: every test
# client is 127.0.0.1). 127.0.0.2 is loopback too and serves as a second client address (bound as the source).
import base64 as rl_base64
import http.client as rl_http
import json as rl_json
import os as rl_os
import socket as rl_socket
import tempfile as rl_tempfile

import pytest as rl_pytest
import websocket as rl_websocket

from conftest import Server as RLServer
from test_qr import QRTenant as RLQRTenant, claim as rl_claim


class RLResponse:
    def __init__(self, status, headers, body):
        self.status_code, self.headers, self.text = status, headers, body.decode("utf-8", "replace")

    def json(self):
        return rl_json.loads(self.text)


def rl_request(server, method, path, body=None, headers=None, source="127.0.0.1"):
    """One request from `source` (a loopback address) on a fresh connection."""
    connection = rl_http.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        data = None if body is None else rl_json.dumps(body)
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


@rl_pytest.fixture
def rl_servers(store):
    """Starts servers with limits on (and more flags); each gets a tenant `tenant_id`/`secret` and a Basic header."""
    started = []

    def start(*extra):
        tmp = rl_tempfile.TemporaryDirectory()
        s = RLServer(tmp.name)
        s.tmp = tmp
        created = assent("admin", "tenant", "create", "--database", s.database, "--name", "rl-" + uuid.uuid4().hex[:6])
        s.tenant_id, s.secret = created["tenantId"], created["secretKey"]
        s.basic = {"Authorization": "Basic " + rl_base64.b64encode((s.tenant_id + ":").encode()).decode()}
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
    ws = rl_websocket.create_connection(f"ws://127.0.0.1:{s.port}/v1/ws-v1-challenge", timeout=10,
                                        subprotocols=["authsignal-ws", f"x.authsignal.tenant.{s.tenant_id}"])
    try:
        answers = []
        for _ in range(8):
            ws.send(rl_json.dumps({"type": "CREATE_CHALLENGE", "data": {"challengeType": "QR_CODE", "actionCode": "signIn"}}))
            answers.append(rl_json.loads(ws.recv()))
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
    tenant = RLQRTenant(s)
    device = tenant.enrol("rl-claimer")
    other = tenant.enrol("rl-other")
    # A device guessing challenge ids: each guess costs a token whether or not the challenge exists.
    statuses = rl_flood(12, lambda i: rl_claim(device, str(uuid.uuid4())))
    assert statuses == [404] * 10 + [429] * 2, statuses
    r = rl_claim(device, str(uuid.uuid4()))
    assert r.status_code == 429 and r.json()["errorCode"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    # Another key from the same address has its own key bucket, until the address's runs out.
    challenge = tenant.start(action="signIn")
    assert rl_claim(other, challenge["challengeId"]).status_code == 200
    statuses = rl_flood(3, lambda i: rl_claim(other, str(uuid.uuid4())))
    assert 429 in statuses, statuses
    rl_limited(rl_request(s, "POST", "/client/user-authenticators/qr-code/challenge/claim",
                          {"challengeId": "x", "publicKey": other.public_key, "signature": "x"}, other.basic),
               "claim-address")


def test_activation_status_flood_is_rate_limited(rl_servers):
    s = rl_servers("--rate-limit", "activation-status-activation=10/1h")
    body = {"activationId": str(uuid.uuid4()), "challenge": rl_base64.b64encode(rl_os.urandom(16)).decode()}
    statuses = rl_flood(12, lambda i: rl_request(s, "POST", "/client/activations/status", body))
    assert statuses == [404] * 10 + [429] * 2, statuses
    rl_limited(rl_request(s, "POST", "/client/activations/status", body), "activation-status-activation")
    body["activationId"] = str(uuid.uuid4())
    assert rl_request(s, "POST", "/client/activations/status", body).status_code == 404, "another activation is not limited"


def rl_forged_header(activation_id):
    signature = rl_base64.b64encode(rl_os.urandom(16)).decode()
    return (f'PowerAuth pa_version="3.3", pa_activation_id="{activation_id}", pa_application_key="'
            f'{rl_base64.b64encode(rl_os.urandom(16)).decode()}", pa_nonce="{rl_base64.b64encode(rl_os.urandom(16)).decode()}", '
            f'pa_signature_type="possession_knowledge", pa_signature="{signature}"')


def rl_unlock(s, activation_id, source="127.0.0.1"):
    return rl_request(s, "POST", "/client/vault/unlock", {"reason": "FETCH_ENCRYPTION_KEY"},
                      {"X-PowerAuth-Authorization": rl_forged_header(activation_id)}, source=source)


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
        sock = rl_socket.create_connection(("127.0.0.1", s.port), timeout=10, source_address=(source, 0))
        return rl_websocket.create_connection(
            f"ws://127.0.0.1:{s.port}/v1/ws-v1-challenge", timeout=10, socket=sock,
            subprotocols=["authsignal-ws", f"x.authsignal.tenant.{s.tenant_id}"])
    for _ in range(5):
        connect().close()
    with rl_pytest.raises(rl_websocket.WebSocketBadStatusException) as refused:
        connect()
    assert refused.value.status_code == 429
    headers = {k.lower(): v for k, v in (refused.value.resp_headers or {}).items()}
    assert int(headers["retry-after"]) >= 1, headers
    assert rl_json.loads(refused.value.resp_body)["errorCode"] == "rate_limited"
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
    tenant = RLQRTenant(s)
    device = tenant.enrol("rl-proxied")
    started = start("198.51.100.3", basic=tenant.basic).json()
    claimed = rl_claim(device, started["challengeId"])
    assert claimed.status_code == 200 and claimed.json()["ipAddress"] == "198.51.100.3", claimed.text


def test_rate_limits_off_lets_a_flood_through(rl_servers):
    s = rl_servers("--rate-limits", "off")
    statuses = rl_flood(100, lambda i: rl_request(s, "POST", "/client/challenge/qr-code", {"action": "signIn"}, s.basic))
    assert statuses == [200] * 100
