"""The newcomer's first hour (issue 14 §6), tried as the README tells it, against real assentd and assent processes."""
import base64
import json
import os
import socket
import subprocess
import tempfile
import time
import uuid

import pytest
import requests

from conftest import BIN, ROOT, assent, free_port

_sqlite_only = pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
MASTER_KEY = {"PATH": "/usr/bin:/bin", "ASSENT_MASTER_KEY": "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}


def _run_assentd(port, database, *flags, timeout=5):
    """Starts assentd; returns (exit code or None if it kept running until `timeout`, output)."""
    command = [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{port}", "--database", database, *flags]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                              env=MASTER_KEY)
        return done.returncode, done.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as running:
        return None, (running.output or b"").decode("utf-8", "replace")


@_sqlite_only
def test_a_start_on_a_taken_port_keeps_the_development_tenant_for_the_next_start(store):
    """§6.1: the one-time secret is created only once the listener is up, so a failed bind loses nothing."""
    with tempfile.TemporaryDirectory() as directory, socket.socket() as taken:
        database = os.path.join(directory, "assent.sqlite")
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        code, output = _run_assentd(taken.getsockname()[1], database, "--dev")
        assert code not in (None, 0), f"assentd served on a taken port:\n{output}"
        assert "secret key:" not in output and "sk_" not in output and "development tenant" not in output, output
        assert assent("admin", "tenant", "list", "--database", database) == [], "the failed start created a tenant"

        code, output = _run_assentd(free_port(), database, "--dev")
        assert code is None, output
        assert "Created a development tenant" in output and "secret key:" in output, output
        assert [t["name"] for t in assent("admin", "tenant", "list", "--database", database)] == ["Development"]


def _cli(cwd, *args, env=None):
    """Runs the assent CLI in `cwd` with a clean environment (no ASSENT_DATABASE, no master key variables)."""
    base = {"PATH": "/usr/bin:/bin", **(env or {})}
    return subprocess.run([os.path.join(BIN, "assent"), *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                          env=base)


@_sqlite_only
def test_admin_commands_find_the_servers_default_database(store):
    """§6.5: without --database, admin commands use .assent/assent.sqlite — what assentd (and `make run`) use."""
    with tempfile.TemporaryDirectory() as directory:
        missing = _cli(directory, "admin", "tenant", "list")
        assert missing.returncode == 1, missing
        assert ".assent/assent.sqlite" in missing.stderr and "--database" in missing.stderr, missing.stderr
        created = _cli(directory, "admin", "tenant", "create", "--name", "Default path", "--json")
        assert created.returncode == 0, created.stderr
        tenant = json.loads(created.stdout)
        assert os.path.exists(os.path.join(directory, ".assent", "assent.sqlite"))
        listed = json.loads(_cli(directory, "admin", "tenant", "list", "--json").stdout)
        assert [t["tenantId"] for t in listed] == [tenant["tenantId"]]
        # assentd started in the same directory without --database serves that tenant.
        port = free_port()
        server = subprocess.Popen([os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{port}"], cwd=directory,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"})
        try:
            deadline = time.time() + 30
            while True:
                try:
                    r = requests.get(f"http://127.0.0.1:{port}/v1/users/u1", auth=(tenant["secretKey"], ""), timeout=2)
                    break
                except requests.RequestException:
                    assert time.time() < deadline and server.poll() is None, "assentd did not start"
                    time.sleep(0.1)
            assert r.status_code == 200, r.text
        finally:
            server.terminate()
            server.wait(timeout=20)


def test_validate_help_says_the_token_is_the_access_token_from_verify(store):
    """§6.3."""
    out = _cli(ROOT, "admin", "validate", "--help")
    assert out.returncode == 0
    assert "access token" in out.stdout and "verify" in out.stdout and "never valid" in out.stdout, out.stdout


def test_client_api_401s_name_the_expected_header_and_the_server_api_keeps_authsignals_wording(server):
    """§6.7."""
    r = requests.get(f"{server.api}/client/user-authenticators/push?publicKey=x", timeout=10)
    assert r.status_code == 401 and "Authorization: Basic" in r.json()["errorDescription"], r.text
    r = requests.post(f"{server.api}/client/challenge/push", json={}, timeout=10)
    assert r.status_code == 401 and "Authorization: Bearer" in r.json()["errorDescription"], r.text
    wording = "The request is unauthorized. Check that your API key and region base URL are correctly configured."
    expected = "Authorization: Basic base64(SECRET_KEY + \":\")"
    # Issue 22 §3.7: Authsignal's wording first, then the header expected, and what was wrong with the one sent.
    for headers, told in [({}, "sent no Authorization header"),
                          ({"Authorization": "Bearer " + server.secret}, "sent Authorization: Bearer"),
                          ({"Authorization": "Basic " + base64.b64encode(b"sk_not_a_tenants:").decode()}, "no tenant's")]:
        r = requests.get(f"{server.api}/users/u1", headers=headers, timeout=10)
        body = r.json()
        assert r.status_code == 401 and body["errorCode"] == "unauthorized" and body["error"], r.text
        assert body["errorDescription"] == wording, r.text  # the official SDKs' own tests compare it
        assert expected in body["hint"] and told in body["hint"] and server.secret not in body["hint"], r.text
    out = _cli(ROOT, "admin", "user", "get", "--user", "u1", "--url", server.url, env={"ASSENT_SECRET_KEY": "sk_wrong"})
    assert out.returncode == 1 and wording in out.stderr and expected in out.stderr, out.stderr


def test_an_activation_with_another_tenants_token_is_refused_and_stores_nothing(server):
    """§6.4 for PowerAuth: the token's tenant must be the one the device names."""
    token = requests.post(f"{server.api}/users/pa-{uuid.uuid4().hex[:6]}/actions/enrol", auth=(server.other_secret, ""),
                          json={"scope": "add:authenticators"}, timeout=10).json()["token"]
    before = server.snapshot()
    r = requests.post(f"{server.api}/client/activations", json={"devicePublicKey": "AA", "activationName": "x"},
                      headers={"Authorization": "Bearer " + token, "X-Authsignal-Tenant-ID": server.tenant_id},
                      timeout=10)
    assert r.status_code == 403 and r.json()["errorCode"] == "tenant_mismatch", r.text
    assert server.snapshot() == before


def test_usage_errors_answer_json_with_json(store):
    """§6.8: a command line too wrong to run still answers --json with the error envelope on stdout."""
    for args in [("admin", "track", "--json"), ("admin", "no-such-command", "--json"),
                 ("admin", "track", "--user", "u", "--action", "a", "--no-such-flag", "--json"), ("admin", "--json")]:
        out = _cli(ROOT, *args)
        assert out.returncode == 2, (args, out)
        body = json.loads(out.stdout)
        assert body["errorCode"] == "usage" and body["errorDescription"], (args, body)


def test_ids_are_named_for_what_they_are_and_the_old_flag_still_works(server):
    """§6.8: `--authenticator`, not `--id` (kept as a hidden alias)."""
    help_text = _cli(ROOT, "admin", "authenticators", "delete", "--help").stdout
    assert "--authenticator" in help_text and "--id" not in help_text, help_text
    env = {"ASSENT_URL": server.url, "ASSENT_SECRET_KEY": server.secret}
    user = f"ids-{uuid.uuid4().hex[:6]}"
    for flag in ["--authenticator", "--id"]:
        enrolled = json.loads(_cli(ROOT, "admin", "authenticators", "enroll", "--user", user, "--method", "EMAIL_OTP",
                                   "--email", "a@example.com", "--json", env=env).stdout)
        authenticator = enrolled["authenticator"]["userAuthenticatorId"]
        out = _cli(ROOT, "admin", "authenticators", "delete", "--user", user, flag, authenticator, env=env)
        assert out.returncode == 0, (flag, out.stderr)


def test_messages_carry_no_foundation_dump_or_swift_type_name(store):
    """§6.8: a refused connection is described in words."""
    port = free_port()
    out = _cli(ROOT, "admin", "user", "get", "--user", "u", "--url", f"http://127.0.0.1:{port}",
               env={"ASSENT_SECRET_KEY": "sk_x"})
    assert out.returncode == 1
    assert "network error" in out.stderr and "Error Domain" not in out.stderr and "NSURL" not in out.stderr, out.stderr


@_sqlite_only
def test_the_demo_pages_line_only_when_there_are_pages(store):
    """§6.8."""
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "assent.sqlite")
        _, without = _run_assentd(free_port(), database, "--web-root", os.path.join(directory, "no-web"))
        assert "assentd is listening" in without and "Demo pages" not in without, without
        _, with_pages = _run_assentd(free_port(), database, "--web-root", os.path.join(ROOT, "web"))
        assert "Demo pages" in with_pages, with_pages


@_sqlite_only
def test_every_start_prints_the_consoles_address(store):
    """Issue 22 §3.2: the console's address is on the start banner without --admin-listen too (it was not), and on the
    admin listener when there is one."""
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "assent.sqlite")
        port = free_port()
        _, output = _run_assentd(port, database)
        assert f"Admin console: http://127.0.0.1:{port}/admin/ (sign in with" in output, output
        admin = free_port()
        _, output = _run_assentd(free_port(), database, "--admin-listen", f"127.0.0.1:{admin}")
        assert f"Admin console: http://127.0.0.1:{admin}/admin/ (only on this listener" in output, output
        assert output.count("Admin console:") == 1, output


@_sqlite_only
def test_an_unusable_database_path_says_what_happened_and_what_to_do(store):
    """Issue 22 §3.6: `--database` under a regular file answered `a file operation failed (code 512)`."""
    with tempfile.TemporaryDirectory() as directory:
        regular = os.path.join(directory, "a-file")
        open(regular, "w").close()
        folder = os.path.join(directory, "a-folder")
        os.mkdir(folder)
        for database, said in [(os.path.join(regular, "sub", "assent.sqlite"), "Not a directory"),
                               (folder, "Is a directory")]:
            code, output = _run_assentd(free_port(), database)
            assert code not in (None, 0), output
            assert said in output and "--database" in output, output
            assert "code 512" not in output and "openFailed" not in output and ".swift" not in output, output
        out = _cli(directory, "admin", "tenant", "list", "--database", folder)
        assert out.returncode == 1 and "Is a directory" in out.stderr and "--database" in out.stderr, out.stderr
        assert "openFailed" not in out.stderr, out.stderr
        # Nothing made up beside the directory named as the database (a master key appeared in its parent).
        assert sorted(os.listdir(directory)) == ["a-file", "a-folder"] and os.listdir(folder) == []


@_sqlite_only
def test_a_start_with_every_listener_logs_no_libmicrohttpd_warning(store):
    """Issue 22 §3.8: each of --metrics-listen and --admin-listen logged libmicrohttpd's "thread pool size 1 is
    ignored" warning on every start, and a missing web root was logged once per listener."""
    with tempfile.TemporaryDirectory() as directory:
        database = os.path.join(directory, "assent.sqlite")
        _, output = _run_assentd(free_port(), database, "--metrics-listen", f"127.0.0.1:{free_port()}",
                                 "--admin-listen", f"127.0.0.1:{free_port()}", "--threads", "1",
                                 "--web-root", os.path.join(directory, "no-web"))
        assert output.count('"msg":"http server started"') == 3, output
        assert "libmicrohttpd" not in output and "thread pool" not in output, output
        assert output.count("web root not found") == 1, output


@_sqlite_only
def test_check_config_refuses_a_taken_port_and_an_impossible_database(store):
    """Issue 22 §3.8: check-config said "the configuration is good" while the listen port was taken."""
    with tempfile.TemporaryDirectory() as directory, socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        database = os.path.join(directory, "assent.sqlite")
        for flag in ("--listen", "--metrics-listen", "--admin-listen"):
            others = [] if flag == "--listen" else ["--listen", f"127.0.0.1:{free_port()}"]
            done = subprocess.run([os.path.join(BIN, "assentd"), "check-config", "--database", database, *others,
                                   flag, f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=60,
                                  env=MASTER_KEY)
            assert done.returncode == 1, (flag, done)
            assert f"127.0.0.1:{port} is already in use" in done.stdout and flag in done.stdout, (flag, done.stdout)
            assert "the configuration is good" not in done.stdout
        free = subprocess.run([os.path.join(BIN, "assentd"), "check-config", "--database", database,
                               "--listen", f"127.0.0.1:{free_port()}"], capture_output=True, text=True, timeout=60,
                              env=MASTER_KEY)
        assert free.returncode == 0 and "is free to listen on" in free.stdout, free
        regular = os.path.join(directory, "a-file")
        open(regular, "w").close()
        under = subprocess.run([os.path.join(BIN, "assentd"), "check-config", "--listen", f"127.0.0.1:{free_port()}",
                                "--database", os.path.join(regular, "sub", "assent.sqlite")],
                               capture_output=True, text=True, timeout=60, env=MASTER_KEY)
        assert under.returncode == 1 and "is a file, not a directory" in under.stdout, under


@_sqlite_only
def test_tenant_settings_prints_every_setting(store):
    """§6.6: what `--json` shows, a person reads too — one line per setting."""
    with tempfile.TemporaryDirectory() as directory:
        tenant = json.loads(_cli(directory, "admin", "tenant", "create", "--name", "S", "--json").stdout)["tenantId"]
        settings = json.loads(_cli(directory, "admin", "tenant", "settings", "--tenant", tenant, "--json").stdout)
        text = _cli(directory, "admin", "tenant", "settings", "--tenant", tenant).stdout
        # One "label: value" line per JSON setting, besides the tenant's and the push provider's.
        lines = [line for line in text.splitlines() if ":" in line and not line.startswith(" ")]
        assert len(lines) == len(settings["settings"]) + 2, (sorted(settings["settings"]), text)
        for label in ["Unenrolled state", "Challenge timeout", "Most pending pushes", "Action rules", "push provider"]:
            assert f"\n{label}:" in "\n" + text, (label, text)
