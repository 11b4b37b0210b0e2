"""The demo pages in a real browser (Debian's headless Chromium driven by Selenium) against a real assentd.

The QR sign-in page is read the way a phone would read it: a screenshot of the page, decoded with zbarimg; the `assent`
CLI then claims and approves as the device. The push page is opened from the `url` of a track answer and a Python
device answers. Every wait is bounded; everything stays on 127.0.0.1. Screenshots go to $ASSENT_SCREENSHOT_DIR when
set (for a person to look at), else to a temporary directory.
"""
import http.client
import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BIN, ROOT, Server, assent
from device import Device

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 20  # seconds, the bound on any single wait for the page
# The QR page's two ways of learning about the code: ?mode= suffix and the line the page shows.
MODES = {
    "poll": ("", "Live updates: polling every second."),
    "ws": ("&mode=ws", "Live updates: WebSocket."),
}


def require_tools():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    missing += [t for t in ("zbarimg",) if shutil.which(t) is None]
    if missing:
        pytest.fail("missing " + ", ".join(missing) + ": apt-get install -y chromium chromium-driver zbar-tools "
                    "(make test-deps installs them)")


@pytest.fixture(scope="module")
def web(store):
    """An assentd of its own whose --web-root is this checkout's web/, whatever the working directory."""
    directory = tempfile.mkdtemp(prefix="assent-web-")
    server = Server(directory)
    server.start("--web-root", os.path.join(ROOT, "web"))
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    require_tools()
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=800,1100",
                     "--disable-extensions", "--no-first-run", "--disable-background-networking"]:
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The profile and Chromium's own temporary folders live in one directory of the test's, removed at the end
    # (Chromium leaves org.chromium.Chromium.* folders in $TMPDIR otherwise).
    scratch = tempfile.mkdtemp(prefix="assent-chromium-")
    options.add_argument(f"--user-data-dir={os.path.join(scratch, 'profile')}")
    service = Service(CHROMEDRIVER, env=dict(os.environ, TMPDIR=scratch))
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    directory = os.environ.get("ASSENT_SCREENSHOT_DIR") or str(tmp_path_factory.mktemp("screenshots"))
    os.makedirs(directory, exist_ok=True)
    return directory


class Tenant:
    def __init__(self, server, *settings):
        created = assent("admin", "tenant", "create", "--database", server.database, "--name", "web-" + uuid.uuid4().hex[:6])
        self.id, self.secret, self.server = created["tenantId"], created["secretKey"], server
        if settings:
            assent("admin", "tenant", "settings", "--database", server.database, "--tenant", self.id, *settings)
        self.sdk = AuthsignalClient(self.secret, api_url=server.api)


class CLIDevice:
    """`assent device qr ...` in a home directory of its own: the phone in the terminal."""

    def __init__(self, tenant, user):
        self.home = tempfile.mkdtemp(prefix="assent-home-")
        self.user = user
        token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        enrolled = self.run("enrol", "--url", tenant.server.url, "--tenant", tenant.id, "--token", token)
        assert enrolled["userId"] == user, enrolled

    def run(self, *args):
        out = subprocess.run([os.path.join(BIN, "assent"), "device", "qr", *args, "--home", self.home, "--json"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr or out.stdout
        return json.loads(out.stdout)

    def claim(self, payload):
        return self.run("claim", payload)

    def approve(self):
        return self.run("approve")

    def decline(self):
        return self.run("decline")

    def close(self):
        shutil.rmtree(self.home, ignore_errors=True)


# MARK: - helpers

def state(driver):
    return driver.find_element(By.ID, "main").get_attribute("data-state")


def wait_for(driver, condition, what, timeout=WAIT):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))
    except Exception as error:  # a timeout: say what the page showed
        status = driver.find_element(By.ID, "status").text
        raise AssertionError(f"timed out waiting for {what}; state={state(driver)!r} status={status!r}") from error


def wait_for_state(driver, wanted, timeout=WAIT):
    return wait_for(driver, lambda d: state(d) == wanted, f"state {wanted}", timeout)


def qr_image_loaded(driver):
    return driver.execute_script(
        "const i = document.getElementById('qr'); return !i.hidden && i.complete && i.naturalWidth > 0;")


def screenshot(driver, shots, name):
    path = os.path.join(shots, name + ".png")
    assert driver.save_screenshot(path), path
    return path


def decode_qr(path):
    out = subprocess.run(["zbarimg", "-q", "--raw", path], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, f"zbarimg found no QR code in {path}: {out.stderr}"
    return out.stdout.strip()


def page_errors(driver):
    """JavaScript errors and Content-Security-Policy violations the page logged."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and ("Content Security Policy" in e["message"] or "Uncaught" in e["message"])]


def open_qr_page(driver, server, tenant, extra=""):
    driver.get(f"{server.url}/web/qr-sign-in.html?tenant={tenant.id}{extra}")
    wait_for_state(driver, "unclaimed")
    wait_for(driver, qr_image_loaded, "the QR image to load")


# MARK: - static serving

def raw_get(server, path, headers=None):
    """A GET with the path sent exactly as given (no client-side normalisation of dot segments)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_pages_are_served_with_safe_headers_and_nothing_outside_the_web_root(web):
    status, headers, _ = raw_get(web, "/")
    assert status == 302 and headers["Location"] == "/web/"
    status, headers, index = raw_get(web, "/web/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache" and headers["X-Content-Type-Options"] == "nosniff"
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert b"qr-sign-in.html" in index and b"/challenge" in index
    status, headers, _ = raw_get(web, "/web/", {"If-None-Match": headers["ETag"]})
    assert status == 304

    for name, content_type in [("qr-sign-in.html", "text/html; charset=utf-8"),
                               ("qr-sign-in.js", "text/javascript; charset=utf-8"),
                               ("assent-api.js", "text/javascript; charset=utf-8"),
                               ("assent.css", "text/css; charset=utf-8"), ("icon.svg", "image/svg+xml")]:
        status, headers, body = raw_get(web, "/web/" + name)
        assert status == 200 and headers["Content-Type"] == content_type, name
        with open(os.path.join(ROOT, "web", name), "rb") as f:
            assert body == f.read()

    # Track's url is {publicURL}/challenge?token=...: the push page, query and all.
    status, headers, page = raw_get(web, "/challenge?token=abc")
    assert status == 200 and headers["Referrer-Policy"] == "no-referrer"
    assert page == raw_get(web, "/web/approve-push.html")[2]

    for path in ["/web/../Package.swift", "/web/..%2FPackage.swift", "/web/%2E%2E%2FPackage.swift",
                 "/web/..%5CPackage.swift", "/web/%2e%2e", "/web/.hidden", "/web/missing.html", "/web/index",
                 "/web/qr-sign-in.html%00.js", "/web/q%72-sign-in.html", "/web/sub/index.html", "/web//etc/passwd",
                 "/web/index.html/"]:
        status, headers, body = raw_get(web, path)
        assert status == 404, path
        assert headers["Content-Type"] == "application/json"
        assert json.loads(body)["errorCode"] == "not_found", path


def test_hidden_files_and_symlinks_out_of_the_web_root_are_never_served(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>t</title>home")
    (root / ".env.txt").write_text("SECRET=1")
    (root / "notes.md").write_text("not a served type")
    outside = tmp_path / "outside.txt"
    outside.write_text("outside the web root")
    (root / "leak.txt").symlink_to(outside)
    (root / "inside.txt").symlink_to(root / "index.html")
    server = Server(str(tmp_path))
    server.start("--web-root", str(root))
    try:
        assert raw_get(server, "/web/")[2] == b"<!doctype html><title>t</title>home"
        assert raw_get(server, "/web/inside.txt")[0] == 200, "a symlink that stays inside is fine"
        for path in ["/web/.env.txt", "/web/leak.txt", "/web/notes.md", "/web/approve-push.html", "/challenge"]:
            assert raw_get(server, path)[0] == 404, path
    finally:
        server.stop()


# MARK: - QR sign-in

def verify_requests(driver):
    """How many times the page polled verify/qr-code (the WebSocket mode never should)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/verify/qr-code')).length")


@pytest.mark.parametrize("mode", MODES)
def test_qr_sign_in_with_the_cli_as_the_phone(web, browser, shots, mode):
    tenant = Tenant(web)
    user = f"kiosk-{uuid.uuid4().hex[:6]}"
    phone = CLIDevice(tenant, user)
    suffix, line = MODES[mode]
    try:
        open_qr_page(browser, web, tenant, suffix)
        assert browser.find_element(By.ID, "mode").text == line
        assert "Scan the code" in browser.find_element(By.ID, "status").text
        assert browser.find_element(By.ID, "countdown").text.count(":") == 1
        assert browser.execute_script("return getComputedStyle(document.getElementById('qr')).filter") == "none"

        payload = decode_qr(screenshot(browser, shots, f"qr-{mode}-1-unclaimed"))
        assert payload.startswith(f"assent://qr?tenant={tenant.id}&challenge="), payload
        shown = browser.execute_script("return document.getElementById('payload').textContent")
        assert payload == shown, "the code says what the page's text alternative says"

        claimed = phone.claim(payload)
        assert claimed["challengeId"] == payload.rsplit("=", 1)[1] and claimed["actionCode"] == "signIn"
        wait_for_state(browser, "claimed")
        assert "Check your phone — approve the sign-in there" in browser.find_element(By.ID, "status").text
        # The blur is a 0.3 s transition: wait for its end value, not its first frame, before trying to scan it.
        wait_for(browser, lambda d: d.execute_script(
            "return getComputedStyle(document.getElementById('qr')).filter") == "blur(8px)", "the code to blur")
        blurred = screenshot(browser, shots, f"qr-{mode}-2-claimed")
        assert subprocess.run(["zbarimg", "-q", "--raw", blurred], capture_output=True, timeout=30).returncode != 0, \
            "once claimed, the code on screen can no longer be scanned"

        phone.approve()
        wait_for_state(browser, "approved")
        assert "Approved" in browser.find_element(By.ID, "status").text
        token = browser.find_element(By.ID, "access-token").text
        assert token.count(".") == 2, token
        screenshot(browser, shots, f"qr-{mode}-3-approved")
        assert browser.execute_script("return window.assentStates") == ["loading", "unclaimed", "claimed", "approved"]
        assert (verify_requests(browser) > 0) == (mode == "poll"), "WebSocket updates are pushed, never polled"

        valid = tenant.sdk.validate_challenge({"token": token})
        assert valid["is_valid"] is True and valid["user_id"] == user and valid["verification_method"] == "DEVICE"
        assert page_errors(browser) == []
    finally:
        phone.close()


@pytest.mark.parametrize("mode", MODES)
def test_qr_decline_then_a_new_code_from_the_keyboard(web, browser, shots, mode):
    tenant = Tenant(web, "--anonymous-actions", "signIn,approvePayment")
    phone = CLIDevice(tenant, f"kiosk-{uuid.uuid4().hex[:6]}")
    try:
        open_qr_page(browser, web, tenant, "&action=approvePayment" + MODES[mode][0])
        assert browser.find_element(By.ID, "mode").text == MODES[mode][1]
        first = decode_qr(screenshot(browser, shots, f"qr-{mode}-decline-1"))
        assert phone.claim(first)["actionCode"] == "approvePayment"
        wait_for_state(browser, "claimed")
        phone.decline()
        wait_for_state(browser, "declined")
        assert "Declined" in browser.find_element(By.ID, "status").text
        assert browser.find_element(By.ID, "result").is_displayed() is False
        screenshot(browser, shots, f"qr-{mode}-decline-2-declined")

        # "New code" is a real button: reachable and pressed with the keyboard.
        button = browser.find_element(By.ID, "new-code")
        assert button.tag_name == "button" and button.is_enabled()
        button.send_keys(Keys.ENTER)
        wait_for_state(browser, "unclaimed")
        wait_for(browser, qr_image_loaded, "the new QR image")
        second = decode_qr(screenshot(browser, shots, f"qr-{mode}-decline-3-new-code"))
        assert second != first and second.startswith(f"assent://qr?tenant={tenant.id}&challenge=")
        assert page_errors(browser) == []
    finally:
        phone.close()


@pytest.mark.parametrize("mode", MODES)
def test_qr_code_is_refreshed_before_it_expires(web, browser, mode):
    tenant = Tenant(web, "--challenge-timeout", "10")
    open_qr_page(browser, web, tenant, MODES[mode][0])
    assert browser.find_element(By.ID, "mode").text == MODES[mode][1]
    first = browser.execute_script("return document.getElementById('payload').textContent")
    started = time.monotonic()
    wait_for(browser, lambda d: d.execute_script("return document.getElementById('payload').textContent")
             not in ("", first), "a new code before expiry", timeout=15)
    assert time.monotonic() - started < 10, "refreshed before the 10 s code expired"
    wait_for_state(browser, "unclaimed")
    wait_for(browser, qr_image_loaded, "the refreshed QR image")
    assert "loading" in browser.execute_script("return window.assentStates")[2:]


def test_a_claimed_code_that_is_not_answered_expires_and_is_not_replaced(web, browser, shots):
    tenant = Tenant(web, "--challenge-timeout", "10")
    phone = CLIDevice(tenant, f"kiosk-{uuid.uuid4().hex[:6]}")
    try:
        open_qr_page(browser, web, tenant)
        phone.claim(browser.execute_script("return document.getElementById('payload').textContent"))
        wait_for_state(browser, "claimed")
        wait_for_state(browser, "expired", timeout=16)
        assert "expired" in browser.find_element(By.ID, "status").text
        assert browser.find_element(By.ID, "new-code").is_enabled()
        screenshot(browser, shots, "qr-expired")
        assert browser.execute_script("return window.assentStates")[-2:] == ["claimed", "expired"]
    finally:
        phone.close()


def test_qr_page_without_a_tenant_explains_itself(web, browser):
    browser.get(f"{web.url}/web/qr-sign-in.html")
    wait_for_state(browser, "error")
    assert "?tenant=" in browser.find_element(By.ID, "status").text


def test_qr_websocket_mode_falls_back_to_polling_when_the_socket_is_refused(web, browser):
    """A WebSocket that cannot open (here: refused for an unknown tenant) leaves the page on polling, which then
    explains what is wrong."""
    assert requests.get(f"{web.url}/v1/ws-v1-challenge", timeout=5).status_code != 404, "the WebSocket route exists"
    browser.get(f"{web.url}/web/qr-sign-in.html?tenant=no-such-tenant&mode=ws")
    wait_for_state(browser, "error")
    assert "WebSocket was not available" in browser.find_element(By.ID, "mode").text
    assert "tenant" in browser.find_element(By.ID, "status").text


# MARK: - Approve with push

def test_push_approval_page_says_a_request_was_sent_only_when_one_was(web, browser):
    """With a push webhook that accepts push.created, the page says the request was sent — once: the status line
    says what to do, not the same sentence again."""
    from test_webhooks import Receiver
    receiver = Receiver()
    try:
        tenant = Tenant(web)
        assent("admin", "tenant", "push", "--database", web.database, "--tenant", tenant.id, "--provider", "webhook",
               "--webhook-url", receiver.url)
        user = f"push-{uuid.uuid4().hex[:6]}"
        phone = Device(web, tenant.id)
        assert phone.add(tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]).status_code == 200
        browser.get(tenant.sdk.track(user, "signIn")["url"])
        wait_for_state(browser, "sent")
        lead, status = browser.find_element(By.ID, "lead").text, browser.find_element(By.ID, "status").text
        assert lead == "We sent a request to your phone.", lead
        assert status == "Open the app on your phone to approve it.", status
        assert receiver.wait_for(1), "push.created reached the webhook"
    finally:
        receiver.close()


def test_push_approval_page_opened_from_the_track_url(web, browser, shots):
    tenant = Tenant(web, "--number-matching", "on")
    user = f"push-{uuid.uuid4().hex[:6]}"
    token = tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
    phone = Device(web, tenant.id)
    assert phone.add(token).status_code == 200

    tracked = tenant.sdk.track(user, "signIn")
    assert tracked["url"] == f"{web.url}/challenge?token={tracked['token']}"
    browser.get(tracked["url"])
    wait_for_state(browser, "sent")
    # The tenant has no push provider: nothing was sent, and the page does not say otherwise (nor says it twice).
    lead, status = browser.find_element(By.ID, "lead").text, browser.find_element(By.ID, "status").text
    assert "No notification could be sent" in lead and "sent a request" not in lead + status, (lead, status)
    assert "Open the app on your phone and enter" in status, status
    code = browser.find_element(By.ID, "verification-code").text
    assert len(code) == 3 and code.isdigit(), code
    assert float(browser.find_element(By.ID, "verification-code").value_of_css_property("font-size")[:-2]) >= 40
    screenshot(browser, shots, "push-1-sent")

    pending = phone.challenge().json()
    assert pending["verificationCodeRequired"] is True and pending["actionCode"] == "signIn"
    answer = phone.answer(pending["challengeId"], approved=True, code=code)
    assert answer.status_code == 200, answer.text
    wait_for_state(browser, "approved")
    assert "Approved" in browser.find_element(By.ID, "status").text
    access = browser.find_element(By.ID, "access-token").text
    screenshot(browser, shots, "push-2-approved")
    valid = tenant.sdk.validate_challenge({"token": access})
    assert valid["is_valid"] is True and valid["user_id"] == user and valid["verification_method"] == "PUSH"
    assert page_errors(browser) == []


def test_push_decline_and_a_bad_link(web, browser, shots):
    tenant = Tenant(web)
    user = f"push-{uuid.uuid4().hex[:6]}"
    phone = Device(web, tenant.id, "android")
    assert phone.add(tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]).status_code == 200
    browser.get(tenant.sdk.track(user, "signIn")["url"])
    wait_for_state(browser, "sent")
    assert browser.find_element(By.ID, "code-section").is_displayed() is False, "no number matching on this tenant"
    challenge_id = phone.challenge().json()["challengeId"]
    assert phone.answer(challenge_id, approved=False).status_code == 200
    wait_for_state(browser, "declined")
    assert "Declined" in browser.find_element(By.ID, "status").text
    screenshot(browser, shots, "push-3-declined")

    browser.get(f"{web.url}/challenge?token=not-a-token")
    wait_for_state(browser, "error")
    assert "not valid" in browser.find_element(By.ID, "status").text
    browser.get(f"{web.url}/challenge")
    wait_for_state(browser, "error")
    assert "?token=" in browser.find_element(By.ID, "status").text


def test_push_request_that_expires_can_be_sent_again(web, browser, shots):
    tenant = Tenant(web, "--challenge-timeout", "10")
    user = f"push-{uuid.uuid4().hex[:6]}"
    phone = Device(web, tenant.id)
    assert phone.add(tenant.sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]).status_code == 200
    browser.get(tenant.sdk.track(user, "signIn")["url"])
    wait_for_state(browser, "sent")
    first = phone.challenge().json()["challengeId"]
    wait_for_state(browser, "expired", timeout=16)
    assert "expired" in browser.find_element(By.ID, "status").text
    screenshot(browser, shots, "push-4-expired")
    again = browser.find_element(By.ID, "send-again")
    assert again.is_displayed()
    again.send_keys(Keys.ENTER)
    wait_for_state(browser, "sent")
    second = phone.challenge().json()["challengeId"]
    assert second and second != first
    assert phone.answer(second, approved=True).status_code == 200
    wait_for_state(browser, "approved")


# MARK: - readable on a phone, usable without a mouse

def test_pages_fit_a_360_pixel_phone_and_label_their_controls(web, browser, shots):
    tenant = Tenant(web)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 360, "height": 780, "deviceScaleFactor": 1, "mobile": True})
    try:
        for path in ["/web/", f"/web/qr-sign-in.html?tenant={tenant.id}", "/challenge"]:
            browser.get(web.url + path)
            if "qr-sign-in" in path:
                wait_for_state(browser, "unclaimed")
                wait_for(browser, qr_image_loaded, "the QR image")
            metrics = browser.execute_script("""
                return {
                  lang: document.documentElement.lang,
                  overflow: document.documentElement.scrollWidth - window.innerWidth,
                  smallest: Math.min(...[...document.querySelectorAll('p, label, button, a, summary')]
                    .filter(e => e.offsetParent !== null)
                    .map(e => parseFloat(getComputedStyle(e).fontSize))),
                  unlabelled: [...document.querySelectorAll('input, select')].filter(e => e.labels.length === 0).length,
                  live: [...document.querySelectorAll('[aria-live]')].map(e => e.id),
                  images: [...document.querySelectorAll('img')].filter(e => !e.alt).length,
                };""")
            assert metrics["lang"] == "en", path
            assert metrics["overflow"] <= 0, f"{path} scrolls sideways at 360 px"
            assert metrics["smallest"] >= 13, f"{path} has text smaller than 13 px"
            assert metrics["unlabelled"] == 0 and metrics["images"] == 0, path
            if path != "/web/":
                assert metrics["live"] == ["status"], path
            screenshot(browser, shots, "phone-" + ("index" if path == "/web/" else path.split("?")[0].strip("/").replace("/", "-")))

        # The index's forms work from the keyboard alone: type the tenant, press Enter.
        browser.get(web.url + "/web/")
        field = browser.find_element(By.ID, "tenant")
        field.send_keys(tenant.id, Keys.ENTER)
        wait_for_state(browser, "unclaimed")
        assert f"tenant={tenant.id}" in browser.current_url
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
