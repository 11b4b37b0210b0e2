#!/usr/bin/env bash
# Benchmarks assentd over loopback HTTP: release build, a throwaway database with
# one tenant, then assent-bench. The server is always stopped on exit.
#
# Usage: scripts/bench.sh [more assent-bench options, e.g. --json]
# Environment:
#   BENCH_DURATION     measured seconds per row   (default 20)
#   BENCH_WARMUP       warm-up seconds per row    (default 2)
#   BENCH_SCENARIOS    comma list of scenarios    (default track,validate); with hello, assentd gets --bench-routes
#   BENCH_CONCURRENCY  comma list of connections  (default 1,32)
#   BENCH_SERVER_ARGS  more assentd flags, split on spaces (e.g. "--log-level warning"); rate limits are off
#                      unless these say "--rate-limits on" (every benchmark client is 127.0.0.1)
#   BENCH_STORE        sqlite (default) or postgres: a throwaway PostgreSQL 15 (initdb + pg_ctl) in the folder
#   BENCH_INSTANCES    assentd instances on the one database (default 1; more need BENCH_STORE=postgres);
#                      assent-bench spreads its connections over them round robin
#   BENCH_QR_FLOOD     anonymous QR starts a second that scripts/qr-flood.py sends from 127.0.0.2 to the
#                      (first) server while assent-bench runs, with the bench's tenant (an attacker's load, for
#                      the rate limits' figures; pair with BENCH_SERVER_ARGS="--rate-limits on"); its summary
#                      goes to stderr at the end
#   BENCH_SEED_USERS   N: before assentd starts, seed the throwaway database's tenant with N users
#                      (assent admin seed; with --qr when qr-flow runs) and run push-flow and qr-flow as
#                      them (assent-bench --seeded-users N)
#   BENCH_SKIP_BUILD=1 use the existing release binaries
#   BENCH_BIN          a folder holding the assentd and assent to measure instead of this checkout's release build
#                      (e.g. another commit's .build/release, to compare two builds with the same load generator)
#   BENCH_REPEAT       N: run assent-bench N times against the same server and database (one seed, N
#                      measurements; with BENCH_RESULTS each round is its own results file, so
#                      make bench-report takes the median of the N)
#   BENCH_NICE         a nice value such as -15 (root only): once the servers are up, they, PostgreSQL and
#                      assent-bench run at it, so other work on the machine (a build) takes little from the
#                      measurement; the seed before it runs at the normal priority
#   BENCH_KEEP=1       keep the temporary folder (database, server log)
#   BENCH_RESULTS      a folder: also write this run, as JSON lines, to a new file there
#                      (<store>-<instances>-<seeded users>-<UTC time>.jsonl, first line {"type":"run",...}),
#                      the input of `make bench-report`
# Exit status: assent-bench's (0 ok, 1 some requests failed, 2 setup failure),
# or 1 when the build or the server start fails.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${BENCH_DURATION:-20}
warmup=${BENCH_WARMUP:-2}
scenarios=${BENCH_SCENARIOS:-track,validate}
concurrency=${BENCH_CONCURRENCY:-1,32}
read -r -a server_args <<<"${BENCH_SERVER_ARGS:-}"
# The hello scenario's route (GET /bench/hello, the request ceiling) answers only with --bench-routes.
if [[ ,$scenarios, == *,hello,* ]]; then server_args+=(--bench-routes); fi
store=${BENCH_STORE:-sqlite}
instances=${BENCH_INSTANCES:-1}
[[ $store == sqlite || $store == postgres ]] || { echo "bench.sh: BENCH_STORE must be sqlite or postgres" >&2; exit 2; }
if [[ $store == sqlite && $instances != 1 ]]; then
    echo "bench.sh: several instances need BENCH_STORE=postgres" >&2; exit 2
fi

say() { echo "bench.sh: $*" >&2; }

if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
    # One product per call: swift build honours only the last --product it is given.
    for product in assentd assent; do
        swift build -c release --product "$product"
    done
    # assent-bench is a package of its own (Benchmarks/) that depends on this one.
    swift build -c release --package-path Benchmarks --product assent-bench
fi
bin=${BENCH_BIN:-$(swift build -c release --show-bin-path)}
bench_bin=$(swift build -c release --package-path Benchmarks --show-bin-path)
for tool in "$bin/assentd" "$bin/assent" "$bench_bin/assent-bench"; do
    [[ -x $tool ]] || { say "missing $tool; build it or unset BENCH_SKIP_BUILD"; exit 1; }
done

workdir=$(mktemp -d "${TMPDIR:-/tmp}/assent-bench.XXXXXX")
database=$workdir/assent.sqlite
log=$workdir/assentd.log
server_pids=()
postgres_dir=
bench_pid=
flood_pid=

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [[ -n $bench_pid ]]; then
        kill -TERM "$bench_pid" 2>/dev/null || true
        wait "$bench_pid" 2>/dev/null || true
    fi
    if [[ -n $flood_pid ]]; then
        kill -TERM "$flood_pid" 2>/dev/null || true
        wait "$flood_pid" 2>/dev/null || true
    fi
    for server_pid in ${server_pids[@]+"${server_pids[@]}"}; do
        kill -0 "$server_pid" 2>/dev/null || continue
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            say "assentd did not stop within 5 s of SIGTERM; killing it"
            kill -KILL "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true
    done
    if [[ -n $postgres_dir ]]; then
        scripts/throwaway-postgres.sh stop "$postgres_dir" || true
    fi
    if (( status != 0 )) && [[ -s $log ]]; then
        say "last lines of the assentd log:"
        tail -n 30 "$log" >&2
    fi
    if [[ -n ${BENCH_KEEP:-} ]] || (( status != 0 )); then
        say "kept $workdir (database and assentd.log)"
    else
        rm -rf "$workdir"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ $store == postgres ]]; then
    chmod 755 "$workdir"
    postgres_dir=$workdir/postgres
    database=$(scripts/throwaway-postgres.sh start "$postgres_dir") || { say "cannot start PostgreSQL"; postgres_dir=; exit 1; }
    head -c 32 /dev/urandom | base64 >"$workdir/master.key"
    chmod 600 "$workdir/master.key"
    # Every instance and the assent CLI use the same master key.
    export ASSENT_MASTER_KEY_FILE=$workdir/master.key
    say "PostgreSQL at $database"
fi

create_tenant() {
    tenant_json=$("$bin/assent" admin tenant create --database "$database" --json) \
        || { say "assent admin tenant create failed"; exit 1; }
    # Read the fields without ever echoing the secret key.
    read_field() {
        python3 -c '
import json, sys
text, field = sys.stdin.read(), sys.argv[1]
candidates = [text] + [line for line in reversed(text.splitlines()) if line.strip().startswith("{")]
for candidate in candidates:
    try:
        value = json.loads(candidate).get(field)
    except (ValueError, AttributeError):
        continue
    if isinstance(value, str) and value:
        print(value)
        sys.exit(0)
sys.exit(1)' "$1" <<<"$tenant_json"
    }
    tenant_id=$(read_field tenantId) || { say "no tenantId in the output of assent admin tenant create --json"; exit 1; }
    secret=$(read_field secretKey) || { say "no secretKey in the output of assent admin tenant create --json"; exit 1; }
    unset tenant_json
    say "tenant $tenant_id"
}

seed_users=${BENCH_SEED_USERS:-}
bench_args=()
if [[ -n $seed_users ]]; then
    [[ $seed_users =~ ^[1-9][0-9]*$ ]] || { say "BENCH_SEED_USERS must be a positive whole number"; exit 2; }
    # A seeded database is made before assentd starts, so the server opens it at its full size.
    create_tenant
    seed_flags=()
    if [[ ,$scenarios, == *,qr-flow,* ]]; then seed_flags+=(--qr); fi
    "$bin/assent" admin seed --database "$database" --tenant "$tenant_id" --users "$seed_users" \
        ${seed_flags[@]+"${seed_flags[@]}"} >&2 || { say "assent admin seed failed"; exit 1; }
    if [[ $store == postgres ]]; then
        # The seed vacuums, analyses and checkpoints what it filled; wait (up to a minute) for any autovacuum worker
        # still busy, so the measured rows do not share the machine with it.
        for _ in $(seq 60); do
            busy=$(psql "$database" -Atc "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'") || break
            [[ $busy == 0 ]] && break
            sleep 1
        done
        say "PostgreSQL quiet after the seed (autovacuum workers: ${busy:-unknown})"
    fi
fi

urls=()
for instance in $(seq "$instances"); do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    url=http://127.0.0.1:$port
    instance_log=$log
    (( instances > 1 )) && instance_log=$workdir/assentd-$instance.log

    # No --dev: the benchmark creates its own tenant, and no secret key reaches the log this script may show.
    "$bin/assentd" --listen "127.0.0.1:$port" --database "$database" --rate-limits off \
        ${server_args[@]+"${server_args[@]}"} >"$instance_log" 2>&1 &
    server_pid=$!
    server_pids+=("$server_pid")
    say "assentd pid $server_pid on $url ($store), log $instance_log"

    # Wait for GET /healthz to answer 200 (30 s at most), noticing an early exit.
    healthy=
    for _ in $(seq 300); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            wait "$server_pid" && code=0 || code=$?
            say "assentd exited (status $code) before answering /healthz"
            exit 1
        fi
        if python3 - "$url/healthz" <<'PY'
import sys, urllib.request
try:
    sys.exit(0 if urllib.request.urlopen(sys.argv[1], timeout=1).status == 200 else 1)
except Exception:
    sys.exit(1)
PY
        then
            healthy=1
            break
        fi
        sleep 0.1
    done
    [[ -n $healthy ]] || { say "assentd did not answer GET /healthz with 200 within 30 s"; exit 1; }
    urls+=("$url")
done
url=$(IFS=,; echo "${urls[*]}")

if [[ -n $seed_users ]]; then
    bench_args+=(--seeded-users "$seed_users")
else
    # Created once the server is up, so the server has finished setting up the database.
    create_tenant
fi

if [[ -n ${BENCH_QR_FLOOD:-} ]]; then
    python3 scripts/qr-flood.py "${urls[0]}" "$tenant_id" "$BENCH_QR_FLOOD" 127.0.0.2 &
    flood_pid=$!
    say "flooding ${urls[0]} with $BENCH_QR_FLOOD anonymous QR starts a second from 127.0.0.2 (pid $flood_pid)"
fi

# The secret goes through the environment, not argv, so ps never shows it; the tenant ID
# (not a secret) is what device scenarios such as push-flow send as tenant Basic auth.
# Run in the background and wait, so Ctrl-C or SIGTERM stops everything at once.
bench_nice=()
if [[ -n ${BENCH_NICE:-} ]]; then
    # Measured processes ahead of everything else on the machine (a build beside the benchmark), from here on:
    # the assentd instances, PostgreSQL's postmaster and backends (the pools' connections are open by now), and
    # assent-bench. The seed before this ran at the normal priority.
    [[ $BENCH_NICE =~ ^-?[0-9]+$ ]] || { say "BENCH_NICE must be a nice value such as -15"; exit 2; }
    nice_pids=("${server_pids[@]}")
    if [[ -n $postgres_dir ]]; then
        postmaster=$(head -n 1 "$postgres_dir/data/postmaster.pid")
        nice_pids+=("$postmaster")
        while read -r child; do nice_pids+=("$child"); done < <(pgrep -P "$postmaster")
    fi
    renice -n "$BENCH_NICE" -p "${nice_pids[@]}" >/dev/null || { say "renice to $BENCH_NICE failed"; exit 1; }
    bench_nice=(nice -n "$BENCH_NICE")
    say "measuring at nice $BENCH_NICE"
fi
repeat=${BENCH_REPEAT:-1}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { say "BENCH_REPEAT must be a positive whole number"; exit 2; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
status=0
for round in $(seq "$repeat"); do
    (( repeat > 1 )) && say "round $round of $repeat"
    results=
    # assent-bench's report goes to fd 4: this script's own stdout, duplicated (never reopened through /dev/stdout:
    # that makes a second open file with its own offset, so with `bench.sh > log 2>&1` the progress lines on stderr,
    # written at the first file's offset, overwrote the report table's first lines), or the round's results file.
    exec 4>&1
    bench_out=
    round_args=()
    if [[ -n ${BENCH_RESULTS:-} ]]; then
        mkdir -p "$BENCH_RESULTS"
        stamp=$(date -u +%Y%m%dT%H%M%SZ)
        results=$BENCH_RESULTS/$store-$instances-${seed_users:-0}-$stamp.jsonl
        (( repeat > 1 )) && results=${results%.jsonl}-$round.jsonl
        python3 - "$store" "$instances" "${seed_users:-0}" "$scenarios" "$commit" \
            "${BENCH_SERVER_ARGS:-}" >"$results" <<'PY'
import json, sys, datetime
store, instances, users, scenarios, commit, server_args = sys.argv[1:]
print(json.dumps({"type": "run", "store": store, "instances": int(instances), "seededUsers": int(users),
                  "scenarios": scenarios, "commit": commit, "serverArgs": server_args,
                  "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "loadAverage": open("/proc/loadavg").read().split()[0]}))
PY
        round_args+=(--json)
        bench_out=$workdir/results.jsonl
        exec 4>"$bench_out"
        say "results go to $results"
    fi
    ASSENT_BENCH_SECRET=$secret ASSENT_BENCH_TENANT=$tenant_id ${bench_nice[@]+"${bench_nice[@]}"} \
        "$bench_bin/assent-bench" --url "$url" \
        --scenario "$scenarios" --concurrency "$concurrency" \
        --duration "$duration" --warmup "$warmup" ${bench_args[@]+"${bench_args[@]}"} \
        ${round_args[@]+"${round_args[@]}"} "$@" >&4 &
    bench_pid=$!
    round_status=0
    wait "$bench_pid" || round_status=$?
    bench_pid=
    exec 4>&-
    (( round_status > status )) && status=$round_status
    if [[ -n $results ]]; then
        cat "$bench_out" >>"$results"
        cat "$bench_out"
    fi
done
unset secret
if [[ -n $flood_pid ]]; then
    kill -TERM "$flood_pid" 2>/dev/null || true
    wait "$flood_pid" 2>/dev/null || true
    flood_pid=
fi
exit "$status"
