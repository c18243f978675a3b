#!/usr/bin/env bash
# Smoke test of the example service on loopback: build it, start it on 127.0.0.1 with a free
# port, page one session to the end with curl, check every item came once and in order, delete
# the session, stop the server by its pid. Bounded: every curl has a timeout, the start waits
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

LOG="$(mktemp)"
"$BIN" --host 127.0.0.1 --port 0 --items "$ITEMS" --page-size "$PAGE" >"$LOG" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -f "$LOG"; }
trap cleanup EXIT

PORT=""
for _ in $(seq 600); do
    PORT=$(sed -n 's/^FeedService listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$LOG" | head -1)
    [ -n "$PORT" ] && break
    kill -0 "$PID" 2>/dev/null || { echo "the service exited:"; cat "$LOG"; exit 1; }
    sleep 0.1
done
[ -n "$PORT" ] || { echo "the service did not print its port within 60 s"; cat "$LOG"; exit 1; }
echo "== service pid $PID on 127.0.0.1:$PORT"
BASE="http://127.0.0.1:$PORT"
CURL=(curl --silent --show-error --fail --max-time 10)

"${CURL[@]}" "$BASE/sessions/smoke/items" >/dev/null
for n in $(seq 20); do
    kind=$("${CURL[@]}" -X POST "$BASE/sessions/smoke/more" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["outcome"]["kind"])')
    echo "load-more $n: $kind"
    [ "$kind" = "endOfData" ] && break
    [ "$kind" = "completed" ] || { echo "unexpected outcome $kind"; exit 1; }
done
"${CURL[@]}" "$BASE/sessions/smoke/items" | python3 -c "
import json, sys
body = json.load(sys.stdin)
ids = [item['id'] for item in body['items']]
expected = list(range($ITEMS, 0, -1))
assert ids == expected, 'items: %r' % ids[:30]
assert body['status']['kind'] == 'endOfData', body['status']
print('items: %d, every one once, newest first; status endOfData' % len(ids))
"
status=$("${CURL[@]}" -o /dev/null -w '%{http_code}' -X DELETE "$BASE/sessions/smoke")
[ "$status" = "204" ] || { echo "delete answered $status"; exit 1; }
kill "$PID"
wait "$PID" 2>/dev/null || true
trap - EXIT
rm -f "$LOG"
echo "== smoke passed (session paged to the end, deleted, service stopped)"
