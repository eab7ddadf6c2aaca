#!/usr/bin/env python3
"""Benchmarks side by side with feh, in one run on one machine (see docs/BENCHMARKS.md).

  - first frame: `splashboard --exit-after first-frame` and `feh -F -D 0.01
    --on-last-slide quit IMAGE`, alternated, on a cached 1080p and a 4K JPEG, under
    Xvfb at 1920x1080: median wall time and peak RSS of each, and their ratios;
  - idle: the kiosk on the detail screen for 30 s: CPU seconds and wake-ups per second;
  - skip latency: a click on the pill (xdotool) to the presented detail frame, from the
    kiosk's own `skip` and `frame` event timestamps;
  - sync: a generated 10,000-campaign feed on 127.0.0.1: first sync, a 304 sync, and
    whether the 304 wrote anything.

Usage: bench.py --binary PATH [--runs 10] [--markdown FILE]"""
import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SERVER = os.path.join(ROOT, "Tests", "SplashTestSupport", "fault_server.py")


def timed(cmd, env):
    """Wall time (s) and peak RSS (MiB) of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s failed" % cmd[0])
    return wall, usage.ru_maxrss / 1024.0, out


def start_xvfb():
    n = 150
    while os.path.exists("/tmp/.X%d-lock" % n):
        n += 1
    proc = subprocess.Popen(["Xvfb", ":%d" % n, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists("/tmp/.X11-unix/X%d" % n):
            return proc, ":%d" % n
        time.sleep(0.05)
    raise RuntimeError("Xvfb did not start")


def pill_center(width, height, countdown):
    """The 跳过 pill's centre, as SkipButton computes it."""
    h = max(48, round(min(width, height) * 0.06))
    w = int(h * (2.75 if countdown >= 10 else 2.35))
    margin = max(12, h // 2)
    return width - margin - w + w // 2, margin + h // 2


def fingerprint(paths):
    digest = hashlib.sha256()
    for p in paths:
        if os.path.exists(p):
            digest.update(open(p, "rb").read())
    return digest.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--markdown", default=None)
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="splashboard-bench-")
    xvfb, display = start_xvfb()
    env = dict(os.environ, HOME=work, DISPLAY=display, SDL_VIDEODRIVER="x11")
    results = {"machine": "%s, %d cores, %s" % (platform.processor() or platform.machine(), os.cpu_count(),
                                                 platform.platform())}
    try:
        # Deterministic pictures: the same pixels on every run.
        images = {}
        for name, size in (("1080p", "1920x1080"), ("4K", "3840x2160")):
            path = os.path.join(work, name + ".jpg")
            subprocess.run(["convert", "-seed", "7", "-size", size, "plasma:#1d4e89-#f6ae2d", "-quality", "88", path],
                           check=True)
            images[name] = path
        first = {}
        for name, path in images.items():
            data, cache = os.path.join(work, "data-" + name), os.path.join(work, "cache-" + name)
            feed = os.path.join(work, "feed-%s.json" % name)
            json.dump([{"id": name, "picUrl": path, "showTime": 100000}], open(feed, "w"))
            subprocess.run([binary, "sync", "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                           check=True, stdout=subprocess.DEVNULL, env=env)
            kiosk = [binary, "--exit-after", "first-frame", "--feed", feed, "--data-dir", data, "--cache-dir", cache]
            feh = ["feh", "-F", "-D", "0.01", "--on-last-slide", "quit", path]
            times = {"splashboard": [], "feh": []}
            rss = {"splashboard": [], "feh": []}
            for _ in range(args.runs):
                for label, cmd in (("splashboard", kiosk), ("feh", feh)):
                    wall, peak, _ = timed(cmd, env)
                    times[label].append(wall)
                    rss[label].append(peak)
            first[name] = {k: {"median_s": statistics.median(times[k]), "median_rss_mib": statistics.median(rss[k])}
                           for k in times}
        results["first_frame"] = first

        # Idle on the detail screen: 30 s of CPU time and wake-ups.
        data, cache = os.path.join(work, "data-1080p"), os.path.join(work, "cache-1080p")
        feed = os.path.join(work, "feed-1080p.json")
        proc = subprocess.Popen([binary, "--countdown", "1", "--attract-after", "0", "--log-format", "json", "--feed", feed,
                                 "--data-dir", data, "--cache-dir", cache], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        time.sleep(4)

        def cpu_and_switches():
            stat = open("/proc/%d/stat" % proc.pid).read().rsplit(")", 1)[1].split()
            ticks = int(stat[11]) + int(stat[12])
            status = open("/proc/%d/status" % proc.pid).read()
            switches = sum(int(l.split()[1]) for l in status.splitlines()
                           if l.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
            return ticks / os.sysconf("SC_CLK_TCK"), switches

        cpu0, sw0 = cpu_and_switches()
        time.sleep(30)
        cpu1, sw1 = cpu_and_switches()
        proc.kill()
        proc.wait()
        results["idle"] = {"cpu_seconds": round(cpu1 - cpu0, 3), "cpu_percent": round((cpu1 - cpu0) / 30 * 100, 3),
                           "wakeups_per_second": round((sw1 - sw0) / 30, 2)}

        # Skip latency: click the pill, read the kiosk's own timestamps.
        latencies = []
        x, y = pill_center(1920, 1080, 30)
        for _ in range(args.runs):
            proc = subprocess.Popen([binary, "--countdown", "30", "--log-format", "json", "--exit-after", "detail",
                                     "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
            events = []
            for line in proc.stdout:
                event = json.loads(line)
                events.append(event)
                if event.get("event") == "first_frame":
                    time.sleep(0.3)
                    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)
            proc.wait()
            skip = next(e["t"] for e in events if e.get("event") == "skip")
            frame = next(e["t"] for e in events if e.get("event") == "frame" and e.get("scene") == "detail")
            latencies.append((frame - skip) * 1000)
        results["skip_ms"] = {"median": round(statistics.median(latencies), 1), "max": round(max(latencies), 1)}

        # Sync of a 10,000-campaign feed (ten pictures shared), then a 304.
        www = os.path.join(work, "www")
        os.makedirs(www)
        for i in range(10):
            shutil.copy(images["1080p"], os.path.join(www, "p%d.jpg" % i))
        # Kept under the 1 MiB feed limit: about 90 bytes a campaign.
        campaigns = [{"id": "c%05d" % i, "picUrl": "p%d.jpg" % (i % 10), "showTime": 5,
                      "updatedAt": "2026-%02d-%02dT08:00:00+08:00" % (1 + i % 12, 1 + i % 28)} for i in range(10000)]
        json.dump({"campaigns": campaigns}, open(os.path.join(www, "feed.json"), "w"), separators=(",", ":"))
        server = subprocess.Popen([sys.executable, SERVER, www], stdout=subprocess.PIPE, text=True)
        port = int(server.stdout.readline())
        url = "http://127.0.0.1:%d/files/feed.json" % port
        sdata, scache = os.path.join(work, "sync-data"), os.path.join(work, "sync-cache")
        # Pictures first (they are the network's cost, not the sync's): a one-campaign feed per picture.
        for i in range(10):
            pre = os.path.join(www, "pre%d.json" % i)
            json.dump([{"id": "warm%d" % i, "picUrl": "p%d.jpg" % i, "showTime": 1}], open(pre, "w"))
            subprocess.run([binary, "sync", "--feed", "http://127.0.0.1:%d/files/pre%d.json" % (port, i),
                            "--data-dir", sdata, "--cache-dir", scache], check=True, stdout=subprocess.DEVNULL, env=env)

        def sync_ms():
            out = subprocess.run([binary, "sync", "--feed", url, "--data-dir", sdata, "--cache-dir", scache],
                                 check=True, capture_output=True, text=True, env=env).stdout
            return float(out.rsplit(";", 1)[1].split()[0]), out.strip()

        first_ms, first_out = sync_ms()
        db = [os.path.join(sdata, "splashboard.db"), os.path.join(sdata, "splashboard.db-wal")]
        before = fingerprint(db)
        not_modified = [sync_ms() for _ in range(5)]
        after = fingerprint(db)
        server.kill()
        server.wait()
        results["sync"] = {"first_ms": first_ms, "first": first_out,
                           "not_modified_ms": statistics.median(m for m, _ in not_modified),
                           "not_modified": not_modified[0][1], "writes_on_304": before != after}
    finally:
        xvfb.kill()
        xvfb.wait()
        shutil.rmtree(work, ignore_errors=True)

    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
