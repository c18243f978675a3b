#!/usr/bin/env bash
# FeedService's load-mores per second ÷ a handler that keeps only a cursor per session
# (CursorBaseline), both over the in-process fake API, side by side in one run on loopback.
#
#   Examples/FeedService/load-ratio.sh        # after: swift build -c release --scratch-path .build-release
#   BIN=path/to/release SESSIONS=200 MEASURED=100 CLIENTS=4 ROUNDS=3 Examples/FeedService/load-ratio.sh
#
# Starts both servers on 127.0.0.1 (free ports), then runs ROUNDS rounds of A (FeedService), B
# (baseline), A, B, … : each round, SESSIONS new sessions get their first page (not timed), then
# MEASURED POST /sessions/:id/more each are timed, round-robin, by CLIENTS client processes
# (`load.py --phase more`). Prints each run, then the ratio of the summed rates. Every client
# call has a 10 s timeout and every run a 300 s one; the servers are stopped by their pids on exit.
set -euo pipefail
cd "$(dirname "$0")"
BIN=${BIN:-.build-release/release}
SESSIONS=${SESSIONS:-200}
MEASURED=${MEASURED:-100}
CLIENTS=${CLIENTS:-4}
ROUNDS=${ROUNDS:-3}
ITEMS=$(( (MEASURED + 2) * 20 ))
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

start() {  # start NAME COMMAND…: runs it, waits for its "listening on HOST:PORT" line, echoes PORT
    local name=$1; shift
    "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" &
    PIDS+=($!)
    for _ in $(seq 100); do
        if grep -q "listening on" "$WORK/$name.out"; then
            sed -n 's/.*listening on .*:\([0-9]*\)$/\1/p' "$WORK/$name.out" | head -1
            return
        fi
        sleep 0.1
    done
    echo "$name did not start: $(cat "$WORK/$name.err")" >&2
    exit 1
}

# Sessions are never closed by the service during the run (cap and idle time above the load).
start service "$BIN/FeedService" --host 127.0.0.1 --port 0 --items "$ITEMS" --page-size 20 \
    --max-sessions $(( SESSIONS * ROUNDS + 1 )) --idle-seconds 3600 > "$WORK/service.port"
SERVICE_PORT=$(cat "$WORK/service.port")
start baseline "$BIN/CursorBaseline" --host 127.0.0.1 --port 0 --items "$ITEMS" --page-size 20 > "$WORK/baseline.port"
BASELINE_PORT=$(cat "$WORK/baseline.port")
echo "FeedService on $SERVICE_PORT, CursorBaseline on $BASELINE_PORT; $SESSIONS sessions × $MEASURED load-mores timed per run, $CLIENTS client processes, $ROUNDS rounds"

run() {  # run LABEL PORT ROUND
    local line
    line=$(timeout 300 python3 load.py --port "$2" --phase more --prefix "r$3" \
        --sessions "$SESSIONS" --measured "$MEASURED" --threads "$CLIENTS")
    echo "$1 round $3: $line"
    echo "$1 $line" >> "$WORK/runs"
}
for round in $(seq "$ROUNDS"); do
    run service "$SERVICE_PORT" "$round"
    run baseline "$BASELINE_PORT" "$round"
done
python3 - "$WORK/runs" <<'PY'
import re, sys
rates = {"service": [], "baseline": []}
for line in open(sys.argv[1]):
    label = line.split()[0]
    rates[label].append(float(re.search(r"([0-9.]+) load-mores/s", line).group(1)))
service, baseline = sum(rates["service"]), sum(rates["baseline"])
pairs = ", ".join("%.2f" % (a / b) for a, b in zip(rates["service"], rates["baseline"]))
print("ratio FeedService ÷ CursorBaseline: %.2f (load-mores/s %.0f ÷ %.0f; per round %s)"
      % (service / baseline, service / len(rates["service"]), baseline / len(rates["baseline"]), pairs))
PY
