#!/usr/bin/env bash
# Runs `feed-demo --url` for real: against the project's fixture HTTP server on 127.0.0.1
# (Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py, port 0), in tmux, as a person would.
#
#   scripts/demo-url-check.sh       build, then run every check (about 10 s once built)
#
#   1. --scheme link (the Link header, GitHub's style): the first page, then End until the
#      end of the data; every row of the last and the first screen is the right item; the
#      end-of-data line; q quits and prints the goodbye line.
#   2. --scheme cursor with a load-more the server answers 503: the failure line is red with
#      the status; t retries and the feed reaches the end of the data.
#   3. not a terminal (stdout a pipe): the listing of every item, then the end-of-data line.
#   4. a bad --url and a bad --scheme exit 2 with a message.
#
# Environment:
#   SCRATCH   build directory (default: .build-demo in the repository)
#   KEEP=1    leave the tmux server running on failure, to look at it: tmux -L <socket> attach
#   NO_COLOR  set: checks that the failure line has no colour (unset: that it is red)
#
# Loopback only: the server listens on 127.0.0.1 and the demo is pointed at it. Exit code 0
# when every check holds; otherwise it prints what it expected and the screen.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${SCRATCH:-$ROOT/.build-demo}"
SERVER_SCRIPT="$ROOT/Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py"
WIDTH=100
HEIGHT=24 # 20 list rows: header, 20 rows, footer, events, keys
TIMEOUT_SECONDS=10
ITEMS=50 # the fixture server's items: ids 50 (newest, first) down to 1
export LC_ALL=C.UTF-8

log() { printf '== %s\n' "$*"; }

# --- Build -------------------------------------------------------------------------------
log "building feed-demo"
swift build --scratch-path "$SCRATCH" --product feed-demo
BIN="$(swift build --scratch-path "$SCRATCH" --product feed-demo --show-bin-path)/feed-demo"
[[ -x "$BIN" ]] || { echo "FAIL: no executable at $BIN" >&2; exit 1; }

if ! command -v tmux >/dev/null 2>&1; then
    log "installing tmux"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux
fi

SOCKET="feed-demo-url-check-$$"
WORK="$(mktemp -d)"
SERVER_PID=""
tmx() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
    local status=$?
    if [[ $status -ne 0 && "${KEEP:-0}" == 1 ]]; then
        echo "tmux server kept: tmux -L $SOCKET attach" >&2
    else
        tmx kill-server >/dev/null 2>&1 || true
        rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCKET"
    fi
    if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tmx capture-pane -p -t demo; }

fail() {
    {
        echo "FAIL: $*"
        if tmx has-session -t demo 2>/dev/null; then
            echo "---- screen ($WIDTH x $HEIGHT) ----"
            screen || true
            echo "----------------------------"
        fi
    } >&2
    exit 1
}

# Waits (a bounded polling loop, not a fixed sleep) until the screen contains a fixed string.
wait_for() {
    local text="$1" why="${2:-}" deadline=$((SECONDS + TIMEOUT_SECONDS))
    until screen | grep -qF -- "$text"; do
        ((SECONDS < deadline)) || fail "waited ${TIMEOUT_SECONDS}s for \"$text\"${why:+ ($why)}"
        sleep 0.05
    done
}

keys() { tmx send-keys -t demo "$@"; }

# Checks that list rows first..last (1-based positions in the feed) are on screen lines
# 2..21 and are the fixture's items, newest first: position p is item 51-p. Row numbers are
# right-aligned, three digits wide.
expect_rows() {
    local first="$1" last="$2" line=2 position expected actual
    for ((position = first; position <= last; position++)); do
        expected="$(printf '%3d  #%-2d  item %d' "$position" $((ITEMS + 1 - position)) $((ITEMS + 1 - position)))"
        actual="$(screen | sed -n "${line}p" | sed 's/ *$//')"
        [[ "$actual" == " $expected" ]] || fail "line $line should be \" $expected\", is \"$actual\""
        line=$((line + 1))
    done
}

# --- The fixture server on 127.0.0.1, port 0 -----------------------------------------------
log "starting the fixture server on 127.0.0.1"
# FIXTURE_KEEP_RUNNING=1: it does not watch its stdin; cleanup ends it by its pid.
FIXTURE_KEEP_RUNNING=1 python3 "$SERVER_SCRIPT" >"$WORK/server.out" 2>"$WORK/server.err" </dev/null &
SERVER_PID=$!
deadline=$((SECONDS + TIMEOUT_SECONDS))
until PORT="$(head -n 1 "$WORK/server.out" 2>/dev/null)" && [[ "$PORT" =~ ^[0-9]+$ ]]; do
    kill -0 "$SERVER_PID" 2>/dev/null || fail "the fixture server ended: $(cat "$WORK/server.err")"
    ((SECONDS < deadline)) || fail "the fixture server printed no port within ${TIMEOUT_SECONDS}s"
    sleep 0.05
done
BASE="http://127.0.0.1:$PORT"
log "fixture server at $BASE (pid $SERVER_PID)"

tmx new-session -d -s demo -x "$WIDTH" -y "$HEIGHT" "env PS1='$ ' LANG=C.UTF-8 bash --norc --noprofile"

start_demo() {
    keys -l "clear; '$BIN' $*; echo EXIT=\$?"
    keys Enter
}

# --- 1. The Link header, to the end of the data -------------------------------------------
log "1. --scheme link: first page, End to the end of the data, every row checked"
start_demo "--url '$BASE/link' --scheme link --page-size 20"
wait_for " 1  #50  item 50" "the newest item is the first row"
wait_for "api: " "the title bar shows the API's requests"
# End until the end of the data: each End shows the bottom, where the prefetch trigger loads
# the next page (a bounded loop: three pages of 20, 20 and 10).
deadline=$((SECONDS + TIMEOUT_SECONDS))
until screen | grep -qF "── no more data · all $ITEMS items loaded ──"; do
    ((SECONDS < deadline)) || fail "waited ${TIMEOUT_SECONDS}s for the end of the data"
    keys End
    sleep 0.2
done
wait_for "rows 31–50 of 50" "the last screen shows rows 31 to 50"
wait_for "3 requests, 0 cancelled, 0 failed" "three pages, three requests (per_page=20, then two Link URLs)"
expect_rows 31 50
keys g
wait_for "rows 1–20 of 50" "g goes to the top"
expect_rows 1 20
keys q
wait_for "EXIT=0" "q quits with code 0"
wait_for "feed-demo: bye. $ITEMS items loaded" "the goodbye line counts the items"

# --- 2. An HTTP failure is red with its status; t retries -----------------------------------
log "2. --scheme cursor: a load-more answered 503 shows red with the status; t retries"
# The server counts every request of key url-check and fails those with a cursor while the
# count is at most 2: the first page is request 1, the first load-more request 2 (503), the
# retry request 3 (200).
start_demo "--url '$BASE/cursor?key=url-check&fail=2&status=503' --scheme cursor --page-size 20"
wait_for "✗ load-more failed: HTTP 503" "the failed load-more shows its status"
wait_for "· t retries" "the failure line says how to retry"
if [[ -z ${NO_COLOR:-} ]]; then
    tmx capture-pane -p -e -t demo | grep -qF $'\e[31m✗ load-more failed: HTTP 503' ||
        fail "the failure should be red (SGR 31)"
elif tmx capture-pane -p -e -t demo | grep -qF $'\e[31m'; then
    fail "NO_COLOR is set: the screen must have no colours"
fi
keys t
wait_for "rows 1–20 of 40" "the retry loads the second page"
deadline=$((SECONDS + TIMEOUT_SECONDS))
until screen | grep -qF "── no more data · all $ITEMS items loaded ──"; do
    ((SECONDS < deadline)) || fail "waited ${TIMEOUT_SECONDS}s for the end of the data after the retry"
    keys End
    sleep 0.2
done
expect_rows 31 50
keys q
wait_for "EXIT=0" "q quits with code 0"

# --- 3. Not a terminal: the listing -------------------------------------------------------
log "3. stdout not a terminal: every item, then the end of the data"
"$BIN" --url "$BASE/offset" --scheme offset --page-size 20 >"$WORK/listing" ||
    fail "the listing exited $?: $(cat "$WORK/listing")"
[[ $(grep -cE '^ *[0-9]+  #[0-9]+ +item [0-9]+$' "$WORK/listing") == "$ITEMS" ]] ||
    fail "the listing should have $ITEMS item lines: $(cat "$WORK/listing")"
grep -qF "── no more data · all $ITEMS items loaded ──" "$WORK/listing" || fail "no end-of-data line: $(cat "$WORK/listing")"
"$BIN" --url "$BASE/status?code=404" >"$WORK/failed" && fail "a 404 should exit 1"
grep -qF "✗ refresh failed: HTTP 404" "$WORK/failed" || fail "the 404 should be reported: $(cat "$WORK/failed")"

# --- 4. Bad flags ----------------------------------------------------------------------------
log "4. a bad --url or --scheme exits 2 with a message"
status=0
"$BIN" --url not-a-url 2>"$WORK/error" || status=$?
[[ $status == 2 ]] && grep -qF -- "--url needs an http or https URL" "$WORK/error" ||
    fail "--url not-a-url: exit $status, $(cat "$WORK/error")"
status=0
"$BIN" --url "$BASE/link" --scheme graphql 2>"$WORK/error" || status=$?
[[ $status == 2 ]] && grep -qF -- "--scheme needs one of cursor, link, offset, pages" "$WORK/error" ||
    fail "--scheme graphql: exit $status, $(cat "$WORK/error")"

log "every --url check passed"
