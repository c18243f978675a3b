#!/usr/bin/env bash
# Two FeedService instances sharing their sessions through PostgreSQL, on loopback:
#   1. alternating: one client alternates load-mores between instance A and B: one continuous list;
#   2. simultaneous: two clients send 20 load-mores each for one session, one at A, one at B, at
#      once: every page applied once, none lost (the list is continuous and 20 + 40 x 20 long);
#   3. SIGKILL: instance C (slow upstream) is killed with SIGKILL while a load-more of a session is
#      in flight; a load-more of the same session sent to B meanwhile waits for C's row lock and
#      goes on from the last save when C dies (the lock dies with C's connection): its list is
#      continuous, nothing of C's load was saved;
#   4. restart: A and B stop; a new instance D serves every session as saved, and loads on.
# PostgreSQL is installed with apt-get if missing, and a throwaway cluster is initialised in a
# temporary folder and started on 127.0.0.1 on a free port (as the `postgres` user when run as
# root: PostgreSQL refuses to run as root). Bounded: every request has a timeout, every wait a
# limit; the processes and the cluster are removed on exit, whatever happens.
#
#   Examples/FeedService/pg-smoke.sh          (SCRATCH: build folder, default .build-service)
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
SCRATCH="${SCRATCH:-.build-service}"

# shellcheck source=pg-cluster.sh
source ./pg-cluster.sh
pg_cluster_start

# -- FeedService ----------------------------------------------------------------------------
echo "== build (scratch path $SCRATCH)"
swift build --scratch-path "$SCRATCH" --product FeedService 2>&1 | tail -1
BIN="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/FeedService"

# The checks, in Python's standard library (every request has a 15 s timeout).
check() {
    python3 - "$@" <<'PY'
import http.client, json, sys, threading, time

def call(port, method, path, timeout=15):
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=timeout)
    connection.request(method, path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status >= 300:
        raise SystemExit("%s %s on :%s answered %d %s" % (method, path, port, response.status, body[:300]))
    return json.loads(body) if body else None

def more(port, session):
    return call(port, "POST", "/sessions/%s/more" % session)

def ids(port, session):
    return [item["id"] for item in call(port, "GET", "/sessions/%s/items" % session)["items"]]

def expect_continuous(port, session, count):
    got = ids(port, session)
    want = list(range(1000, 1000 - count, -1))
    if got != want:
        raise SystemExit("session %s on :%s: %d items, expected %d, first wrong at %r"
                         % (session, port, len(got), count,
                            next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))))
    return got

step, args = sys.argv[1], sys.argv[2:]
if step == "alternating":
    a, b = args
    for n in range(10):
        kind = more(a if n % 2 == 0 else b, "alt")["result"]["outcome"]["kind"]
        assert kind == "completed", kind
    expect_continuous(a, "alt", 220)
    expect_continuous(b, "alt", 220)
    print("alternating: 10 load-mores, A/B/A/…: both instances show ids 1000…781 once each, in order")
elif step == "simultaneous":
    a, b = args
    expect_continuous(a, "race", 20)
    applied, errors = [], []
    barrier = threading.Barrier(2)
    def client(port):
        barrier.wait(timeout=15)
        for _ in range(20):
            try:
                outcome = more(port, "race")["result"]["outcome"]
                applied.append(outcome["summary"]["itemsApplied"] if outcome["kind"] == "completed" else 0)
            except BaseException as error:
                errors.append(repr(error))
    threads = [threading.Thread(target=client, args=(port,)) for port in (a, b)]
    for thread in threads: thread.start()
    for thread in threads: thread.join(timeout=120)
    assert not errors, errors[:3]
    assert len(applied) == 40 and sum(applied) == 800, (len(applied), sum(applied))
    expect_continuous(a, "race", 820)
    expect_continuous(b, "race", 820)
    print("simultaneous: 2 x 20 load-mores at A and B at once: 40 pages applied once each; both show 820 items in order")
elif step == "prepare-kill":
    a, = args
    for _ in range(3): more(a, "kill")
    expect_continuous(a, "kill", 80)
elif step == "in-flight":
    c, = args
    try:
        more(c, "kill")
        print("the in-flight load-more answered before the kill")
    except BaseException as error:
        print("the in-flight load-more ended with the kill (%s)" % type(error).__name__)
elif step == "after-kill":
    b, = args
    start = time.monotonic()
    outcome = more(b, "kill")["result"]["outcome"]
    elapsed = time.monotonic() - start
    assert outcome["kind"] == "completed" and outcome["summary"]["itemsApplied"] == 20, outcome
    expect_continuous(b, "kill", 100)
    print("SIGKILL: B's load-more, sent while C held the session, answered %.2f s later (after the kill): "
          "100 items in order (the killed load saved nothing)" % elapsed)
elif step == "fill":
    a, b = args
    lists = {}
    for n in range(30):
        port = a if n % 2 == 0 else b
        for _ in range(n % 5):
            more(port, "keep-%d" % n)
        lists["keep-%d" % n] = ids(port, "keep-%d" % n)
    json.dump(lists, sys.stdout)
elif step == "restart":
    d, saved = args
    lists = json.load(open(saved))
    for name, want in lists.items():
        got = ids(d, name)
        assert got == want, "%s: %d items after the restart, %d before" % (name, len(got), len(want))
    for name, want in lists.items():
        outcome = more(d, name)["result"]["outcome"]
        assert outcome["kind"] == "completed", (name, outcome)
        expect_continuous(d, name, len(want) + 20)
    print("restart: the new instance served all %d sessions as saved, and loaded each on" % len(lists))
PY
}

SERVICE=(--store "$STORE" --items 1000 --page-size 20)
start A "${SERVICE[@]}"
start B "${SERVICE[@]}"
check alternating "$A_PORT" "$B_PORT"
echo "   page rows of 'alt': $("${PSQL[@]}" -c "SELECT count(*) FROM feed_pages WHERE session_key = 'alt'") (a first save, then one row per load-more)"
check simultaneous "$A_PORT" "$B_PORT"

# SIGKILL mid-load: C fetches each page for 4 s; it is killed 1.5 s into a load-more.
check prepare-kill "$A_PORT"
start C "${SERVICE[@]}" --latency-ms 4000
check in-flight "$C_PORT" &
INFLIGHT=$!
PIDS+=("$INFLIGHT")
for _ in $(seq 100); do
    held=$("${PSQL[@]}" -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'feeds' AND state = 'idle in transaction'")
    [ "$held" -ge 1 ] && break
    sleep 0.05
done
[ "$held" -ge 1 ] || { echo "C never held a session lock"; exit 1; }
sleep 0.5
# B's load-more of the same session waits for C's row lock, and goes on once C is killed.
check after-kill "$B_PORT" &
RESUMED=$!
PIDS+=("$RESUMED")
sleep 1
kill -9 "$C_PID"
wait "$C_PID" 2>/dev/null || true
echo "== instance C killed with SIGKILL mid-load"
wait "$INFLIGHT" 2>/dev/null || true
wait "$RESUMED" || { echo "B did not resume the session after the kill"; exit 1; }

# Restart: sessions saved by A and B, both stopped, a new instance D serves them.
SAVED="$PGDIR/lists.json"
check fill "$A_PORT" "$B_PORT" >"$SAVED"
kill "$A_PID" "$B_PID"
wait "$A_PID" 2>/dev/null || true
wait "$B_PID" 2>/dev/null || true
echo "== A and B stopped; $("${PSQL[@]}" -c 'SELECT count(*) FROM feed_sessions WHERE version > 0') sessions saved"
start D "${SERVICE[@]}"
check restart "$D_PORT" "$SAVED"
echo "== pg-smoke passed (alternating, simultaneous, SIGKILL mid-load, restart; two instances on one PostgreSQL)"
