"""`make bench-report`: scripts/bench-report.py turns bench.sh's JSON-lines runs into SVG charts and tables."""

import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench-report.py"


def write_run(folder, name, store, users, rows, instances=1):
    lines = [{"type": "run", "store": store, "instances": instances, "seededUsers": users, "commit": "test",
              "date": "2026-12-02T00:00:00Z", "loadAverage": "0.1"},
             {"type": "machine", "cores": 2, "cpu": "test", "kernel": "test", "url": "http://127.0.0.1:1"}]
    for scenario, concurrency, rate, p50, p99 in rows:
        lines.append({"type": "result", "scenario": scenario, "step": None, "unit": "request" if scenario == "hello" else "flow",
                      "concurrency": concurrency, "durationSeconds": 10, "requests": int(rate * 10),
                      "ok": int(rate * 10), "errors": 0, "requestsPerSecond": rate, "p50Ms": p50, "p90Ms": p99,
                      "p99Ms": p99, "maxMs": p99, "meanMs": p50})
        # A flow's per-step row, which the report leaves out of the charts and tables.
        lines.append({"type": "result", "scenario": scenario, "step": "track", "unit": "request",
                      "concurrency": concurrency, "durationSeconds": 10, "requests": 1, "ok": 1, "errors": 0,
                      "requestsPerSecond": 99999.0, "p50Ms": 0.1, "p90Ms": 0.1, "p99Ms": 0.1, "maxMs": 0.1,
                      "meanMs": 0.1})
    (folder / name).write_text("\n".join(json.dumps(line) for line in lines) + "\n")


def report(results, out):
    return subprocess.run([sys.executable, str(SCRIPT), "--results", str(results), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)


def svg_text(path):
    tree = ElementTree.parse(path)  # raises on anything that is not well-formed XML
    return " ".join(t for element in tree.iter() for t in [element.text] if t)


def test_points_are_medians_of_their_runs_and_steps_are_left_out(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    for index, rate in enumerate([500.0, 700.0, 600.0]):
        write_run(results, f"sqlite-{index}.jsonl", "sqlite", 0, [("push-flow", 32, rate, 40.0 + index, 90.0)])
    finished = report(results, out)
    assert finished.returncode == 0, finished.stderr
    table = (out / "tables.md").read_text()
    rows = [line for line in table.splitlines() if "push-flow" in line]
    assert rows == ["| SQLite | 0 | push-flow | 32 | 600 | 41.00 | 90.00 | 3 | 0 |"]
    assert "99,999" not in table


def test_charts_show_each_store_and_latency_against_users(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    for store in ["sqlite", "postgres"]:
        for users, p50 in [(1000, 30.0), (100000, 31.0), (1000000, 33.0)]:
            write_run(results, f"{store}-{users}.jsonl", store, users,
                      [("push-flow", 1, 100.0, p50 / 4, p50 / 2), ("push-flow", 32, 600.0, p50, p50 * 3)])
    finished = report(results, out)
    assert finished.returncode == 0, finished.stderr
    names = sorted(path.name for path in out.iterdir())
    assert names == ["latency-push-flow.svg", "scale-push-flow.svg", "stores.svg", "tables.md",
                     "throughput-push-flow.svg"]
    throughput = svg_text(out / "throughput-push-flow.svg")
    assert "SQLite" in throughput and "PostgreSQL" in throughput and "1,000 seeded users" in throughput
    scale = svg_text(out / "scale-push-flow.svg")
    assert "32 connections" in scale and "SQLite p99" in scale and "PostgreSQL p50" in scale
    assert "SQLite against PostgreSQL" in svg_text(out / "stores.svg")
    assert "flows per second" in throughput
    # The same data draws the same bytes: charts change only when their figures do.
    first = (out / "scale-push-flow.svg").read_bytes()
    assert report(results, out).returncode == 0
    assert (out / "scale-push-flow.svg").read_bytes() == first


@pytest.mark.parametrize("content, message", [
    (None, "no *.jsonl results"),
    ('{"type":"result","scenario":"track","concurrency":1}\n', "a result before the run line"),
    ('{"type":"run","store":"sqlite"}\nnot json\n', "not JSON"),
])
def test_unreadable_results_are_refused_with_a_reason(tmp_path, content, message):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    if content is not None:
        (results / "run.jsonl").write_text(content)
    finished = report(results, out)
    assert finished.returncode == 1
    assert message in finished.stderr
    assert not out.exists()


def test_unseeded_runs_stay_out_of_the_scale_chart_and_request_ceilings_out_of_the_store_chart(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    for store in ["sqlite", "postgres"]:
        write_run(results, f"{store}-0.jsonl", store, 0, [("push-flow", 32, 600.0, 30.0, 90.0)])
        write_run(results, f"{store}-1000.jsonl", store, 1000, [("push-flow", 32, 500.0, 31.0, 91.0)])
        write_run(results, f"{store}-hello.jsonl", store, 0, [("hello", 32, 30000.0, 1.0, 3.0)])
    # Only one seeded size: no latency-against-users chart, although an unseeded run exists beside it.
    finished = report(results, out)
    assert finished.returncode == 0, finished.stderr
    assert not (out / "scale-push-flow.svg").exists()
    stores = svg_text(out / "stores.svg")
    assert "push-flow" in stores and "hello" not in stores
