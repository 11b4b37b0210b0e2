#!/usr/bin/env bash
# `make fuzz`: runs every libFuzzer target of AssentFuzz (one per folder of Tests/Fuzz/Corpus) for FUZZ_SECONDS seconds
# each (default 60), starting from the committed seed corpus. Fails when a target crashes (or leaks, times out, runs out
# of memory) or when it executed nothing, which is what a fuzzer that never reached its target looks like.
#
# What a run found is kept under .build/fuzz-runs/findings/<target>-* (reproduce it with
# `.build/debug/AssentFuzz TARGET FILE` in an ordinary build); inputs that reached new code go to
# .build/fuzz-runs/corpus/<target>/, never into the committed corpus. FUZZ_TARGETS="a b" runs only those.
# usage: scripts/fuzz.sh BINARY
set -uo pipefail
binary=$1
seconds=${FUZZ_SECONDS:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=$root/Tests/Fuzz/Corpus
work=$root/.build/fuzz-runs
targets=${FUZZ_TARGETS:-$(ls "$seeds")}
mkdir -p "$work/findings" "$work/logs"
failed=0
printf '%-20s %12s %10s %8s\n' target executions "exec/s" crashes
for target in $targets; do
    mkdir -p "$work/corpus/$target"
    rm -f "$work/findings/$target"-*
    log=$work/logs/$target.log
    # Output to a file: a crashing target's backtracer can keep a pipe open after the target is gone. -timeout (one
    # input) is generous: on 2 shared cores an input that takes 40 ms was once starved for 39 s, a false hang.
    timeout -k 10 $((seconds + 300)) "$binary" "$target" -max_total_time="$seconds" -print_final_stats=1 \
        -timeout=120 -rss_limit_mb=2048 -artifact_prefix="$work/findings/$target-" \
        "$work/corpus/$target" "$seeds/$target" >"$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    crashes=$(find "$work/findings" -name "$target-*" | wc -l)
    printf '%-20s %12s %10s %8s\n' "$target" "${executions:-0}" "${rate:-0}" "$crashes"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        echo "fuzz: $target failed (exit $status); see $log and $work/findings/$target-*" >&2
        failed=1
    elif [ "${executions:-0}" -eq 0 ]; then
        echo "fuzz: $target executed nothing; see $log" >&2
        failed=1
    fi
done
exit $failed
