"""Google's Android attestation status list, served by a local fake (`--android-attestation-status-url`, Python's
http.server on 127.0.0.1; nothing here reaches Google): not fetched while no tenant uses Android attestation, fetched
once one does; until a first good copy chains verify without it (`revocationChecked: false`); a listed serial refuses
the enrolment `attestation_invalid` naming `revoked`; a failed fetch keeps the last good copy, and is counted in
`/metrics` beside the attestation verdicts. A status list file (`--android-attestation-status-file`) works the same."""
import json
import os
from base64 import b64decode
import re
import shutil
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography import x509

from conftest import Server
from device import Device
from test_attestation import AttestingTenant, android_statement, refused, test_authority

METRICS_TOKEN = "status-list-metrics-token"


class StatusListServer:
    """A fake of Google's status list endpoint: answers GET with what the test sets, counting what it served."""

    def __init__(self):
        self.lock = threading.Lock()
        self.status, self.body = 503, b"unavailable"
        self.served = []  # the status of each answer, in order
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                with fake.lock:
                    status, body = fake.status, fake.body
                    fake.served.append(status)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/attestation/status"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answer(self, status, body):
        with self.lock:
            self.status, self.body = status, body

    def count(self, status=None):
        with self.lock:
            return len([s for s in self.served if status is None or s == status])

    def wait_for(self, status, at_least, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.count(status) >= at_least:
                time.sleep(0.3)  # the server parses and swaps its copy right after the answer
                return
            time.sleep(0.05)
        raise AssertionError(f"expected {at_least} answers with {status}, got {self.served}")

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def status_list(*serials):
    return json.dumps({"entries": {format(s, "x"): {"status": "REVOKED", "reason": "KEY_COMPROMISE"}
                                   for s in serials}}).encode()


def leaf_serial(statement):
    return x509.load_der_x509_certificate(b64decode(statement["certificateChain"][0])).serial_number


@pytest.fixture
def status_server(store):
    """A server trusting a fresh test authority, reading the fake's list every second (the hidden refresh flag)."""
    fake = StatusListServer()
    authority = test_authority.Authority()
    directory = tempfile.mkdtemp(prefix="assent-status-list-")
    roots = authority.write_root(directory)
    server = Server(directory)
    server.start("--attestation-roots", roots, "--android-attestation-status-url", fake.url,
                 "--android-attestation-status-refresh", "1", "--metrics-token", METRICS_TOKEN)
    try:
        yield server, authority, fake
    finally:
        server.stop()
        fake.close()
        shutil.rmtree(directory, ignore_errors=True)


def prepared(tenant, user):
    """An enrolment ready to send: (send, leaf serial)."""
    token = tenant.token(user)
    device = Device(tenant.server, tenant.id)
    challenge = tenant.challenge(token)
    statement = android_statement(tenant.authority, device, challenge)
    return (lambda: device.add(token, attestation=statement)), leaf_serial(statement)


def enrolled_verdict(tenant, prefix):
    """A fresh user's device enrolled with a good chain: the verdict stored with it."""
    user = prefix + uuid.uuid4().hex[:8]
    send, _ = prepared(tenant, user)
    r = send()
    assert r.status_code == 200, r.text
    [read] = tenant.authenticators(user)
    return read["attestation"]


def metric(server, name, **labels):
    text = requests.get(server.url + "/metrics", headers={"Authorization": "Bearer " + METRICS_TOKEN}, timeout=10).text
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        match = re.match(r'^(\w+)\{([^}]*)\} (\S+)$', line)
        if match and match.group(1) == name and ",".join(sorted(match.group(2).split(","))) == wanted:
            return float(match.group(3))
    raise AssertionError(f"no {name}{{{wanted}}} in the scrape")


def test_nothing_is_fetched_while_no_tenant_uses_android_attestation(status_server):
    server, authority, fake = status_server
    fake.answer(200, status_list())
    # Android packages under policy off, and a policy with Apple app ids only: neither checks Android chains.
    off = AttestingTenant(server, "off")
    apple_only = AttestingTenant(server, "record")
    r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": apple_only.auth},
                       json={"androidPackages": []})
    assert r.status_code == 200, r.text
    time.sleep(4)  # four refresh rounds
    assert fake.count() == 0, "never fetched at start, nor for tenants without Android attestation"
    assert metric(server, "assent_android_status_list_fetches_total", result="ok") == 0
    # Once a tenant checks Android chains, the list is read within a round.
    r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": off.auth},
                       json={"attestationPolicy": "record"})
    assert r.status_code == 200, r.text
    fake.wait_for(200, 1)
    assert metric(server, "assent_android_status_list_fetches_total", result="ok") >= 1


def test_a_revoked_serial_refuses_the_enrolment_and_the_last_good_copy_stays(status_server):
    server, authority, fake = status_server
    tenant = AttestingTenant(server, "record")
    tenant.authority = authority
    # No good copy yet (the fake answers 503): chains verify without the list, and the verdict says so.
    fake.wait_for(503, 1)
    assert enrolled_verdict(tenant, "early-")["revocationChecked"] is False

    # The list revokes two prepared chains' leaves.
    revoked_user = "revoked-" + uuid.uuid4().hex[:8]
    first, first_serial = prepared(tenant, revoked_user)
    second, second_serial = prepared(tenant, revoked_user)
    fake.answer(200, status_list(first_serial, second_serial))
    fake.wait_for(200, 1)
    assert "revoked" in refused(first(), 400, "attestation_invalid")
    # A chain the list does not name is accepted, and its verdict says the list was applied.
    assert enrolled_verdict(tenant, "good-")["revocationChecked"] is True

    # The source fails from now on: the copy there is stays in use.
    failed = fake.count(500)
    fake.answer(500, b"broken")
    fake.wait_for(500, failed + 2)
    # An answer over the list's 16 MiB limit is refused as a whole, never parsed cut short.
    good_answers = fake.count(200)
    fake.answer(200, b"{" + b" " * (16 * 1024 * 1024) + b"}")
    fake.wait_for(200, good_answers + 1)
    fake.answer(500, b"broken")
    deadline = time.time() + 10
    while "larger than 16777216 bytes" not in server.log_text() and time.time() < deadline:
        time.sleep(0.1)
    assert "larger than 16777216 bytes" in server.log_text()
    assert "revoked" in refused(second(), 400, "attestation_invalid")
    assert tenant.authenticators(revoked_user) == []
    assert metric(server, "assent_android_status_list_fetches_total", result="failed") >= 4
    assert metric(server, "assent_android_status_list_fetches_total", result="ok") >= 1
    assert metric(server, "assent_attestation_verdicts_total", format="android-key", outcome="invalid") == 2
    assert metric(server, "assent_attestation_verdicts_total", format="android-key", outcome="verified") == 2
    assert "android attestation status list not refreshed" in server.log_text()


@pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
def test_a_status_list_file_is_read_the_same_way(store):
    authority = test_authority.Authority()
    directory = tempfile.mkdtemp(prefix="assent-status-file-")
    roots, listed = authority.write_root(directory), os.path.join(directory, "status.json")
    server = Server(directory)
    try:
        server.start("--attestation-roots", roots, "--android-attestation-status-file", listed,
                     "--android-attestation-status-refresh", "1")
        tenant = AttestingTenant(server, "require")
        tenant.authority = authority
        send, serial = prepared(tenant, "file-" + uuid.uuid4().hex[:8])
        with open(listed + ".tmp", "wb") as handle:
            handle.write(status_list(serial))
        os.rename(listed + ".tmp", listed)
        deadline = time.time() + 20
        while "android attestation status list refreshed" not in server.log_text() and time.time() < deadline:
            time.sleep(0.1)
        assert "revoked" in refused(send(), 400, "attestation_invalid")
        assert enrolled_verdict(tenant, "file-good-")["revocationChecked"] is True
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
