"""The admin console (/admin/) against a real assentd, in headless Chromium (Selenium) and over plain HTTP.

Signs in with the tenant's secret key and with an admin token the CLI made, refuses a wrong secret, refuses form posts
from another site (a real cross-origin page in the browser, and posts without or with a wrong CSRF token), ends a
revoked token's session, and limits sign-in attempts per address. Screenshots of each page go to
$ASSENT_SCREENSHOT_DIR when set, else to a temporary directory. Everything stays on 127.0.0.1.
"""
import os
import time

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from fakes.cross_site import cross_site_page
from conftest import assent, console_server
from test_browser import WAIT, browser, shots  # noqa: F401 (fixtures)

COOKIE = "assent_console"


@pytest.fixture(scope="module")
def console(store):
    with console_server("assent-console-", "Console <Shop>") as server:
        yield server


def sign_in(server, credential, **headers):
    """Posts the sign-in form as a same-origin browser would; returns the response (redirects not followed)."""
    return requests.post(server.url + "/admin/sign-in", data={"credential": credential}, allow_redirects=False,
                         headers={"Origin": server.url, **headers}, timeout=10)


def session_of(response):
    return response.cookies.get(COOKIE)


def csrf_of(server, session):
    page = requests.get(server.url + "/admin/", cookies={COOKIE: session}, timeout=10).text
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start:page.index('"', start)]


def is_signed_in(server, session):
    page = requests.get(server.url + "/admin/", cookies={COOKIE: session}, timeout=10).text
    return 'id="sign-out"' in page


def test_a_browser_signs_in_with_the_secret_key_and_out_again_and_a_wrong_secret_is_refused(console, browser, shots):
    browser.get(console.url + "/admin")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential"))
    label = browser.find_element(By.CSS_SELECTOR, "label[for=credential]").text
    assert "secret key or admin token" in label
    browser.save_screenshot(os.path.join(shots, "console-sign-in.png"))

    browser.find_element(By.ID, "credential").send_keys(console.secret + "x")
    browser.find_element(By.ID, "sign-in-button").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "notice"))
    assert "not accepted" in browser.find_element(By.ID, "notice").text
    assert browser.get_cookie(COOKIE) is None
    browser.save_screenshot(os.path.join(shots, "console-refused.png"))

    browser.find_element(By.ID, "credential").send_keys(console.secret)
    browser.find_element(By.ID, "sign-in-button").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "tenant-name"))
    assert browser.find_element(By.ID, "tenant-name").text == "Console <Shop>"
    assert browser.find_element(By.ID, "tenant-id").text == console.tenant_id
    cookie = browser.get_cookie(COOKIE)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/admin"
    assert not cookie["secure"]  # plain HTTP public URL
    browser.set_window_size(360, 740)
    browser.save_screenshot(os.path.join(shots, "console-overview-360.png"))
    browser.set_window_size(800, 1100)
    browser.save_screenshot(os.path.join(shots, "console-overview.png"))
    session = cookie["value"]
    assert is_signed_in(console, session)

    browser.find_element(By.ID, "sign-out").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential") and d.find_elements(By.ID, "notice"))
    assert browser.find_element(By.ID, "notice").text == "Signed out."
    assert not is_signed_in(console, session), "the session ended on the server, not only in the browser"


def test_the_session_cookie_is_http_only_strict_and_scoped_to_the_console(console):
    response = sign_in(console, console.secret)
    assert response.status_code == 303 and response.headers["Location"] == "/admin/"
    header = response.headers["Set-Cookie"]
    for part in ("HttpOnly", "SameSite=Strict", "Path=/admin"):
        assert part in header
    assert "Secure" not in header
    refused = sign_in(console, "sk_wrong")
    assert refused.status_code == 303 and refused.headers["Location"] == "/admin/?error=refused"
    assert "Set-Cookie" not in refused.headers


def test_an_admin_token_signs_in_to_its_tenant_until_revoked(console):
    created = assent("admin", "token", "create", "--database", console.database, "--tenant", console.tenant_id,
                     "--expires-in", "1h", "--name", "ops")
    assert created["token"].startswith("at_") and created["tenantId"] == console.tenant_id
    listed = assent("admin", "token", "list", "--database", console.database, "--tenant", console.tenant_id)
    assert [t["id"] for t in listed] == [created["id"]] and "token" not in listed[0]
    assert created["token"] not in str(console.snapshot()), "only the token's hash is stored"

    response = sign_in(console, created["token"])
    session = session_of(response)
    assert session and is_signed_in(console, session)
    page = requests.get(console.url + "/admin/", cookies={COOKIE: session}, timeout=10).text
    assert created["id"] in page
    assert session not in str(console.snapshot()), "only the session id's hash is stored"

    assent("admin", "token", "revoke", "--database", console.database, "--id", created["id"])
    assert not is_signed_in(console, session), "revoking the token ended its session"
    assert session_of(sign_in(console, created["token"])) is None


def test_rotating_the_secret_key_ends_the_sessions_it_signed_in(console):
    """The old key stops working on the API at once, and so does every console session signed in with it (within the
    server's one-second tenant cache); an admin token's session and the new key's sessions live on."""
    created = assent("admin", "tenant", "create", "--database", console.database, "--name", "Rotated")
    tenant_id, old_secret = created["tenantId"], created["secretKey"]
    token = assent("admin", "token", "create", "--database", console.database, "--tenant", tenant_id,
                   "--expires-in", "1h", "--name", "ops")["token"]
    by_secret = session_of(sign_in(console, old_secret))
    by_token = session_of(sign_in(console, token))
    assert by_secret and by_token and is_signed_in(console, by_secret) and is_signed_in(console, by_token)

    new_secret = assent("admin", "tenant", "rotate-secret", "--database", console.database, "--tenant", tenant_id)["secretKey"]
    deadline = time.monotonic() + 5
    while is_signed_in(console, by_secret) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not is_signed_in(console, by_secret), "the session signed in with the old secret ended"
    assert requests.get(console.api + "/audit", auth=(old_secret, ""), timeout=10).status_code == 401
    assert session_of(sign_in(console, old_secret)) is None
    assert is_signed_in(console, by_token), "an admin token's session does not hang on the secret"
    by_new = session_of(sign_in(console, new_secret))
    assert by_new and is_signed_in(console, by_new)


def test_an_admin_token_session_ends_when_the_token_expires(console):
    created = assent("admin", "token", "create", "--database", console.database, "--tenant", console.tenant_id,
                     "--expires-in", "3", "--name", "brief")
    started = time.monotonic()
    session = session_of(sign_in(console, created["token"]))
    assert session and is_signed_in(console, session)
    time.sleep(max(0.0, started + 4.5 - time.monotonic()))
    assert not is_signed_in(console, session), "the token expired, and its session with it"
    assert session_of(sign_in(console, created["token"])) is None


def test_form_posts_without_the_csrf_token_or_from_another_site_are_refused(console):
    session = session_of(sign_in(console, console.secret))
    csrf = csrf_of(console, session)
    cookies = {COOKIE: session}
    cases = [
        ({}, {"Origin": console.url}),
        ({"csrf": "forged"}, {"Origin": console.url}),
        ({"csrf": csrf}, {"Origin": "http://attacker.example"}),
        ({"csrf": csrf}, {"Sec-Fetch-Site": "cross-site"}),
        ({"csrf": csrf}, {"Origin": "null"}),
        ({"csrf": csrf}, {"Origin": console.url.replace("http://", "https://")}),
    ]
    for form, headers in cases:
        response = requests.post(console.url + "/admin/sign-out", data=form, cookies=cookies, headers=headers,
                                 allow_redirects=False, timeout=10)
        assert response.status_code == 403, (form, headers)
        body = response.json()
        assert body["errorCode"] == "cross_site_request" and body["error"] and body["errorDescription"]
        assert is_signed_in(console, session), "a refused post changed nothing"
    before = console.snapshot()
    refused = sign_in(console, console.secret, Origin="http://attacker.example")
    assert refused.status_code == 403 and "Set-Cookie" not in refused.headers
    assert console.snapshot() == before, "a cross-site sign-in made no session"

    ok = requests.post(console.url + "/admin/sign-out", data={"csrf": csrf}, cookies=cookies,
                       headers={"Origin": console.url}, allow_redirects=False, timeout=10)
    assert ok.status_code == 303 and not is_signed_in(console, session)


def test_a_cross_origin_page_cannot_sign_a_browser_out(console, browser, shots):
    """A real page on another origin (another port of 127.0.0.1: same site, other origin) posts a form to the console
    in the signed-in browser: refused, the session lives on."""
    browser.get(console.url + "/admin/")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential"))
    browser.find_element(By.ID, "credential").send_keys(console.secret)
    browser.find_element(By.ID, "sign-in-button").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "sign-out"))
    session = browser.get_cookie(COOKIE)["value"]

    page = (f'<!doctype html><form id="f" method="post" action="{console.url}/admin/sign-out">'
            '<input name="csrf" value="guess"></form><script>document.getElementById("f").submit()</script>')

    with cross_site_page(page) as url:
        browser.get(url)
        WebDriverWait(browser, WAIT).until(lambda d: "cross_site_request" in d.page_source)
        browser.save_screenshot(os.path.join(shots, "console-cross-site-refused.png"))
    assert is_signed_in(console, session)


def test_sign_in_attempts_are_limited_per_address(store):
    limits = ("--rate-limits", "on", "--rate-limit", "console-sign-in-address=3/1m")
    with console_server("assent-console-limit-", "Limited", *limits) as server:
        outcomes = [sign_in(server, "sk_guess").headers["Location"] for _ in range(3)]
        assert outcomes == ["/admin/?error=refused"] * 3
        limited = sign_in(server, server.secret)
        assert limited.status_code == 303 and limited.headers["Location"] == "/admin/?error=rate-limited"
        assert int(limited.headers["Retry-After"]) >= 1 and session_of(limited) is None
        log = server.log_text()
        assert log.count('"console sign-in refused"') == 3
        assert "sk_guess" not in log and server.secret not in log


def test_sign_ins_and_sign_outs_are_recorded_in_the_tenant_audit_log_without_the_credential(console):
    created = assent("admin", "token", "create", "--database", console.database, "--tenant", console.tenant_id,
                     "--expires-in", "1h", "--name", "audited")
    assert session_of(sign_in(console, console.secret))
    by_token = session_of(sign_in(console, created["token"]))
    assert by_token
    assert session_of(sign_in(console, "not-the-secret")) is None

    out = requests.post(console.url + "/admin/sign-out", data={"csrf": csrf_of(console, by_token)},
                        cookies={COOKIE: by_token}, headers={"Origin": console.url}, allow_redirects=False, timeout=10)
    assert out.status_code == 303 and not is_signed_in(console, by_token)
    signed_out = requests.get(console.api + "/audit", params={"kind": "console.sign_out", "limit": 1000},
                              auth=(console.secret, ""), timeout=10)
    assert signed_out.status_code == 200, signed_out.text
    assert [e["actor"] for e in signed_out.json()["entries"]][-1:] == ["admin-token:" + created["id"]]
    assert by_token not in signed_out.text and by_token not in console.log_text(), "the session id is never written"

    response = requests.get(console.api + "/audit", params={"kind": "console.sign_in", "limit": 1000},
                            auth=(console.secret, ""), timeout=10)
    assert response.status_code == 200, response.text
    actors = [entry["actor"] for entry in response.json()["entries"]]
    assert actors[-2:] == ["secret-key", "admin-token:" + created["id"]], "each accepted sign-in, in order"
    assert console.secret not in response.text and created["token"] not in response.text
    verified = assent("admin", "audit", "verify", "--database", console.database, "--tenant", console.tenant_id)
    assert verified["intact"] is True
