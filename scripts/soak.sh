#!/usr/bin/env bash
# Soak test: runs the model-based randomized test (ModelCheckingTests) over many seeds, in
# chunks, each chunk a separate run of the test binary.
#
#   scripts/soak.sh                       # a million sequences, seeds 10000..<1010000
#   SOAK_COUNT=50000 scripts/soak.sh      # fewer
#
# Settings (environment):
#   SOAK_COUNT        sequences to run                     (default 1000000)
#   SOAK_CHUNK        sequences per run of the binary      (default 50000)
#   SOAK_FIRST_SEED   first seed; the normal suite runs 0..<10000   (default 10000)
#   ASYNCPAGING_STEPS operations per sequence              (default 12, the suite's)
#   SOAK_SCRATCH      SwiftPM scratch path                  (default .build-soak)
#   SOAK_CHUNK_LIMIT  seconds a chunk may take before it counts as hung (default 900)
#
# A failing seed is printed with its replay command (ASYNCPAGING_SEED=n). A chunk that hangs
# (the engine did less than the model expects, so the run waits) is killed after
# SOAK_CHUNK_LIMIT and run again with ASYNCPAGING_TRACE_SEEDS=1 to name the seeds that started
# and never ended. The limit belongs to this script only; the tests themselves have none.
set -euo pipefail

cd "$(dirname "$0")/.."
count=${SOAK_COUNT:-1000000}
chunk=${SOAK_CHUNK:-50000}
first=${SOAK_FIRST_SEED:-10000}
scratch=${SOAK_SCRATCH:-.build-soak}
limit=${SOAK_CHUNK_LIMIT:-900}

swift build --build-tests --scratch-path "$scratch" >/dev/null
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/AsyncPagingPackageTests.xctest"

run_chunk() { # first-seed count [extra env...]
    local start=$1 size=$2
    shift 2
    env ASYNCPAGING_FIRST_SEED="$start" ASYNCPAGING_SEQUENCES="$size" "$@" \
        timeout -s KILL "$limit" "$binary" --testing-library swift-testing --filter ModelCheckingTests
}

failed=0
done_count=0
started_at=$(date +%s)
while (( done_count < count )); do
    size=$(( count - done_count < chunk ? count - done_count : chunk ))
    start=$(( first + done_count ))
    log=$(mktemp)
    status=0
    run_chunk "$start" "$size" >"$log" 2>&1 || status=$?
    if (( status == 137 )); then
        echo "seeds $start..<$(( start + size )): hung after ${limit}s; tracing seeds..."
        run_chunk "$start" "$size" ASYNCPAGING_TRACE_SEEDS=1 >"$log" 2>&1 || true
        awk '/^seed [0-9]+ starts/ { s[$2] = 1 } /^seed [0-9]+ ends/ { delete s[$2] }
             END { for (k in s) print "  seed " k " never ended: ASYNCPAGING_SEED=" k " to replay" }' "$log"
        failed=1
    elif (( status != 0 )); then
        echo "seeds $start..<$(( start + size )): FAILED"
        grep -E "seed [0-9]+ failed|replay:" "$log" | sed 's/^/  /' || tail -20 "$log"
        failed=1
    else
        echo "seeds $start..<$(( start + size )): passed ($(grep -Eo 'passed after [0-9.]+ seconds' "$log" | tail -1))"
    fi
    rm -f "$log"
    done_count=$(( done_count + size ))
done
echo "soak: $done_count sequences from seed $first in $(( $(date +%s) - started_at ))s: $([[ $failed == 0 ]] && echo passed || echo FAILED)"
exit $failed
