"""The README, tried literally (issue 14 §6.2): every ```sh block is marked `<!-- readme-test: run -->` or
`<!-- readme-test: skip (reason) -->` on the line before it (an unmarked block fails the test), and the `run` blocks
are executed in order, in one shell session's worth of variables and functions, against a live assentd started as
`make run` starts it (`--dev`, the default database `.assent/assent.sqlite` in a fresh working directory), with the
values it prints substituted for the README's placeholders: the tenant ID, the secret key, the base URL, and the
binaries' path. The CLI's device keys go to a fresh HOME. SQLite only, as `make run` is.

The blocks run as a reader's shell runs them: the binaries are NOT on PATH (a reader has `.build/release/assent`, which
the blocks name or keep in `$A`), so a block calling a bare `assent` fails here as it fails for the reader (issue 22
§3.1: the tenant and audit blocks did, unseen, while PATH held the binaries). Every file or directory the README's
prose names under `~/` must exist in that HOME once the blocks ran (it named `~/.assent/device`, which never did)."""
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest

from conftest import BIN, ROOT, free_port

README = os.path.join(ROOT, "README.md")
# Every shell-like fence, also indented ones and other spellings of the language, so none escapes the mark check.
BLOCK = re.compile(r"^(?P<indent>[ \t]*)```(?:sh|bash|shell|console|zsh)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.M | re.S)
# A command word `assent` or `assentd` at the start of a command (line start, after ; & | ( or $( ): not on a reader's PATH.
BARE_BINARY = re.compile(r"(?:^|[;&|(]|\$\()\s*(assentd?)\s")
HOME_PATH = re.compile(r"`~/([^`\s]+)`")
MARK = re.compile(r"^<!-- readme-test: (run|skip \((?P<reason>[^)]+(?:\([^)]*\)[^)]*)*)\)) -->$")


def blocks():
    """(line number, 'run' | 'skip' | None, text) for every ```sh block, in order."""
    text = open(README, encoding="utf-8").read()
    found = []
    for match in BLOCK.finditer(text):
        previous = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.match(previous)
        kind = None if mark is None else ("run" if mark.group(1) == "run" else "skip")
        body = "\n".join(l[len(match.group("indent")):] for l in match.group("body").split("\n"))
        found.append((text[:match.start()].count("\n") + 1, kind, body))
    return found


def test_every_shell_block_says_whether_the_readme_test_runs_it():
    unmarked = [line for line, kind, _ in blocks() if kind is None]
    assert not unmarked, (f"README.md has ```sh blocks without <!-- readme-test: run --> or <!-- readme-test: skip "
                          f"(reason) --> on the line before, at lines {unmarked}")
    assert any(kind == "run" for _, kind, _ in blocks())


def test_no_shell_block_calls_a_binary_that_is_not_on_the_readers_path():
    """Skipped blocks too: a reader copies them by hand. `make` puts the binaries in .build/release, not on PATH."""
    bare = []
    for line, _, block in blocks():
        for offset, command in enumerate(block.split("\n")):
            code = re.sub(r"(^|\s)#.*$", "", command)
            if BARE_BINARY.search(code):
                bare.append(f"line {line + 1 + offset}: {command.strip()}")
    assert not bare, "README.md calls a bare assent/assentd (use .build/release/... or $A):\n" + "\n".join(bare)


def test_two_commands_says_where_the_console_is():
    """Issue 22 §3.2: a newcomer learns of the console in the first section, not near the end."""
    text = open(README, encoding="utf-8").read()
    first = text.split("\n## Two commands\n", 1)[1].split("\n## ", 1)[0]
    assert "http://127.0.0.1:8420/admin/" in first, "README's Two commands does not name the console's address"


def start_like_make_run(directory):
    """assentd --dev in `directory` with its default database; returns (process, url, tenant ID, secret key)."""
    port = free_port()
    log = open(os.path.join(directory, "assentd.log"), "wb")
    process = subprocess.Popen(
        [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{port}", "--dev", "--allow-private-urls",
         "--rate-limits", "off", "--web-root", os.path.join(ROOT, "web")],
        cwd=directory, stdout=subprocess.PIPE, stderr=log, text=True, env={"PATH": "/usr/bin:/bin"})
    printed, deadline = [], time.time() + 60
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("assentd ended:\n" + "".join(printed))
        printed.append(line)
        if line.startswith("assentd is listening"):
            break
    text = "".join(printed)
    tenant = re.search(r"^\s+tenant ID:\s+(\S+)$", text, re.M)
    secret = re.search(r"^\s+secret key:\s+(\S+)$", text, re.M)
    assert tenant and secret, f"assentd --dev printed no development tenant:\n{text}"
    return process, f"http://127.0.0.1:{port}", tenant.group(1), secret.group(1)


def substituted(block, url, tenant, secret):
    return (block.replace(".build/release/assent", os.path.join(BIN, "assent"))
            .replace("http://127.0.0.1:8420", url)
            .replace("sk_...", secret)
            .replace("<tenant ID>", tenant))


# What each run block must show, by the heading above it: the flows end where the README says they end.
EXPECTED = {
    "Push verification in five steps": [r"valid:\s+yes", r"method:\s+PUSH", r"False\s*$"],
    "QR code sign-in, from enrolment to validation": [r"valid:\s+yes", r"method:\s+DEVICE"],
    "PowerAuth with the CLI: activation, signing, biometry": [r"ACTIVE", r'"valid"\s*:\s*true'],
    "Calling the API directly": [r'"errorCode"\s*:\s*"unauthorized"', r"Authorization: Bearer"],
    "Audit log": [r"tenant\.secret_rotated", r"is intact", r'"kind"\s*:\s*"tenant\.created"'],
}


def heading_before(line):
    lines = open(README, encoding="utf-8").read().splitlines()[:line]
    return next((l[3:].strip() for l in reversed(lines) if l.startswith("## ")), "")


@pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
def test_the_readmes_shell_blocks_run_against_a_live_server(store):
    with tempfile.TemporaryDirectory() as directory:
        home = os.path.join(directory, "home")
        os.makedirs(home)
        process, url, tenant, secret = start_like_make_run(directory)
        state, functions = os.path.join(directory, ".readme-vars"), os.path.join(directory, ".readme-functions")
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"}
        assert shutil.which("assent", path=env["PATH"]) is None, "an installed assent would hide a bare `assent`"
        ran = 0
        try:
            for line, kind, block in blocks():
                if kind != "run":
                    continue
                script = "\n".join([
                    "set -a",  # every assignment is exported, so the next block sees it
                    f"[ -f {state} ] && source {state}",
                    f"[ -f {functions} ] && source {functions}",
                    "set -euo pipefail",
                    substituted(block, url, tenant, secret),
                    f"declare -px | grep -v '^declare -[a-zA-Z]*r' > {state}.next",
                    f"declare -f > {functions}",
                    f"mv {state}.next {state}",
                ])
                done = subprocess.run(["bash", "-c", script], cwd=directory, env=env, capture_output=True, text=True,
                                      timeout=180, stdin=subprocess.DEVNULL)
                output = done.stdout + done.stderr
                assert done.returncode == 0, f"README.md block at line {line} failed ({done.returncode}):\n{output}"
                for pattern in EXPECTED.get(heading_before(line), []):
                    assert re.search(pattern, done.stdout, re.M), (
                        f"README.md block at line {line} ({heading_before(line)}) did not show /{pattern}/:\n{output}")
                ran += 1
            named = sorted(set(HOME_PATH.findall(open(README, encoding="utf-8").read())))
            missing = [f"~/{path}" for path in named if not os.path.exists(os.path.join(home, path))]
            assert not missing, f"README.md names {missing} in HOME, which the blocks never created"
        finally:
            process.terminate()
            process.wait(timeout=30)
        assert ran >= 5
