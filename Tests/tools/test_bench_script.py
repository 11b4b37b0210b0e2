"""scripts/bench.sh's own plumbing, with stand-ins for swift, assentd, assent and assent-bench (no build, no load):
the report table assent-bench prints on stdout survives `bench.sh > log 2>&1` whole, in order with the progress
lines on stderr (issue 22 §4: its first lines were overwritten, as the report went through a reopened /dev/stdout
with an offset of its own while stderr wrote at the log's first offset)."""

import os
import pathlib
import stat
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench.sh"

FAKE_SWIFT = """#!/bin/sh
# Only `swift build ... --show-bin-path` is asked for with BENCH_SKIP_BUILD=1.
echo "$FAKE_BIN"
"""

FAKE_ASSENTD = """#!/usr/bin/env python3
import http.server, signal, sys
listen = sys.argv[sys.argv.index("--listen") + 1]
host, port = listen.rsplit(":", 1)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer((host, int(port)), Health)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
server.serve_forever()
"""

FAKE_ASSENT = """#!/bin/sh
echo '{"tenantId": "t_fake", "secretKey": "sk_fake"}'
"""

# As the real one: a progress line on stderr before each row, the table on stdout at the end, a last note on stderr.
FAKE_BENCH = """#!/bin/sh
for row in 1 2 3; do echo "assent-bench: measuring row $row, warm-up 2 s, measuring 20 s" >&2; done
printf 'SCENARIO  CONNECTIONS  REQ/S\\ntrack     1            100\\ntrack     32           900\\nvalidate  1            120\\n'
echo "assent-bench: 0 of 3 runs had failed requests" >&2
"""


def install(folder, name, text):
    path = folder / name
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def run_bench(tmp_path, **extra):
    """bench.sh with the stand-ins, stdout and stderr to one file; returns (exit status, the file's lines)."""
    fakes = tmp_path / "bin"
    fakes.mkdir()
    for name, text in [("swift", FAKE_SWIFT), ("assentd", FAKE_ASSENTD), ("assent", FAKE_ASSENT),
                       ("assent-bench", FAKE_BENCH)]:
        install(fakes, name, text)
    log = tmp_path / "log"
    env = {"PATH": f"{fakes}:/usr/bin:/bin", "FAKE_BIN": str(fakes), "BENCH_SKIP_BUILD": "1", "BENCH_BIN": str(fakes),
           "TMPDIR": str(tmp_path), "HOME": str(tmp_path), **extra}
    with open(log, "wb") as out:
        done = subprocess.run(["bash", str(SCRIPT)], stdout=out, stderr=subprocess.STDOUT, env=env, timeout=120,
                              cwd=tmp_path)
    return done.returncode, log.read_text()


TABLE = ["SCENARIO  CONNECTIONS  REQ/S", "track     1            100", "track     32           900",
         "validate  1            120"]


def assert_whole_table(text):
    lines = text.splitlines()
    assert TABLE[0] in lines, text
    start = lines.index(TABLE[0])
    assert lines[start:start + len(TABLE)] == TABLE, text


def test_the_report_table_survives_stdout_and_stderr_in_one_file(tmp_path):
    status, text = run_bench(tmp_path)
    assert status == 0, text
    assert_whole_table(text)
    assert "assent-bench: 0 of 3 runs had failed requests" in text and "assent-bench: measuring row 3" in text, text


def test_with_results_and_repeats_each_round_is_kept_and_printed(tmp_path):
    results = tmp_path / "results"
    status, text = run_bench(tmp_path, BENCH_RESULTS=str(results), BENCH_REPEAT="2")
    assert status == 0, text
    assert text.count(TABLE[0]) == 2, text
    assert_whole_table(text)
    files = sorted(results.iterdir())
    assert len(files) == 2, files
    for file in files:
        lines = file.read_text().splitlines()
        assert lines[0].startswith('{"type": "run"') and lines[1:] == TABLE, lines
