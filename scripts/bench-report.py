#!/usr/bin/env python3
"""Turns benchmark results into SVG charts and Markdown tables (`make bench-report`).

Input: the JSON-lines files that `scripts/bench.sh` writes when BENCH_RESULTS names a folder. Each file is one run:
a `{"type":"run",...}` line (store, instances, seeded users, commit, date, load average), the load generator's
`{"type":"machine",...}` line, then one `{"type":"result",...}` line per scenario, step and concurrency.

Output, in --out:
- `throughput-<scenario>.svg`: requests (or flows) per second against connections, one line per store;
- `latency-<scenario>.svg`: p50 and p99 against connections, one line pair per store;
- `scale-<scenario>.svg`: p50 and p99 against enrolled (seeded) users, log scale, one line pair per store, at the
  highest concurrency the runs share;
- `stores.svg`: SQLite against PostgreSQL, the flows/s of each flow scenario at the highest shared concurrency;
- `tables.md`: the same figures as Markdown tables, for BENCHMARKS.md.

Where several runs measured the same point (store, instances, seeded users, scenario, concurrency), the point is their
median and the tables say how many runs it took. Only whole-scenario rows are drawn (a flow's per-step rows are not).
"""

import argparse
import json
import pathlib
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

# Reproducible SVG: fixed element ids and no creation date, so a chart changes only when its data does.
matplotlib.rcParams["svg.hashsalt"] = "assent-bench-report"
matplotlib.rcParams["svg.fonttype"] = "none"
SVG_METADATA = {"Date": None, "Creator": "scripts/bench-report.py"}


class ReportError(Exception):
    pass


def store_label(store, instances):
    name = {"sqlite": "SQLite", "postgres": "PostgreSQL"}.get(store, store)
    return name if instances == 1 else f"{name} × {instances} instances"


def load_points(folder):
    """Reads every *.jsonl run in `folder`; returns {point key: [row, ...]} over all runs."""
    files = sorted(pathlib.Path(folder).glob("*.jsonl"))
    if not files:
        raise ReportError(f"no *.jsonl results in {folder} (run scripts/bench.sh with BENCH_RESULTS={folder})")
    points = defaultdict(list)
    for path in files:
        run = None
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise ReportError(f"{path}:{number}: not JSON ({error.msg})") from None
            kind = record.get("type")
            if kind == "run":
                run = record
            elif kind == "result":
                if run is None:
                    raise ReportError(f"{path}:{number}: a result before the run line")
                if record.get("step") is not None:
                    continue
                key = (
                    run.get("store", "sqlite"),
                    int(run.get("instances", 1)),
                    int(run.get("seededUsers", 0)),
                    record["scenario"],
                    int(record["concurrency"]),
                )
                points[key].append(record)
    if not points:
        raise ReportError(f"no result rows in {folder}")
    return points


def median_of(rows, field):
    values = [row[field] for row in rows if row.get(field) is not None]
    return statistics.median(values) if values else None


def summarize(points):
    """One summary per point: medians of req/s, p50 and p99, and the number of runs."""
    summary = {}
    for key, rows in points.items():
        summary[key] = {
            "rate": median_of(rows, "requestsPerSecond"),
            "p50": median_of(rows, "p50Ms"),
            "p99": median_of(rows, "p99Ms"),
            "errors": sum(row.get("errors", 0) for row in rows),
            "runs": len(rows),
            "unit": rows[0].get("unit", "requests"),
        }
    return summary


def save(figure, path):
    figure.tight_layout()
    figure.savefig(path, format="svg", metadata=SVG_METADATA)
    plt.close(figure)


def rate_label(unit):
    return "flows per second" if unit == "flow" else "requests per second"


def chart_by_connections(summary, scenario, users, out):
    """throughput-<scenario>.svg and latency-<scenario>.svg at `users` seeded users."""
    series = defaultdict(list)
    unit = "requests"
    for (store, instances, seeded, name, concurrency), value in summary.items():
        if name == scenario and seeded == users:
            series[(store, instances)].append((concurrency, value))
            unit = value["unit"]
    if not series:
        return []
    written = []
    figure, axes = plt.subplots(figsize=(6, 4))
    for (store, instances), values in sorted(series.items()):
        values.sort()
        axes.plot([c for c, _ in values], [v["rate"] for _, v in values], marker="o",
                  label=store_label(store, instances))
    axes.set_title(f"{scenario}: throughput ({users:,} seeded users)")
    axes.set_xlabel("connections")
    axes.set_ylabel(rate_label(unit))
    axes.set_xscale("log", base=2)
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend()
    path = out / f"throughput-{scenario}.svg"
    save(figure, path)
    written.append(path)

    figure, axes = plt.subplots(figsize=(6, 4))
    for (store, instances), values in sorted(series.items()):
        values.sort()
        label = store_label(store, instances)
        connections = [c for c, _ in values]
        axes.plot(connections, [v["p50"] for _, v in values], marker="o", label=f"{label} p50")
        axes.plot(connections, [v["p99"] for _, v in values], marker="^", linestyle="--", label=f"{label} p99")
    axes.set_title(f"{scenario}: latency ({users:,} seeded users)")
    axes.set_xlabel("connections")
    axes.set_ylabel("milliseconds")
    axes.set_xscale("log", base=2)
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend()
    path = out / f"latency-{scenario}.svg"
    save(figure, path)
    written.append(path)
    return written


def chart_by_users(summary, scenario, out):
    """scale-<scenario>.svg: latency against seeded users at the highest concurrency every store's runs share."""
    by_store = defaultdict(lambda: defaultdict(dict))
    for (store, instances, seeded, name, concurrency), value in summary.items():
        # Unseeded runs enrol a new user per flow: another workload, so they stay out of the scale chart.
        if name == scenario and seeded > 0:
            by_store[(store, instances)][concurrency][seeded] = value
    candidates = []
    for store, levels in by_store.items():
        for concurrency, users in levels.items():
            if len(users) >= 2:
                candidates.append((concurrency, store))
    if not candidates:
        return [], None
    concurrency = max(c for c, _ in candidates)
    figure, axes = plt.subplots(figsize=(6, 4))
    for store in sorted({s for c, s in candidates if c == concurrency}):
        users = sorted(by_store[store][concurrency].items())
        counts = [u for u, _ in users]
        label = store_label(*store)
        axes.plot(counts, [v["p50"] for _, v in users], marker="o", label=f"{label} p50")
        axes.plot(counts, [v["p99"] for _, v in users], marker="^", linestyle="--", label=f"{label} p99")
    axes.set_title(f"{scenario}: latency against enrolled users ({concurrency} connections)")
    axes.set_xlabel("seeded users")
    axes.set_ylabel("milliseconds")
    axes.set_xscale("log")
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    axes.legend()
    path = out / f"scale-{scenario}.svg"
    save(figure, path)
    return [path], concurrency


def chart_stores(summary, out):
    """stores.svg: each flow scenario's rate on every store, at the highest concurrency all stores share, fewest users."""
    cells = defaultdict(dict)
    for (store, instances, seeded, scenario, concurrency), value in summary.items():
        # Flows only: a request ceiling such as hello is tens of times larger and says nothing of the store.
        if value["unit"] == "flow":
            cells[(scenario, concurrency, seeded)][(store, instances)] = value
    chosen = {}
    for (scenario, concurrency, seeded), stores in cells.items():
        if len(stores) < 2:
            continue
        best = chosen.get(scenario)
        if best is None or (seeded, -concurrency) < (best[1], -best[0]):
            chosen[scenario] = (concurrency, seeded, stores)
    if not chosen:
        return []
    scenarios = sorted(chosen)
    stores = sorted({store for _, _, values in chosen.values() for store in values})
    figure, axes = plt.subplots(figsize=(max(6, 1.6 * len(scenarios)), 4))
    width = 0.8 / len(stores)
    for index, store in enumerate(stores):
        heights = [chosen[s][2].get(store, {}).get("rate") or 0 for s in scenarios]
        positions = [i + (index - (len(stores) - 1) / 2) * width for i in range(len(scenarios))]
        axes.bar(positions, heights, width, label=store_label(*store))
    axes.set_xticks(range(len(scenarios)))
    axes.set_xticklabels([f"{s}\n({chosen[s][0]} conn.)" for s in scenarios])
    axes.set_ylabel("flows per second")
    axes.set_title("SQLite against PostgreSQL")
    axes.grid(True, axis="y", alpha=0.3)
    axes.legend()
    path = out / "stores.svg"
    save(figure, path)
    return [path]


def fmt(value, digits=1):
    if value is None:
        return "–"
    return f"{value:,.0f}" if digits == 0 else f"{value:,.{digits}f}"


def tables(summary):
    lines = ["| store | seeded users | scenario | connections | req or flows/s | p50 ms | p99 ms | runs | errors |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for (store, instances, seeded, scenario, concurrency), value in sorted(summary.items()):
        lines.append(
            f"| {store_label(store, instances)} | {seeded:,} | {scenario} | {concurrency} | {fmt(value['rate'], 0)} | "
            f"{fmt(value['p50'], 2)} | {fmt(value['p99'], 2)} | {value['runs']} | {value['errors']} |")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="Benchmarks/results", help="folder of bench.sh JSON-lines runs")
    parser.add_argument("--out", default="docs/benchmarks", help="folder for the SVG charts and tables.md")
    args = parser.parse_args(argv)
    try:
        summary = summarize(load_points(args.results))
    except (ReportError, KeyError, ValueError, TypeError) as error:
        print(f"bench-report: {error}", file=sys.stderr)
        return 1
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    scenarios = sorted({key[3] for key in summary})
    for scenario in scenarios:
        fewest = min(key[2] for key in summary if key[3] == scenario)
        written += chart_by_connections(summary, scenario, fewest, out)
        charts, _ = chart_by_users(summary, scenario, out)
        written += charts
    written += chart_stores(summary, out)
    table_path = out / "tables.md"
    table_path.write_text(tables(summary))
    written.append(table_path)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
