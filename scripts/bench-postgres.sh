#!/usr/bin/env bash
# Push flows per second on SQLite, on PostgreSQL with one assentd, and on PostgreSQL with two assentd instances
# (assent-bench spreading its connections over both), one after the other in one run, same build and settings.
#
# Usage: scripts/bench-postgres.sh [more assent-bench options]
# Environment: BENCH_SCENARIOS (default push-flow), BENCH_CONCURRENCY (default 1,32), BENCH_DURATION (default 20),
# and everything scripts/bench.sh reads.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_SCENARIOS=${BENCH_SCENARIOS:-push-flow}
export BENCH_CONCURRENCY=${BENCH_CONCURRENCY:-1,32}
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
    for product in assentd assent; do swift build -c release --product "$product"; done
    swift build -c release --package-path Benchmarks --product assent-bench
fi
export BENCH_SKIP_BUILD=1
for setup in "sqlite 1" "postgres 1" "postgres 2"; do
    read -r store instances <<<"$setup"
    echo "## $store, $instances instance(s)"
    BENCH_STORE=$store BENCH_INSTANCES=$instances scripts/bench.sh "$@"
    echo
done
