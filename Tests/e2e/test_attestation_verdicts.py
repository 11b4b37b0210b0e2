"""An enrolment's device attestation verdict everywhere it belongs, over a real assentd on each store: the
`authenticator.created` webhook carries it (and omits it for an unattested credential), the admin console's user page
shows it per credential in an operator's words (headless Chromium), and `/metrics` counts verdicts by format and
outcome (`assent_attestation_verdicts_total`). Attestations come from a fresh test authority trusted through
`--attestation-roots`; the webhook receiver and the server listen on 127.0.0.1 only."""
import base64
import json
import re
import shutil
import tempfile
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Server, console_server
from device import Device
from test_attestation import AttestingTenant, android_statement, apple_statement, refused, test_authority
from test_browser import WAIT, browser, shots  # noqa: F401 (fixtures)
from test_console_users import both_widths, signed_in
from test_webhooks import Receiver

METRICS_TOKEN = "attestation-verdicts-token"


@pytest.fixture(scope="module")
def authority():
    return test_authority.Authority()


@pytest.fixture(scope="module")
def roots(authority):
    directory = tempfile.mkdtemp(prefix="assent-verdict-roots-")
    yield authority.write_root(directory)
    shutil.rmtree(directory, ignore_errors=True)


class ConsoleTenant(AttestingTenant):
    """The console server's own tenant (the one the browser signs in to), set to `record` like AttestingTenant's."""

    def __init__(self, server, authority):
        self.id, self.server, self.authority = server.tenant_id, server, authority
        self.auth = "Basic " + base64.b64encode((server.secret + ":").encode()).decode()
        self.sdk = AuthsignalClient(server.secret, api_url=server.api)
        r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": self.auth}, json={
            "attestationPolicy": "record", "appleAppIds": [test_authority.APP_ID], "appleAttestationEnvironment": "both",
            "androidPackages": [{"packageName": test_authority.PACKAGE,
                                 "signingCertificateSha256": [test_authority.SIGNING_DIGEST.hex()]}]})
        assert r.status_code == 200, r.text


def enrol(tenant, user, make=None, **variant):
    token = tenant.token(user)
    device = Device(tenant.server, tenant.id)
    extra = {"attestation": make(tenant.authority, device, tenant.challenge(token), **variant)} if make else {}
    r = device.add(token, **extra)
    assert r.status_code == 200, r.text
    return r.json()["userAuthenticatorId"]


def scrape(server):
    text = requests.get(server.url + "/metrics", headers={"Authorization": "Bearer " + METRICS_TOKEN}, timeout=10).text
    samples = {}
    for line in text.splitlines():
        match = re.match(r'^assent_attestation_verdicts_total\{format="([^"]+)",outcome="([^"]+)"\} (\d+)$', line)
        if match:
            samples[(match.group(1), match.group(2))] = int(match.group(3))
    return samples


def test_the_webhook_carries_the_verdict_and_metrics_count_verdicts(store, authority, roots):
    receiver = Receiver()
    directory = tempfile.mkdtemp(prefix="assent-verdict-hooks-")
    server = Server(directory)
    server.start("--attestation-roots", roots, "--metrics-token", METRICS_TOKEN, "--webhook-retry", "1")
    try:
        before = scrape(server)
        assert set(before) == {("apple-appattest", o) for o in ("verified", "invalid", "challenge_invalid")} | {
            ("android-key", o) for o in ("verified", "invalid", "challenge_invalid")} | {("none", "missing")}
        assert all(count == 0 for count in before.values())
        tenant = AttestingTenant(server, "record")
        tenant.authority = authority
        r = requests.patch(f"{server.api}/tenant/settings", headers={"Authorization": tenant.auth},
                           json={"webhookURL": receiver.url})
        assert r.status_code == 200, r.text
        android_user, apple_user, plain_user = (p + uuid.uuid4().hex[:8] for p in ("hook-a-", "hook-i-", "hook-n-"))
        ids = {enrol(tenant, android_user, android_statement): android_user,
               enrol(tenant, apple_user, apple_statement): apple_user,
               enrol(tenant, plain_user): plain_user}
        events = [json.loads(body) for _, body in receiver.wait_for(3)]
        created = {e["data"]["userAuthenticatorId"]: e["data"] for e in events if e["type"] == "authenticator.created"}
        assert set(created) == set(ids)
        for authenticator_id, user in ids.items():
            [read] = tenant.authenticators(user)
            if user == plain_user:
                assert "attestation" not in created[authenticator_id] and "attestation" not in read
            else:
                assert created[authenticator_id]["attestation"] == read["attestation"]
                assert created[authenticator_id]["attestation"]["verified"] is True
        assert created[next(i for i, u in ids.items() if u == android_user)]["attestation"]["format"] == "android-key"

        # Refusals: a bad chain, another user's challenge, and none under `require`.
        device, token = Device(server, tenant.id), tenant.token(android_user)
        bad = android_statement(authority, device, tenant.challenge(token), level=0)
        refused(device.add(token, attestation=bad), 400, "attestation_invalid")
        foreign = apple_statement(authority, device, tenant.challenge(tenant.token(plain_user)))
        refused(device.add(token, attestation=foreign), 400, "attestation_challenge_invalid")
        strict = AttestingTenant(server, "require")
        strict.authority = authority
        refused(Device(server, strict.id).add(strict.token("strict-" + uuid.uuid4().hex[:6])), 403, "attestation_required")
        after = scrape(server)
        moved = {key: after[key] - before[key] for key in after if after[key] != before[key]}
        assert moved == {("android-key", "verified"): 1, ("apple-appattest", "verified"): 1,
                         ("android-key", "invalid"): 1, ("apple-appattest", "challenge_invalid"): 1,
                         ("none", "missing"): 1}
    finally:
        server.stop()
        receiver.close()
        shutil.rmtree(directory, ignore_errors=True)


def test_the_console_user_page_shows_each_credentials_verdict(store, authority, roots, browser, shots):
    with console_server("assent-console-attest-", "Attesting console", "--attestation-roots", roots) as server:
        tenant = ConsoleTenant(server, authority)
        user = "attested-" + uuid.uuid4().hex[:8]
        android_id = enrol(tenant, user, android_statement)
        apple_id = enrol(tenant, user, apple_statement)
        plain_id = enrol(tenant, user)

        signed_in(browser, server)
        browser.get(f"{server.url}/admin/users/{user}")
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "authenticators"))
        headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#authenticators thead th")]
        assert "Attestation" in headers

        def cell(authenticator_id):
            row = browser.find_element(By.ID, "authenticator-" + authenticator_id)
            return row, row.find_element(By.CSS_SELECTOR, "td.attestation").text

        row, text = cell(android_id)
        assert row.get_attribute("data-attestation-format") == "android-key"
        assert row.get_attribute("data-attestation-verified") == "true"
        assert text.startswith("Android key attestation, verified: package dev.assent.example")
        for words in ("key in the TEE", "Android 16 (patch 2026-06)", "verified boot", "revocation not checked",
                      "checked 20"):
            assert words in text, text
        row, text = cell(apple_id)
        assert row.get_attribute("data-attestation-format") == "apple-appattest"
        assert text.startswith(f"Apple App Attest, verified: app {test_authority.APP_ID}, development environment; checked 20"), text
        row, text = cell(plain_id)
        assert text == "None" and row.get_attribute("data-attestation-format") is None
        both_widths(browser, shots, "user-attestation")
