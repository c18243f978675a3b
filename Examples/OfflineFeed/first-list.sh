#!/usr/bin/env bash
# The figure of Benchmarks/README.md "The offline example": time and instructions from start to
# the first list read from the database (20 rows), with no network, on a database of 1,000 and
# of 100,000 stored rows. Release build of offline-first-list; the time is the median of RUNS
# processes (in-process ContinuousClock around the span); the instructions are callgrind's count
# of the same span (client requests switch it on and off), one run each (they repeat). "cold" is
# the first feed of a process (the Swift runtime's first-use costs included); "warm" a second
# one, after the span ran once unmeasured.
#
#   Examples/OfflineFeed/first-list.sh     (SCRATCH: build folder, default .build-offline-release; RUNS: 21)
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
SCRATCH="${SCRATCH:-.build-offline-release}"
RUNS="${RUNS:-21}"
command -v valgrind >/dev/null || { echo "first-list: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ -f /usr/include/valgrind/callgrind.h ] || { echo "first-list: valgrind/callgrind.h is missing" >&2; exit 1; }

swift build -c release --scratch-path "$SCRATCH" --product offline-first-list 2>&1 | tail -1
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/offline-first-list"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# As in Benchmarks/instructions.sh: valgrind 3.19 cannot read the DWARF of Swift 6 binaries (a
# copy without it runs), and needs the rt_sigsuspend shim.
cp "$BIN" "$WORK/offline-first-list"
strip -g "$WORK/offline-first-list"
cc -O2 -shared -fPIC ../../Benchmarks/Instructions/sigsuspend_copy.c -o "$WORK/sigsuspend_copy.so"

printf '| stored rows | process | first list (median of %s runs) | instructions (callgrind) |\n| ---: | --- | ---: | ---: |\n' "$RUNS"
for rows in 1000 100000; do
    db="$WORK/feed-$rows.sqlite"
    "$BIN" seed "$db" "$rows" >/dev/null
    for mode in cold warm; do
        flag=()
        [ "$mode" = warm ] && flag=(--warm)
        times=()
        for _ in $(seq "$RUNS"); do
            times+=("$("$BIN" "${flag[@]}" "$db" | sed -n 's/^rows 20 nanoseconds \([0-9]*\)$/\1/p')")
        done
        median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
        LD_PRELOAD="$WORK/sigsuspend_copy.so" valgrind --tool=callgrind --instr-atstart=no \
            --callgrind-out-file="$WORK/callgrind.$rows.$mode" "$WORK/offline-first-list" "${flag[@]}" "$db" \
            >/dev/null 2>"$WORK/valgrind.$rows.$mode"
        # Only the span is counted (instrumentation is off outside it): the totals line.
        instructions=$(sed -n 's/^totals: \([0-9]*\)$/\1/p' "$WORK/callgrind.$rows.$mode" | head -1)
        printf '| %s | %s | %s µs | %s |\n' "$rows" "$mode" "$(( median / 1000 ))" "$instructions"
    done
done
