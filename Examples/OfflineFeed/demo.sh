#!/usr/bin/env bash
# The offline example end to end: the package's fixture server on 127.0.0.1 as the network,
# offline-feed run twice on one database file — online (the network's pages stored and listed,
# more loaded at the end, a local write reloading the page on screen), then offline after the server is stopped (the
# stored list shown before the network is asked, the refresh side failed, the stored pages
# still loading). Each run's output is checked line by line. Bounded: the server must print its
# port within 20 s, each run at most 60 s.
#
#   Examples/OfflineFeed/demo.sh          (SCRATCH: build folder, default .build-offline)
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
SCRATCH="${SCRATCH:-.build-offline}"
WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "== build (scratch path $SCRATCH)"
swift build --scratch-path "$SCRATCH" --product offline-feed 2>&1 | tail -1
BIN="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/offline-feed"

FIXTURE_KEEP_RUNNING=1 python3 ../../Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py 0 >"$WORK/port" &
SERVER_PID=$!
PORT=""
for _ in $(seq 200); do
    PORT="$(head -1 "$WORK/port" 2>/dev/null || true)"
    [ -n "$PORT" ] && break
    sleep 0.1
done
[ -n "$PORT" ] || { echo "the fixture server did not print its port"; exit 1; }

expect() { # expect FILE PATTERN: the output has a line matching PATTERN (grep -E)
    grep -Eq "$2" "$1" || { echo "missing: $2"; cat "$1"; exit 1; }
}

echo "== online: $BIN --db $WORK/feed.sqlite --url http://127.0.0.1:$PORT/cursor --more 2"
timeout 60 "$BIN" --db "$WORK/feed.sqlite" --url "http://127.0.0.1:$PORT/cursor" --more 2 | tee "$WORK/online"
expect "$WORK/online" '^stored list: 0 rows'
expect "$WORK/online" '^network refresh: completed\(10 items'
expect "$WORK/online" '^load more: completed\(10 items.* -> 30 rows: item 50, item 49'
expect "$WORK/online" '^after a local write to row 12: 10 rows: item 40, item 39, item 38 \*, .*reloaded\(12 -> 2\)'

kill "$SERVER_PID"
SERVER_PID=""
echo "== offline (the server stopped): $BIN --db $WORK/feed.sqlite --more 3"
timeout 60 "$BIN" --db "$WORK/feed.sqlite" --url "http://127.0.0.1:$PORT/cursor" --more 3 | tee "$WORK/offline"
expect "$WORK/offline" '^stored list: 10 rows: item 50, item 49'
expect "$WORK/offline" '^network refresh: failed'
expect "$WORK/offline" '^load states: refresh: failed'
expect "$WORK/offline" '^load more: completed\(10 items.* -> 30 rows'
expect "$WORK/offline" '^load more: failed\(the network waits for a refresh'
echo "offline-feed demo: online and offline runs as expected"
