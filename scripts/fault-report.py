#!/usr/bin/env python3
"""Runs `splashboard sync` against every fault of the fault-injecting server, after one
good sync, and records for each: the exit status, the reason printed, whether the last
good campaign is still the one to show, whether any final cache name holds a partial or
invalid file, and the peak resident memory of the run. Prints a Markdown table.

Usage: fault-report.py --binary PATH"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SERVER = os.path.join(ROOT, "Tests", "SplashTestSupport", "fault_server.py")

FEEDS = [
    ("500 Internal Server Error", "/status/500"), ("404 Not Found", "/status/404"),
    ("redirect loop", "/redirect/0"), ("connection reset", "/reset"), ("never answers", "/hang"),
    ("1 byte/s drip", "/drip"), ("truncated body under Content-Length", "/truncated/feed.json"),
    ("body over the 1 MiB cap", "/files/huge.json"), ("invalid JSON", "/files/broken.json"),
    ("wrong shape", "/files/shape.json"), ("wrong types", "/files/types.json"),
    ("huge and negative numbers", "/files/numbers.json"), ("empty document", "/files/empty.json"),
    ("100 000 nested arrays", "/files/nested.json"), ("non-UTF-8 bytes", "/files/latin1.json"),
    ("NUL bytes in strings", "/files/nul.json"),
]
PICTURES = [
    ("HTML served as JPEG", "/as/image%2Fjpeg/page.html"), ("truncated JPEG", "/files/cut.jpg"),
    ("PNG with a bad CRC", "/files/crc.png"), ("PNG declaring 60000×60000", "/files/huge.png"),
    ("JPEG declaring 60000×60000", "/files/huge.jpg"), ("GIF", "/files/anim.gif"), ("BMP", "/files/pic.bmp"),
    ("SVG", "/files/pic.svg"), ("zero bytes", "/files/zero.png"), ("picture over the 20 MiB cap", "/big/25"),
]


def prepare(www):
    shutil.copy(os.path.join(ROOT, "assets", "demo", "spring-tea.jpg"), os.path.join(www, "good.jpg"))
    write = lambda name, data: open(os.path.join(www, name), "wb").write(data)
    write("feed.json", json.dumps([{"id": "good", "picUrl": "good.jpg", "showTime": 5}]).encode())
    write("huge.json", b"[" + b" " * (1 << 20) + b"]")
    write("broken.json", b'[{"id": "a", "picUrl": ')
    write("shape.json", b'{"campaigns": {"a": 1}}')
    write("types.json", b'[{"picUrl": 5, "showTime": "3"}]')
    write("numbers.json", b'[{"picUrl":"a.jpg","showTime":1e300},{"picUrl":"a.jpg","showTime":-7}]')
    write("empty.json", b"")
    write("nested.json", b"[" * 100000 + b"]" * 100000)
    write("latin1.json", '[{"id": "caf\u00e9", "picUrl": "a.jpg", "showTime": 1}]'.encode("latin-1"))
    write("nul.json", b'[{"id": "a\x00b", "picUrl": "a.jpg", "showTime": 1}]')
    write("page.html", b"<!DOCTYPE html><html><body>Not found</body></html>")
    jpg = open(os.path.join(www, "good.jpg"), "rb").read()
    write("cut.jpg", jpg[: len(jpg) // 2])
    png = subprocess.run(["convert", "-size", "64x64", "xc:red", "png:-"], capture_output=True).stdout
    i = png.index(b"IDAT") + 6
    write("crc.png", png[:i] + bytes([png[i] ^ 0xFF]) + png[i + 1:])
    write("huge.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\xea\x60\x00\x00\xea\x60\x08\x06\x00\x00\x00" + b"\0" * 64)
    write("huge.jpg", b"\xff\xd8\xff\xc0\x00\x11\x08\xea\x60\xea\x60\x03" + b"\0" * 64)
    write("anim.gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    write("pic.bmp", b"BM" + b"\0" * 60)
    write("pic.svg", b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')
    write("zero.png", b"")


def peak_rss_run(binary, args, env):
    """Runs and returns (status, stdout, stderr, peak RSS in MiB) using wait4's rusage."""
    proc = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"), usage.ru_maxrss / 1024.0


def cache_is_clean(cache):
    for name in os.listdir(cache):
        if name.startswith(".partial-"):
            return False
        if len(name) != 64:
            return False
        head = open(os.path.join(cache, name), "rb").read(8)
        if not (head.startswith(b"\xff\xd8\xff") or head.startswith(b"\x89PNG")):
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="splashboard-faults-")
    www = os.path.join(work, "www")
    os.makedirs(www)
    prepare(www)
    server = subprocess.Popen([sys.executable, SERVER, www], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    base = "http://127.0.0.1:%d" % port
    env = dict(os.environ, HOME=work)
    rows = []
    try:
        for kind, cases in (("feed", FEEDS), ("picture", PICTURES)):
            for label, path in cases:
                data, cache = os.path.join(work, "d-" + str(len(rows))), os.path.join(work, "c-" + str(len(rows)))
                common = ["--data-dir", data, "--cache-dir", cache]
                ok_feed = base + "/files/feed.json"
                subprocess.run([args.binary, "sync", "--feed", ok_feed] + common, capture_output=True, env=env)
                if kind == "feed":
                    feed = base + path
                else:
                    bad = json.dumps([{"id": "good", "picUrl": "good.jpg", "showTime": 5, "updatedAt": "2026-01-01T00:00:00Z"},
                                      {"id": "bad", "picUrl": base + path, "showTime": 5, "updatedAt": "2026-06-01T00:00:00Z"}])
                    name = "feed-%d.json" % len(rows)
                    open(os.path.join(www, name), "w").write(bad)
                    feed = base + "/files/" + name
                status, out, err, rss = peak_rss_run(args.binary, ["sync", "--feed", feed] + common, env)
                reason = [l for l in err.splitlines() if l.startswith(("splashboard:", "error:"))]
                listing = subprocess.run([args.binary, "campaigns", "--json", "--feed", feed] + common,
                                         capture_output=True, env=env).stdout
                campaigns = json.loads(listing or b"[]")
                shows_good = any(c.get("id") == "good" and c.get("newest") for c in campaigns)
                rows.append((kind, label, status, reason[0] if reason else "(none)", shows_good,
                             cache_is_clean(cache), rss))
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    print("| fault | exit | what it says | last good still shows | cache clean | peak RSS |")
    print("|---|---|---|---|---|---|")
    for kind, label, status, reason, good, clean, rss in rows:
        reason = reason.replace("|", "\\|").replace("http://127.0.0.1:%d" % port, "…")
        if len(reason) > 150:
            reason = reason[:147] + "..."
        print("| %s: %s | %d | %s | %s | %s | %.0f MiB |" % (kind, label, status, reason, "yes" if good else "**no**",
                                                          "yes" if clean else "**no**", rss))
    bad = [r for r in rows if not r[4] or not r[5]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
