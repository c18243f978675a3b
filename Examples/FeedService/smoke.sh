#!/usr/bin/env bash
# Smoke test of the example service on loopback: build it, start it on 127.0.0.1 with a free
# port, page one session to the end with curl, check every item came once and in order, check
# that an events client that hangs up is released within two heartbeats, delete the session,
# stop the server by its pid — once over the in-process fake API, twice over
# AsyncPagingHTTP against the package's fixture server as upstream (through AsyncHTTPClient, the
# default, and through URLSession). Bounded: every curl has a timeout, the start waits
# at most 60 s, the paging at most 20 load-mores.
#
#   Examples/FeedService/smoke.sh          (SCRATCH: build folder, default .build-service)
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
SCRATCH="${SCRATCH:-.build-service}"
ITEMS=95
PAGE=20

echo "== build (scratch path $SCRATCH)"
swift build --scratch-path "$SCRATCH" --product FeedService 2>&1 | tail -1
BIN="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/FeedService"

# smoke NAME EXPECTED_ITEMS SERVICE_ARGS...: start the service, page session NAME to the end,
# check ids EXPECTED_ITEMS..1 came once each, newest first, delete the session, stop the service.
smoke() {
    local name="$1" expected="$2"
    shift 2
    LOG="$(mktemp)"
    "$BIN" --host 127.0.0.1 --port 0 --page-size "$PAGE" --heartbeat-seconds 1 "$@" >"$LOG" 2>&1 &
    PID=$!
    local port=""
    for _ in $(seq 600); do
        port=$(sed -n 's/^FeedService listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$LOG" | head -1)
        [ -n "$port" ] && break
        kill -0 "$PID" 2>/dev/null || { echo "the service exited:"; cat "$LOG"; return 1; }
        sleep 0.1
    done
    [ -n "$port" ] || { echo "the service did not print its port within 60 s"; cat "$LOG"; return 1; }
    echo "== service pid $PID on 127.0.0.1:$port ($*)"
    local base="http://127.0.0.1:$port"
    "${CURL[@]}" "$base/sessions/$name/items" >/dev/null
    local n kind
    for n in $(seq 20); do
        kind=$("${CURL[@]}" -X POST "$base/sessions/$name/more" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["outcome"]["kind"])')
        echo "load-more $n: $kind"
        [ "$kind" = "endOfData" ] && break
        [ "$kind" = "completed" ] || { echo "unexpected outcome $kind"; return 1; }
    done
    "${CURL[@]}" "$base/sessions/$name/items" | python3 -c "
import json, sys
body = json.load(sys.stdin)
ids = [item['id'] for item in body['items']]
assert ids == list(range($expected, 0, -1)), 'items: %r' % ids[:30]
assert body['status']['kind'] == 'endOfData', body['status']
print('items: %d, every one once, newest first; status endOfData' % len(ids))
"
    # An events client that hangs up is released within two heartbeats (--heartbeat-seconds 1).
    curl --silent --max-time 2 "$base/sessions/$name/events" >/dev/null 2>&1 &
    local events_pid=$! streams=""
    for _ in $(seq 50); do
        streams=$("${CURL[@]}" "$base/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["eventStreams"])')
        [ "$streams" = "1" ] && break
        sleep 0.1
    done
    [ "$streams" = "1" ] || { echo "the events stream did not open"; return 1; }
    wait "$events_pid" 2>/dev/null || true
    local hung_up released=""
    hung_up=$(date +%s.%N)
    for _ in $(seq 50); do
        streams=$("${CURL[@]}" "$base/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["eventStreams"])')
        [ "$streams" = "0" ] && { released=$(date +%s.%N); break; }
        sleep 0.1
    done
    [ -n "$released" ] || { echo "an events client that hung up was not released within 5 s"; return 1; }
    echo "events: a client that hung up was released after $(python3 -c "print('%.1f' % ($released - $hung_up))") s (heartbeat 1 s)"
    local status
    status=$("${CURL[@]}" -o /dev/null -w '%{http_code}' -X DELETE "$base/sessions/$name")
    [ "$status" = "204" ] || { echo "delete answered $status"; return 1; }
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=""
    rm -f "$LOG"
}

CURL=(curl --silent --show-error --fail --max-time 10)
PID=""
FIXTURE_PID=""
cleanup() {
    [ -n "$PID" ] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
    [ -n "$FIXTURE_PID" ] && { kill "$FIXTURE_PID" 2>/dev/null || true; wait "$FIXTURE_PID" 2>/dev/null || true; }
    rm -f "${LOG:-}" "${FIXTURE_LOG:-}"
}
trap cleanup EXIT

# 1. The in-process fake API.
smoke fake "$ITEMS" --items "$ITEMS"

# 2. AsyncPagingHTTP against an upstream: the package's fixture server (50 items, a cursor in
#    the JSON body) on another free port, stopped by its pid.
FIXTURE_LOG="$(mktemp)"
FIXTURE_KEEP_RUNNING=1 python3 ../../Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py </dev/null >"$FIXTURE_LOG" 2>&1 &
FIXTURE_PID=$!
UPSTREAM_PORT=""
for _ in $(seq 300); do
    UPSTREAM_PORT=$(head -1 "$FIXTURE_LOG")
    [ -n "$UPSTREAM_PORT" ] && break
    sleep 0.1
done
[ -n "$UPSTREAM_PORT" ] || { echo "the fixture server did not start"; exit 1; }
smoke upstream 50 --upstream "http://127.0.0.1:$UPSTREAM_PORT/cursor"
# The same upstream through URLSession (--upstream-client urlsession; AsyncHTTPClient above).
smoke upstream-urlsession 50 --upstream "http://127.0.0.1:$UPSTREAM_PORT/cursor" --upstream-client urlsession
echo "== smoke passed (fake and upstream sessions, over AsyncHTTPClient and URLSession, paged to the end, deleted, services stopped)"
