"""Every tenant setting over the server API, on each store: `GET /v1/tenant/settings` answers what
`assent admin tenant settings --json` prints; `PATCH` changes the settings named, each checked by the rules the CLI
and the console follow, and the change is what the server then does; a bad change is the JSON error envelope and
changes nothing; the change is audited by name."""
import tempfile

import pytest
import requests

from conftest import Server, assent


@pytest.fixture()
def configured():
    """A server of its own, tenant URLs held to public addresses (the webhook check below)."""
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        created = assent("admin", "tenant", "create", "--database", s.database, "--name", "Settings")
        s.tenant_id, s.secret = created["tenantId"], created["secretKey"]
        s.start(allow_private_urls=False)
        try:
            yield s
        finally:
            s.stop()


def settings(s, **kwargs):
    return requests.get(s.api + "/tenant/settings", auth=(s.secret, ""), timeout=10, **kwargs)


def patch(s, body, **kwargs):
    return requests.patch(s.api + "/tenant/settings", json=body, auth=(s.secret, ""), timeout=10, **kwargs)


def test_get_answers_every_setting_as_the_cli_prints_it(configured):
    s = configured
    answer = settings(s)
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/json", answer.text
    cli = assent("admin", "tenant", "settings", "--database", s.database, "--tenant", s.tenant_id)["settings"]
    assert answer.json() == cli
    assert answer.json()["challengeTimeoutSeconds"] == 120 and answer.json()["tokenLifetimeSeconds"] is None
    assert requests.get(s.api + "/tenant/settings", timeout=10).status_code == 401


def test_a_patch_changes_what_it_names_and_the_server_acts_on_it(configured):
    s = configured
    before = settings(s).json()
    change = {"unenrolledState": "BLOCK", "max_pending_push_challenges": 9, "tokenLifetimeSeconds": 600,
              "actionRules": {"pay": {"enrolled": "REVIEW_REQUIRED", "unenrolled": None}},
              "approvalFactorRules": {"pay": "possession_biometry"}, "publicCustomKeys": ["amount"]}
    answer = patch(s, change)
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after == settings(s).json()
    expected = dict(before, unenrolledState="BLOCK", maxPendingPushChallenges=9, tokenLifetimeSeconds=600,
                    actionRules={"pay": {"enrolled": "REVIEW_REQUIRED", "unenrolled": None}},
                    approvalFactorRules={"pay": "possession_biometry"}, publicCustomKeys=["amount"])
    assert after == expected
    assert assent("admin", "tenant", "settings", "--database", s.database, "--tenant", s.tenant_id)["settings"] == expected
    # The new unenrolled state decides a new user's action.
    track = requests.post(s.api + "/users/nobody/actions/signIn", json={}, auth=(s.secret, ""), timeout=10)
    assert track.status_code == 200 and track.json()["state"] == "BLOCK", track.text
    # null clears an optional setting; an empty body changes nothing.
    assert patch(s, {"tokenLifetimeSeconds": None}).json()["tokenLifetimeSeconds"] is None
    assert patch(s, {}).json() == dict(expected, tokenLifetimeSeconds=None)
    entries = requests.get(s.api + "/audit", params={"kind": "tenant.settings_changed"}, auth=(s.secret, ""),
                           timeout=10).json()["entries"]
    assert entries[0]["actor"] == "secret-key"
    assert set(entries[0]["details"]["changed"].split(",")) == {
        "unenrolledState", "maxPendingPushChallenges", "tokenLifetimeSeconds", "actionRules", "approvalFactorRules",
        "publicCustomKeys"}
    assert len(entries) == 2, entries  # the empty change is not recorded


@pytest.mark.parametrize("body, status, says", [
    ({"numberMatching": True, "noSuchSetting": 1}, 400, "noSuchSetting is not a tenant setting"),
    ({"numberMatching": True, "challengeTimeoutSeconds": 5}, 400, "from 10 to 600"),
    ({"maxFailedAttempts": 2.5}, 400, "maxFailedAttempts must be a whole number"),
    ({"unenrolledState": "maybe"}, 400, "unenrolledState must be one of"),
    ({"actionRules": {"no spaces": {}}}, 400, "an action code must be"),
    ({"requiredApprovalFactor": "possession_everything"}, 400, "requiredApprovalFactor must be null or one of"),
    ({"push": {"provider": "none"}}, 400, "push is not a tenant setting"),
    ({"webhookURL": "http://127.0.0.1:9/hook"}, 400, "webhookURL"),
    # The anonymous QR allowlist has one limit, whichever route or tool sets it (PATCH /v1/tenant/qr-code: 64 too).
    ({"anonymousActionCodes": [f"a{i}" for i in range(65)]}, 400, "at most 64 action codes"),
    ([1, 2], 400, "JSON object"),
])
def test_a_bad_change_is_refused_with_the_envelope_and_changes_nothing(configured, body, status, says):
    s = configured
    before = s.snapshot()
    answer = patch(s, body)
    assert answer.status_code == status, answer.text
    error = answer.json()
    assert error["errorCode"] == "invalid_request" and error["error"] == "invalid_request"
    assert says in error["errorDescription"], error
    assert s.snapshot() == before


def test_a_body_that_is_not_json_is_refused(configured):
    s = configured
    answer = requests.patch(s.api + "/tenant/settings", data="numberMatching=on", auth=(s.secret, ""), timeout=10,
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 415 and answer.json()["errorCode"] == "unsupported_media_type", answer.text
