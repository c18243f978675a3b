#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 50) and stops at the first failure.
# Usage: scripts/repeat-tests.sh [N]      LOAD=1 scripts/repeat-tests.sh 50  (keeps both cores busy meanwhile)
#        SKIP='Concurrency|HTTP|Fuzz' scripts/repeat-tests.sh 50   (the test-clock rules only: the
#        real-clock suites are bounded by their own stall detectors and soaked by scripts/soak.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
swift build --build-tests >/dev/null
if [ "${LOAD:-0}" = 1 ]; then
  for _ in $(seq "$(nproc)"); do ( while :; do :; done ) & done
  trap 'kill $(jobs -p) 2>/dev/null' EXIT
fi
skip=()
if [ -n "${SKIP:-}" ]; then skip=(--skip "$SKIP"); fi
for i in $(seq "$runs"); do
  if ! swift test --skip-build "${skip[@]}" > /tmp/asyncpaging-repeat.log 2>&1; then
    echo "run $i of $runs FAILED; log: /tmp/asyncpaging-repeat.log"
    grep -E "✘|error" /tmp/asyncpaging-repeat.log | head -20
    exit 1
  fi
  echo "run $i of $runs passed"
done
echo "$runs passed, 0 failed"
