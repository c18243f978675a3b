#!/usr/bin/env python3
"""A bounded loopback load on a running FeedService (standard library only).

  load.py --port P --pid PID [--sessions 200] [--threads 8] [--idle-sessions 2000]

1. Throughput: `--sessions` sessions, `--threads` at a time (one keep-alive connection per
   thread), each: GET items (its first page), then POST more until endOfData. Every session's
   list is checked (every item once, newest first). Prints load-mores per second.
2. Memory: RSS of PID (from /proc) before and after opening `--idle-sessions` more sessions
   (GET items: a controller with its first page, then idle). Prints the delta per session.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--idle-sessions", type=int, default=2000)
    args = parser.parse_args()

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
