#!/usr/bin/env python3
"""Soak: the kiosk headless over many simulated hours (--clock virtual) with the attract
loop, feed syncs and poetry refreshes against a local server, while its resident memory
and open file descriptors are sampled. Writes a CSV (virtual hours, RSS MiB, fds) and
prints a JSON summary: RSS and fds after warm-up and at the end.

Usage: soak.py --binary PATH [--hours 72] [--csv FILE]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SERVER = os.path.join(ROOT, "Tests", "SplashTestSupport", "fault_server.py")


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--hours", type=float, default=72)
    ap.add_argument("--csv", default=None)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="splashboard-soak-")
    www = os.path.join(work, "www")
    os.makedirs(www)
    for name in ("spring-tea.jpg", "night-market.jpg"):
        shutil.copy(os.path.join(ROOT, "assets", "demo", name), os.path.join(www, name))
    with open(os.path.join(www, "feed.json"), "w") as f:
        json.dump([{"id": "a", "picUrl": "spring-tea.jpg", "showTime": 1000000},
                   {"id": "b", "picUrl": "night-market.jpg", "showTime": 1000000}], f)
    with open(os.path.join(www, "poem.json"), "w") as f:
        json.dump({"content": "空门寂寞汝思家，礼别云房下九华。", "origin": "送童子下山", "author": "金地藏"}, f,
                  ensure_ascii=False)
    server = subprocess.Popen([sys.executable, SERVER, www], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    base = "http://127.0.0.1:%d/files/" % port
    seconds = int(args.hours * 3600)
    proc = subprocess.Popen(
        [args.binary, "--headless", "--clock", "virtual", "--exit-after", str(seconds), "--attract-after", "60",
         "--sync-interval", "900", "--poetry-refresh", "300", "--feed", base + "feed.json",
         "--poetry-url", base + "poem.json", "--poetry-image-url", base + "night-market.jpg",
         "--data-dir", os.path.join(work, "data"), "--cache-dir", os.path.join(work, "cache")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, HOME=work))
    latest = {"t": 0.0, "splashes": 0, "syncs": 0, "poems": 0, "errors": 0}

    def read():
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            latest["t"] = event.get("t", latest["t"])
            kind = event.get("event")
            if kind == "splash":
                latest["splashes"] += 1
            elif kind == "sync":
                latest["syncs"] += 1
            elif kind == "poetry":
                latest["poems"] += 1
            elif kind == "error":
                latest["errors"] += 1

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    samples = []
    started = time.time()
    while proc.poll() is None:
        try:
            samples.append((latest["t"] / 3600.0, rss_mib(proc.pid), fds(proc.pid)))
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.25)
    proc.wait()
    reader.join(timeout=5)
    server.kill()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
    elapsed = time.time() - started

    if args.csv:
        with open(args.csv, "w") as f:
            f.write("hours,rss_mib,fds\n")
            for h, r, n in samples:
                f.write("%.3f,%.2f,%d\n" % (h, r, n))
    # Resident memory swings by a decoded picture or two between the splash and the
    # detail screen, so growth is judged on the low points: the smallest RSS in the first
    # fifth after warm-up (the first tenth of the time) against the smallest in the last fifth.
    def window(lo, hi):
        return [s for s in samples if args.hours * lo <= s[0] <= args.hours * hi]
    early = window(0.1, 0.3) or samples
    late = window(0.8, 1.0) or samples
    early_low = min(s[1] for s in early) if early else 0
    late_low = min(s[1] for s in late) if late else 0
    summary = {
        "hours": args.hours, "exit": proc.returncode, "real_seconds": round(elapsed, 1),
        "splashes": latest["splashes"], "syncs": latest["syncs"], "poetry_events": latest["poems"],
        "errors": latest["errors"], "samples": len(samples),
        "rss_low_early_mib": round(early_low, 2), "rss_low_late_mib": round(late_low, 2),
        "rss_growth_mib": round(late_low - early_low, 2),
        "rss_peak_mib": round(max(s[1] for s in samples), 2) if samples else None,
        "fds_low_early": min(s[2] for s in early) if early else None, "fds_low_late": min(s[2] for s in late) if late else None,
        "fds_max": max(s[2] for s in samples) if samples else None,
    }
    print(json.dumps(summary))
    return 0 if proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
