"""A hostile HTTP server on 127.0.0.1 and ::1 that answers byte by byte as the test asks,
and keeps every request head it was sent (GET /heads). Prints its port on its first line.

Paths (the first part chooses; files come from ROOT):
  /etag/<kind>/<file>   the file, with the ETag, Last-Modified and Cache-Control of <kind>:
                        cr (a bare CR inside the ETag), long (95 KB ETag and Cache-Control,
                        a Last-Modified that is no date), good (well-formed)
  /garbage              something that is not HTTP, then the connection closed
  /chunked1/<file>      the file chunked, its first chunk one byte, a pause, then the rest
  /always304            304 Not Modified, asked or not
  /to?<location>        302 to the raw <location> (no checks at all)
  /bighead              a header line of 200 KB
  /status503            503 Service Unavailable
  /heads                the request heads seen, as a JSON list, oldest first
"""
import json
import os
import socket
import sys
import threading
import time
import urllib.parse

ROOT = sys.argv[1]
heads = []
lock = threading.Lock()


def answer(conn, status, headers=(), body=b""):
    lines = ["HTTP/1.1 %s" % status] + ["%s: %s" % h for h in headers] + ["Content-Length: %d" % len(body), "Connection: close"]
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def read_file(name):
    with open(os.path.join(ROOT, os.path.basename(name)), "rb") as f:
        return f.read()


def serve(conn):
    try:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        target = head.split(" ")[1]
        path, _, query = target.partition("?")
        parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
        if parts[0] != "heads":
            with lock:
                heads.append(head)
        if parts[0] == "heads":
            with lock:
                answer(conn, "200 OK", [("Content-Type", "application/json")], json.dumps(heads).encode())
        elif parts[0] == "etag":
            body = read_file(parts[2])
            if parts[1] == "cr":
                headers = [("ETag", '"a"\rX-Injected: 1'), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")]
            elif parts[1] == "long":
                headers = [("ETag", '"' + "e" * 95000 + '"'), ("Cache-Control", "max-age=60, " + "x" * 95000),
                           ("Last-Modified", "yesterday, more or less")]
            else:
                headers = [("ETag", '"good-1"'), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Cache-Control", "max-age=60")]
            answer(conn, "200 OK", headers, body)
        elif parts[0] == "garbage":
            conn.sendall(b"SSH-2.0-OpenSSH_9.2 not a web server\r\n")
        elif parts[0] == "chunked1":
            body = read_file(parts[1])
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            conn.sendall(b"1\r\n" + body[:1] + b"\r\n")
            time.sleep(0.3)
            rest = body[1:]
            conn.sendall(b"%x\r\n" % len(rest) + rest + b"\r\n0\r\n\r\n")
        elif parts[0] == "always304":
            conn.sendall(b"HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n")
        elif parts[0] == "to":
            answer(conn, "302 Found", [("Location", urllib.parse.unquote(query))])
        elif parts[0] == "bighead":
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Filler: " + b"f" * 200000 + b"\r\nContent-Length: 2\r\n\r\nok")
        elif parts[0] == "status503":
            answer(conn, "503 Service Unavailable")
        else:
            answer(conn, "404 Not Found")
    except OSError:
        pass
    finally:
        conn.close()


def accept(listener):
    while True:
        c, _ = listener.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


# Loopback only: 127.0.0.1, and ::1 on the same port (for the IPv6 literal's test).
v4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
v4.bind(("127.0.0.1", 0))
v4.listen(64)
port = v4.getsockname()[1]
try:
    v6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    v6.bind(("::1", port))
    v6.listen(64)
    threading.Thread(target=accept, args=(v6,), daemon=True).start()
except OSError:
    pass
print(port, flush=True)
accept(v4)
