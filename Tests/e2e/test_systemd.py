"""deploy/assentd.service: `systemd-analyze verify` accepts it (with the built assentd substituted for the installed
path, as verify checks that ExecStart's binary exists), `systemd-analyze security --offline=true` scores it 2.0 or
better, and the flags its ExecStart passes are ones assentd takes (`assentd check-config` with the same arguments)."""
import os
import re
import shlex
import shutil
import subprocess
import tempfile

import pytest

from conftest import BIN, ROOT, free_port

UNIT = os.path.join(ROOT, "deploy", "assentd.service")
# Debian's `systemd` package, which `make test` installs (TEST_PACKAGES).
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def unit_with_built_binary(directory, uncomment_tls=False):
    text = open(UNIT).read().replace("/usr/local/bin/assentd", os.path.join(BIN, "assentd"))
    if uncomment_tls:
        text = re.sub(r"^#(LoadCredential|Environment)=", r"\1=", text, flags=re.MULTILINE)
    path = os.path.join(directory, "assentd.service")
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.mark.parametrize("tls", [False, True])
def test_unit_passes_systemd_analyze_verify(tls):
    with tempfile.TemporaryDirectory() as directory:
        path = unit_with_built_binary(directory, uncomment_tls=tls)
        out = subprocess.run([ANALYZE, "verify", path], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert "assentd.service" not in out.stderr, out.stderr  # no warning about the unit itself


def test_unit_scores_2_or_better_in_systemd_analyze_security():
    with tempfile.TemporaryDirectory() as directory:
        path = unit_with_built_binary(directory)
        out = subprocess.run([ANALYZE, "security", "--offline=true", path], capture_output=True, text=True, timeout=60)
        match = re.search(r"Overall exposure level for assentd\.service: ([0-9.]+)", out.stdout)
        assert match, out.stdout + out.stderr
        assert float(match.group(1)) <= 2.0, out.stdout
        # --threshold makes systemd-analyze itself fail above 2.0 (its scale is tenths).
        gated = subprocess.run([ANALYZE, "security", "--offline=true", "--threshold=20", path], capture_output=True,
                               timeout=60)
        assert gated.returncode == 0


def test_unit_sets_the_hardening_the_deployment_relies_on():
    settings = {}
    for line in open(UNIT):
        if "=" in line and not line.lstrip().startswith("#"):
            key, _, value = line.strip().partition("=")
            settings.setdefault(key, []).append(value)
    for key, value in [("DynamicUser", "yes"), ("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
                       ("StateDirectory", "assent"), ("StateDirectoryMode", "0700"),
                       ("WorkingDirectory", "/var/lib/assent"), ("UMask", "0077"), ("PrivateTmp", "yes"),
                       ("CapabilityBoundingSet", "")]:
        assert settings.get(key) == [value], (key, settings.get(key))
    assert "--web-root" in settings["ExecStart"][0]


def test_execstart_flags_are_ones_assentd_takes():
    start = next(line.split("=", 1)[1] for line in open(UNIT) if line.startswith("ExecStart="))
    pre = next(line.split("=", 1)[1] for line in open(UNIT) if line.startswith("ExecStartPre="))
    with tempfile.TemporaryDirectory() as directory:
        os.makedirs(os.path.join(directory, "web"))
        for command in (start, pre):
            arguments = [a.replace("/var/lib/assent", directory).replace("/usr/local/share/assent", directory)
                         for a in shlex.split(command)[1:]]
            if arguments[0] == "check-config":
                arguments = arguments[1:]
            # check-config binds the listen address for a moment: a free port, so an assentd on 8420 cannot fail this.
            arguments += ["--listen", f"127.0.0.1:{free_port()}"]
            out = subprocess.run([os.path.join(BIN, "assentd"), "check-config", *arguments], capture_output=True,
                                 text=True, timeout=60, env={"PATH": os.environ.get("PATH", "")})
            assert out.returncode == 0, out.stdout + out.stderr
            assert "the configuration is good" in out.stdout


def test_the_header_and_documentation_lead_somewhere_true():
    """Issue 22 §3.8: the Documentation= URL was a placeholder, the TLS renewal comment said both reload and restart,
    and nothing said how to make the first tenant of a service that runs without --dev."""
    text = open(UNIT).read()
    header = "".join(line[1:] for line in text.splitlines(keepends=True) if line.startswith("#"))
    for line in text.splitlines():
        if line.startswith("Documentation="):
            for uri in line.split("=", 1)[1].split():
                assert uri.startswith("file:/usr/local/share/assent/"), uri
                installed = uri.removeprefix("file:/usr/local/share/assent/")
                assert installed.split("/")[0] in header.split("cp -r", 1)[1].split("/usr/local/share/assent/")[0], uri
                assert os.path.exists(os.path.join(ROOT, installed)), uri
    assert "--dev" not in next(line for line in text.splitlines() if line.startswith("ExecStart="))
    assert "assent admin tenant create" in header and "/usr/local/bin/assent admin" in header
    assert "install -m 0755 .build/release/assentd .build/release/assent " in header
    # LoadCredential= copies are made at start: renewal is a restart; a reload (SIGHUP) only with readable files.
    renewal = " ".join(header.split())
    assert "after renewing the files run `systemctl restart assentd`" in renewal
    assert "instead of using LoadCredential=, and run `systemctl reload assentd`" in renewal
