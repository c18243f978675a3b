#!/usr/bin/env bash
# Drives `feed-demo` in tmux as a person would (keys in, screen out) and checks what it shows.
#
#   scripts/demo-tmux-check.sh            build, then run every check (about 20 s)
#
# Environment:
#   SCRATCH   build directory (default: .build-demo in the repository)
#   LATENCY   simulated API latency (default: 1s; every request varies by -40%..+40%). The
#             overlap checks must press a key while a load is in flight, so keep it >= 500ms.
#   KEEP=1    leave the tmux server running on failure, to look at it: tmux -L <socket> attach
#   NO_COLOR  set: checks that the demo draws no colours (unset: that the failure line is red)
#
# Exit code 0 when every check holds; otherwise it prints what it expected and the screen.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${SCRATCH:-$ROOT/.build-demo}"
LATENCY="${LATENCY:-1s}"
WIDTH=100
HEIGHT=24 # 20 list rows: header, 20 rows, footer, events, keys
TIMEOUT_SECONDS=8
# The screen has UTF-8 (spinner, ellipsis, arrows): match it as characters, whatever the locale.
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

# --- A private tmux server -----------------------------------------------------------------
SOCKET="feed-demo-check-$$"
WORK="$(mktemp -d)"
tmx() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
    local status=$?
    if [[ $status -ne 0 && "${KEEP:-0}" == 1 ]]; then
        echo "tmux server kept: tmux -L $SOCKET attach" >&2
    else
        tmx kill-server >/dev/null 2>&1 || true
        rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCKET"
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tmx capture-pane -p -t demo; }

fail() {
    {
        echo "FAIL: $*"
        echo "---- screen ($WIDTH x $HEIGHT) ----"
        screen || true
        echo "----------------------------"
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

# Waits until line number $1 (1-based) of the screen matches the extended regex $2.
wait_for_line() {
    local number="$1" pattern="$2" why="${3:-}" deadline=$((SECONDS + TIMEOUT_SECONDS))
    until screen | sed -n "${number}p" | grep -qE -- "$pattern"; do
        ((SECONDS < deadline)) || fail "waited ${TIMEOUT_SECONDS}s for line $number to match /$pattern/${why:+ ($why)}"
        sleep 0.05
    done
}

# The line the event history is on (the one above the key line).
EVENTS_LINE=$((HEIGHT - 1))

# Fails if $1 shows more than once on the event line, watching it for about a second: for a
# note that comes back from a task (m's answer), whose arrival nothing on screen orders.
expect_at_most_once_on_event_line() {
    local text="$1" why="${2:-}" count
    for _ in $(seq 20); do
        count=$(screen | sed -n "${EVENTS_LINE}p" | grep -oF -- "$text" | wc -l)
        ((count <= 1)) || fail "\"$text\" shows $count times on the event line${why:+ ($why)}"
        sleep 0.05
    done
}

# Checks that the list rows on screen are aligned: each row's number ends in the same column
# (right-aligned, at least three digits wide) and each row's author starts in the same column.
expect_aligned_rows() {
    local why="${1:-}"
    screen | sed -n "2,$((HEIGHT - 3))p" | awk -v why="$why" '
        /^ *[0-9]+  #/ {
            match($0, /^ *[0-9]+/); number_end = RLENGTH
            match($0, /  [a-z]/); author = RSTART
            if (first_number == "") { first_number = number_end; first_author = author }
            if (number_end != first_number || author != first_author) {
                printf "misaligned row (number ends at %d, not %d; author at %d, not %d): %s\n", number_end, first_number, author, first_author, $0
                bad = 1
            }
            rows++
        }
        END { if (rows == 0) { print "no list rows on screen"; bad = 1 }; exit bad }' ||
        fail "the list rows are not aligned${why:+ ($why)}"
}

expect_absent() {
    local text="$1" why="${2:-}"
    if screen | grep -qF -- "$text"; then fail "\"$text\" is still on screen${why:+ ($why)}"; fi
}

keys() { tmx send-keys -t demo "$@"; }

# Starts the demo in the pane's shell, recording the terminal settings before and after, the
# demo's pid, and its exit code.
start_demo() {
    rm -f "$WORK"/before "$WORK"/after "$WORK"/pid
    local command="clear; stty -g > $WORK/before; sh -c 'echo \$\$ > $WORK/pid; exec \"\$0\" \"\$@\"' '$BIN' $*;"
    command+=" echo EXIT=\$?; stty -g > $WORK/after"
    keys -l "$command"
    keys Enter
}

# After the demo ended: its exit code, the normal screen back, the terminal settings as before.
expect_exit() {
    local code="$1"
    wait_for "EXIT=$code" "the demo should have exited with code $code"
    wait_for "feed-demo: bye" "the goodbye line is printed on the normal screen"
    expect_absent "r refresh" "the alternate screen should be gone"
    [[ $(tmx display -p -t demo '#{mouse_any_flag}') == 0 ]] || fail "mouse reporting is still on after the demo"
    local deadline=$((SECONDS + TIMEOUT_SECONDS))
    until [[ -s "$WORK/after" ]]; do
        ((SECONDS < deadline)) || fail "the terminal settings were not recorded after the demo"
        sleep 0.05
    done
    cmp -s "$WORK/before" "$WORK/after" ||
        fail "terminal settings differ after quitting: before $(cat "$WORK/before"), after $(cat "$WORK/after")"
}

tmx new-session -d -s demo -x "$WIDTH" -y "$HEIGHT" "env PS1='$ ' LANG=C.UTF-8 bash --norc --noprofile"

ARGS="--failure-rate 0 --latency $LATENCY --total-items 60 --page-size 15 --prefetch 3"

# --- 1. First page, filled to the screen ------------------------------------------------
log "1. opening: header, first posts, footer, key line"
start_demo "$ARGS"
wait_for_line 1 '^ (feed-demo|. refreshing…) · ' "the header is the first line"
wait_for_line 2 '^   1  #60 ' "the newest post, #60, is the first row (row numbers are three digits wide)"
wait_for "rows 1–20 of 30" "15 posts do not fill 20 rows, so a second page loads by itself"
expect_aligned_rows "on the first screen"
wait_for_line "$HEIGHT" 'r refresh .* q quit' "the key line is the last line"
wait_for "✓ load-more done ← ✓ refresh done" "the event line lists the two loads, newest first"

# --- 2. Scrolling -------------------------------------------------------------------------
log "2. scrolling with j, k and the arrow keys"
keys j j j
wait_for "rows 4–23 of 30"
wait_for_line 2 '^ +4  #57 ' "after three rows down, post 4 is on top"
keys k
wait_for "rows 3–22 of 30"
keys Down
wait_for "rows 4–23 of 30"
keys Up Up Up
wait_for "rows 1–20 of 30"

# --- 3. Reaching the bottom loads more, with a spinner ----------------------------------------
log "3. reaching the bottom: spinner, then 15 more posts"
keys G
wait_for "loading more…" "the footer shows a spinner while the next page loads"
wait_for "rows 11–30 of 45" "the page is appended below"
expect_absent "loading more…" "the spinner is gone once the page is in"
screen | grep -qE '^ (feed-demo) · 45 posts' || fail "the header should count 45 posts"

# --- 4. r during a load-more cancels it ---------------------------------------------------
log "4. r during a load-more: the load-more is visibly cancelled"
keys G
wait_for "loading more…"
keys r
wait_for_line 1 '^ . refreshing… · 45 posts' "the header says refreshing…"
wait_for "✗ load-more cancelled by a refresh" "the event line shows the cancellation"
wait_for_line 2 '^ +1  #63 ' "the refresh put three newer posts on top and scrolled to the top"
wait_for "✓ refresh done ← ✗ load-more cancelled by a refresh"
wait_for "rows 1–20 of 30" "the refreshed first page is filled to the screen again"

# --- 5. m during a refresh cancels the refresh ----------------------------------------------
# Scrolling does not load more during a refresh (the prefetch trigger waits for it); m asks
# explicitly, and a load-more cancels a refresh, as in the seeds.
log "5. m during a refresh: the refresh is cancelled"
keys r
wait_for_line 1 '^ . refreshing… · 30 posts'
keys m
wait_for "✗ refresh cancelled by a load-more" "the event line shows the refresh was cancelled"
wait_for "of 45" "the load-more appended to the list the refresh would have replaced"
wait_for_line 1 '^ feed-demo · 45 posts' "the header is back to normal"

# --- 6. A failure shows an error line in red; t retries ----------------------------------
log "6. a failure and a retry"
keys f
wait_for "• the next request will fail"
keys m
wait_for "✗ load-more failed: HTTP 500 (injected) · t retries" \
    "the status line shows the error and the retry key"
screen | grep -qE '^ feed-demo · 45 posts' || fail "a failed load must leave the 45 posts as they were"
if [[ -z ${NO_COLOR:-} ]]; then
    tmx capture-pane -p -e -t demo | grep -qF $'\e[31m✗ load-more failed' ||
        fail "the failure should be red (SGR 31)"
elif tmx capture-pane -p -e -t demo | grep -qE $'\e\\[(31|33|2)m'; then
    fail "NO_COLOR is set: the screen must have no colours"
fi
wait_for "rows 1–20 of 45 · ↓ 25 more below · ✗ load-more failed" "the position still shows with the failure"
keys t
wait_for "loading more…" "t retries the load-more"

# --- 7. End of data -------------------------------------------------------------------------
log "7. end of data: the status line still shows the rows below; m says there is no more"
wait_for "no more data after them" "60 posts, 40 of them below the screen"
wait_for "rows 1–20 of 60 · ↓ 40 more below" "the end of the data does not hide the rows below"
keys G
wait_for "rows 41–60 of 60 · ── no more data · all 60 posts loaded ──"
keys j j
wait_for "• that is the last post: no more data" "j at the very end says so"
keys m
wait_for "• m: no more data · all 60 posts are loaded" "m at the end says there is no more data"
expect_absent "loading more…" "no load-more after the end of the data"
log "7a. more keys at the end of the data: each note shows once, not once per key"
keys m m m
expect_at_most_once_on_event_line "• m: no more data" "m pressed four times at the end"
keys j j j t
# j's note is answered at once, in key order: t's note comes after the last j's. Before, the
# line read "• t: nothing to retry ← • that is the last post: no more data ← • that is the…".
wait_for_line "$EVENTS_LINE" '^ events: • t: nothing to retry ← • that is the last post: no more data ← • m: no more data' \
    "each note once: j's moved to the front, m's follows"
screen | grep -qE '^ feed-demo · 60 posts +api: 10 requests, 2 cancelled, 1 failed' ||
    fail "expected exactly 10 requests (2 to open, 1 load-more, 3 + 2 in the overlaps, 1 failure, 1 retry), 2 cancelled, 1 failed"

# --- 7b. Mouse wheel, pull to refresh -------------------------------------------------------
log "7b. the mouse wheel scrolls; Up at the top pulls the header, and releasing refreshes"
wheel() { tmx send-keys -t demo -l "$(printf '\e[<%d;10;5M' "$1")"; }
[[ $(tmx display -p -t demo '#{mouse_any_flag}') == 1 ]] || fail "the demo should turn on mouse reporting"
wheel 64
wait_for "rows 38–57 of 60" "a wheel notch up scrolls three rows"
keys g
wait_for "rows 1–20 of 60"
wheel 65
wait_for "rows 4–23 of 60" "a wheel notch down scrolls three rows"
keys g
wait_for "rows 1–20 of 60"
keys k
wait_for_line 1 '^ ↓ pull to refresh ■■□□□□ 41% · 60 posts' "one Up at the top pulls the header 25 of 60 points"
wait_for "• pulled 41%: not far enough to refresh" "released below the threshold: it springs back"
wait_for_line 1 '^ feed-demo · 60 posts'
keys k k k
wait_for_line 1 '^ ↑ release to refresh · 60 posts' "three Ups pull past the threshold"
wait_for_line 1 '^ . refreshing… · 60 posts' "released (no Up for half a second): it refreshes"
wait_for "✓ refresh done" "the pull's refresh completes"
wait_for "rows 1–20 of 30" "the refreshed list is filled to the screen again"

# --- 8. q quits and restores the terminal --------------------------------------------------
log "8. q quits and restores the terminal"
keys q
expect_exit 0

# --- 9. Ctrl-C quits and restores the terminal, even while loading ------------------------
log "9. Ctrl-C during a load quits and restores the terminal"
start_demo "$ARGS"
wait_for "rows 1–20 of 30"
keys G
wait_for "loading more…"
keys C-c
expect_exit 0

# --- 10. A termination signal restores the terminal ---------------------------------------
log "10. SIGTERM restores the terminal"
start_demo "$ARGS"
wait_for "rows 1–20 of 30"
kill -TERM "$(cat "$WORK/pid")"
wait_for "EXIT=143" "SIGTERM ends the demo with 128 + 15"
expect_absent "r refresh" "the alternate screen should be gone"
deadline=$((SECONDS + TIMEOUT_SECONDS))
until [[ -s "$WORK/after" ]]; do
    ((SECONDS < deadline)) || fail "the terminal settings were not recorded after SIGTERM"
    sleep 0.05
done
cmp -s "$WORK/before" "$WORK/after" || fail "terminal settings differ after SIGTERM"

# --- 11. --open-at: a feed opened in the middle grows both ways ----------------------------
# 30 posts below the newest of 60: the first page is #30..#16, rows 31 to 45 of the data (rows
# are numbered from the newest post, and keep their numbers as pages land above). Its first
# row is near the top, so the top loads the newer page above by itself (the header says so),
# and the bottom the older page below; the prepend keeps the rows on screen where they were.
log "11. --open-at 30: opens in the middle at row 31, loads newer above and older below"
start_demo "$ARGS --open-at 30"
wait_for_line 2 '^  31  #30 ' "the first row is post #30, row 31 of the data: the page at the cursor"
wait_for "↑ " "the header shows the top's state"
wait_for "loading newer…" "the first row is near the top: the newer page above loads by itself"
wait_for_line 1 '^ feed-demo · 45 posts · ↑ newer above: scroll up' "a page above and a page below: 45 posts"
screen | grep -qE '^  31  #30 ' || fail "post #30 should still be row 31 once 15 newer posts are above it"
# Post #30 stays at the top of the screen, unless the prepend landed before the page below,
# when the list (30 posts) could not scroll that far: then it is as far down as 30 rows allow.
wait_for_line $((HEIGHT - 2)) '^ rows (31–50|26–45) \(16–60 loaded\) ' "the prepend moved the viewport down with the rows"
wait_for "✓ load-previous done" "the event line shows the load above"
log "11b. g: the top loads the newest page and shows it: row 1; p there says start of the data"
keys g
wait_for "loading newer…" "at the top the next newer page loads"
wait_for_line 1 '^ feed-demo · 60 posts · ↑ start of the data' "the newest posts are in: start of the data"
wait_for_line 2 '^   1  #60 ' "after g, the page that landed above shows at the top: row 1, the newest post"
wait_for "rows 1–20 of 60" "the status line counts from row 1"
wait_for "✓ load-previous done, start of the data"
keys g
wait_for "• already at the top" "g at row 1 says so"
keys p
wait_for "• p: start of the data · nothing newer above" "p at the start of the data starts no load"
keys G
wait_for "rows 41–60 of 60 · ── no more data · all 60 posts loaded ──" "and the bottom reached the end of the data"
screen | grep -qE '^ feed-demo · 60 posts · ↑ start of the data +api: 4 requests, 0 cancelled, 0 failed' ||
    fail "expected exactly 4 requests: the page at post 30, two above, one below"
keys q
expect_exit 0

# --- 12. Defaults: --open-at 40 of 100 posts, rows past 99, no random failures ----------------
# No --failure-rate and no --total-items: the defaults (no random failures, 100 posts). Opened
# 40 posts below the newest (#100), the first row is #60, row 41 of the data.
log "12. --open-at 40 with the defaults: row 41 is #60; rows 99 and 100 align; no random failures"
start_demo "--latency $LATENCY --page-size 15 --prefetch 3 --open-at 40"
wait_for_line 2 '^  41  #60 ' "row 41 of the data is post #60, 40 below the newest (#100)"
expect_absent "simulated failures" "random failures are off by default, and not announced"
wait_for "↑ newer above: scroll up" "the page above landed"
screen | grep -qE '^  41  #60 ' || fail "post #60 keeps its row number, 41, when the page above lands"
expect_aligned_rows "opened at row 41"
# G goes to the bottom of what is loaded; the prefetch trigger loads the next page there.
deadline=$((SECONDS + 3 * TIMEOUT_SECONDS))
until screen | sed -n "$((HEIGHT - 2))p" | grep -qE '^ rows 81–100 \([0-9]+–100 loaded\) · ── no more data'; do
    ((SECONDS < deadline)) || fail "G did not reach the end of the data, row 100"
    keys G
    sleep 0.3
done
screen | grep -qE '^  99  #2 ' || fail "row 99 is post #2, right-aligned to three digits"
screen | grep -qE '^ 100  #1 ' || fail "row 100 is post #1, in the same column as row 99"
expect_aligned_rows "rows 81 to 100"
screen | grep -qE 'api: [0-9]+ requests, 0 cancelled, 0 failed' || fail "no request failed: random failures are off by default"
keys q
expect_exit 0

# --- 13. Random failures asked for: announced on the first screen; a failed first page -------
log "13. --failure-rate 1: announced on the first screen; the failed first page says so in red; t retries"
start_demo "--failure-rate 1 --latency 300ms --total-items 60"
wait_for "• simulated failures on: 100% of requests fail (--failure-rate 1.0)" "the first screen announces them"
wait_for_line 2 '^   ✗ the first page failed: HTTP 503 \(simulated\) · t retries' "the empty list says the first page failed"
if [[ -z ${NO_COLOR:-} ]]; then
    tmx capture-pane -p -e -t demo | grep -F "the first page failed" | grep -qF $'\e[31m' ||
        fail "the failed first page should be red (SGR 31)"
fi
keys t
wait_for "api: 2 requests, 0 cancelled, 2 failed" "t retried the first page (and it failed again)"
wait_for_line 2 '^   ✗ the first page failed' "still failed, still said"
keys q
expect_exit 0

log "PASS: the interactive feed-demo works in tmux"
