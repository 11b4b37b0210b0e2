"""The admin console's overview (/admin/) against a real assentd, in headless Chromium (Selenium).

Signs in, enrols a device with the `assent` CLI, starts a push challenge through the server API, approves it with the
CLI, and watches the overview's "approved" count and the chart's newest approved point change at the page's first
refresh after the approval (it refreshes every second), without a reload; the totals show the enrolled user and authenticator. The overview data needs the console session. Screenshots
at 360 px and desktop width go to $ASSENT_SCREENSHOT_DIR when set, else to a temporary directory. Runs on each store;
everything stays on 127.0.0.1.
"""
import json
import os
import subprocess
import tempfile
import time
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BIN, console_server
from test_browser import WAIT, browser, shots  # noqa: F401 (fixtures)


@pytest.fixture(scope="module")
def console(store):
    with console_server("assent-overview-", "Overview shop") as server:
        yield server


def device(home, *args):
    out = subprocess.run([os.path.join(BIN, "assent"), "device", "push", *args, "--home", home, "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def approved_points(browser):
    """The sum of the values the chart's "approved" points stand for, as text (None while the series is not drawn).
    A sum, so an approval counts wherever a minute boundary puts it."""
    # Read in one script: the page redraws the chart every second, so an element found first and read after could
    # be gone by then (a stale element, seen on a busy machine).
    values = browser.execute_script(
        "const s = document.getElementById('chart-approved'); return s ? s.getAttribute('data-values') : null;")
    if values is None:
        return None
    return str(sum(int(v) for v in values.split(",")))


def test_the_overview_data_needs_a_console_session(console):
    response = requests.get(console.url + "/admin/api/overview", timeout=10)
    assert response.status_code == 401
    assert response.headers["Cache-Control"] == "no-store"
    assert response.json()["errorCode"] == "unauthorized"


def test_a_push_approved_with_the_cli_shows_on_the_overview_at_its_next_refresh(console, browser, shots):
    browser.set_window_size(1280, 1000)
    browser.get(console.url + "/admin/")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "credential"))
    browser.find_element(By.ID, "credential").send_keys(console.secret)
    browser.find_element(By.ID, "sign-in-button").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "overview-chart"))
    WebDriverWait(browser, WAIT).until(lambda d: text(d, "count-users") == "0" and approved_points(d) == "0")
    assert text(browser, "hour-approved") == "0"
    assert browser.find_element(By.ID, "nav-overview").get_attribute("aria-current") == "page"
    # Marks this page load: a reload would lose it.
    browser.execute_script("window.assentOverviewLoad = 'first';")

    sdk = AuthsignalClient(console.secret, api_url=console.api)
    user = f"overview-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as home:
        token = sdk.track(user, "enrol", {"scope": "add:authenticators"})["token"]
        device(home, "enrol", "--url", console.url, "--tenant", console.tenant_id, "--token", token)
        tracked = sdk.track(user, "signIn")
        started = requests.post(f"{console.api}/client/challenge/push", json={"action": "signIn"},
                                headers={"Authorization": "Bearer " + tracked["token"]}, timeout=10)
        assert started.status_code == 200, started.text
        approve = ["approve"] + (["--code", started.json()["verificationCode"]]
                                 if started.json().get("verificationCode") else [])
        device(home, *approve)
        # The page asks again every second; the claim is that its first request made after the approval shows it
        # (the overview reads the counts not yet flushed too). The request after the last one started now surely
        # began after the approval. (A wall-time bound of 2 s measured the machine, not the page.)
        state = ("const e = document.documentElement; return [Number(e.dataset.overviewRequested || 0), "
                 "Number(e.dataset.overviewShown || 0)];")
        after = browser.execute_script(state)[0] + 1
        WebDriverWait(browser, WAIT, poll_frequency=0.05).until(lambda d: d.execute_script(state)[1] >= after)
    assert text(browser, "hour-approved") == "1" and approved_points(browser) == "1"
    assert browser.execute_script("return window.assentOverviewLoad;") == "first"
    assert text(browser, "hour-started") == "1"
    WebDriverWait(browser, WAIT).until(lambda d: text(d, "count-users") == "1")
    assert text(browser, "count-authenticators") == "1"
    assert "Push 1" in text(browser, "count-authenticators-detail")
    summary = text(browser, "chart-summary")
    assert "1 started" in summary and "1 approved" in summary
    browser.save_screenshot(os.path.join(shots, "console-overview-desktop.png"))

    # The legend hides and shows a series from the keyboard.
    legend = browser.find_element(By.ID, "legend-approved")
    legend.send_keys(" ")
    WebDriverWait(browser, WAIT).until(lambda d: approved_points(d) is None)
    assert legend.get_attribute("aria-pressed") == "false"
    legend.send_keys(" ")
    WebDriverWait(browser, WAIT).until(lambda d: approved_points(d) == "1")

    # The table (the chart's text alternative) has the start and the approval, one row a minute.
    browser.find_element(By.CSS_SELECTOR, "#overview-table-details summary").click()
    rows = browser.execute_script(  # in one script, as the table is redrawn every second too
        "return [...document.querySelectorAll('#overview-table tbody tr')]"
        ".map(r => [...r.querySelectorAll('td')].map(c => c.textContent.trim()));")
    assert len(rows) == 60
    columns = [[int(cell) for cell in row] for row in rows]
    assert [sum(column) for column in zip(*columns)] == [1, 1, 0, 0]

    browser.set_window_size(360, 1400)
    chart_width = "return document.getElementById('overview-chart').getBoundingClientRect().width;"
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script(chart_width) <= 360)
    time.sleep(1.2)  # one refresh at this width
    assert browser.execute_script(chart_width) <= 360
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= 360
    browser.save_screenshot(os.path.join(shots, "console-overview-360.png"))
    browser.set_window_size(800, 1100)
