#!/usr/bin/env python3
"""A bounded loopback load on a running FeedService (standard library only).

  load.py --port P --pid PID [--sessions 200] [--threads 8] [--idle-sessions 2000]
  load.py --port P --phase latency --size N [--measured 10] [--sessions 200] [--threads 8]
  load.py --port P --phase create|serve [--sessions 10000] [--threads 8]

1. Throughput: `--sessions` sessions, `--threads` at a time (one keep-alive connection per
   thread), each: GET items (its first page), then POST more until endOfData. Every session's
   list is checked (every item once, newest first). Prints load-mores per second.
2. Memory: RSS of PID (from /proc) before and after opening `--idle-sessions` more sessions
   (GET items: a controller with its first page, then idle). Prints the delta per session.

--phase latency: each of `--sessions` sessions (names lat-N) is grown to `--size` items (its first
page and load-mores, not timed), then `--measured` load-mores per session are timed, `--threads`
at a time. Prints load-mores per second over the timed part, p50 and p99 of one load-more.
`--measured 0` only grows the sessions; `--grown` only times (the sessions were grown before).
--phase more: `--sessions` sessions (names PREFIX-N, `--prefix`) each get one POST more (a new
session: its first page; not timed), then `--measured` POST more per session are timed,
round-robin over the sessions, by `--threads` client processes (one keep-alive connection each;
processes, not threads, so the client is not bound by one interpreter). Only POST more is used,
so the same load runs against FeedService and its cursor-keeping baseline (load-ratio.sh).
Prints load-mores per second, p50 and p99 of one load-more.
--phase create: opens `--sessions` sessions (names keep-N: GET items, first page) and stops.
--phase serve: GET items of every keep-N session (after a restart: each is restored from the
store), timed; prints the wall time and sessions per second.
Every request has a 10 s timeout; the whole run is bounded by the counts above.
"""
import argparse
import http.client
import json
import threading
import time


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Client:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def call(self, method, path):
        self.connection.request(method, path)
        response = self.connection.getresponse()
        body = response.read()
        if response.status >= 300:
            raise RuntimeError("%s %s: %d %s" % (method, path, response.status, body[:200]))
        return json.loads(body) if body else None


def page_session(client, name, counts, errors):
    client.call("GET", "/sessions/%s/items" % name)
    more = 0
    while more < 1000:
        result = client.call("POST", "/sessions/%s/more" % name)["result"]
        more += 1
        kind = result["outcome"]["kind"]
        if kind == "endOfData":
            break
        if kind != "completed":
            errors.append("%s: %s" % (name, result))
            return more
    ids = [item["id"] for item in client.call("GET", "/sessions/%s/items" % name)["items"]]
    if ids != sorted(ids, reverse=True) or len(ids) != len(set(ids)):
        errors.append("%s: wrong list" % name)
    counts.append(len(ids))
    client.call("DELETE", "/sessions/%s" % name)
    return more


def run_threads(count, work):
    """Runs work(client) on `count` threads, each with its own connection."""
    threads = [threading.Thread(target=lambda: work(Client(ARGS.port))) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def take(names, lock):
    with lock:
        return names.pop() if names else None


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latency_phase(args):
    lock = threading.Lock()
    names = ["lat-%d" % n for n in range(args.sessions)]
    errors = []

    def grow(client):
        while (name := take(names, lock)) is not None:
            count = len(client.call("GET", "/sessions/%s/items" % name)["items"])
            while count < args.size:
                result = client.call("POST", "/sessions/%s/more" % name)
                if result["result"]["outcome"]["kind"] != "completed":
                    errors.append("%s: %s" % (name, result["result"]))
                    return
                count = result["count"]

    if not args.grown:
        run_threads(args.threads, grow)
    if args.measured == 0:
        print("latency: %d sessions grown to %d items; errors %d" % (args.sessions, args.size, len(errors)))
        return 1 if errors else 0
    # Round-robin over the sessions (popped from the end): the threads work on different
    # sessions, as many clients would, rather than queueing on one.
    names = ["lat-%d" % n for _ in range(args.measured) for n in range(args.sessions)]
    times = []

    def measure(client):
        while (name := take(names, lock)) is not None:
            start = time.monotonic()
            result = client.call("POST", "/sessions/%s/more" % name)
            elapsed = time.monotonic() - start
            with lock:
                times.append(elapsed)
            if result["result"]["outcome"]["kind"] != "completed":
                errors.append("%s: %s" % (name, result["result"]))

    start = time.monotonic()
    run_threads(args.threads, measure)
    wall = time.monotonic() - start
    print("latency: %d sessions grown to %d items, then %d load-mores timed (%d threads) in %.2f s: "
          "%.0f load-mores/s, p50 %.2f ms, p99 %.2f ms; errors %d"
          % (args.sessions, args.size, len(times), args.threads, wall, len(times) / wall,
             1000 * percentile(times, 0.5), 1000 * percentile(times, 0.99), len(errors)))
    for error in errors[:5]:
        print("  " + error)
    return 1 if errors else 0


def more_worker(job):
    port, names = job
    client = Client(port)
    times, errors = [], 0
    for name in names:
        start = time.monotonic()
        result = client.call("POST", "/sessions/%s/more" % name)
        times.append(time.monotonic() - start)
        if result["result"]["outcome"]["kind"] != "completed":
            errors += 1
    return times, errors


def more_phase(args):
    import multiprocessing
    names = ["%s-%d" % (args.prefix, n) for n in range(args.sessions)]
    order = [name for _ in range(args.measured) for name in names]
    with multiprocessing.get_context("fork").Pool(args.threads) as pool:
        # Untimed: each session's first page.
        firsts = pool.map(more_worker, [(args.port, names[k::args.threads]) for k in range(args.threads)])
        start = time.monotonic()
        results = pool.map(more_worker, [(args.port, order[k::args.threads]) for k in range(args.threads)])
        wall = time.monotonic() - start
    times = [t for part, _ in results for t in part]
    errors = sum(e for _, e in results) + sum(e for _, e in firsts)
    print("more: %d sessions, %d load-mores timed (%d processes) in %.2f s: %.0f load-mores/s, "
          "p50 %.3f ms, p99 %.3f ms; errors %d"
          % (args.sessions, len(times), args.threads, wall, len(times) / wall,
             1000 * percentile(times, 0.5), 1000 * percentile(times, 0.99), errors))
    return 1 if errors else 0


def create_phase(args):
    lock = threading.Lock()
    names = ["keep-%d" % n for n in range(args.sessions)]

    def create(client):
        while (name := take(names, lock)) is not None:
            client.call("GET", "/sessions/%s/items" % name)

    start = time.monotonic()
    run_threads(args.threads, create)
    print("create: %d sessions opened in %.2f s" % (args.sessions, time.monotonic() - start))
    return 0


def serve_phase(args):
    lock = threading.Lock()
    names = ["keep-%d" % n for n in range(args.sessions)]
    empty = []

    def serve(client):
        while (name := take(names, lock)) is not None:
            body = client.call("GET", "/sessions/%s/items" % name)
            if body["version"] != 1 or not body["items"]:
                empty.append(name)

    start = time.monotonic()
    run_threads(args.threads, serve)
    wall = time.monotonic() - start
    print("serve: %d stored sessions served (GET items, %d threads) in %.2f s: %.0f sessions/s; "
          "%d not restored as saved" % (args.sessions, args.threads, wall, args.sessions / wall, len(empty)))
    return 1 if empty else 0


ARGS = None


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--phase", choices=["throughput", "latency", "more", "create", "serve"], default="throughput")
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--measured", type=int, default=10)
    parser.add_argument("--grown", action="store_true", help="latency: the sessions are grown already")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--idle-sessions", type=int, default=2000)
    parser.add_argument("--prefix", default="more", help="more: the sessions' names")
    args = parser.parse_args()
    ARGS = args
    if args.phase == "latency":
        return latency_phase(args)
    if args.phase == "more":
        return more_phase(args)
    if args.phase == "create":
        return create_phase(args)
    if args.phase == "serve":
        return serve_phase(args)
    if args.pid is None:
        parser.error("--pid is needed for the throughput phase (it reads the RSS)")

    names = ["load-%d" % n for n in range(args.sessions)]
    lock = threading.Lock()
    totals = {"more": 0}
    counts, errors = [], []

    def worker():
        client = Client(args.port)
        while True:
            with lock:
                if not names:
                    return
                name = names.pop()
            more = page_session(client, name, counts, errors)
            with lock:
                totals["more"] += more

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    print("throughput: %d sessions paged to the end by %d threads, %d load-mores in %.2f s: %.0f load-mores/s; "
          "lists: %d checked, %d wrong"
          % (args.sessions, args.threads, totals["more"], elapsed, totals["more"] / elapsed, len(counts), len(errors)))
    for error in errors[:5]:
        print("  " + error)

    client = Client(args.port)
    before = rss_kib(args.pid)
    for n in range(args.idle_sessions):
        client.call("GET", "/sessions/idle-%d/items" % n)
    after = rss_kib(args.pid)
    sessions = client.call("GET", "/stats")["sessions"]
    print("memory: RSS %d KiB -> %d KiB with %d idle sessions (first page each; %d open): %.1f KiB per idle session"
          % (before, after, args.idle_sessions, sessions, (after - before) / args.idle_sessions))
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
