"""The audit log end to end, on each store: admin changes made through the CLI and the server API land in the
tenant's chain; `GET /v1/audit` serves it with the secret key, filtered and paged; `assent admin audit verify`
passes on the untouched chain and names the first bad sequence after the database is edited directly (sqlite3 or
psql), which is what someone with database access but without the master key can do."""
import os
import subprocess
import tempfile

import pytest
import requests

from conftest import BIN, Server, assent, postgres
from device import Device


def run(*args):
    """The CLI's exit status, stdout and stderr (no --json unless given)."""
    out = subprocess.run([os.path.join(BIN, "assent"), *args], capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout, out.stderr


def execute(server, sql):
    """Runs `sql` on the server's database directly."""
    if server.database.startswith("postgres"):
        postgres().psql(server.database.rsplit("/", 1)[1], sql)
    else:
        import sqlite3
        db = sqlite3.connect(server.database)
        try:
            db.execute(sql)
            db.commit()
        finally:
            db.close()


@pytest.fixture()
def audited():
    """A server of its own (the test edits its database), with a tenant created, rotated and reconfigured by the CLI."""
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        created = assent("admin", "tenant", "create", "--database", s.database, "--name", "Audited")
        s.tenant_id = created["tenantId"]
        rotated = assent("admin", "tenant", "rotate-secret", "--database", s.database, "--tenant", s.tenant_id)
        s.secret = rotated["secretKey"]
        s.old_secret = created["secretKey"]
        assent("admin", "tenant", "settings", "--database", s.database, "--tenant", s.tenant_id,
               "--number-matching", "on")
        s.start()
        try:
            yield s
        finally:
            s.stop()


def get(server, secret, **params):
    return requests.get(server.api + "/audit", params=params, auth=(secret, ""), timeout=10)


def test_admin_changes_are_listed_by_the_route_and_the_cli_and_the_chain_verifies(audited):
    s = audited
    # A settings change through the server API, and a bulk seed that records one summary entry for 25 users.
    answer = requests.patch(s.api + "/tenant/qr-code", json={"anonymousActionCodes": ["signIn", "pay"]}, auth=(s.secret, ""),
                            timeout=10)
    assert answer.status_code == 200, answer.text
    seeded = assent("admin", "seed", "--database", s.database, "--tenant", s.tenant_id, "--users", "25")
    assert seeded["users"] == 25

    page = get(s, s.secret)
    assert page.status_code == 200 and page.headers["Content-Type"] == "application/json"
    entries = page.json()["entries"]
    kinds = [e["kind"] for e in entries]
    assert kinds == ["tenant.created", "tenant.secret_rotated", "tenant.settings_changed", "tenant.settings_changed",
                     "users.seeded"]
    assert [e["sequence"] for e in entries] == [1, 2, 3, 4, 5]
    assert [e["actor"] for e in entries] == ["cli", "cli", "cli", "secret-key", "cli"]
    assert entries[2]["details"] == {"changed": "numberMatching"}
    assert entries[4]["details"]["users"] == "25"
    text = page.text
    assert s.secret not in text and s.old_secret not in text

    # Filters and the cursor.
    assert [e["sequence"] for e in get(s, s.secret, kind="tenant.settings_changed").json()["entries"]] == [3, 4]
    first = get(s, s.secret, limit="2").json()
    assert [e["sequence"] for e in first["entries"]] == [1, 2] and first["nextCursor"] == "2"
    second = get(s, s.secret, limit="2", cursor=first["nextCursor"]).json()
    assert [e["sequence"] for e in second["entries"]] == [3, 4]
    assert get(s, s.secret, since="2100-01-01T00:00:00Z").json() == {"entries": []}

    # The old secret, a wrong one and bad parameters are refused with the error envelope.
    for secret in (s.old_secret, "sk_wrong"):
        refused = get(s, secret)
        assert refused.status_code == 401 and set(refused.json()) >= {"error", "errorCode", "errorDescription"}
    for params in ({"limit": "0"}, {"limit": "x"}, {"since": "yesterday"}, {"cursor": "-1"}):
        bad = get(s, s.secret, **params)
        assert bad.status_code == 400 and bad.json()["errorCode"] == "invalid_request", params

    # The CLI lists the same entries and verifies the chain.
    listed = assent("admin", "audit", "list", "--database", s.database, "--tenant", s.tenant_id)
    assert listed["entries"] == entries
    verified = assent("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)
    assert verified["intact"] is True and verified["entries"] == 5 and verified["headSequence"] == 5


def test_a_detail_changed_in_the_database_is_detected_by_verify(audited):
    s = audited
    execute(s, f"UPDATE audit_entries SET details = '{{\"changed\":\"nothing\"}}' "
               f"WHERE tenant_id = '{s.tenant_id}' AND sequence = 3")
    status, _, err = run("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)
    assert status == 1
    assert "broken at sequence 3" in err
    # A broken chain is not pruned (that would erase the evidence).
    status, _, err = run("admin", "audit", "prune", "--database", s.database, "--tenant", s.tenant_id,
                         "--older-than-days", "0")
    assert status == 1 and "not pruned" in err


def test_a_deleted_entry_is_detected_by_verify(audited):
    s = audited
    execute(s, f"DELETE FROM audit_entries WHERE tenant_id = '{s.tenant_id}' AND sequence = 2")
    status, _, err = run("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id, "--json")
    assert status == 1 and "broken at sequence 2" in err


def test_swapped_entries_are_detected_by_verify(audited):
    s = audited
    for sql in ("UPDATE audit_entries SET sequence = 100 WHERE tenant_id = '{t}' AND sequence = 1",
                "UPDATE audit_entries SET sequence = 1 WHERE tenant_id = '{t}' AND sequence = 3",
                "UPDATE audit_entries SET sequence = 3 WHERE tenant_id = '{t}' AND sequence = 100"):
        execute(s, sql.format(t=s.tenant_id))
    status, _, err = run("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)
    assert status == 1 and "broken at sequence 1" in err


def test_retention_leaves_a_checkpoint_that_verify_continues_from(audited):
    s = audited
    pruned = assent("admin", "audit", "prune", "--database", s.database, "--tenant", s.tenant_id,
                    "--older-than-days", "0")
    assert pruned["dropped"] == 3
    entries = get(s, s.secret).json()["entries"]
    assert [(e["sequence"], e["kind"]) for e in entries] == [(4, "audit.checkpoint")]
    assert entries[0]["details"]["droppedThrough"] == "3"
    # A later change links on after the checkpoint.
    answer = requests.patch(s.api + "/tenant/qr-code", json={"anonymousActionCodes": ["signIn", "pay"]}, auth=(s.secret, ""),
                            timeout=10)
    assert answer.status_code == 200, answer.text
    verified = assent("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)
    assert verified["intact"] is True and verified["entries"] == 2 and verified["headSequence"] == 5


def test_rate_limit_refusals_are_summarised_in_one_entry(audited):
    s = audited
    s.stop()
    s.start("--rate-limits", "on", "--rate-limit", "start-user=1/1h")
    tracked = requests.post(s.api + "/users/flooder/actions/signIn", json={}, auth=(s.secret, ""), timeout=10)
    assert tracked.status_code == 200, tracked.text
    bearer = {"Authorization": "Bearer " + tracked.json()["token"]}
    statuses = [requests.post(s.api + "/client/challenge/push", json={}, headers=bearer, timeout=10).status_code
                for _ in range(8)]
    assert statuses.count(429) == 7, statuses
    # The summary is written once a minute, and at shutdown.
    s.stop()
    listed = assent("admin", "audit", "list", "--database", s.database, "--tenant", s.tenant_id,
                    "--kind", "rate_limit.tripped")
    assert [e["details"] for e in listed["entries"]] == [{"start-user": "7", "total": "7"}]
    assert listed["entries"][0]["actor"] == "system"
    verified = assent("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)
    assert verified["intact"] is True
    s.start()


def test_device_enrolment_fraud_report_and_removal_are_recorded(audited):
    s = audited
    tracked = requests.post(s.api + "/users/mallory-target/actions/enrol", json={"scope": "add:authenticators"},
                            auth=(s.secret, ""), timeout=10)
    assert tracked.status_code == 200, tracked.text
    device = Device(s, s.tenant_id)
    added = device.add(tracked.json()["token"])
    assert added.status_code == 200, added.text
    credential = added.json()["userAuthenticatorId"]

    sign_in = requests.post(s.api + "/users/mallory-target/actions/signIn", json={}, auth=(s.secret, ""), timeout=10)
    started = requests.post(s.api + "/client/challenge/push", json={"action": "signIn"},
                            headers={"Authorization": "Bearer " + sign_in.json()["token"]}, timeout=10)
    assert started.status_code == 200, started.text
    challenge = started.json()["challengeId"]
    message = device.decision_message(challenge, False, "", report_fraud=True)
    denied = requests.post(device.url("push/challenge"), headers=device.basic, timeout=10, json={
        "challengeId": challenge, "publicKey": device.public_key, "approved": False, "reportFraud": True,
        "signature": device.sign(challenge), "boundSignature": device.sign(message)})
    assert denied.status_code == 200, denied.text
    removed = device.remove()
    assert removed.status_code == 200, removed.text

    entries = [e for e in get(s, s.secret).json()["entries"] if e["actor"] == "device"]
    assert [(e["kind"], e.get("subject")) for e in entries] == [
        ("credential.enrolled", credential), ("challenge.fraud_reported", "mallory-target"),
        ("credential.removed", credential)]
    assert entries[1]["details"] == {"challengeId": challenge, "userAuthenticatorId": credential}
    # No key, signature or token in what was recorded.
    text = get(s, s.secret).text
    assert device.public_key not in text and sign_in.json()["token"] not in text
    assert assent("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)["intact"] is True


def test_backend_enrolment_and_removal_are_recorded_and_a_refused_one_is_not(audited):
    s = audited
    enrolled = requests.post(s.api + "/users/bob/authenticators", auth=(s.secret, ""), timeout=10,
                             json={"verificationMethod": "EMAIL_OTP", "email": "bob@example.com"})
    assert enrolled.status_code == 200, enrolled.text
    authenticator = enrolled.json()["authenticator"]["userAuthenticatorId"]
    refused = requests.post(s.api + "/users/bob/authenticators", auth=(s.secret, ""), timeout=10,
                            json={"verificationMethod": "PASSKEY"})
    assert refused.status_code == 400
    deleted = requests.delete(s.api + f"/users/bob/authenticators/{authenticator}", auth=(s.secret, ""), timeout=10)
    assert deleted.status_code == 200, deleted.text
    entries = get(s, s.secret, since="0").json()["entries"][3:]
    assert [(e["kind"], e["actor"], e.get("subject")) for e in entries] == [
        ("credential.enrolled", "secret-key", authenticator), ("credential.removed", "secret-key", authenticator)]
    assert entries[0]["details"] == {"userId": "bob", "verificationMethod": "EMAIL_OTP"}
    assert "bob@example.com" not in get(s, s.secret).text


def test_activation_block_unblock_and_removal_are_recorded(audited):
    import json
    s = audited
    master = assent("admin", "tenant", "powerauth", "--database", s.database, "--tenant", s.tenant_id)

    def device(home, *args, password=None):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
        if password is not None:
            env["ASSENT_DEVICE_PASSWORD"] = password
        out = subprocess.run([os.path.join(BIN, "assent"), "device", *args, "--home", os.path.join(home, "d"),
                              "--json"], capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        assert out.returncode == 0, out.stderr + out.stdout
        return json.loads(out.stdout)

    def enrolment():
        r = requests.post(s.api + "/users/carol/actions/enrol", json={"scope": "add:authenticators"},
                          auth=(s.secret, ""), timeout=10)
        assert r.status_code == 200, r.text
        return r.json()["token"]

    with tempfile.TemporaryDirectory() as home:
        device(home, "push", "enrol", "--url", s.url, "--tenant", s.tenant_id, "--token", enrolment())
        activated = device(home, "activate", "--token", enrolment(), "--master-public-key", master["masterPublicKey"],
                           password="2468")
    activation = activated["activationId"]
    for method, path in (("POST", "/block"), ("POST", "/unblock"), ("DELETE", "")):
        r = requests.request(method, s.api + f"/activations/{activation}{path}", auth=(s.secret, ""), timeout=10)
        assert r.status_code == 200, r.text
    entries = get(s, s.secret, cursor="3").json()["entries"]
    assert [(e["kind"], e["actor"]) for e in entries] == [
        ("credential.enrolled", "device"), ("activation.blocked", "secret-key"), ("activation.unblocked", "secret-key"),
        ("activation.removed", "secret-key")]
    assert all(e["subject"] == activation and e["details"] == {"userId": "carol"} for e in entries[1:])


def test_an_activation_blocked_after_too_many_failed_signatures_is_recorded_once_by_the_system(audited):
    from powerauth_device import PowerAuthDevice
    s = audited
    master = assent("admin", "tenant", "powerauth", "--database", s.database, "--tenant", s.tenant_id)
    token = requests.post(s.api + "/users/dave/actions/enrol", json={"scope": "add:authenticators"},
                          auth=(s.secret, ""), timeout=10).json()["token"]
    device = PowerAuthDevice(s.api, master["masterPublicKey"], s.tenant_id)
    device.activate(token)
    before = len(get(s, s.secret, kind="activation.blocked", limit="1000").json()["entries"])
    for _ in range(7):
        # A wrong PIN: the possession factor verifies, so each counts, and the fifth blocks (the default limit).
        refused = device.unlock_vault(device.vault_header(knowledge_key=bytes(16)))
        assert refused.status_code == 401
    got = requests.get(s.api + f"/activations/{device.activation_id}", auth=(s.secret, ""), timeout=10).json()
    assert got["activationStatus"] == "BLOCKED" and got["blockedReason"] == "MAX_FAILED_ATTEMPTS"
    entries = get(s, s.secret, kind="activation.blocked", limit="1000").json()["entries"][before:]
    assert [(e["actor"], e["subject"]) for e in entries] == [("system", device.activation_id)]
    assert entries[0]["details"] == {"userId": "dave", "reason": "MAX_FAILED_ATTEMPTS", "failedAttempts": "5"}
    assert assent("admin", "audit", "verify", "--database", s.database, "--tenant", s.tenant_id)["intact"] is True


def test_a_user_deleted_through_the_server_api_is_recorded_and_an_unknown_one_is_not(audited):
    s = audited
    made = requests.post(s.api + "/users/erin/authenticators", auth=(s.secret, ""), timeout=10,
                         json={"verificationMethod": "EMAIL_OTP", "email": "erin@example.com"})
    assert made.status_code == 200, made.text
    for user in ("erin", "nobody-at-all"):
        deleted = requests.delete(s.api + f"/users/{user}", auth=(s.secret, ""), timeout=10)
        assert deleted.status_code == 200, deleted.text
    entries = get(s, s.secret, kind="user.deleted", limit="1000").json()["entries"]
    assert [(e["actor"], e["subject"]) for e in entries] == [("secret-key", "erin")]
