#!/usr/bin/env bash
# Runs every benchmark and writes the side-by-side table to Benchmarks/results/table.md.
#
#   Benchmarks/run.sh           full run (about 3 minutes after the build)
#   Benchmarks/run.sh --quick   short run, smaller sizes (a check that everything runs)
#   Benchmarks/run.sh --suite   also run the package-benchmark suite (wall clock + mallocs)
#
# feed-bench runs three passes, each with every contender side by side in one process:
# time (plain), memory (MALLOC_ARENA_MAX=1, so glibc's counters cover every thread) and
# mallocs (malloc-interposer preloaded, which counts allocations but adds a header to each).
set -euo pipefail
cd "$(dirname "$0")"
SCRATCH="${SCRATCH:-$PWD/../.build-bench}"
QUICK=""
SUITE=0
for arg in "$@"; do
    case "$arg" in
        --quick) QUICK="--quick" ;;
        --suite) SUITE=1 ;;
    esac
done

swift build -c release --scratch-path "$SCRATCH"
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
OUT=results
mkdir -p "$OUT"

"$BIN/feed-bench" time $QUICK > "$OUT/time.tsv"
MALLOC_ARENA_MAX=1 "$BIN/feed-bench" memory $QUICK > "$OUT/memory.tsv"
LD_PRELOAD="$BIN/libMallocInterposerSwift.so" "$BIN/feed-bench" mallocs $QUICK > "$OUT/mallocs.tsv"

{
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
        "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr);" \
        "$(swift --version 2>/dev/null | head -1). Date: $(date -u '+%Y-%m-%d %H:%M UTC')."
    echo
    "$BIN/feed-bench" table "$OUT/time.tsv" "$OUT/memory.tsv" "$OUT/mallocs.tsv"
} > "$OUT/table.md"
cat "$OUT/table.md"

if [ "$SUITE" = 1 ]; then
    swift package --scratch-path "$SCRATCH" benchmark --no-progress
fi
