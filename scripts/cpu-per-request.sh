#!/usr/bin/env bash
# CPU time assentd spends per flow (or request), less sensitive to other load than throughput: assentd (release) runs
# on a throwaway SQLite database with --rate-limits off and --bench-routes; assent-bench runs one scenario against it
# after a short unmeasured run; assentd's user+system CPU time is read from /proc/PID/stat just before and just after
# the measured run. With PROFILE=1, `perf record -e cpu-clock -g` samples assentd during the run and the top symbols
# are written next to the figures. (valgrind's callgrind, the load-independent choice, crashes on this Swift
# runtime with valgrind 3.19 on this machine, and the guest has no hardware counters for `perf stat`.)
#
# Usage: scripts/cpu-per-request.sh [SCENARIO]   (default push-flow; hello for the ceiling)
# Environment: CPU_SECONDS (default 10), CPU_CONNECTIONS (default 32), BENCH_BIN (a folder with assentd and assent;
#   default this checkout's release build), CPU_OUT (default a temporary folder, kept and printed), PROFILE=1.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-push-flow}
seconds=${CPU_SECONDS:-10}
connections=${CPU_CONNECTIONS:-32}
bin=${BENCH_BIN:-$(swift build -c release --show-bin-path)}
bench_bin=$(swift build -c release --package-path Benchmarks --show-bin-path)
out=${CPU_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/assent-cpu.XXXXXX")}
mkdir -p "$out"
database=$out/assent.sqlite
server_pid=
perf_pid=
cleanup() {
    if [[ -n $perf_pid ]]; then kill -INT "$perf_pid" 2>/dev/null || true; wait "$perf_pid" 2>/dev/null || true; fi
    if [[ -n $server_pid ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
url=http://127.0.0.1:$port
"$bin/assentd" --listen "127.0.0.1:$port" --database "$database" --rate-limits off --bench-routes \
    --log-level warning >"$out/assentd.log" 2>&1 &
server_pid=$!
for _ in $(seq 300); do
    if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$url/healthz" 2>/dev/null; then break; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "cpu-per-request.sh: assentd exited; see $out/assentd.log" >&2; exit 1; }
    sleep 0.1
done
tenant_json=$("$bin/assent" admin tenant create --database "$database" --json)
tenant_id=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["tenantId"])' <<<"$tenant_json")
secret=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["secretKey"])' <<<"$tenant_json")
unset tenant_json
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
ASSENT_BENCH_SECRET=$secret ASSENT_BENCH_TENANT=$tenant_id "$bench_bin/assent-bench" --url "$url" --scenario "$scenario" \
    --concurrency "$connections" --duration 2 --warmup 0 >/dev/null
if [[ -n ${PROFILE:-} ]]; then
    perf record -e cpu-clock -g -p "$server_pid" -o "$out/perf.data" >/dev/null 2>&1 &
    perf_pid=$!
    sleep 0.5
fi
before=$(cpu_ticks)
ASSENT_BENCH_SECRET=$secret ASSENT_BENCH_TENANT=$tenant_id "$bench_bin/assent-bench" --url "$url" --scenario "$scenario" \
    --concurrency "$connections" --duration "$seconds" --warmup 0 --json >"$out/bench.json"
after=$(cpu_ticks)
unset secret
if [[ -n $perf_pid ]]; then
    kill -INT "$perf_pid" 2>/dev/null || true; wait "$perf_pid" 2>/dev/null || true; perf_pid=
    perf report -i "$out/perf.data" --no-children --sort symbol --stdio 2>/dev/null | grep -v '^#' | grep '%' | head -40 >"$out/self.txt" || true
    perf report -i "$out/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -v '^#' | grep '%' | head -15 >"$out/dso.txt" || true
fi
python3 - "$out/bench.json" "$scenario" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import json, sys
bench, scenario, before, after, hz = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rows = [json.loads(line) for line in open(bench) if line.startswith("{")]
row = next(r for r in rows if r.get("type") == "result" and r["scenario"] == scenario and r.get("step") is None)
cpu = (after - before) / hz
count = row["requests"]
print(f"{scenario}: {count} {row['unit']}s in {row['durationSeconds']:.1f} s ({row['requestsPerSecond']:.1f}/s, "
      f"{row['errors']} errors); assentd CPU {cpu:.2f} s, {1000 * cpu / max(count, 1):.3f} ms per {row['unit']}")
PY
echo "cpu-per-request.sh: output in $out"
