#!/usr/bin/env bash
# The CI smoke: builds the benchmarks and checks their allocation counts against the
# thresholds committed in Thresholds/<Swift version>/ (package-benchmark's static thresholds,
# swift-nio's practice). Wall-clock time is never checked. Under a minute after the build.
#
#   Benchmarks/smoke.sh            check (exit 0: as recorded or better; non-zero: regression)
#   Benchmarks/smoke.sh --update   record new thresholds after an intended change
set -euo pipefail
cd "$(dirname "$0")"
SCRATCH="${SCRATCH:-$PWD/../.build-bench}"
SWIFT_VERSION="$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)"
THRESHOLDS="$PWD/Thresholds/$SWIFT_VERSION"
export FEED_BENCH_SMOKE=1

swift build -c release --scratch-path "$SCRATCH"
if [ "${1:-}" = "--update" ]; then
    mkdir -p "$THRESHOLDS"
    swift package --scratch-path "$SCRATCH" --allow-writing-to-package-directory \
        benchmark thresholds update --path "$THRESHOLDS" --no-progress
    exit 0
fi
if [ ! -d "$THRESHOLDS" ]; then
    echo "smoke: no thresholds for Swift $SWIFT_VERSION in $THRESHOLDS; run smoke.sh --update" >&2
    exit 1
fi
set +e
swift package --scratch-path "$SCRATCH" benchmark thresholds check --path "$THRESHOLDS" --no-progress
status=$?
set -e
# 0: as recorded; 4: only improvements (record them with --update). Anything else fails.
if [ "$status" = 0 ] || [ "$status" = 4 ]; then
    echo "smoke: allocation counts within thresholds"
    echo "1 passed, 0 failed"
    exit 0
fi
echo "smoke: allocation counts above thresholds (exit $status)" >&2
exit "$status"
