#!/usr/bin/env python3
"""A small HTTP server on 127.0.0.1 for the tests: static files with ETag and
Last-Modified (answering 304 to conditional requests), and routes that misbehave on
purpose. It prints its port on the first line of stdout and serves until killed.

Routes:
  /files/NAME          the file ROOT/NAME, with ETag, Last-Modified and 304s (each 304
                       also counted under "304 /files/NAME"); ?cache-control=VALUE
                       adds that Cache-Control header; ?plain=1 sends no validators
                       and never 304
  /status/CODE         an empty answer with that status
  /hang                accepts, then never answers
  /drip                a declared 1 MiB body, one byte per second
  /drip-clip/ANY       an MP4's first box, then one byte per second of a declared 1 MiB
  /truncated/NAME      declares the full length of ROOT/NAME, sends half, closes
  /big/MIB             a PNG signature followed by MIB MiB of zeros, no length given
  /redirect/N          redirects to /redirect/N+1, forever
  /to-http/NAME        redirects to http://127.0.0.1:PORT/files/NAME
  /as/TYPE/NAME        ROOT/NAME with the given Content-Type (e.g. text%2Fhtml)
  /reset               closes the connection without answering
  /slow/NAME           ROOT/NAME in 4 KiB pieces, 10 ms apart (for kills mid-download)
  /track/ANYTHING       204; the whole request line (path and query) is kept
  /late-track/S/ANY     kept as /track/ is, then answered 204 after S seconds
  /track-to/ANY?to=URL  kept as /track/ is, then redirected to URL
  /tracked             JSON: the /track/ requests, in order
  /requests            JSON: how many requests each path got
"""
import hashlib
import http.server
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
from email.utils import formatdate, parsedate_to_datetime

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
COUNTS = {}
TRACKED = []
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = urllib.parse.urlparse(self.path).path
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
        parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
        route, rest = parts[0], parts[1:]
        try:
            getattr(self, "route_" + route.replace("-", "_"), self.not_found)(rest)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        # What a proof-of-play receiver may do: read the body, then answer.
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.do_GET()

    def route_endless(self, _rest):
        # An answer that never ends: 200, then bytes for as long as anyone reads.
        self.send_response(200)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = b"x" * 65536
        for _ in range(1 << 16):
            self.wfile.write(chunk)

    def not_found(self, _rest):
        self.answer(404, b"not found\n")

    def answer(self, code, body=b"", headers=None):
        self.send_response(code)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read(self, name):
        path = os.path.join(ROOT, os.path.basename(name))
        with open(path, "rb") as f:
            return f.read(), os.stat(path).st_mtime

    def route_files(self, rest):
        try:
            body, mtime = self.read(rest[0])
        except (OSError, IndexError):
            return self.not_found(rest)
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        modified = formatdate(mtime, usegmt=True)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        headers = {"ETag": etag, "Last-Modified": modified, "Content-Type": "application/octet-stream"}
        if "cache-control" in query:
            headers["Cache-Control"] = query["cache-control"][0]
        if "plain" in query:
            # A server that gives no validators: every request answered in full.
            return self.answer(200, body, {"Content-Type": "application/octet-stream"})
        if self.headers.get("If-None-Match") == etag:
            return self.not_modified(headers)
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            try:
                if int(mtime) <= parsedate_to_datetime(since).timestamp():
                    return self.not_modified(headers)
            except (TypeError, ValueError):
                pass
        self.answer(200, body, headers)

    def not_modified(self, headers):
        key = "304 " + urllib.parse.urlparse(self.path).path
        with LOCK:
            COUNTS[key] = COUNTS.get(key, 0) + 1
        self.answer(304, headers={k: v for k, v in headers.items() if k != "Content-Type"})

    def route_status(self, rest):
        self.answer(int(rest[0]), b"")

    def route_hang(self, _rest):
        time.sleep(120)

    def route_drip(self, _rest):
        self.send_response(200)
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        for _ in range(1 << 20):
            self.wfile.write(b"\x89")
            self.wfile.flush()
            time.sleep(1)

    def route_drip_clip(self, _rest):
        # A clip's first box (an MP4's ftyp, so its first bytes pass), then a byte every
        # second of a declared 1 MiB.
        self.send_response(200)
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        self.wfile.write(b"\0\0\0\x18ftypisom\0\0\x02\0isomiso2avc1mp41")
        self.wfile.flush()
        for _ in range(1 << 20):
            time.sleep(1)
            self.wfile.write(b"\0")
            self.wfile.flush()

    def route_truncated(self, rest):
        body, _ = self.read(rest[0])
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def route_big(self, rest):
        mib = int(rest[0])
        self.send_response(200)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        self.wfile.write(b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0")
        chunk = b"\0" * 65536
        for _ in range(mib * 16):
            self.wfile.write(chunk)

    def route_redirect(self, rest):
        n = int(rest[0]) if rest else 0
        self.answer(302, headers={"Location": "/redirect/%d" % (n + 1)})

    def route_to_http(self, rest):
        port = self.server.server_address[1]
        self.answer(302, headers={"Location": "http://127.0.0.1:%d/files/%s" % (port, rest[0])})

    def route_as(self, rest):
        body, _ = self.read(rest[1])
        self.answer(200, body, {"Content-Type": rest[0]})

    def route_slow(self, rest):
        body, _ = self.read(rest[0])
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        for i in range(0, len(body), 4096):
            self.wfile.write(body[i:i + 4096])
            self.wfile.flush()
            time.sleep(0.01)

    def route_reset(self, _rest):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
        self.close_connection = True
        self.connection.close()

    def route_track(self, _rest):
        with LOCK:
            TRACKED.append(self.path)
        self.answer(204)

    def route_track_to(self, _rest):
        # Kept as /track/ is, then redirected to the query's `to` (a refused port, a name
        # that does not resolve): the tracker was reached before the redirect failed.
        with LOCK:
            TRACKED.append(self.path)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        self.answer(302, headers={"Location": query.get("to", ["/status/404"])[0]})

    def route_late_track(self, rest):
        with LOCK:
            TRACKED.append(self.path)
        time.sleep(float(rest[0]) if rest else 5)
        self.answer(204)

    def route_tracked(self, _rest):
        with LOCK:
            body = json.dumps(TRACKED).encode()
        self.answer(200, body, {"Content-Type": "application/json"})

    def route_requests(self, _rest):
        with LOCK:
            body = json.dumps(COUNTS).encode()
        self.answer(200, body, {"Content-Type": "application/json"})


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients that hang up early are part of the tests


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
