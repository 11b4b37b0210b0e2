"""The authentication history end to end, on each store: push, QR and PowerAuth-factor approvals, denials and
refusals appear in `GET /v1/sign-ins` with their reason (and as `sign_in.completed` webhooks), an unanswered challenge
as `expired`; the filters, the cursor and the CSV and JSON-lines exports agree with one another and with the console's
Sign-ins page (headless Chromium); the retention sweep deletes exactly the rows past each tenant's retention."""
import base64
import csv
import io
import json
import os
import time
import uuid
from types import SimpleNamespace

import pytest
import requests
from authsignal.client import AuthsignalClient
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from conftest import assent, console_server
from device import Device
from powerauth_device import PowerAuthDevice
from test_browser import WAIT, browser  # noqa: F401 (fixture)
from test_console_users import signed_in
from test_webhooks import Receiver

COLUMNS = ["at", "userId", "actionCode", "method", "factor", "userAuthenticatorId", "outcome", "reason", "ipAddress",
           "userAgent", "verificationMs", "challengeId"]
DAY = 86_400_000


@pytest.fixture(scope="module")
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(scope="module")
def hs(store, receiver):
    """A server whose tenant posts webhooks to `receiver`, needs a possession_biometry PowerAuth signature for the
    `payment` action only, and lets challenges live 10 s; the expiry count runs every second."""
    def prepare(server):
        server.powerauth = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", server.tenant_id)
        assent("admin", "tenant", "settings", "--database", server.database, "--tenant", server.tenant_id,
               "--webhook-url", receiver.url, "--action-approval-factor", "payment:possession_biometry",
               "--challenge-timeout", "10")
        seeded = assent("admin", "tenant", "create", "--database", server.database, "--name", "Seeded")
        server.seeded_id, server.seeded_secret = seeded["tenantId"], seeded["secretKey"]
        # 700 rows over 7 days for the filter, cursor and export tests.
        assent("admin", "seed-sign-ins", "--database", server.database, "--tenant", server.seeded_id, "--rows", "700",
               "--users", "9", "--days", "7")

    with console_server("assent-sign-ins-", "History", "--metrics-sample", "1", "--webhook-retry", "1",
                        prepare=prepare) as server:
        server.sdk = AuthsignalClient(server.secret, api_url=server.api)
        yield server


def auth(secret):
    return {"Authorization": "Basic " + base64.b64encode((secret + ":").encode()).decode()}


def sign_ins(server, secret=None, **params):
    r = requests.get(server.api + "/sign-ins", params=params, headers=auth(secret or server.secret), timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"].startswith("application/json")
    return r.json()


def all_sign_ins(server, secret=None, **params):
    """Every row the filters select, page by page through the cursor."""
    rows, cursor = [], None
    while True:
        page = sign_ins(server, secret, **params, **({"cursor": cursor} if cursor else {}))
        rows += page["signIns"]
        cursor = page.get("nextCursor")
        if not cursor:
            return rows


def of_challenge(server, challenge_id, count=1, timeout=15):
    """The rows of one challenge (waiting for `count` of them: an expiry is recorded by the next expiry count)."""
    deadline = time.time() + timeout
    while True:
        rows = [r for r in sign_ins(server, limit=1000)["signIns"] if r.get("challengeId") == challenge_id]
        if len(rows) >= count or time.time() > deadline:
            return rows
        time.sleep(0.2)


def track(server, user, action="signIn", scope=None):
    """A track token; the backend passes on the user's address and browser, which the challenge and its row keep."""
    body = {"scope": scope} if scope else {"ipAddress": "198.51.100.23", "userAgent": "HistoryBrowser/2.0"}
    r = requests.post(f"{server.api}/users/{user}/actions/{action}", json=body, headers=auth(server.secret), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def push_device(server, user):
    device = Device(server, server.tenant_id)
    assert device.add(track(server, user, "enrol", "add:authenticators")).status_code == 200
    return device


def start_push(server, user, action="signIn"):
    r = requests.post(server.api + "/client/challenge/push", json={"action": action},
                      headers={"Authorization": "Bearer " + track(server, user, action)}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["challengeId"]


def test_push_approval_denial_fraud_and_expiry_are_recorded_with_their_reasons(hs, receiver):
    user = "push-" + uuid.uuid4().hex[:6]
    device = push_device(hs, user)
    approved = start_push(hs, user)
    assert device.answer(approved, approved=True).status_code == 200
    [row] = of_challenge(hs, approved)
    assert row["outcome"] == "approved" and "reason" not in row and row["method"] == "push"
    assert row["userId"] == user and row["actionCode"] == "signIn" and row["userAuthenticatorId"] == device.credential_ids["push"]
    assert row["ipAddress"] == "198.51.100.23" and row["userAgent"] == "HistoryBrowser/2.0" and row["verificationMs"] >= 0

    denied = start_push(hs, user)
    assert device.answer(denied, approved=False).status_code == 200
    [row] = of_challenge(hs, denied)
    assert row["outcome"] == "declined" and "reason" not in row

    expired = start_push(hs, user)
    [row] = of_challenge(hs, expired, timeout=25)
    assert row["outcome"] == "expired" and row["reason"] == "expired" and "verificationMs" not in row
    # A late answer is refused, and recorded as such; the expiry stays recorded once.
    late = device.answer(expired, approved=True)
    assert late.status_code != 200 and late.json()["errorCode"] == "challenge_closed"
    rows = of_challenge(hs, expired, count=2)
    assert sorted((r["outcome"], r.get("reason")) for r in rows) == [("expired", "expired"), ("refused", "challenge_closed")]

    fraud = start_push(hs, user)
    r = device.session.post(device.url("push/challenge"), headers=device.basic, json={
        "challengeId": fraud, "publicKey": device.public_key, "approved": False, "reportFraud": True,
        "signature": device.sign(fraud)})
    assert r.status_code == 200, r.text
    [row] = of_challenge(hs, fraud)
    assert row["outcome"] == "declined" and row["reason"] == "fraud_reported"

    # Each outcome reached the tenant's webhook as sign_in.completed, with the row's facts.
    deadline = time.time() + 20
    while True:
        events = [json.loads(body) for _, body in receiver.received]
        outcomes = {(e["data"].get("challengeId"), e["data"]["outcome"], e["data"].get("reason"))
                    for e in events if e["type"] == "sign_in.completed"}
        wanted = {(approved, "approved", None), (denied, "declined", None), (expired, "expired", "expired"),
                  (expired, "refused", "challenge_closed"), (fraud, "declined", "fraud_reported")}
        if wanted <= outcomes or time.time() > deadline:
            break
        time.sleep(0.2)
    assert wanted <= outcomes, outcomes


def test_qr_approval_and_decline_are_recorded(hs):
    user = "qr-" + uuid.uuid4().hex[:6]
    device = Device(hs, hs.tenant_id)
    assert device.add(track(hs, user, "enrol", "add:authenticators"), kind="qr-code").status_code == 200
    for approved in (True, False):
        r = requests.post(hs.api + "/client/challenge/qr-code", json={"action": "signIn"},
                          headers={"Authorization": "Bearer " + track(hs, user)}, timeout=10)
        assert r.status_code == 200, r.text
        challenge = r.json()["challengeId"]
        assert device.claim(challenge).status_code == 200
        assert device.answer(challenge, approved=approved, kind="qr-code").status_code == 200
        [row] = of_challenge(hs, challenge)
        assert (row["outcome"], row["method"], row["userId"]) == ("approved" if approved else "declined", "qr", user)
        assert row["userAuthenticatorId"] == device.credential_ids["qr-code"]


def test_powerauth_factor_refusals_and_approval_are_recorded(hs):
    user = "pa-" + uuid.uuid4().hex[:6]
    push = push_device(hs, user)
    pa = PowerAuthDevice(hs.api, hs.powerauth["masterPublicKey"], hs.tenant_id)
    pa.activate(track(hs, user, "activate", "add:authenticators"))
    challenge = start_push(hs, user, action="payment")
    path = "/v1/client/user-authenticators/push/challenge"
    body = json.dumps({"challengeId": challenge, "publicKey": push.public_key, "approved": True,
                       "signature": push.sign(challenge)}).encode()

    def answer(extra):
        return requests.post(hs.url + path, data=body, timeout=10,
                             headers=dict(push.basic, **{"Content-Type": "application/json"}, **extra))

    assert answer({}).json()["errorCode"] == "factor_required"
    weak = answer({"X-PowerAuth-Authorization": pa.header("POST", path, body, "possession_knowledge")})
    assert weak.json()["errorCode"] == "factor_required"
    strong = answer({"X-PowerAuth-Authorization": pa.header("POST", path, body, "possession_biometry")})
    assert strong.status_code == 200, strong.text
    rows = of_challenge(hs, challenge, count=3)
    assert [(r["outcome"], r.get("reason"), r.get("factor")) for r in rows] == [
        ("approved", None, "possession_biometry"), ("refused", "factor_required", "possession_knowledge"),
        ("refused", "factor_required", None)]
    assert all(r["actionCode"] == "payment" and r["userId"] == user for r in rows)
    # Newest first, and each filter selects exactly its rows.
    assert [r["outcome"] for r in sign_ins(hs, user=user, outcome="refused")["signIns"]] == ["refused", "refused"]
    assert [r["challengeId"] for r in sign_ins(hs, user=user, action="payment", outcome="approved")["signIns"]] == [challenge]


def matches(row, user=None, outcome=None, method=None, action=None, frm=None, to=None):
    at = row["at"]
    return ((user is None or row["userId"] == user) and (outcome is None or row["outcome"] == outcome)
            and (method is None or row["method"] == method) and (action is None or row.get("actionCode") == action)
            and (frm is None or at >= frm) and (to is None or at < to))


def test_filters_cursor_and_exports_agree(hs):
    everything = all_sign_ins(hs, hs.seeded_secret, limit=1000)
    assert len(everything) == 700
    assert [r["at"] for r in everything] == sorted((r["at"] for r in everything), reverse=True)
    # Paging with a small limit walks the same rows, each once.
    paged = all_sign_ins(hs, hs.seeded_secret, limit=7)
    assert paged == everything
    frm, to = everything[500]["at"], everything[100]["at"]
    for filters in [dict(user="seed-user-3"), dict(outcome="expired"), dict(method="qr"), dict(action="payment"),
                    dict(user="seed-user-4", outcome="approved", method="push"), dict(frm=frm, to=to),
                    dict(action="addPayee", outcome="refused", frm=frm)]:
        params = {("from" if k == "frm" else k): v for k, v in filters.items()}
        expected = [r for r in everything if matches(r, **filters)]
        assert expected, filters
        assert all_sign_ins(hs, hs.seeded_secret, limit=13, **params) == expected, filters

        r = requests.get(hs.api + "/sign-ins", params=dict(params, format="csv"), headers=auth(hs.seeded_secret), timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/csv")
        reader = csv.DictReader(io.StringIO(r.text, newline=""))
        assert reader.fieldnames == COLUMNS
        parsed = list(reader)
        assert parsed == [{c: ("" if row.get(c) is None else str(row[c])) for c in COLUMNS} for row in expected]

        r = requests.get(hs.api + "/sign-ins", params=dict(params, format="jsonl"), headers=auth(hs.seeded_secret), timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"] == "application/jsonl"
        assert [json.loads(line) for line in r.text.splitlines()] == expected
    # An export pages too: its cursor comes in X-Next-Cursor.
    r = requests.get(hs.api + "/sign-ins", params={"format": "csv", "limit": "600"}, headers=auth(hs.seeded_secret), timeout=10)
    rest = requests.get(hs.api + "/sign-ins", params={"format": "csv", "cursor": r.headers["X-Next-Cursor"]},
                        headers=auth(hs.seeded_secret), timeout=10)
    assert "X-Next-Cursor" not in rest.headers
    ids = [row["challengeId"] for row in csv.DictReader(io.StringIO(r.text + rest.text.split("\r\n", 1)[1], newline=""))]
    assert ids == [row["challengeId"] for row in everything]
    # One tenant never sees another's rows.
    assert not any(row["challengeId"].startswith("seed-") for row in all_sign_ins(hs, limit=1000))


@pytest.mark.parametrize("params", [{"outcome": "maybe"}, {"method": "sms"}, {"from": "yesterday"}, {"limit": "0"},
                                    {"limit": "1001"}, {"cursor": "not-a-cursor"}, {"format": "xml"}])
def test_bad_filters_are_refused_with_the_error_envelope(hs, params):
    r = requests.get(hs.api + "/sign-ins", params=params, headers=auth(hs.seeded_secret), timeout=10)
    assert r.status_code == 400 and r.json()["errorCode"] == "invalid_request" and r.json()["errorDescription"]
    assert requests.get(hs.api + "/sign-ins", timeout=10).status_code == 401


def follow(browser, element_id):
    """Clicks `element_id` and waits for the next page to replace this one."""
    page = browser.find_element(By.TAG_NAME, "main")
    browser.find_element(By.ID, element_id).click()
    WebDriverWait(browser, WAIT).until(expected_conditions.staleness_of(page))
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.TAG_NAME, "main"))


def test_console_sign_ins_page_filters_as_the_api_does(hs, browser):  # noqa: F811
    signed_in(browser, SimpleNamespace(url=hs.url, secret=hs.seeded_secret))
    follow(browser, "nav-sign-ins")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "sign-in-filters"))
    browser.find_element(By.ID, "user").send_keys("seed-user-5")
    browser.find_element(By.CSS_SELECTOR, "#outcome option[value='approved']").click()
    follow(browser, "filter")
    assert "outcome=approved" in browser.current_url
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sign-ins tbody tr')).map(r => "
        "[r.querySelector('time').getAttribute('datetime'), r.querySelector('.user').textContent, "
        "r.dataset.outcome, r.querySelector('.outcome').textContent])")
    api = sign_ins(hs, hs.seeded_secret, user="seed-user-5", outcome="approved", limit=50)["signIns"]
    assert len(shown) == 50 and shown == [[r["at"], r["userId"], r["outcome"], "Approved"] for r in api]
    # The next page continues where the API's cursor does.
    follow(browser, "older-page")
    assert "cursor=" in browser.current_url
    second = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sign-ins tbody tr')).map(r => "
        "r.querySelector('time').getAttribute('datetime'))")
    api_next = sign_ins(hs, hs.seeded_secret, user="seed-user-5", outcome="approved", limit=50,
                        cursor=sign_ins(hs, hs.seeded_secret, user="seed-user-5", outcome="approved",
                                        limit=50)["nextCursor"])["signIns"]
    assert second and second == [r["at"] for r in api_next]
    # The method filter too, chosen in the form.
    browser.find_element(By.CSS_SELECTOR, "#method option[value='qr']").click()
    follow(browser, "filter")
    assert "method=qr" in browser.current_url
    methods = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sign-ins tbody tr')).map(r => "
        "[r.querySelector('time').getAttribute('datetime'), r.dataset.method, "
        "r.querySelector('.method').textContent])")
    api_qr = sign_ins(hs, hs.seeded_secret, user="seed-user-5", outcome="approved", method="qr", limit=50)["signIns"]
    assert methods and methods == [[r["at"], "qr", "QR code"] for r in api_qr]
    # The user page shows the user's latest ten, and links to all of them.
    r = requests.post(hs.api + "/users/seed-user-5/actions/enrol", json={}, headers=auth(hs.seeded_secret), timeout=10)
    assert r.status_code == 200, r.text
    browser.get(hs.url + "/admin/users/seed-user-5")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "user-sign-ins"))
    latest = browser.execute_script(
        "return Array.from(document.querySelectorAll('#user-sign-ins tbody tr')).map(r => "
        "[r.querySelector('time').getAttribute('datetime'), r.dataset.outcome, "
        "r.querySelector('.outcome').textContent])")
    api_user = sign_ins(hs, hs.seeded_secret, user="seed-user-5", limit=10)["signIns"]
    assert latest == [[r["at"], r["outcome"], r["outcome"].capitalize()] for r in api_user]
    follow(browser, "all-sign-ins")
    assert "user=seed-user-5" in browser.current_url and browser.find_elements(By.ID, "sign-ins")
    assert browser.find_element(By.ID, "user").get_attribute("value") == "seed-user-5"
    # A filter the API refuses is refused here too, with its words, listing nothing.
    browser.get(hs.url + "/admin/sign-ins?from=yesterday")
    assert "from must be an ISO-8601" in browser.find_element(By.TAG_NAME, "main").text
    assert not browser.find_elements(By.ID, "sign-ins")


def test_retention_deletes_exactly_the_rows_past_each_tenants_retention(store):
    def prepare(server):
        other = assent("admin", "tenant", "create", "--database", server.database, "--name", "Default retention")
        server.other_id, server.other_secret = other["tenantId"], other["secretKey"]
        for tenant in (server.tenant_id, server.other_id):
            # 200 rows, one every half day over the last 100 days (ages 99.75, 99.25, ... 0.25 days).
            assent("admin", "seed-sign-ins", "--database", server.database, "--tenant", tenant, "--rows", "200",
                   "--users", "3", "--days", "100", "--batch", "64")
        assent("admin", "tenant", "settings", "--database", server.database, "--tenant", server.tenant_id,
               "--sign-in-history-retention", "45")

    with console_server("assent-sign-in-retention-", "Retention", prepare=prepare) as server:
        # The sweep runs as assentd starts: 45 days keep the 90 rows younger than 45 days, the default 90 days the
        # 180 younger than 90 — and nothing else goes.
        deadline = time.time() + 30
        while True:
            kept = all_sign_ins(server, limit=1000)
            other = all_sign_ins(server, server.other_secret, limit=1000)
            if (len(kept), len(other)) == (90, 180) or time.time() > deadline:
                break
            time.sleep(0.5)
        assert (len(kept), len(other)) == (90, 180)
        now = time.time() * 1000

        def age(row):
            return (now - ms(row["at"])) / DAY

        assert 44.5 < age(kept[-1]) < 45 and age(kept[0]) < 0.5
        assert 89.5 < age(other[-1]) < 90
        assert [r["challengeId"] for r in kept] == [f"seed-challenge-{i}" for i in range(199, 109, -1)]
        assert [r["challengeId"] for r in other] == [f"seed-challenge-{i}" for i in range(199, 19, -1)]


def ms(iso):
    from datetime import datetime, timezone
    return datetime.strptime(iso.replace("Z", ""), "%Y-%m-%dT%H:%M:%S.%f" if "." in iso else "%Y-%m-%dT%H:%M:%S").replace(
        tzinfo=timezone.utc).timestamp() * 1000
