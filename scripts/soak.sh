#!/usr/bin/env bash
# Soak test: runs the model-based randomized test (ModelCheckingTests) over many seeds, in
# chunks, each chunk a separate run of the test binary — short sequences, then long ones (long
# runs scroll far enough to drop and reload pages at both ends of a bounded feed, and found
# engine bugs that short ones missed); then the real-clock Concurrency suite (stress test,
# subscriber cancellation races, memory at scale) for long.
#
#   scripts/soak.sh                       # 1,000,000 short + 100,000 long + 20,000 mixed sequences, 10 min of stress
#   SOAK_COUNT=50000 SOAK_LONG_COUNT=5000 scripts/soak.sh   # fewer sequences
#   SOAK_PARTS=long SOAK_LONG_STEPS=80 scripts/soak.sh      # only long sequences, longer still
#   SOAK_PARTS=stress SOAK_STRESS_SECONDS=3600 scripts/soak.sh   # an hour of stress only
#   SOAK_PARTS=transport SOAK_TRANSPORT_LOADS=100000 scripts/soak.sh   # cancelled loads only
#   SOAK_PARTS="transport transport-ahc" scripts/soak.sh   # over URLSession and AsyncHTTPClient
#
# Settings (environment):
#   SOAK_COUNT        short sequences to run               (default 1000000)
#   SOAK_STEPS        operations per short sequence        (default 14, the suite's)
#   SOAK_FIRST_SEED   first short seed; the suite runs 0..<3000      (default 10000)
#   SOAK_LONG_COUNT   long sequences to run                (default 100000)
#   SOAK_LONG_STEPS   operations per long sequence         (default 40, the suite's long runs';
#                     40 found engine bug 2 of h7-model-ENGINE-BUGS.md, which 14 missed)
#   SOAK_LONG_FIRST_SEED  first long seed; the suite's long runs are 1000000..<1000200
#                     (default 2000000)
#   SOAK_MIX_COUNT    sequences that mix the features (bound, head merges, edits, export →
#                     restore; the suite's "features together" test)  (default 20000)
#   SOAK_MIX_STEPS    operations per mixed sequence        (default 240, the suite's)
#   SOAK_MIX_FIRST_SEED  first mixed seed; the suite's are 2000000..<2000032 (default 3000000)
#   SOAK_CHUNK        sequences per run of the binary      (default 50000; long: a fifth)
#   SOAK_SCRATCH      SwiftPM scratch path                  (default .build-soak)
#   SOAK_CHUNK_LIMIT  seconds a chunk may take before it counts as hung (default 900)
#   SOAK_PARTS        which parts to run: "model" (short), "long", "mix", "stress", "transport",
#                     "transport-ahc" (default all but "transport-ahc")
#   SOAK_STRESS_SECONDS  how long the stress test runs, in one process (default 600); the
#                     cancellation races run a tenth of it each, the lifetime test 100,000 cycles
#   SOAK_TRANSPORT_LOADS  page loads cancelled as their responses complete, over URLSessionTransport
#                     against the tests' loopback server in Swift (LoopbackHTTPServer), in one
#                     process (default 1000000; the suite runs 100,000); a crash of the process
#                     (the FoundationNetworking trap URLSessionTransport avoids on Linux) fails
#                     the part
#   SOAK_TRANSPORT_IN_FLIGHT_LOADS  the same against the slower Python fixture server, where
#                     most cancellations land while the request is in flight (default 100000;
#                     the suite runs 15,000)
#   SOAK_TRANSPORT_PREEMPTED  load-mores preempted by refreshes over URLSessionTransport
#                     (default 20000; the suite runs 150)
#   SOAK_TRANSPORT_AHC_LOADS  "transport-ahc": page loads cancelled over the AsyncHTTPClient
#                     transport of Examples/FeedService (default 1000000; its suite runs 5,000);
#                     builds that package in Examples/FeedService/.build-service (minutes)
#
# A failing seed is printed with its replay command (ASYNCPAGING_SEED=n). A chunk that hangs
# (the engine did less than the model expects, so the run waits) is killed after
# SOAK_CHUNK_LIMIT and run again with ASYNCPAGING_TRACE_SEEDS=1 to name the seeds that started
# and never ended. The limit belongs to this script only; the tests themselves have none.
set -euo pipefail

cd "$(dirname "$0")/.."
count=${SOAK_COUNT:-1000000}
steps=${SOAK_STEPS:-14}
first=${SOAK_FIRST_SEED:-10000}
long_count=${SOAK_LONG_COUNT:-100000}
long_steps=${SOAK_LONG_STEPS:-40}
long_first=${SOAK_LONG_FIRST_SEED:-2000000}
chunk=${SOAK_CHUNK:-50000}
scratch=${SOAK_SCRATCH:-.build-soak}
limit=${SOAK_CHUNK_LIMIT:-900}
mix_count=${SOAK_MIX_COUNT:-20000}
mix_steps=${SOAK_MIX_STEPS:-240}
mix_first=${SOAK_MIX_FIRST_SEED:-3000000}
parts=${SOAK_PARTS:-model long mix stress transport}
stress_seconds=${SOAK_STRESS_SECONDS:-600}
transport_loads=${SOAK_TRANSPORT_LOADS:-1000000}
transport_preempted=${SOAK_TRANSPORT_PREEMPTED:-20000}
transport_in_flight=${SOAK_TRANSPORT_IN_FLIGHT_LOADS:-100000}
transport_ahc_loads=${SOAK_TRANSPORT_AHC_LOADS:-1000000}

swift build --build-tests --scratch-path "$scratch" >/dev/null
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/AsyncPagingPackageTests.xctest"

run_chunk() { # first-seed count steps [extra env...]
    local start=$1 size=$2 length=$3
    shift 3
    env ASYNCPAGING_FIRST_SEED="$start" ASYNCPAGING_SEQUENCES="$size" ASYNCPAGING_STEPS="$length" \
        ASYNCPAGING_LONG_SEQUENCES=0 ASYNCPAGING_MIX_SEQUENCES=0 "$@" \
        timeout -s KILL "$limit" "$binary" --testing-library swift-testing --filter ModelCheckingTests
}

failed=0

soak_model() { # total first-seed steps chunk-size [mix]
    local total=$1 from=$2 length=$3 per_chunk=$4 mix=${5:-}
    local done_count=0 started_at size start log status
    local -a chunk_args
    started_at=$(date +%s)
    while (( done_count < total )); do
        size=$(( total - done_count < per_chunk ? total - done_count : per_chunk ))
        start=$(( from + done_count ))
        log=$(mktemp)
        status=0
        if [[ -n $mix ]]; then
            chunk_args=(0 0 0 ASYNCPAGING_MIX_FIRST_SEED="$start" ASYNCPAGING_MIX_SEQUENCES="$size" ASYNCPAGING_MIX_STEPS="$length")
        else
            chunk_args=("$start" "$size" "$length")
        fi
        run_chunk "${chunk_args[@]}" >"$log" 2>&1 || status=$?
        if (( status == 137 )); then
            echo "seeds $start..<$(( start + size )) ($length steps): hung after ${limit}s; tracing seeds..."
            run_chunk "${chunk_args[@]}" ASYNCPAGING_TRACE_SEEDS=1 >"$log" 2>&1 || true
            awk -v steps="$length" '/^seed [0-9]+ starts/ { s[$2] = 1 } /^seed [0-9]+ ends/ { delete s[$2] }
                 END { for (k in s) print "  seed " k " never ended: ASYNCPAGING_SEED=" k " ASYNCPAGING_STEPS=" steps " to replay" }' "$log"
            failed=1
        elif (( status != 0 )); then
            echo "seeds $start..<$(( start + size )) ($length steps): FAILED"
            grep -E "seed [0-9]+ failed|replay:" "$log" | sed 's/^/  /' || tail -20 "$log"
            failed=1
        else
            echo "seeds $start..<$(( start + size )) ($length steps): passed ($(grep -Eo 'passed after [0-9.]+ seconds' "$log" | tail -1))"
        fi
        rm -f "$log"
        done_count=$(( done_count + size ))
    done
    (( total == 0 )) || echo "soak: $done_count sequences of $length steps from seed $from in $(( $(date +%s) - started_at ))s: $([[ $failed == 0 ]] && echo passed || echo FAILED)"
}

[[ " $parts " == *" model "* ]] && soak_model "$count" "$first" "$steps" "$chunk"
[[ " $parts " == *" long "* ]] && soak_model "$long_count" "$long_first" "$long_steps" $(( chunk / 5 > 1 ? chunk / 5 : 1 ))
[[ " $parts " == *" mix "* ]] && soak_model "$mix_count" "$mix_first" "$mix_steps" $(( chunk / 25 > 1 ? chunk / 25 : 1 )) mix

if [[ " $parts " == *" stress "* ]]; then
    # The stall detector ends a deadlocked run with a message; the timeout is a last resort.
    log=$(mktemp)
    status=0
    stress_started=$(date +%s)
    env ASYNCPAGING_STRESS_SECONDS="$stress_seconds" \
        ASYNCPAGING_CANCEL_SECONDS=$(( stress_seconds / 10 > 2 ? stress_seconds / 10 : 2 )) \
        ASYNCPAGING_LIFETIME_CYCLES=100000 \
        timeout -s KILL $(( stress_seconds * 2 + 600 )) "$binary" --testing-library swift-testing --filter Concurrency \
        >"$log" 2>&1 || status=$?
    grep -E "^(stress|statuses|snapshots|events|create/drop|fan-out|unread)|STALL|replay:" "$log" | sed 's/^/  /'
    if (( status != 0 )); then
        echo "stress: FAILED (exit $status)"
        grep -E "✘|Fatal error" "$log" | head -20 | sed 's/^/  /'
        failed=1
    else
        echo "stress: passed in $(( $(date +%s) - stress_started ))s"
    fi
    rm -f "$log"
fi
# Cancelled loads: a crash of the test process (a fatal error inside the HTTP client) or a
# stall (the test's own detector) fails the part; the timeout is a last resort.
soak_transport() { # name command...
    local name=$1 log status started
    shift
    log=$(mktemp)
    status=0
    started=$(date +%s)
    "$@" >"$log" 2>&1 || status=$?
    grep -E "^transport cancellation:|stalled" "$log" | sed 's/^/  /'
    if (( status != 0 )); then
        echo "$name: FAILED (exit $status)"
        grep -E "✘|Fatal error" "$log" | head -20 | sed 's/^/  /'
        failed=1
    else
        echo "$name: passed in $(( $(date +%s) - started ))s"
    fi
    rm -f "$log"
}

if [[ " $parts " == *" transport "* ]]; then
    soak_transport "transport (URLSession)" env ASYNCPAGING_CANCELLED_LOADS="$transport_loads" \
        ASYNCPAGING_IN_FLIGHT_CANCELLED_LOADS="$transport_in_flight" \
        ASYNCPAGING_PREEMPTED_LOADS="$transport_preempted" \
        timeout -s KILL $(( transport_loads / 100 + transport_in_flight / 50 + transport_preempted / 5 + 1200 )) \
        "$binary" --testing-library swift-testing --filter TransportCancellationTests
fi

if [[ " $parts " == *" transport-ahc "* ]]; then
    (cd Examples/FeedService && swift build --build-tests --scratch-path .build-service >/dev/null)
    service_binary="$(cd Examples/FeedService && swift build --scratch-path .build-service --show-bin-path)/FeedServicePackageTests.xctest"
    soak_transport "transport (AsyncHTTPClient)" env FEEDSERVICE_CANCELLED_LOADS="$transport_ahc_loads" \
        timeout -s KILL $(( transport_ahc_loads / 100 + 1200 )) \
        "$service_binary" --testing-library swift-testing --filter AsyncHTTPClientTransportTests
fi
exit $failed
