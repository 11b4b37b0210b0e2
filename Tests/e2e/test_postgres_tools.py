"""Operating Assent on PostgreSQL: `assentd migrate` on its own, a PostgreSQL configuration without a named master key
refused, and an SQLite installation moved over with `assentd copy-sqlite` keeping its tenants, devices, actions and
PowerAuth activations (their counters included)."""
import os
import subprocess
import tempfile
import uuid

import pytest
import requests
from authsignal.client import AuthsignalClient

from conftest import BIN, CURRENT, Server, assent, postgres
from powerauth_device import PowerAuthDevice, b64
from test_powerauth import BODY
from test_push import Tenant

# Several instances (or the tools between stores) need PostgreSQL: the session store fixture runs this module
# on PostgreSQL alone.
pytestmark = pytest.mark.parametrize("store", ["postgres"], indirect=True, scope="session")


def assentd(*args, env=None):
    return subprocess.run([os.path.join(BIN, "assentd"), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_migrate_runs_once_and_a_missing_master_key_is_refused():
    url = postgres().create_database()
    first = assentd("migrate", "--database-url", url)
    assert first.returncode == 0 and "applied migrations" in first.stdout, first.stderr
    again = assentd("migrate", "--database-url", url)
    assert again.returncode == 0 and "up to date" in again.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSENT_MASTER_KEY")}
    refused = subprocess.run([os.path.join(BIN, "assentd"), "--database", url, "--listen", "127.0.0.1:0"],
                             capture_output=True, text=True, timeout=30, env=env)
    assert refused.returncode != 0 and "master key" in refused.stderr


def test_an_sqlite_installation_copied_into_postgresql_keeps_working():
    with tempfile.TemporaryDirectory() as directory:
        # An SQLite installation with its own master key beside the database.
        CURRENT["store"] = "sqlite"
        saved = os.environ.pop("ASSENT_MASTER_KEY_FILE")
        try:
            old = Server(directory)
            old.start()
            tenant = Tenant(old)
            user = f"moved-{uuid.uuid4().hex[:6]}"
            device = tenant.enrol(user)
            tracked = tenant.sdk.track(user, "signIn")
            powerauth = assent("admin", "tenant", "powerauth", "--database", old.database, "--tenant", tenant.id)
            activation_token = tenant.sdk.track(user, "activate", {"scope": "add:authenticators"})["token"]
            pa_device = PowerAuthDevice(old.api, powerauth["masterPublicKey"], tenant.id)
            pa_device.activate(activation_token)
            used = pa_device.header("POST", "/payments", BODY, "possession_knowledge")
            assert verify(old, tenant.secret, used)["valid"] is True
            old.stop()
        finally:
            os.environ["ASSENT_MASTER_KEY_FILE"] = saved
            CURRENT["store"] = "postgres"
        url = postgres().create_database()
        copied = assentd("copy-sqlite", "--from", old.database, "--to", url)
        assert copied.returncode == 0, copied.stderr
        assert "tenants: 1 rows" in copied.stdout and "authenticators: 1 rows" in copied.stdout
        again = assentd("copy-sqlite", "--from", old.database, "--to", url)
        assert again.returncode != 0 and "not empty" in again.stderr

        # The PostgreSQL instance uses the SQLite installation's master key: secrets and tokens still verify.
        new = Server(os.path.join(directory, "pg"), database=url)
        os.makedirs(new.directory)
        new.start("--master-key-file", os.path.join(directory, "master.key"))
        try:
            device.server = new
            assert device.get().status_code == 200
            sdk = AuthsignalClient(tenant.secret, api_url=new.api)
            assert sdk.get_action(user, "signIn", tracked["idempotency_key"])["state"] == "CHALLENGE_REQUIRED"
            r = requests.post(f"{new.api}/client/challenge/push", json={"action": "signIn"},
                              headers={"Authorization": "Bearer " + tracked["token"]})
            assert r.status_code == 200, r.text
            # The activation came along with its application, sealed secrets and counter: a used signature stays
            # used, the next one verifies.
            assert verify(new, tenant.secret, used)["valid"] is False
            assert verify(new, tenant.secret, pa_device.header("POST", "/payments", BODY, "possession_knowledge"))["valid"]
            assert assent("admin", "tenant", "powerauth", "--database", url, "--tenant", tenant.id) == powerauth
        finally:
            new.stop()


def verify(server, secret, header):
    r = requests.post(server.api + "/signatures/verify", auth=(secret, ""), timeout=10,
                      json={"method": "POST", "uriId": "/payments", "body": b64(BODY), "authorization": header})
    assert r.status_code == 200, r.text
    return r.json()
