"""The admin console's layout in headless Chromium at a laptop's 1366 px and a phone's 390 px, on each store.

A tenant is seeded with what makes pages wide: users with long ids, a push and a QR credential on a device with a long
name, a PowerAuth activation, an approved challenge and audit entries with long details. Every console page is then
shown at both widths, a screenshot of each saved to $ASSENT_SCREENSHOT_DIR (else a temporary directory), and each must
fit: the page no wider than the screen, no element reaching past the screen's edge (a table cell or button cut off
inside a sideways-scrolling box), no cell, button or line whose content is wider than its box; at 1366 px the content
uses the width. Beside that: destructive buttons look unlike the others, the pages name kinds, platforms and states in
an operator's words (the wire names stay in data attributes and JSON), the settings page is grouped with durations in
units, and an unknown /admin/ path is a console page with status 404 for a browser, the JSON envelope for API clients.
Everything stays on 127.0.0.1.
"""
import json
import os
import subprocess
import tempfile
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BIN, assent, console_server
from test_browser import WAIT, browser, shots  # noqa: F401 (fixtures)
from test_console_settings import csrf_of, sign_in

COOKIE = "assent_console"
WIDTHS = {"laptop": (1366, 768), "phone": (390, 844)}
# An id as long as real ones get (an e-mail address or a directory's distinguished name), with no place to break.
LONG = "customer-account-" + "0123456789abcdef" * 4 + "-"
DEVICE_NAME = "Operations laptop in the second-floor meeting room"


def device(home, *args, password=None):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
    if password is not None:
        env["ASSENT_DEVICE_PASSWORD"] = password
    out = subprocess.run([os.path.join(BIN, "assent"), "device", *args, "--home", os.path.join(home, "d"), "--json"],
                         capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr + out.stdout
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def seeded(store):
    """A console server whose tenant has long user ids, a push and a QR credential, an activation, an approved
    push challenge and audit entries with long details."""
    def prepare(server):
        server.master = assent("admin", "tenant", "powerauth", "--database", server.database,
                               "--tenant", server.tenant_id)["masterPublicKey"]

    with console_server("assent-console-layout-", "Layout shop with a long tenant name", prepare=prepare) as server, \
            tempfile.TemporaryDirectory() as home:
        sdk = AuthsignalClient(server.secret, api_url=server.api)
        server.user = LONG + uuid.uuid4().hex[:8]
        for n in range(3):
            requests.patch(f"{server.api}/users/{LONG}{n}-{uuid.uuid4().hex}", auth=(server.secret, ""), timeout=10,
                           json={"displayName": "A person with a rather long display name, number %d" % n})

        def token():
            return sdk.track(server.user, "enrol", {"scope": "add:authenticators"})["token"]

        server.push = device(home, "push", "enrol", "--url", server.url, "--tenant", server.tenant_id, "--token", token(),
                             "--device-name", DEVICE_NAME, "--platform", "linux")
        server.qr = device(home, "qr", "enrol", "--url", server.url, "--tenant", server.tenant_id, "--token", token(),
                           "--device-name", DEVICE_NAME, "--platform", "ios")
        server.activation = device(home, "activate", "--token", token(), "--master-public-key", server.master,
                                   password="1357")["activationId"]
        action = "approveTheQuarterlyPaymentRunForTheWholeCompany"
        tracked = sdk.track(server.user, action)
        started = requests.post(f"{server.api}/client/challenge/push", json={"action": action},
                                headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert started.status_code == 200, started.text
        server.challenge = started.json()["challengeId"]
        device(home, "push", "approve", "--challenge", server.challenge)

        # A settings change names every changed setting in its audit details: one long line without spaces.
        session = sign_in(server.url, server.secret)
        changed = requests.post(server.url + "/admin/settings", headers={"Origin": server.url}, cookies={COOKIE: session},
                                allow_redirects=False, timeout=10, data={
                                    "csrf": csrf_of(server.url, session), "challengeTimeoutSeconds": "300",
                                    "pushThrottleSeconds": "120", "fraudLockSeconds": "7200", "maxFailedAttempts": "6",
                                    "maxPendingPushChallenges": "3", "publicCustomKeys": "merchant, amount",
                                    "publicUserCustomKeys": "department", "pushCredentialLifetimeSeconds": "31536000",
                                    "anonymousActionCodes": "signInAtTheFrontDeskKiosk"})
        assert changed.status_code == 303, changed.text
        yield server


def check_fit(browser):
    """What does not fit the screen at the current width, as readable lines (empty when everything fits)."""
    return browser.execute_script("""
        const vw = document.documentElement.clientWidth;
        const out = [];
        const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
            + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
            + ' "' + (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
        if (document.documentElement.scrollWidth > vw) {
            out.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + vw + ' px screen');
        }
        // Hidden on purpose: not rendered, or clipped to a pixel for screen readers (.visually-hidden, card headers).
        const hidden = e => {
            for (let a = e; a && a !== document.body; a = a.parentElement) {
                const s = getComputedStyle(a), r = a.getBoundingClientRect();
                if (s.display === 'none' || s.visibility === 'hidden' || (r.width === 0 && r.height === 0)) return true;
                if (r.width <= 1 && s.overflow !== 'visible') return true;
            }
            return false;
        };
        for (const e of document.body.querySelectorAll('*')) {
            if (e.closest('svg, script, style, noscript, option') && e.tagName.toLowerCase() !== 'svg') continue;
            if (hidden(e)) continue;
            const r = e.getBoundingClientRect();
            if (r.right > vw + 1 || r.left < -1) {
                out.push(name(e) + ' reaches past the screen (' + Math.round(r.left) + ' to ' + Math.round(r.right)
                         + ' px of ' + vw + ')');
                continue;
            }
            const s = getComputedStyle(e);
            if (s.display === 'inline' || ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName)) continue;
            if (e.scrollWidth > e.clientWidth + 1) {
                out.push(name(e) + ' clips its content (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
            }
        }
        const main = document.querySelector('main');
        if (vw >= 1200 && main && !main.classList.contains('narrow') && main.getBoundingClientRect().width < vw - 120) {
            out.push('main uses ' + Math.round(main.getBoundingClientRect().width) + ' px of ' + vw);
        }
        return out;
    """)


def show(browser, width, height):
    """Sets the viewport to exactly width × height CSS pixels (a phone's viewport too, not a desktop window)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def at_both_widths(browser, shots, name):
    """Checks the page at both widths and saves a screenshot of each (the whole page's height); the problems found."""
    problems = []
    for label, (width, height) in WIDTHS.items():
        show(browser, width, height)
        browser.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        laid_out = browser.execute_script("return document.documentElement.clientWidth")
        if laid_out > width:
            problems.append(f"{name} at {width} px: laid out {laid_out} px wide (no viewport for phones)")
        problems += [f"{name} at {width} px: {p}" for p in check_fit(browser)]
        full = browser.execute_script("return document.documentElement.scrollHeight")
        show(browser, width, min(max(full, height), 4000))
        browser.save_screenshot(os.path.join(shots, f"console-layout-{name}-{width}.png"))
    show(browser, *WIDTHS["laptop"])
    return problems


def browser_sign_in(browser, server):
    browser.get(server.url + "/admin/")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential") or d.find_elements(By.ID, "sign-out"))
    if browser.find_elements(By.ID, "credential"):
        browser.find_element(By.ID, "credential").send_keys(server.secret)
        browser.find_element(By.ID, "sign-in-button").click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "sign-out"))


def open_page(browser, server, page):
    """Opens `page` signed in and waits until it is drawn."""
    browser_sign_in(browser, server)
    if page == "confirm":  # the confirmation step of removing an authenticator
        browser.get(f"{server.url}/admin/users/{server.user}")
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "remove-" + server.push["credentialId"]))
        browser.find_element(By.ID, "remove-" + server.push["credentialId"]).click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "question"))
        return
    path, ready = {
        "overview": ("/admin/", lambda d: d.find_element(By.ID, "count-users").text not in ("", "–")),
        "users": ("/admin/users?q=" + LONG[:9], lambda d: d.find_elements(By.ID, "users")),
        "user": (f"/admin/users/{server.user}", lambda d: d.find_elements(By.ID, "activations")),
        "challenge": (f"/admin/challenges/{server.challenge}", lambda d: d.find_elements(By.ID, "timeline")),
        "settings": ("/admin/settings", lambda d: d.find_elements(By.ID, "settings-form")),
        "push": ("/admin/push", lambda d: d.find_elements(By.ID, "push-form")),
        "audit": ("/admin/audit", lambda d: d.find_elements(By.ID, "audit-entries")),
        "not-found": ("/admin/no-such-page", lambda d: d.find_elements(By.TAG_NAME, "body")),
    }[page]
    browser.get(server.url + path)
    WebDriverWait(browser, WAIT).until(ready)


PAGES = ["overview", "users", "user", "confirm", "challenge", "settings", "push", "audit", "not-found"]


def test_the_sign_in_page_fits_both_widths(seeded, browser, shots):
    browser.delete_all_cookies()
    browser.get(seeded.url + "/admin/")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential"))
    assert at_both_widths(browser, shots, "sign-in") == []


@pytest.mark.parametrize("page", PAGES)
def test_every_console_page_fits_a_laptop_and_a_phone(seeded, browser, shots, page):
    open_page(browser, seeded, page)
    problems = at_both_widths(browser, shots, page)
    assert problems == [], "\n".join(problems[:15])


def test_destructive_buttons_look_unlike_the_others(seeded, browser, shots):
    open_page(browser, seeded, "users")
    style = "const s = getComputedStyle(arguments[0]); return [s.backgroundColor, s.color, s.borderColor].join(' / ')"
    search = browser.execute_script(style, browser.find_element(By.ID, "search-button"))
    open_page(browser, seeded, "user")
    for button in ("remove-" + seeded.push["credentialId"], "remove-" + seeded.activation,
                   "block-" + seeded.activation, "delete-user"):
        element = browser.find_element(By.ID, button)
        assert "danger" in element.get_attribute("class").split(), button
        assert browser.execute_script(style, element) != search, f"{button} is styled like Search ({search})"
    # Buttons that take nothing away keep the ordinary style.
    assert "danger" not in browser.find_element(By.ID, "sign-out").get_attribute("class")


def test_pages_name_kinds_platforms_and_states_in_an_operators_words(seeded, browser, shots):
    open_page(browser, seeded, "user")
    push = browser.find_element(By.ID, "authenticator-" + seeded.push["credentialId"])
    qr = browser.find_element(By.ID, "authenticator-" + seeded.qr["credentialId"])
    assert push.get_attribute("data-method") == "PUSH" and qr.get_attribute("data-method") == "DEVICE"
    assert push.find_element(By.CSS_SELECTOR, "td[data-label=Kind]").text == "Push"
    assert qr.find_element(By.CSS_SELECTOR, "td[data-label=Kind]").text == "QR code device"
    assert push.find_element(By.CSS_SELECTOR, "td[data-label=Platform]").text == f"Linux ({DEVICE_NAME})"
    assert qr.find_element(By.CSS_SELECTOR, "td[data-label=Platform]").text == f"iOS ({DEVICE_NAME})"
    activation = browser.find_element(By.ID, "activation-" + seeded.activation)
    assert activation.get_attribute("data-status") == "ACTIVE"
    assert activation.find_element(By.CSS_SELECTOR, "td[data-label=Status]").text == "Active"
    # The recent challenges, as served and as the page's refresh redraws them from the JSON.
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#recent-rows tr[data-state=approved]"))
    # The refresh redraws the rows every second: read the row's cells in one script, not element by element.
    cells = browser.execute_script(
        "const row = document.querySelector('#recent-rows tr[data-state=approved]');"
        "return [row.querySelector('td[data-label=State]').innerText, row.querySelector('td[data-label=Kind]').innerText];")
    assert cells == ["Approved", "Push"], cells
    main = browser.find_element(By.TAG_NAME, "main").text
    for wire in ("PUSH", "DEVICE", "LINUX", "ACTIVE", "approved", " · "):
        assert wire not in main, f"the user page shows {wire!r}"
    session = browser.get_cookie(COOKIE)["value"]
    data = requests.get(f"{seeded.url}/admin/api/users/{seeded.user}", cookies={COOKIE: session}, timeout=10).json()
    assert data["challenges"][0]["kind"] == "push" and data["challenges"][0]["state"] == "approved"

    open_page(browser, seeded, "challenge")
    assert browser.find_element(By.ID, "challenge-state").text == "Approved"
    assert browser.find_element(By.ID, "challenge-state").get_attribute("data-state") == "approved"
    assert browser.find_element(By.ID, "challenge-kind").text == "Push"

    open_page(browser, seeded, "overview")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "count-authenticators-detail").text)
    assert browser.find_element(By.ID, "count-authenticators-detail").text == "Push 1, QR code device 1"
    assert browser.find_element(By.ID, "count-activations-detail").text == "Active 1"


def test_the_settings_are_grouped_with_durations_in_units(seeded, browser, shots):
    open_page(browser, seeded, "settings")
    legends = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#settings-form fieldset > legend")]
    for group in ("Push", "QR codes", "PowerAuth", "Webhooks", "Limits"):
        assert group in legends, legends
    # Every control sits in a group.
    loose = browser.execute_script(
        "return Array.from(document.querySelectorAll('#settings-form input:not([type=hidden]), #settings-form select, "
        "#settings-form textarea')).filter(e => !e.closest('fieldset')).map(e => e.id)")
    assert loose == []
    accepts = {e.get_attribute("id"): e.text for e in browser.find_elements(By.CSS_SELECTOR, "#settings-form .accepts")}
    assert "1 minute to 10 years" in accepts["pushCredentialLifetimeSeconds-accepts"], accepts
    assert "10 seconds to 10 minutes" in accepts["challengeTimeoutSeconds-accepts"], accepts
    assert "0 seconds to 30 days" in accepts["fraudLockSeconds-accepts"], accepts
    assert not any("315360000" in text or "2592000" in text for text in accepts.values()), accepts
    # The value stays seconds on the wire; the page says what the stored one is in units.
    assert browser.find_element(By.ID, "pushCredentialLifetimeSeconds").get_attribute("value") == "31536000"
    assert "1 year" in browser.find_element(By.ID, "pushCredentialLifetimeSeconds-accepts").text
    assert "2 hours" in browser.find_element(By.ID, "fraudLockSeconds-accepts").text


def test_an_unknown_admin_path_is_a_console_page_for_a_browser_and_json_for_api_clients(seeded, browser, shots):
    html = requests.get(seeded.url + "/admin/no-such-page", headers={"Accept": "text/html,*/*;q=0.8"}, timeout=10)
    assert html.status_code == 404
    assert html.headers["Content-Type"].startswith("text/html")
    assert 'href="/web/console.css"' in html.text and 'href="/admin/"' in html.text and 'id="not-found"' in html.text
    assert "Content-Security-Policy" in html.headers
    for path in ("/admin/no-such-page", "/admin/api/no-such-thing"):
        api = requests.get(seeded.url + path, headers={"Accept": "application/json"}, timeout=10)
        assert api.status_code == 404 and api.json()["errorCode"] == "not_found", path
    deep = requests.get(seeded.url + "/admin/api/no/such/thing", headers={"Accept": "text/html"}, timeout=10)
    assert deep.status_code == 404 and deep.json()["errorCode"] == "not_found", "the console's JSON stays JSON"

    open_page(browser, seeded, "not-found")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Page not found"
    assert browser.find_elements(By.ID, "sign-out"), "signed in, the page keeps the console's navigation"
