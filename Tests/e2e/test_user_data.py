"""A user's data on request (docs/privacy.md), on each store: `GET /v1/users/{userId}/export`, the CLI's
`admin user export` and the console's export button answer every table's rows for the user and nobody else's, and
are recorded as `user.exported`; deleting the user leaves no row naming them but the audit chain's (and the
`authenticator.deleted` events the deletion itself queued for the backend), and another user's rows untouched.
Everything stays on 127.0.0.1."""
import json
import os
import re
import subprocess
import tempfile
import time
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import BIN, ROOT, Server, assent
from device import Device
from test_webhooks import Receiver

COOKIE = "assent_console"


@pytest.fixture
def served(store):
    """A server of its own on the current store, with a tenant whose webhooks go to a receiver on loopback; both
    stopped when the test ends."""
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as directory:
        s = start(directory, receiver)
        try:
            yield s, receiver
        finally:
            s.stop()
            receiver.close()


def start(directory, receiver):
    s = Server(directory)
    tenant = assent("admin", "tenant", "create", "--database", s.database, "--name", "Privacy")
    assent("admin", "tenant", "settings", "--database", s.database, "--tenant", tenant["tenantId"],
           "--webhook-url", receiver.url)
    s.start("--webhook-retry", "1", "--web-root", os.path.join(ROOT, "web"))
    s.tenant_id, s.secret = tenant["tenantId"], tenant["secretKey"]
    s.sdk = AuthsignalClient(s.secret, api_url=s.api)
    return s


def person(s, name):
    """A user with a push credential, a tracked action, and an approved push challenge from a given address."""
    user = f"{name}-{uuid.uuid4().hex[:10]}"
    s.sdk.update_user(user, {"email": f"{user}@example.com", "displayName": name.title()})
    token = s.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    device = Device(s, s.tenant_id)
    added = device.add(token)
    assert added.status_code == 200, added.text
    device.authenticator_id = added.json()["userAuthenticatorId"]
    tracked = s.sdk.track(user, "signIn", {"ipAddress": "127.0.0.9", "userAgent": f"agent-of-{user}"})
    started = requests.post(f"{s.api}/client/challenge/push", json={"action": "signIn"},
                            headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
    assert started.status_code == 200, started.text
    challenge_id = started.json()["challengeId"]
    answered = device.answer(challenge_id, approved=True)
    assert answered.status_code == 200, answered.text
    return user, device.authenticator_id, challenge_id


def delivered(receiver, *users, timeout=20):
    """Waits until the backend got each user's `authenticator.created` and `sign_in.completed` events, so none of them
    is still waiting in the outbox."""
    deadline = time.time() + timeout
    wanted = {(kind, user) for user in users for kind in ("authenticator.created", "sign_in.completed")}
    while time.time() < deadline:
        with receiver.lock:
            got = {(json.loads(body)["type"], json.loads(body)["data"].get("userId")) for _, body in receiver.received}
        if wanted <= got:
            return
        time.sleep(0.05)
    raise AssertionError(f"missing webhooks: {wanted - got}")


def export(s, user):
    r = requests.get(f"{s.api}/users/{user}/export", auth=(s.secret, ""), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def naming(s, text):
    """{table: [rows]} of the rows that contain `text` in any column, in every table but `audit_entries` and the
    counters that name no one (`Server.snapshot`, with the sign-in history)."""
    return {table: [row for row in rows if text in row]
            for table, rows in s.snapshot(history=True).items() if any(text in row for row in rows)}


def test_the_export_holds_every_table_s_rows_for_the_user_and_nobody_else_s(served):
    s, receiver = served
    alice, alice_credential, alice_challenge = person(s, "alice")
    bob, bob_credential, bob_challenge = person(s, "bob")
    delivered(receiver, alice, bob)
    data = export(s, alice)
    text = json.dumps(data)
    assert data["userId"] == alice and data["exportedAt"].endswith("Z")
    assert data["user"]["userId"] == alice and data["user"]["email"] == f"{alice}@example.com"
    assert [a["userAuthenticatorId"] for a in data["authenticators"]] == [alice_credential]
    assert [(a["actionCode"], a["userId"]) for a in data["actions"]].count(("signIn", alice)) == 1
    assert {a["actionCode"] for a in data["actions"]} == {"enrol", "signIn"}
    challenge = next(c for c in data["challenges"] if c["challengeId"] == alice_challenge)
    assert challenge["state"] == "approved" and challenge["answeredBy"] == alice_credential
    assert challenge["kind"] == "push" and challenge["actionCode"] == "signIn"
    kinds = [e["kind"] for e in data["auditEntries"]]
    assert "credential.enrolled" in kinds and kinds[-1] == "user.exported"
    assert data["auditEntries"][-1]["actor"] == "secret-key" and data["auditEntries"][-1]["subject"] == alice
    # Alice's rows live only in the tables the export reads (or their children: timelines, deliveries,
    # nonces, events); nothing of Bob's is in her export.
    for table, rows in naming(s, alice).items():
        assert table in {"users", "authenticators", "actions", "challenges", "challenge_timeline",
                         "push_deliveries", "webhook_outbox", "nonces", "push_guards", "sign_in_history"}, (table, rows)
    approved = [r for r in data["signIns"] if r["challengeId"] == alice_challenge]
    assert [(r["outcome"], r["userId"], r["userAuthenticatorId"]) for r in approved] == [
        ("approved", alice, alice_credential)]
    for needle in (bob, bob_credential, bob_challenge, f"agent-of-{bob}"):
        assert needle not in text
    # The audit log records the export with its actor.
    audit = requests.get(f"{s.api}/audit", params={"kind": "user.exported"}, auth=(s.secret, ""), timeout=10)
    assert [(e["subject"], e["actor"]) for e in audit.json()["entries"]] == [(alice, "secret-key")]
    # The CLI asks the same server for the same document.
    out = subprocess.run(
        [os.path.join(BIN, "assent"), "admin", "user", "export", "--url", s.url, "--secret", s.secret,
         "--user", alice, "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["authenticators"] == data["authenticators"] and cli["challenges"] == data["challenges"]
    assert [e["kind"] for e in cli["auditEntries"]].count("user.exported") == 2
    # An unknown user exports as an empty record.
    nobody = export(s, "nobody-" + uuid.uuid4().hex[:8])
    assert "user" not in nobody and nobody["authenticators"] == [] and nobody["challenges"] == []
    assert [e["kind"] for e in nobody["auditEntries"]] == ["user.exported"]
    # Without the tenant's secret nothing is exported (and nothing recorded).
    refused = requests.get(f"{s.api}/users/{alice}/export", auth=("sk_wrong", ""), timeout=10)
    assert refused.status_code == 401 and refused.json()["errorCode"]


def test_deleting_a_user_leaves_no_row_naming_them_but_the_audit_chain_s(served):
    s, receiver = served
    alice, alice_credential, _ = person(s, "alice")
    bob, _, _ = person(s, "bob")
    delivered(receiver, alice, bob)
    # Give Alice a push throttle row and a pending attestation challenge too.
    token = s.sdk.track(alice, "enrol", {"scope": "add:authenticators"})["token"]
    made = requests.post(f"{s.api}/client/attestation/challenge",
                         headers={"Authorization": "Bearer " + token}, timeout=10)
    assert made.status_code == 200, made.text
    before_bob = {t: rows for t, rows in naming(s, bob).items()}
    assert naming(s, alice).keys() >= {"users", "authenticators", "actions", "challenges",
                                       "attestation_challenges", "webhook_outbox", "sign_in_history"}
    deleted = requests.delete(f"{s.api}/users/{alice}", auth=(s.secret, ""), timeout=10)
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True
    deadline = time.time() + 20  # the deletion's authenticator.deleted event reaches the backend
    while time.time() < deadline and not any('"authenticator.deleted"' in body for _, body in receiver.received):
        time.sleep(0.05)
    left = naming(s, alice)
    # Only the deletion's own event for the backend remains (swept seven days after delivery).
    assert set(left) <= {"webhook_outbox"}, left
    for row in left.get("webhook_outbox", []):
        assert "authenticator.deleted" in row and alice_credential in row, row
    assert len(left.get("webhook_outbox", [])) == 1
    assert naming(s, bob) == before_bob, "Bob's rows are untouched"
    # The audit chain keeps the id, and still verifies.
    audit = requests.get(f"{s.api}/audit", auth=(s.secret, ""), params={"limit": 500}, timeout=10).json()
    deletions = [e for e in audit["entries"] if e["kind"] == "user.deleted"]
    assert [(e["subject"], e["actor"]) for e in deletions] == [(alice, "secret-key")]
    verified = subprocess.run(
        [os.path.join(BIN, "assent"), "admin", "audit", "verify", "--database", s.database,
         "--tenant", s.tenant_id, "--json"], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, ASSENT_ALLOW_PRIVATE_URLS="1"))
    assert verified.returncode == 0, verified.stderr + verified.stdout
    # What was erased exports as nothing but those audit entries.
    after = export(s, alice)
    assert "user" not in after and after["authenticators"] == [] and after["challenges"] == []
    assert after["actions"] == [] and after["activations"] == [] and after["signIns"] == []
    assert {e["kind"] for e in after["auditEntries"]} >= {"credential.enrolled", "user.deleted", "user.exported"}


def test_the_console_s_export_button_downloads_the_same_document(served):
    s, receiver = served
    alice, alice_credential, _ = person(s, "alice")
    signed = requests.post(s.url + "/admin/sign-in", data={"credential": s.secret}, allow_redirects=False,
                           headers={"Origin": s.url}, timeout=10)
    cookies = {COOKIE: signed.cookies.get(COOKIE)}
    session = requests.Session()
    session.cookies.update(cookies)
    user_page = session.get(f"{s.url}/admin/users/{alice}", timeout=10)
    assert user_page.status_code == 200 and 'id="export-user"' in user_page.text
    csrf = re.search(r'action="/admin/users/[^"]+/export"[^>]*>\s*<input type="hidden" name="csrf" value="([^"]+)"',
                     user_page.text).group(1)
    # A post without the session's CSRF token, or from another site, exports nothing.
    assert session.post(f"{s.url}/admin/users/{alice}/export", data={"csrf": "x"},
                        headers={"Origin": s.url}, timeout=10).status_code in (400, 403)
    assert session.post(f"{s.url}/admin/users/{alice}/export", data={"csrf": csrf},
                        headers={"Origin": "https://other.example"}, timeout=10).status_code == 403
    download = session.post(f"{s.url}/admin/users/{alice}/export", data={"csrf": csrf},
                            headers={"Origin": s.url}, timeout=10)
    assert download.status_code == 200, download.text
    assert download.headers["Content-Disposition"] == f'attachment; filename="assent-user-{alice}.json"'
    data = download.json()
    assert [a["userAuthenticatorId"] for a in data["authenticators"]] == [alice_credential]
    exported = [e for e in data["auditEntries"] if e["kind"] == "user.exported"]
    assert len(exported) == 1 and exported[0]["actor"].startswith("console:")
