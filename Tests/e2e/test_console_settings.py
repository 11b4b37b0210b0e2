"""The admin console's settings, push providers and audit log pages, and --admin-listen, against a real assentd in
headless Chromium (Selenium) and over plain HTTP, on both stores.

Changes a setting in the browser and sees it take effect on the next API request, refuses a bad value beside its field
with nothing changed, never sends a push credential back to the browser, lists changes in the audit page and filters
them by kind, refuses cross-site posts to the settings form (a real page on another origin, and posts without the CSRF
token), and serves the console only on the admin listener when one is given. Screenshots at 360 px and desktop go to
$ASSENT_SCREENSHOT_DIR when set, else to a temporary directory. Everything stays on 127.0.0.1.
"""
import json
import os
import subprocess
import uuid

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from fakes.cross_site import cross_site_page
from conftest import console_server, free_port
from test_browser import WAIT, browser, shots  # noqa: F401 (fixtures)

COOKIE = "assent_console"


@pytest.fixture(scope="module")
def console(store):
    with console_server("assent-console-settings-", "Settings shop") as server:
        yield server


def sign_in(url, credential):
    response = requests.post(url + "/admin/sign-in", data={"credential": credential}, allow_redirects=False,
                             headers={"Origin": url}, timeout=10)
    return response.cookies.get(COOKIE)


def csrf_of(url, session, page="/admin/settings"):
    text = requests.get(url + page, cookies={COOKIE: session}, timeout=10).text
    marker = 'name="csrf" value="'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


def browser_sign_in(browser, url, secret):
    browser.get(url + "/admin/")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential") or d.find_elements(By.ID, "sign-out"))
    if browser.find_elements(By.ID, "credential"):
        browser.find_element(By.ID, "credential").send_keys(secret)
        browser.find_element(By.ID, "sign-in-button").click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "sign-out"))


def both_widths(browser, shots, name):
    browser.set_window_size(360, 740)
    browser.save_screenshot(os.path.join(shots, f"{name}-360.png"))
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"{name} scrolls sideways at 360 px ({width} px wide)"
    browser.set_window_size(1280, 1400)
    browser.save_screenshot(os.path.join(shots, f"{name}.png"))


def track_state(server, user):
    response = requests.post(f"{server.api}/users/{user}/actions/signIn", json={}, auth=(server.secret, ""), timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["state"]


def test_a_setting_changed_in_the_browser_takes_effect_on_the_next_request(console, browser, shots):
    user = "u-" + uuid.uuid4().hex[:8]  # no authenticator: the unenrolled state decides
    assert track_state(console, user) == "ALLOW"

    browser_sign_in(browser, console.url, console.secret)
    browser.get(console.url + "/admin/settings")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "settings-form"))
    assert browser.find_element(By.ID, "nav-settings").get_attribute("aria-current") == "page"
    # Every control is labelled and says what it does.
    for control in browser.find_elements(By.CSS_SELECTOR, "#settings-form input:not([type=hidden]), "
                                                          "#settings-form select, #settings-form textarea"):
        name = control.get_attribute("id")
        assert browser.find_elements(By.CSS_SELECTOR, f"label[for={name}]"), name
        assert browser.find_element(By.ID, f"{name}-effect").text, name
    assert browser.find_element(By.ID, "challengeTimeoutSeconds").get_attribute("value") == "120"
    both_widths(browser, shots, "console-settings")

    Select(browser.find_element(By.ID, "unenrolledState")).select_by_visible_text("BLOCK")
    browser.find_element(By.ID, "save-settings").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "notice"))
    assert "saved" in browser.find_element(By.ID, "notice").text
    assert Select(browser.find_element(By.ID, "unenrolledState")).first_selected_option.text == "BLOCK"

    assert track_state(console, user) == "BLOCK", "the next request sees the change"


def test_a_bad_value_is_refused_beside_its_field_and_changes_nothing(console, browser, shots):
    browser_sign_in(browser, console.url, console.secret)
    # Loading the page moves the session's last use forward if due (at most once a minute), so the post below
    # writes nothing to the session either.
    browser.get(console.url + "/admin/settings")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "settings-form"))
    user = "u-" + uuid.uuid4().hex[:8]
    state = track_state(console, user)
    before = console.snapshot()  # after the track, which writes an action
    Select(browser.find_element(By.ID, "unenrolledState")).select_by_visible_text("REVIEW_REQUIRED")
    timeout = browser.find_element(By.ID, "challengeTimeoutSeconds")
    timeout.clear()
    timeout.send_keys("5")
    throttle = browser.find_element(By.ID, "pushThrottleSeconds")
    throttle.clear()
    throttle.send_keys("soon")
    browser.find_element(By.ID, "save-settings").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "challengeTimeoutSeconds-error"))
    assert "from 10 to 600" in browser.find_element(By.ID, "challengeTimeoutSeconds-error").text
    assert "got 'soon'" in browser.find_element(By.ID, "pushThrottleSeconds-error").text
    assert browser.find_element(By.ID, "challengeTimeoutSeconds").get_attribute("aria-invalid") == "true"
    notice = browser.find_element(By.ID, "notice")
    assert notice.text == "Nothing was saved; not valid: Challenge timeout, Push throttle."
    assert [a.get_attribute("hash") for a in notice.find_elements(By.TAG_NAME, "a")] == [
        "#challengeTimeoutSeconds", "#pushThrottleSeconds"]
    # The refused values stay in the form to be corrected.
    assert browser.find_element(By.ID, "challengeTimeoutSeconds").get_attribute("value") == "5"
    both_widths(browser, shots, "console-settings-refused")
    browser.set_window_size(360, 740)
    notice.find_element(By.TAG_NAME, "a").click()  # the notice's link takes the page to the field
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return window.scrollY") > 0)
    browser.save_screenshot(os.path.join(shots, "console-settings-refused-field-360.png"))
    browser.set_window_size(1280, 1400)

    assert console.snapshot() == before, "a refused change changed nothing"
    assert track_state(console, user) == state


def make_keys(directory):
    p8 = os.path.join(directory, "AuthKey.p8")
    subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8],
                   check=True, capture_output=True, timeout=30)
    with open(p8) as f:
        pem = f.read()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    account = {"type": "service_account", "project_id": "console-test", "private_key_id": "kid-7",
               "private_key": rsa_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                    serialization.NoEncryption()).decode(),
               "client_email": "push@console-test.iam.gserviceaccount.com",
               "token_uri": "http://127.0.0.1:9/token"}  # only checked, never called: no push is started
    return pem, account


def test_push_credentials_are_write_only(console, browser, shots):
    pem, account = make_keys(console.directory)
    browser_sign_in(browser, console.url, console.secret)
    browser.get(console.url + "/admin/push")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "push-form"))
    assert browser.find_element(By.ID, "apns-status").text == "not configured"
    assert browser.find_element(By.ID, "fcm-status").text == "not configured"

    # A key that is not one is refused with the reason, and nothing changes.
    before = console.snapshot()
    Select(browser.find_element(By.ID, "provider")).select_by_visible_text("apns")
    for name, value in (("apnsKeyId", "KEY1234567"), ("apnsTeamId", "TEAM123456"), ("apnsTopic", "com.example.app")):
        browser.find_element(By.ID, name).send_keys(value)
    browser.find_element(By.ID, "apnsPrivateKey").send_keys("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----")
    browser.find_element(By.ID, "save-push").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "notice"))
    assert "PKCS#8 P-256" in browser.find_element(By.ID, "notice").text
    assert "not a key" not in browser.page_source, "a submitted credential is not sent back"
    assert console.snapshot() == before

    browser.get(console.url + "/admin/push")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "push-form"))
    Select(browser.find_element(By.ID, "provider")).select_by_visible_text("apns")
    for name, value in (("apnsKeyId", "KEY1234567"), ("apnsTeamId", "TEAM123456"), ("apnsTopic", "com.example.app")):
        browser.find_element(By.ID, name).send_keys(value)
    Select(browser.find_element(By.ID, "apnsEnvironment")).select_by_visible_text("sandbox")
    browser.execute_script("document.getElementById('apnsPrivateKey').value = arguments[0]", pem)
    browser.execute_script("document.getElementById('fcmServiceAccount').value = arguments[0]", json.dumps(account))
    browser.find_element(By.ID, "save-push").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "notice"))
    assert "saved" in browser.find_element(By.ID, "notice").text, browser.find_element(By.ID, "notice").text
    assert browser.find_element(By.ID, "apns-status").text == "configured"
    assert browser.find_element(By.ID, "fcm-status").text == "configured"
    assert browser.find_element(By.ID, "fcm-project").text == "console-test"
    assert browser.find_element(By.ID, "apnsKeyId").get_attribute("value") == "KEY1234567"
    assert browser.find_element(By.ID, "apnsPrivateKey").get_attribute("value") == ""
    page = browser.page_source
    key_body = pem.splitlines()[2]
    assert key_body not in page and account["private_key"].splitlines()[5] not in page
    assert "BEGIN PRIVATE KEY" not in page
    both_widths(browser, shots, "console-push")

    shown = requests.get(console.api + "/tenant/push", auth=(console.secret, ""), timeout=10).json()
    assert shown["provider"] == "apns" and shown["apns"]["configured"] and shown["apns"]["environment"] == "sandbox"
    assert shown["fcm"]["configured"] and shown["fcm"]["projectId"] == "console-test"
    assert key_body not in str(console.snapshot()), "the key is stored sealed"

    audit = requests.get(console.api + "/audit", params={"kind": "tenant.push_provider_changed"},
                         auth=(console.secret, ""), timeout=10).json()["entries"]
    assert audit and audit[-1]["actor"] == "secret-key" and audit[-1]["details"]["provider"] == "apns"
    assert key_body not in json.dumps(audit)


def test_the_audit_page_lists_changes_and_filters_by_kind(console, browser, shots):
    browser_sign_in(browser, console.url, console.secret)
    session = sign_in(console.url, console.secret)
    csrf = csrf_of(console.url, session)
    changed = requests.post(console.url + "/admin/settings", data={"csrf": csrf, "fraudLockSeconds": "7200"},
                            cookies={COOKIE: session}, headers={"Origin": console.url}, allow_redirects=False, timeout=10)
    assert changed.status_code == 303 and changed.headers["Location"] == "/admin/settings?saved=1"

    browser.get(console.url + "/admin/audit")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "audit-entries"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#audit-entries tbody tr")
    kinds = [row.find_element(By.CSS_SELECTOR, ".kind").text for row in rows]
    assert kinds[0] == "tenant.settings_changed", "newest first: the change just made"
    assert kinds[1] == "console.sign_in", "the sign-in that made it, before it"
    newest_change = rows[0]
    assert newest_change.find_element(By.CSS_SELECTOR, ".actor").text == "secret-key"
    assert newest_change.find_element(By.CSS_SELECTOR, ".details").text == "changed=fraudLockSeconds"
    sequences = [int(row.find_element(By.CSS_SELECTOR, "td").text) for row in rows]
    assert sequences == sorted(sequences, reverse=True)
    both_widths(browser, shots, "console-audit")
    browser.set_window_size(360, 740)
    browser.execute_script("document.getElementById('audit-entries').scrollIntoView()")
    browser.save_screenshot(os.path.join(shots, "console-audit-table-360.png"))
    browser.set_window_size(1280, 1400)

    Select(browser.find_element(By.ID, "kind")).select_by_visible_text("tenant.settings_changed")
    browser.find_element(By.ID, "filter").click()
    WebDriverWait(browser, WAIT).until(lambda d: "kind=tenant.settings_changed" in d.current_url)
    kinds = {row.get_attribute("data-kind") for row in browser.find_elements(By.CSS_SELECTOR, "#audit-entries tbody tr")}
    assert kinds == {"tenant.settings_changed"}

    browser.find_element(By.ID, "actor").send_keys("admin-token:nobody")
    browser.find_element(By.ID, "filter").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "no-entries"))

    browser.get(console.url + "/admin/audit?since=2000-01-01T00:00&until=2000-01-02T00:00")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "no-entries"))
    browser.get(console.url + "/admin/audit?since=yesterday")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "since-error"))

    browser.find_element(By.ID, "verify-chain").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "notice"))
    assert "The chain verifies" in browser.find_element(By.ID, "notice").text
    browser.save_screenshot(os.path.join(shots, "console-audit-verified.png"))


def test_a_cross_site_post_to_the_settings_form_is_refused_and_changes_nothing(console, browser, shots):
    browser_sign_in(browser, console.url, console.secret)
    browser.get(console.url + "/admin/settings")  # the session's last use moves now if due, not during the posts
    session = sign_in(console.url, console.secret)
    csrf = csrf_of(console.url, session)
    before = console.snapshot()
    cases = [
        ({"unenrolledState": "ALLOW"}, {"Origin": console.url}),
        ({"unenrolledState": "ALLOW", "csrf": "forged"}, {"Origin": console.url}),
        ({"unenrolledState": "ALLOW", "csrf": csrf}, {"Origin": "http://attacker.example"}),
        ({"unenrolledState": "ALLOW", "csrf": csrf}, {"Sec-Fetch-Site": "cross-site"}),
    ]
    for form, headers in cases:
        for path in ("/admin/settings", "/admin/push"):
            response = requests.post(console.url + path, data=form, cookies={COOKIE: session}, headers=headers,
                                     allow_redirects=False, timeout=10)
            assert response.status_code == 403, (path, form, headers)
            assert response.json()["errorCode"] == "cross_site_request"
    assert console.snapshot() == before

    page = (f'<!doctype html><form id="f" method="post" action="{console.url}/admin/settings">'
            '<input name="unenrolledState" value="ALLOW"><input name="csrf" value="guess"></form>'
            '<script>document.getElementById("f").submit()</script>')

    with cross_site_page(page) as url:
        browser.get(url)
        WebDriverWait(browser, WAIT).until(lambda d: "cross_site_request" in d.page_source)
        browser.save_screenshot(os.path.join(shots, "console-settings-cross-site-refused.png"))
    assert console.snapshot() == before, "the cross-site post changed nothing"


def test_the_console_is_served_only_on_the_admin_listener(store):
    admin = f"http://127.0.0.1:{free_port()}"
    listener = ("--admin-listen", admin.removeprefix("http://"))
    with console_server("assent-console-admin-", "Admin listener", *listener) as server:
        for path in ("/admin/", "/admin/settings", "/admin/audit", "/web/console.css", "/web/console-pages.css"):
            response = requests.get(server.url + path, timeout=10)
            assert response.status_code == 404, path
            assert response.json()["errorCode"] == "not_found", path
        refused = requests.post(server.url + "/admin/sign-in", data={"credential": server.secret},
                                headers={"Origin": server.url}, allow_redirects=False, timeout=10)
        assert refused.status_code == 404 and "Set-Cookie" not in refused.headers
        assert requests.get(server.url + "/web/index.html", timeout=10).status_code == 200, "the demo pages stay"

        assert 'id="credential"' in requests.get(admin + "/admin/", timeout=10).text
        assert requests.get(admin + "/web/console.css", timeout=10).status_code == 200
        assert requests.get(admin + "/web/index.html", timeout=10).status_code == 404
        assert requests.get(admin + "/healthz", timeout=10).status_code == 404
        assert requests.post(admin + "/v1/users/u/actions/signIn", json={}, auth=(server.secret, ""),
                             timeout=10).status_code == 404, "the admin listener serves no API"
        session = sign_in(admin, server.secret)
        assert session
        page = requests.get(admin + "/admin/settings", cookies={COOKIE: session}, timeout=10)
        assert page.status_code == 200 and 'id="settings-form"' in page.text
        assert "Admin console: " + admin + "/admin/" in server.log_text()
