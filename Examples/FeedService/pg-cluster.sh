# Sourced by pg-smoke.sh and pg-figures.sh: a throwaway PostgreSQL cluster on loopback.
#
# pg_cluster_start installs PostgreSQL with apt-get if missing (apt-get update first), initialises
# a cluster in a temporary folder, starts it on 127.0.0.1 on a free port (as the `postgres` user
# when run as root: PostgreSQL refuses to run as root), creates the database `feeds` and sets
# STORE (the URL for --store), PSQL (psql on it), PGDIR (the folder; logs go there) and PIDS (the
# caller appends the processes it starts; `start` does). An EXIT trap kills those processes with SIGKILL, stops
# the cluster and removes the folder, whatever happens.
PIDS=()
PGDIR=""
PG_CTL=""
RUNAS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ -n "$PGDIR" ]; then
        [ -n "$PG_CTL" ] && "${RUNAS[@]}" "$PG_CTL" -D "$PGDIR/data" -m immediate -t 30 stop >/dev/null 2>&1 || true
        rm -rf "$PGDIR"
    fi
}
trap cleanup EXIT

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
pg_cluster_start() {
    if [ -z "$(pg_bin)" ]; then
        echo "== installing PostgreSQL (apt-get)"
        export DEBIAN_FRONTEND=noninteractive
        timeout 600 apt-get update -qq
        timeout 600 apt-get install -y -qq postgresql >/dev/null
    fi
    PGBIN="$(pg_bin)"
    [ -x "$PGBIN/initdb" ] || { echo "no PostgreSQL found after installing"; exit 1; }
    PG_CTL="$PGBIN/pg_ctl"
    PGDIR="$(mktemp -d /tmp/feed-pg.XXXXXX)"
    if [ "$(id -u)" = 0 ]; then
        OS_USER=postgres
        id "$OS_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$OS_USER"
        chown "$OS_USER" "$PGDIR"
        RUNAS=(runuser -u "$OS_USER" --)
    fi
    PGPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    "${RUNAS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U feed --auth=trust -E UTF8 >"$PGDIR/initdb.log" 2>&1 \
        || { cat "$PGDIR/initdb.log"; exit 1; }
    "${RUNAS[@]}" "$PG_CTL" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGDIR" start >/dev/null \
        || { cat "$PGDIR/server.log"; exit 1; }
    "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U feed feeds
    STORE="postgres://feed@127.0.0.1:$PGPORT/feeds"
    PSQL=("$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U feed -d feeds -tAq -v ON_ERROR_STOP=1)
    echo "== PostgreSQL $("${PSQL[@]}" -c 'SHOW server_version') on 127.0.0.1:$PGPORT (cluster in $PGDIR)"
}

# start NAME ARGS...: starts FeedService ($BIN) with ARGS on 127.0.0.1 on a free port, waits
# (at most 60 s) for its first line; sets NAME_PID and NAME_PORT.
start() {
    local name="$1"
    shift
    local log="$PGDIR/$name.log" port=""
    "$BIN" --host 127.0.0.1 --port 0 "$@" >"$log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    for _ in $(seq 600); do
        port=$(sed -n 's/^FeedService listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log" | head -1)
        [ -n "$port" ] && break
        kill -0 "$pid" 2>/dev/null || { echo "instance $name exited:"; cat "$log"; exit 1; }
        sleep 0.1
    done
    [ -n "$port" ] || { echo "instance $name did not print its port within 60 s"; cat "$log"; exit 1; }
    printf -v "${name}_PID" '%s' "$pid"
    printf -v "${name}_PORT" '%s' "$port"
    echo "== instance $name: pid $pid on 127.0.0.1:$port ($*)"
}
