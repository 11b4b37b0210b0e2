"""The OpenAPI document (openapi/assent.json, served at /openapi.json): a valid OpenAPI 3.1 document, and schemathesis
fuzzing a live assentd with it finds no 5xx and no answer that breaks its documented schema.

schemathesis runs with the checks not_a_server_error and response_schema_conformance, at most 10 examples per
operation and a 150-second budget (every operation is reached: the test counts them), with a fixed seed so each run
sends the same requests, authenticated per security scheme: the tenant's secret key (server API), the tenant
ID (device calls), a track token of an enrolled user (enrolment and the initiating page) and the metrics token. Its
path, query and body values are drawn in part from what exists (the user, the device keys, a challenge, an
activation), so the fuzzing reaches the success answers too. Its JUnit report is read, not only its exit code.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ElementTree

import requests
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from conftest import BIN, ROOT, Server, assent
from device import Device
from fakes.http_fakes import WebhookReceiver

DOCUMENT = os.path.join(ROOT, "openapi", "assent.json")
# schemathesis's `st` sits beside the interpreter running pytest (the venv's bin, which is not resolved further).
VENV_BIN = os.path.dirname(sys.executable)
METRICS_TOKEN = "openapi-metrics-token-0123456789"


def test_the_served_document_is_the_committed_one_and_valid_openapi_3_1(server):
    spec, _ = read_from_filename(DOCUMENT)
    validate(spec)  # raises on any violation of the OpenAPI 3.1 schema
    assert spec["openapi"] == "3.1.0"
    answer = requests.get(server.url + "/openapi.json", timeout=10)
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/json"
    with open(DOCUMENT, "rb") as f:
        assert answer.content == f.read()


def test_the_generator_writes_the_committed_document():
    # assent-openapi writes the document from the endpoint catalogue and the wire types' field tables.
    out = subprocess.run([os.path.join(BIN, "assent-openapi"), "--check", "--output", DOCUMENT],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def toml_string(value):
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def seed(server, tenant, home, webhook):
    """Things for the fuzzer to find: a user with a push and a QR device, a PowerAuth activation, a push challenge
    with a delivery record and an open QR challenge. Returns the values to draw from, by parameter."""
    api, secret = server.api, tenant["secretKey"]
    basic = (secret, "")
    user = f"fuzz-{uuid.uuid4().hex[:6]}"

    def track(action="signIn", scope=None):
        body = {"scope": scope} if scope else {}
        answer = requests.post(f"{api}/users/{user}/actions/{action}", json=body, auth=basic, timeout=30)
        assert answer.status_code == 200, answer.text
        return answer.json()

    push, qr = Device(server, tenant["tenantId"]), Device(server, tenant["tenantId"], style="android")
    assert push.add(track("enrol", "add:authenticators")["token"], "push").status_code == 200
    assert qr.add(track("enrol", "add:authenticators")["token"], "qr-code").status_code == 200

    master = assent("admin", "tenant", "powerauth", "--database", server.database, "--tenant", tenant["tenantId"])
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "ASSENT_DEVICE_PASSWORD": "2468"}
    activated = subprocess.run(
        [os.path.join(BIN, "assent"), "device", "activate", "--url", server.url, "--tenant", tenant["tenantId"],
         "--token", track("enrol", "add:authenticators")["token"], "--master-public-key", master["masterPublicKey"],
         "--home", os.path.join(home, "pa"), "--json"],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert activated.returncode == 0, activated.stderr + activated.stdout
    activation_id = json.loads(activated.stdout)["activationId"]

    # Push notifications go to a webhook receiver on loopback, so the challenge has a delivery timeline; the
    # fuzzer's push settings keep this URL (see config), so nothing leaves the machine.
    settings = requests.patch(f"{api}/tenant/push", auth=basic, timeout=30,
                              json={"provider": "webhook", "webhookUrl": webhook, "webhookBestEffort": True})
    assert settings.status_code == 200, settings.text

    tracked = track("signIn", "add:authenticators")
    bearer = {"Authorization": "Bearer " + tracked["token"]}
    started = requests.post(f"{api}/client/challenge/push", json={"action": "signIn"}, headers=bearer, timeout=30)
    assert started.status_code == 200, started.text
    qr_started = requests.post(f"{api}/client/challenge/qr-code", json={}, headers=bearer, timeout=30)
    assert qr_started.status_code == 200, qr_started.text
    return {
        "token": tracked["token"],
        "userId": [user],
        "action": ["signIn", "enrol"],
        "idempotencyKey": [tracked["idempotencyKey"]],
        "publicKey": [push.query, qr.query],
        "bodyPublicKey": [push.public_key, qr.public_key],
        "challengeId": [started.json()["challengeId"], qr_started.json()["challengeId"]],
        "activationId": [activation_id],
        "userAuthenticatorId": list(push.credential_ids.values()) + list(qr.credential_ids.values()),
        "tenant": [tenant["tenantId"]],
        "webhookUrl": [webhook],
    }


def config(tenant, values):
    """schemathesis.toml: one credential per security scheme, and dictionaries of existing values that path, query
    and body parameters draw from half the time (the other half is generated)."""
    lines = [
        "[auth.openapi.secretKey]", f"username = {toml_string(tenant['secretKey'])}", 'password = ""',
        "[auth.openapi.tenantId]", f"username = {toml_string(tenant['tenantId'])}", 'password = ""',
        "[auth.openapi.trackToken]", f"bearer = {toml_string(values['token'])}",
        "[auth.openapi.metricsToken]", f"bearer = {toml_string(METRICS_TOKEN)}",
    ]
    bindings = {
        "path.userId": "userId", "path.action": "action", "path.idempotencyKey": "idempotencyKey",
        "path.challengeId": "challengeId", "path.activationId": "activationId",
        "path.userAuthenticatorId": "userAuthenticatorId", "query.publicKey": "publicKey", "query.tenant": "tenant",
        "body.publicKey": "bodyPublicKey", "body.challengeId": "challengeId", "body.activationId": "activationId",
        "body.userId": "userId", "body.token": "token", "body.webhookUrl": "webhookUrl",
    }
    for name in sorted(set(bindings.values())):
        entries = values[name] if isinstance(values[name], list) else [values[name]]
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(entries)}"]
    lines.append("[parameters]")
    for key, name in bindings.items():
        # A tenant URL the fuzzer sets is where assentd then sends webhooks: always the loopback one.
        probability = 1.0 if name == "webhookUrl" else 0.5
        lines.append(f'"{key}" = {{ dictionary = "{name}", probability = {probability} }}')
    return "\n".join(lines) + "\n"


def failures(junit_path):
    """(operation, message) for every failed or erroring test case of schemathesis's JUnit report, and the number of
    test cases (one per operation)."""
    root = ElementTree.parse(junit_path).getroot()
    found, cases = [], 0
    for case in root.iter("testcase"):
        cases += 1
        for child in case:
            if child.tag in ("failure", "error"):
                found.append((case.get("name"), (child.get("message") or "") + (child.text or "")[:2000]))
    return found, cases


def test_schemathesis_finds_no_server_error_and_no_schema_violation(store):
    with tempfile.TemporaryDirectory() as directory:
        server = Server(directory)
        tenant = assent("admin", "tenant", "create", "--database", server.database, "--name", "openapi")
        server.start("--metrics-token", METRICS_TOKEN)
        hook = WebhookReceiver()
        try:
            values = seed(server, tenant, directory, hook.url + "/push")
            config_path = os.path.join(directory, "schemathesis.toml")
            with open(config_path, "w") as f:
                f.write(config(tenant, values))
            junit = os.path.join(directory, "junit.xml")
            started = time.monotonic()
            out = subprocess.run(
                [os.path.join(VENV_BIN, "st"), "--config-file", config_path, "run", server.url + "/openapi.json",
                 "--url", server.url, "--checks", "not_a_server_error,response_schema_conformance",
                 "--max-examples", "10", "--max-time", "150", "--seed", os.environ.get("ASSENT_FUZZ_SEED", "14"),
                 "--request-timeout", "30", "--report", "junit", "--report-junit-path", junit, "--no-color"],
                capture_output=True, text=True, timeout=420, cwd=directory, stdin=subprocess.DEVNULL)
            elapsed = time.monotonic() - started
            print(f"schemathesis on {store}: {elapsed:.0f} s, exit {out.returncode}")
            print(out.stdout[-6000:])
            found, _ = failures(junit)
            # Every operation was tested, but GET /openapi.json, which schemathesis leaves out as the schema's own URL.
            with open(DOCUMENT) as f:
                operations = sum(len(item) for item in json.load(f)["paths"].values())
            tested = re.search(r"Tested: (\d+)", out.stdout)
            assert tested and int(tested.group(1)) == operations - 1, out.stdout[-4000:] + out.stderr[-2000:]
            assert found == [], "\n\n".join(f"{name}: {message}" for name, message in found)
            assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
            # The fuzzer never pointed the tenant's push webhook away from loopback.
            settings = requests.get(f"{server.api}/tenant/push", auth=(tenant["secretKey"], ""), timeout=30).json()
            assert settings["webhookUrl"] in (None, values["webhookUrl"][0]), settings
            errors = [line for line in server.log_text().splitlines() if '"level":"error"' in line]
            assert errors == [], "\n".join(errors[:20])
        finally:
            server.stop()
            hook.stop()
