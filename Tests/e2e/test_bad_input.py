"""Refused requests on every server API route: each answers the JSON error envelope with a fitting status and
leaves the database exactly as it was."""
import base64
import json
import tempfile
import uuid

import pytest
import requests

from conftest import Server, free_port

JSON = {"Content-Type": "application/json"}


def basic(secret):
    return {"Authorization": "Basic " + base64.b64encode((secret + ":").encode()).decode()}


@pytest.fixture(scope="module")
def seeded(server):
    """A user with an authenticator and a tracked action, so refusals have something they could wrongly change."""
    h = {**basic(server.secret), **JSON}
    user = "seeded-user"
    r = requests.post(f"{server.api}/users/{user}/authenticators", headers=h,
                      json={"verificationMethod": "EMAIL_OTP", "email": "s@example.com"})
    assert r.status_code == 200, r.text
    auth_id = r.json()["authenticator"]["userAuthenticatorId"]
    r = requests.post(f"{server.api}/users/{user}/actions/signIn", headers=h, json={})
    assert r.status_code == 200, r.text
    return {"user": user, "auth": auth_id, "key": r.json()["idempotencyKey"], "token": r.json()["token"]}


def routes(s):
    u, k, a = s["user"], s["key"], s["auth"]
    return [
        ("POST", f"/users/{u}/actions/signIn"),
        ("GET", f"/users/{u}/actions/signIn/{k}"),
        ("PATCH", f"/users/{u}/actions/signIn/{k}"),
        ("POST", "/validate"),
        ("GET", f"/users/{u}"),
        ("PATCH", f"/users/{u}"),
        ("DELETE", f"/users/{u}"),
        ("GET", f"/users/{u}/authenticators"),
        ("POST", f"/users/{u}/authenticators"),
        ("DELETE", f"/users/{u}/authenticators/{a}"),
    ]


def check_refused(server, response, status, code=None):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= {"error", "errorCode", "errorDescription"}, body
    assert body["errorDescription"]
    if code:
        assert body["errorCode"] == code, body
    assert response.headers.get("X-Request-Id")


@pytest.mark.parametrize("auth", ["none", "wrong", "garbage", "bearer"])
def test_every_route_refuses_missing_or_wrong_secret_and_changes_nothing(server, seeded, auth):
    headers = {
        "none": {},
        "wrong": basic("sk_not-a-real-secret"),
        "garbage": {"Authorization": "Basic !!!"},
        "bearer": {"Authorization": "Bearer " + seeded["token"]},
    }[auth]
    before = server.snapshot()
    for method, path in routes(seeded):
        body = {"state": "BLOCK", "token": seeded["token"], "verificationMethod": "SMS", "phoneNumber": "1"}
        r = requests.request(method, server.api + path, headers={**headers, **JSON}, data=json.dumps(body))
        check_refused(server, r, 401, "unauthorized")
        assert r.json()["errorDescription"].startswith("The request is unauthorized.")
    assert server.snapshot() == before


def test_every_write_route_refuses_malformed_json_and_changes_nothing(server, seeded):
    h = {**basic(server.secret), **JSON}
    before = server.snapshot()
    for method, path in routes(seeded):
        if method in ("POST", "PATCH"):
            for raw in [b"{", b"[1,2]", b'"text"', b"\xff\xfe", b'{"a":1}garbage']:
                check_refused(server, requests.request(method, server.api + path, headers=h, data=raw), 400,
                              "invalid_request")
    assert server.snapshot() == before


@pytest.mark.parametrize("path_kind,body", [
    ("track", {"ipAddress": 12}),
    ("track", {"custom": "not-an-object"}),
    ("track", {"idempotencyKey": ""}),
    ("track", {"redirectToSettings": "yes"}),
    ("track", {"redirectToSettings": 1}),
    ("update_action", {"state": "DONE"}),
    ("update_action", {"state": 3}),
    ("update_action", {}),
    ("validate", {}),
    ("validate", {"token": 5}),
    ("update_user", {"email": ["a"]}),
    ("update_user", {"emailVerified": "true"}),
    ("enroll", {"verificationMethod": "EMAIL_OTP"}),
    ("enroll", {"verificationMethod": "DEVICE"}),
    ("enroll", {}),
])
def test_wrong_types_and_values_are_refused_and_change_nothing(server, seeded, path_kind, body):
    u, k = seeded["user"], seeded["key"]
    method, path = {
        "track": ("POST", f"/users/{u}/actions/signIn"),
        "update_action": ("PATCH", f"/users/{u}/actions/signIn/{k}"),
        "validate": ("POST", "/validate"),
        "update_user": ("PATCH", f"/users/{u}"),
        "enroll": ("POST", f"/users/{u}/authenticators"),
    }[path_kind]
    before = server.snapshot()
    r = requests.request(method, server.api + path, headers={**basic(server.secret), **JSON}, json=body)
    check_refused(server, r, 400, "invalid_request")
    assert server.snapshot() == before


def test_unknown_action_and_authenticator_are_404_and_change_nothing(server, seeded):
    h = {**basic(server.secret), **JSON}
    u = seeded["user"]
    before = server.snapshot()
    check_refused(server, requests.get(f"{server.api}/users/{u}/actions/signIn/{uuid.uuid4()}", headers=h), 404, "not_found")
    check_refused(server, requests.patch(f"{server.api}/users/{u}/actions/signIn/{uuid.uuid4()}", headers=h,
                                         json={"state": "BLOCK"}), 404, "not_found")
    # An existing key under another action code or another user is not found either.
    check_refused(server, requests.get(f"{server.api}/users/{u}/actions/transfer/{seeded['key']}", headers=h), 404)
    check_refused(server, requests.get(f"{server.api}/users/other/actions/signIn/{seeded['key']}", headers=h), 404)
    check_refused(server, requests.delete(f"{server.api}/users/{u}/authenticators/{uuid.uuid4()}", headers=h), 404)
    check_refused(server, requests.delete(f"{server.api}/users/other/authenticators/{seeded['auth']}", headers=h), 404)
    assert server.snapshot() == before


def test_another_tenants_secret_reaches_nothing_of_this_tenant(server, seeded):
    h = {**basic(server.other_secret), **JSON}
    u = seeded["user"]
    before = server.snapshot()
    check_refused(server, requests.get(f"{server.api}/users/{u}/actions/signIn/{seeded['key']}", headers=h), 404)
    check_refused(server, requests.patch(f"{server.api}/users/{u}/actions/signIn/{seeded['key']}", headers=h,
                                         json={"state": "CHALLENGE_SUCCEEDED"}), 404)
    check_refused(server, requests.delete(f"{server.api}/users/{u}/authenticators/{seeded['auth']}", headers=h), 404)
    r = requests.post(f"{server.api}/validate", headers=h, json={"token": seeded["token"]})
    assert r.status_code == 200 and r.json()["isValid"] is False
    assert server.snapshot() == before


def test_oversized_body_is_413_and_changes_nothing(server, seeded):
    before = server.snapshot()
    big = json.dumps({"custom": {"blob": "x" * (2 << 20)}})
    r = requests.post(f"{server.api}/users/{seeded['user']}/actions/signIn",
                      headers={**basic(server.secret), **JSON}, data=big)
    check_refused(server, r, 413, "payload_too_large")
    # Chunked, without Content-Length: assentd reads and discards the rest, then answers 413...
    medium = json.dumps({"custom": {"blob": "x" * (3 << 19)}})
    r = requests.post(f"{server.api}/users/{seeded['user']}/actions/signIn",
                      headers={**basic(server.secret), **JSON}, data=(medium[i:i + 65536].encode() for i in range(0, len(medium), 65536)))
    check_refused(server, r, 413, "payload_too_large")
    # ...and a body far over the cap is cut off by closing the connection (documented in the README).
    huge = b"x" * (4 << 20)
    try:
        r = requests.post(f"{server.api}/users/{seeded['user']}/actions/signIn",
                          headers={**basic(server.secret), **JSON}, data=(huge[i:i + 65536] for i in range(0, len(huge), 65536)))
        check_refused(server, r, 413, "payload_too_large")
    except requests.ConnectionError:
        pass
    # Big but under the cap, yet over the custom-data limit: refused as invalid.
    r = requests.post(f"{server.api}/users/{seeded['user']}/actions/signIn",
                      headers={**basic(server.secret), **JSON}, json={"custom": {"blob": "x" * 40000}})
    check_refused(server, r, 400, "invalid_request")
    assert server.snapshot() == before


def test_wrong_media_type_unknown_route_and_wrong_method(server, seeded):
    before = server.snapshot()
    r = requests.post(f"{server.api}/users/{seeded['user']}/actions/signIn",
                      headers={**basic(server.secret), "Content-Type": "text/plain"}, data="ipAddress=1")
    check_refused(server, r, 415, "unsupported_media_type")
    check_refused(server, requests.get(f"{server.api}/nothing-here", headers=basic(server.secret)), 404, "not_found")
    r = requests.put(f"{server.api}/validate", headers=basic(server.secret), json={})
    check_refused(server, r, 405, "method_not_allowed")
    assert "POST" in r.headers["Allow"]
    check_refused(server, requests.get(f"{server.api}/users/%00bad", headers=basic(server.secret)), 400)
    check_refused(server, requests.post(f"{server.api}/users/u/actions/sign%20in", headers=basic(server.secret)), 400)
    assert server.snapshot() == before


def test_secrets_and_tokens_never_reach_the_log(server, seeded):
    requests.post(f"{server.api}/validate", headers={**basic(server.secret), **JSON}, json={"token": seeded["token"]})
    import time
    time.sleep(0.3)  # info lines reach the log in batches, within 50 ms
    log = server.log_text()
    assert server.secret not in log and server.other_secret not in log
    assert seeded["token"] not in log
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert any(line.get("msg") == "request" and line.get("route") == "/v1/validate" for line in lines)


def test_healthz_and_metrics(server):
    r = requests.get(server.url + "/healthz")
    assert r.status_code == 200 and r.json()["database"] == "ok"
    assert r.json()["databaseKind"] == {"sqlite": "sqlite", "postgres": "postgresql"}[server.store]
    assert r.json()["databaseLatencyMs"] >= 0
    # /metrics is not public on the API listener (V11): a server of its own serves it on --metrics-listen.
    assert requests.get(server.url + "/metrics").status_code == 404
    with tempfile.TemporaryDirectory() as directory:
        metrics_port, own = free_port(), Server(directory)
        own.start("--metrics-listen", f"127.0.0.1:{metrics_port}")
        try:
            requests.post(own.api + "/validate", json={"token": "x"})
            m = requests.get(f"http://127.0.0.1:{metrics_port}/metrics").text
        finally:
            own.stop()
    assert 'route="/v1/validate"' in m
    assert "# TYPE" in m
