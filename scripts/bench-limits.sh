#!/usr/bin/env bash
# The rate limits' cost and an anonymous QR flood's effect on push flows, in one run: scripts/bench.sh (release build,
# push-flow at 32 connections from 127.0.0.1) in four configurations, interleaved for ROUNDS rounds:
#   off      --rate-limits off
#   on       --rate-limits on, every limit raised so nothing trips (the limiter's cost)
#   noflood  --rate-limits on, defaults except the rules the push flow itself exercises (start-user, get-challenge-key,
#            get-challenge-address: the benchmark signs one user in ~25 times a second per connection, from one address)
#   flood    as noflood, while scripts/qr-flood.py sends anonymous QR starts from 127.0.0.2 (BENCH_QR_FLOOD a second)
# Prints push flows/s per run and the medians; the flooder's counts by status go to stderr.
#
# Usage: scripts/bench-limits.sh [ROUNDS]   (default 3; BENCH_DURATION, BENCH_WARMUP, BENCH_QR_FLOOD as bench.sh,
#                                            defaults 10, 2 and 1000; BENCH_SKIP_BUILD=1 to skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
export BENCH_SCENARIOS=push-flow BENCH_CONCURRENCY=32
export BENCH_DURATION=${BENCH_DURATION:-10} BENCH_WARMUP=${BENCH_WARMUP:-2}
flood=${BENCH_QR_FLOOD:-1000}
unset BENCH_QR_FLOOD
push_rules="start-user=1000000000/1s,get-challenge-key=1000000000/1s,get-challenge-address=1000000000/1s"

if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
    for product in assentd assent; do swift build -c release --product "$product"; done
    swift build -c release --package-path Benchmarks --product assent-bench
fi
export BENCH_SKIP_BUILD=1

declare -A results
run() {
    local name=$1 args=$2 flood_rate=${3:-}
    local flows
    flows=$(BENCH_SERVER_ARGS="$args" BENCH_QR_FLOOD=$flood_rate scripts/bench.sh --json \
        | python3 -c '
import json, sys
for line in sys.stdin:
    row = json.loads(line)
    if row.get("type") == "result" and row.get("step") is None:
        print("%.1f %d" % (row["requestsPerSecond"], row["errors"]))')
    echo "$name: $flows (flows/s, errors)" >&2
    results[$name]+="${flows%% *} "
}

for round in $(seq "$rounds"); do
    echo "round $round" >&2
    run off "--rate-limits off"
    run on "--rate-limits on --rate-limit *=1000000000/1s"
    run noflood "--rate-limits on --rate-limit $push_rules"
    run flood "--rate-limits on --rate-limit $push_rules" "$flood"
done

echo "| configuration | push flows/s per run | median |"
echo "|---|---|---:|"
for name in off on noflood flood; do
    python3 - "$name" ${results[$name]} <<'PY'
import statistics, sys
name, runs = sys.argv[1], [float(x) for x in sys.argv[2:]]
print(f"| {name} | {', '.join(f'{r:.0f}' for r in runs)} | {statistics.median(runs):.0f} |")
PY
done
