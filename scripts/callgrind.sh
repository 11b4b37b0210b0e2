#!/usr/bin/env bash
# Instructions per request, load-independent: assentd (release) runs under valgrind's callgrind on a throwaway SQLite
# database with --rate-limits off and --bench-routes; assent-bench runs one scenario against it; the counters are
# zeroed just before the run and dumped just after, so the total covers the measured requests (plus each connection's
# setup, a handful of requests). Prints instructions per flow (or request) and the top functions, inclusive and self.
#
# Usage: scripts/callgrind.sh [SCENARIO]   (default push-flow; hello for the ceiling)
# Environment: CALLGRIND_SECONDS (default 20), CALLGRIND_CONNECTIONS (default 2), BENCH_BIN (a folder with assentd
#   and assent; default this checkout's release build), CALLGRIND_OUT (default a temporary folder, kept and printed).
# Needs the release build and assent-bench (scripts/bench.sh builds both) and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-push-flow}
seconds=${CALLGRIND_SECONDS:-20}
connections=${CALLGRIND_CONNECTIONS:-2}
bin=${BENCH_BIN:-$(swift build -c release --show-bin-path)}
bench_bin=$(swift build -c release --package-path Benchmarks --show-bin-path)
out=${CALLGRIND_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/assent-callgrind.XXXXXX")}
mkdir -p "$out"
database=$out/assent.sqlite
server_pid=
cleanup() {
    if [[ -n $server_pid ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
url=http://127.0.0.1:$port
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out.%p" --dump-instr=no --collect-jumps=no \
    "$bin/assentd" --listen "127.0.0.1:$port" --database "$database" --rate-limits off --bench-routes \
    --log-level warning >"$out/assentd.log" 2>&1 &
server_pid=$!
for _ in $(seq 600); do
    if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$url/healthz" 2>/dev/null; then break; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "callgrind.sh: assentd exited; see $out/assentd.log" >&2; exit 1; }
    sleep 0.2
done
tenant_json=$("$bin/assent" admin tenant create --database "$database" --json)
tenant_id=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["tenantId"])' <<<"$tenant_json")
secret=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["secretKey"])' <<<"$tenant_json")
unset tenant_json
# A short unmeasured run first, so caches (tenant, keys, statements) are warm when counting starts.
ASSENT_BENCH_SECRET=$secret ASSENT_BENCH_TENANT=$tenant_id "$bench_bin/assent-bench" --url "$url" --scenario "$scenario" \
    --concurrency "$connections" --duration 3 --warmup 0 >/dev/null
callgrind_control -z "$server_pid" >/dev/null
ASSENT_BENCH_SECRET=$secret ASSENT_BENCH_TENANT=$tenant_id "$bench_bin/assent-bench" --url "$url" --scenario "$scenario" \
    --concurrency "$connections" --duration "$seconds" --warmup 0 --json >"$out/bench.json"
callgrind_control -d "$server_pid" >/dev/null
unset secret
sleep 1
dump=$(ls -t "$out"/callgrind.out.* | head -1)
python3 - "$dump" "$out/bench.json" "$scenario" <<'PY'
import json, re, sys
dump, bench, scenario = sys.argv[1:]
rows = [json.loads(line) for line in open(bench) if line.startswith("{")]
row = next(r for r in rows if r.get("type") == "result" and r["scenario"] == scenario and r.get("step") is None)
count = row["requests"]
total = 0
for line in open(dump):
    m = re.match(r"^(summary|totals): (\d+)", line)
    if m: total = max(total, int(m.group(2)))
print(f"{scenario}: {count} {row['unit']}s measured ({row['errors']} errors), {total:,} instructions in assentd, "
      f"{total / max(count, 1):,.0f} per {row['unit']}")
PY
echo "callgrind.sh: profile $dump (callgrind_annotate --inclusive=yes $dump | head -60)"
callgrind_annotate "$dump" 2>/dev/null | sed -n '1,60p' >"$out/self.txt" || true
callgrind_annotate --inclusive=yes "$dump" 2>/dev/null | sed -n '1,80p' >"$out/inclusive.txt" || true
echo "callgrind.sh: top functions in $out/self.txt and $out/inclusive.txt"
