#!/usr/bin/env bash
# The PostgreSQL store's figures, one run each, on loopback (release build, a throwaway cluster
# as in pg-smoke.sh): load-mores per second and p50/p99 of one load-more, in memory (no store)
# and with --store postgres://…, for sessions of 20 and of 1,000 items; the bytes PostgreSQL
# writes per load-more (its WAL, pg_current_wal_lsn() before and after the timed load-mores);
# the time a restarted instance takes to serve 10,000 stored sessions. Not part of CI.
#
#   Examples/FeedService/pg-figures.sh   (SESSIONS=100 MEASURED=10 THREADS=8 STORED=10000)
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
SCRATCH="${SCRATCH:-.build-service-release}"
SESSIONS="${SESSIONS:-100}"
MEASURED="${MEASURED:-10}"
THREADS="${THREADS:-8}"
STORED="${STORED:-10000}"

echo "== build (release, scratch path $SCRATCH)"
swift build -c release --scratch-path "$SCRATCH" --product FeedService 2>&1 | tail -1
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/FeedService"

# shellcheck source=pg-cluster.sh
source ./pg-cluster.sh
pg_cluster_start
date -u '+== %Y-%m-%d %H:%M UTC'
COMMON=(--items 100000 --page-size 20 --max-sessions 100000)
wal() { "${PSQL[@]}" -c "SELECT pg_current_wal_lsn()"; }

stop() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

for size in 20 1000; do
    echo "-- sessions of $size items: in memory"
    start M "${COMMON[@]}"
    python3 load.py --port "$M_PORT" --phase latency --size "$size" --measured "$MEASURED" \
        --sessions "$SESSIONS" --threads "$THREADS"
    stop "$M_PID"
    echo "-- sessions of $size items: PostgreSQL"
    start P "${COMMON[@]}" --store "$STORE"
    python3 load.py --port "$P_PORT" --phase latency --size "$size" --measured 0 \
        --sessions "$SESSIONS" --threads "$THREADS"
    before=$(wal)
    python3 load.py --port "$P_PORT" --phase latency --size "$size" --measured "$MEASURED" --grown \
        --sessions "$SESSIONS" --threads "$THREADS"
    after=$(wal)
    "${PSQL[@]}" -c "SELECT format('bytes written per load-more (WAL): %s', round(pg_wal_lsn_diff('$after', '$before') / ($SESSIONS * $MEASURED)))"
    "${PSQL[@]}" -c "SELECT format('a page row: %s bytes of item JSON on average', round(avg(length(items)))) FROM feed_pages WHERE position > 0"
    stop "$P_PID"
    "${PSQL[@]}" -c "TRUNCATE feed_sessions CASCADE"
done

echo "-- a restarted instance serving $STORED stored sessions"
start R "${COMMON[@]}" --store "$STORE"
python3 load.py --port "$R_PORT" --phase create --sessions "$STORED" --threads "$THREADS"
stop "$R_PID"
began=$(date +%s.%N)
start R "${COMMON[@]}" --store "$STORE"
listening=$(date +%s.%N)
python3 load.py --port "$R_PORT" --phase serve --sessions "$STORED" --threads "$THREADS"
served=$(date +%s.%N)
python3 -c "print('restart: listening after %.2f s; every one of $STORED sessions served %.2f s after the start' % ($listening - $began, $served - $began))"
stop "$R_PID"
