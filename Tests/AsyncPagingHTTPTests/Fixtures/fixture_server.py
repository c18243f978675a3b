#!/usr/bin/env python3
"""Fixture HTTP server for AsyncPagingHTTPTests (standard library only).

Listens on 127.0.0.1, port 0 (or argv[1]); prints the port on the first line of stdout, then
serves until stdin closes (the test process ended) or it gets SIGTERM (with
FIXTURE_KEEP_RUNNING=1, stdin is not watched).

Data: items {"id": n, "title": "item n"}, newest first; ids 1...INITIAL at start.

Paginated routes (all GET, JSON):
  /cursor?cursor=&limit=        {"data": [...], "next_cursor": "<id>" | null}   (cursor = last id seen)
  /link?after=&per_page=        [...] with  Link: <http://127.0.0.1:P/link?after=..&per_page=..>; rel="next"
  /offset?offset=&limit=        {"items": [...], "total": n}
  /pages?page=&per_page=        {"items": [...], "has_more": bool}
Faults, as query parameters of /cursor (they apply to load-mores only, i.e. when `cursor` is
given, unless `always=1`):
  fail=N&status=S[&retry_after=V]   the first N such requests of `key` answer status S
  malformed=1                       the body is truncated JSON
  delay_ms=N&tag=T                  answer after N ms; if the client closes the connection
                                    first, T is recorded as cancelled
Control routes:
  POST /control/insert?count=N      insert N new items at the head
  GET  /control/requests?key=K      {"count": number of requests seen for key K}
  GET  /control/wait-closed?tag=T&timeout_ms=N
                                    waits until T's connection was closed by the client (or
                                    the timeout): {"closed": bool}
  GET  /control/started?tag=T&timeout_ms=N
                                    waits until a delayed request tagged T arrived: {"started": bool}
"""
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

INITIAL = 50
lock = threading.Condition()
items = [{"id": n, "title": "item %d" % n} for n in range(INITIAL, 0, -1)]  # newest first
request_counts = {}
closed_tags = set()
started_tags = set()


def after(cursor):
    """Items older than id `cursor` (all when None)."""
    if cursor is None:
        return list(items)
    return [item for item in items if item["id"] < cursor]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are written separately: without TCP_NODELAY each answer on a kept-alive
    # connection waits for the client's delayed ACK (about 40 ms on Linux loopback).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_json(self, status, payload, headers=None, raw=None):
        body = raw if raw is not None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def client_closed_within(self, seconds):
        """Waits `seconds`; returns True as soon as the client closes the connection."""
        deadline = time.monotonic() + seconds
        sock = self.connection
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            readable, _, _ = select.select([sock], [], [], min(remaining, 0.02))
            if readable:
                try:
                    data = sock.recv(1, socket.MSG_PEEK)
                except OSError:
                    return True
                if data == b"":
                    return True

    def do_POST(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if url.path == "/control/insert":
            count = int(query.get("count", "1"))
            with lock:
                top = max((item["id"] for item in items), default=0)
                for n in range(top + 1, top + 1 + count):
                    items.insert(0, {"id": n, "title": "item %d" % n})
            self.send_json(200, {"inserted": count})
        else:
            self.send_json(404, {"error": "no route"})

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        key = query.get("key", url.path)
        with lock:
            if not url.path.startswith("/control/"):
                request_counts[key] = request_counts.get(key, 0) + 1
            count = request_counts.get(key, 0)
            # Only a request the delay applies to counts as started: a refresh of a source
            # whose URL carries the tag must not say that its load-more started.
            delayed = "delay_ms" in query and (bool(query.get("cursor")) or query.get("always") == "1")
            if "tag" in query and delayed:
                started_tags.add(query["tag"])
                lock.notify_all()

        if url.path == "/control/requests":
            with lock:
                self.send_json(200, {"count": request_counts.get(query.get("key"), 0)})
            return
        if url.path in ("/control/wait-closed", "/control/started"):
            tags = closed_tags if url.path == "/control/wait-closed" else started_tags
            deadline = time.monotonic() + int(query.get("timeout_ms", "5000")) / 1000
            with lock:
                while query.get("tag") not in tags and time.monotonic() < deadline:
                    lock.wait(max(0.0, deadline - time.monotonic()))
                found = query.get("tag") in tags
            name = "closed" if url.path == "/control/wait-closed" else "started"
            self.send_json(200, {name: found})
            return

        if url.path == "/status":
            self.send_json(int(query.get("code", "400")), {"error": "status %s" % query.get("code", "400")})
            return

        if url.path == "/cursor":
            cursor = int(query["cursor"]) if query.get("cursor") else None
            faulty = cursor is not None or query.get("always") == "1"
            if faulty and "fail" in query and count <= int(query["fail"]):
                headers = {}
                if "retry_after" in query:
                    headers["Retry-After"] = query["retry_after"]
                self.send_json(int(query.get("status", "503")), {"error": "try again"}, headers)
                return
            if faulty and query.get("malformed") == "1":
                self.send_json(200, None, raw=b'{"data": [{"id": 1, "title": ')
                return
            if faulty and "delay_ms" in query:
                if self.client_closed_within(int(query["delay_ms"]) / 1000):
                    with lock:
                        closed_tags.add(query.get("tag", "?"))
                        lock.notify_all()
                    self.close_connection = True
                    return
            limit = int(query.get("limit", "20"))
            with lock:
                page = after(cursor)[:limit]
                more = len(after(cursor)) > limit
            next_cursor = str(page[-1]["id"]) if page and more else None
            self.send_json(200, {"data": page, "next_cursor": next_cursor})
            return

        if url.path == "/link":
            cursor = int(query["after"]) if query.get("after") else None
            limit = int(query.get("per_page", "30"))
            with lock:
                page = after(cursor)[:limit]
                more = len(after(cursor)) > limit
            headers = {}
            if page and more:
                port = self.server.server_address[1]
                target = "http://127.0.0.1:%d/link?per_page=%d&after=%d" % (port, limit, page[-1]["id"])
                headers["Link"] = '<%s>; rel="next", <http://127.0.0.1:%d/link?per_page=%d>; rel="first"' % (target, port, limit)
            self.send_json(200, page, headers)
            return

        if url.path == "/offset":
            offset = int(query.get("offset", "0"))
            limit = int(query.get("limit", "20"))
            with lock:
                self.send_json(200, {"items": items[offset:offset + limit], "total": len(items)})
            return

        if url.path == "/pages":
            page_number = int(query.get("page", "1"))
            per_page = int(query.get("per_page", "20"))
            start = (page_number - 1) * per_page
            with lock:
                self.send_json(200, {"items": items[start:start + per_page], "has_more": start + per_page < len(items)})
            return

        self.send_json(404, {"error": "no route"})


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def watch_stdin():
        # The test process holds our stdin: when it ends, so do we.
        try:
            while sys.stdin.buffer.read(1):
                pass
        finally:
            os._exit(0)

    # FIXTURE_KEEP_RUNNING=1: stdin is not watched (a script that kills it by its pid).
    if os.environ.get("FIXTURE_KEEP_RUNNING") != "1":
        threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
