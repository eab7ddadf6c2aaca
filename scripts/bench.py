#!/usr/bin/env python3
"""Benchmarks side by side with feh, in one run on one machine (see docs/BENCHMARKS.md).

  - first frame: `splashboard --exit-after first-frame` and `feh -F -D 0.01
    --on-last-slide quit IMAGE`, alternated, on a cached 1080p and a 4K JPEG, under
    Xvfb at 1920x1080: median wall time and peak RSS of each, and their ratios;
  - idle: the kiosk on the detail screen for 30 s: CPU seconds and wake-ups per second,
    of the display process and of its network process; the shared libraries each maps;
  - start-up: exec to exit of `--version` (the dynamic loader's binding of every library
    and the runtime's start, nothing else) for the three programs and feh;
  - footprint: the .deb's size and what it installs, each program's size, and whether
    any carries ICU's data;
  - skip latency: a click on the pill (xdotool) to the presented detail frame, from the
    kiosk's own `skip` and `frame` event timestamps;
  - sync: a generated 10,000-campaign feed served by nginx on 127.0.0.1 (ETag, 304):
    the first sync, a 304 in a fresh `splashboard sync` process and in a running kiosk
    (its `sync` events), and whether a 304 wrote anything.

Usage: bench.py --binary PATH [--deb DEB] [--runs 25] [--json FILE] [--markdown FILE]"""
import argparse
import hashlib
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Targets of ../shared/SPEC.md section 7, as (limit, unit) pairs.
TARGETS = {"first_frame_ratio": {"1080p": 0.8, "4K": 0.6}, "rss_ratio": {"1080p": 1.3, "4K": 1.0}, "idle_percent": 0.5, "skip_ms": 16.0,
           "sync_ms": 150.0, "not_modified_ms": 5.0, "video_dropped": 0, "video_cpu_ratio": 1.0, "video_rss_ratio": 1.0,
           "video_first_frame_ms": 100.0, "version_ratio": 1.2, "deb_mb": 15.0, "installed_mb": 50.0}


def timed(cmd, env, rss=False):
    """Wall time (s) and, with `rss`, peak RSS (MiB) of one command.

    The peak is GNU time's (`%M`), not this script's wait4: Linux carries the parent's
    high-water mark into a child through fork and exec, so a child of this Python process
    never reports less than the script's own peak (some 50 MiB once it has read the
    programs), whatever it used itself. GNU time, a small C program, is the parent instead,
    for both programs alike."""
    if rss:
        report = tempfile.NamedTemporaryFile(prefix="splashboard-bench-time-", delete=False)
        report.close()
        cmd = ["/usr/bin/time", "-f", "%M", "-o", report.name] + cmd
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s failed" % cmd[0])
    peak = None
    if rss:
        peak = int(open(report.name).read().split()[-1]) / 1024.0
        os.unlink(report.name)
    return wall, peak, out


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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(work, www):
    """nginx in one process as this user, serving `www` with ETags."""
    port = free_port()
    prefix = os.path.join(work, "nginx")
    os.makedirs(prefix, exist_ok=True)
    conf = os.path.join(prefix, "nginx.conf")
    with open(conf, "w") as f:
        f.write("""daemon off; master_process off; worker_processes 1;
pid %(p)s/nginx.pid; error_log %(p)s/error.log;
events { worker_connections 64; }
http { access_log off; client_body_temp_path %(p)s/tmp; proxy_temp_path %(p)s/tmp; fastcgi_temp_path %(p)s/tmp;
       uwsgi_temp_path %(p)s/tmp; scgi_temp_path %(p)s/tmp;
       server { listen 127.0.0.1:%(port)d; root %(www)s; etag on; } }
""" % {"p": prefix, "port": port, "www": www})
    proc = subprocess.Popen(["nginx", "-p", prefix, "-c", conf, "-e", os.path.join(prefix, "error.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("nginx did not start")


def pill_center(width, height, countdown):
    """The 跳过 pill's centre as SkipButton places it: the grid's margin (two units of a 24th of
    the short side) from the top-right edges, never under 3.5 % of the screen; as wide as two
    digits whatever the countdown."""
    short = min(width, height)
    h = max(52, round(short * 0.06))
    w = int(h * 2.75)
    margin = 2 * max(12, short // 24)
    inset_x = max(margin, (width * 35 + 999) // 1000)
    inset_y = max(margin, (height * 35 + 999) // 1000)
    return width - inset_x - w + w // 2, inset_y + h // 2


def fingerprint(paths):
    digest = hashlib.sha256()
    for p in paths:
        if os.path.exists(p):
            digest.update(open(p, "rb").read())
    return digest.hexdigest()


def first_frame(binary, env, work, images, runs):
    results = {}
    for name, path in images.items():
        data, cache = os.path.join(work, "data-" + name), os.path.join(work, "cache-" + name)
        feed = os.path.join(work, "feed-%s.json" % name)
        json.dump([{"id": name, "picUrl": path, "showTime": 100000}], open(feed, "w"))
        subprocess.run([binary, "sync", "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                       check=True, stdout=subprocess.DEVNULL, env=env)
        # The metrics file is off, as on a kiosk without node exporter (this host has its folder).
        kiosk = [binary, "--exit-after", "first-frame", "--metrics-file", "off", "--feed", feed, "--data-dir", data,
                 "--cache-dir", cache]
        feh = ["feh", "-F", "-D", "0.01", "--on-last-slide", "quit", path]
        # One unmeasured run each: the font is looked up once and remembered, files are in the page cache.
        timed(kiosk, env)
        timed(feh, env)
        times = {"splashboard": [], "feh": []}
        rss = {"splashboard": [], "feh": []}
        for _ in range(runs):
            for label, cmd in (("splashboard", kiosk), ("feh", feh)):
                wall, peak, _ = timed(cmd, env, rss=True)
                times[label].append(wall * 1000)
                rss[label].append(peak)
        r = {k: {"median_ms": round(statistics.median(times[k]), 1), "min_ms": round(min(times[k]), 1),
                 "median_rss_mib": round(statistics.median(rss[k]), 1)} for k in times}
        r["time_ratio"] = round(r["splashboard"]["median_ms"] / r["feh"]["median_ms"], 2)
        r["rss_ratio"] = round(r["splashboard"]["median_rss_mib"] / r["feh"]["median_rss_mib"], 2)
        results[name] = r
    return results


# Libraries that come only with networking code (libcurl and what it links).
NETWORKING = ("libcurl", "libssl", "libcrypto", "libgnutls", "libnghttp2", "libssh2", "librtmp", "libldap", "liblber",
              "libgssapi", "libkrb5", "libk5crypto", "libsasl2", "libpsl", "libidn2", "libnettle", "libhogweed",
              "libgmp", "libp11-kit", "libtasn1", "libFoundationNetworking")


def libraries(pid):
    """The shared libraries a process has mapped."""
    found = set()
    for line in open("/proc/%d/maps" % pid):
        parts = line.split()
        if len(parts) >= 6 and ".so" in os.path.basename(parts[5]):
            found.add(os.path.basename(parts[5]))
    return found


def network_child(pid):
    try:
        children = open("/proc/%d/task/%d/children" % (pid, pid)).read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def all_threads_usage(pid):
    """CPU seconds and context switches of every thread of a process."""
    stat = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    ticks = int(stat[11]) + int(stat[12])
    switches = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            status = open("/proc/%d/task/%s/status" % (pid, task)).read()
        except OSError:
            continue
        switches += sum(int(l.split()[1]) for l in status.splitlines()
                        if l.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
    return ticks / os.sysconf("SC_CLK_TCK"), switches


def operator_view(binary, env, work, image, runs):
    """The operator view opened (F2) on a library of 10 and of 10,000 campaigns: from the
    kiosk's `operator` event to its first operator frame, medians of `runs` runs each."""
    result = {}
    with open(os.path.join(work, "f2.script"), "w") as f:
        f.write("0.5 key f2\n")
    for n in (10, 10000):
        feed = os.path.join(work, "library-%d.json" % n)
        json.dump({"campaigns": [{"id": "c%d" % i, "picUrl": image, "showTime": 50} for i in range(n)]},
                  open(feed, "w"), separators=(",", ":"))
        data, cache = os.path.join(work, "library-data-%d" % n), os.path.join(work, "library-cache-%d" % n)
        subprocess.run([binary, "sync", "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                       check=True, stdout=subprocess.DEVNULL, env=env)
        times = []
        for _ in range(runs):
            out = subprocess.run([binary, "--headless", "--countdown", "30", "--exit-after", "1.5", "--script",
                                  os.path.join(work, "f2.script"), "--feed", feed, "--data-dir", data,
                                  "--cache-dir", cache], check=True, capture_output=True, text=True, env=env).stdout
            events = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
            opened = next(e["t"] for e in events if e.get("event") == "operator")
            drawn = next(e["t"] for e in events if e.get("event") == "frame" and e.get("scene") == "operator")
            times.append((drawn - opened) * 1000)
        result[str(n)] = {"median_ms": round(statistics.median(times), 1)}
    result["ratio"] = round(result["10000"]["median_ms"] / max(result["10"]["median_ms"], 0.1), 2)
    return result


def same_libraries(binary, work):
    """An empty C program that needs the same shared libraries as `binary` (so the loader
    maps and binds the same closure): the part of start-up no code of the program's can save."""
    needed = [line.split("[", 1)[1].rstrip("]") for line in
              subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout.splitlines()
              if "(NEEDED)" in line]
    source, program = os.path.join(work, "empty.c"), os.path.join(work, "same-libraries")
    open(source, "w").write("int main(void) { return 0; }\n")
    subprocess.run(["cc", source, "-o", program, "-Wl,--no-as-needed"] + ["-l:" + n for n in needed], check=True)
    return program


def startup(binary, env, runs, work):
    """Exec to exit of `--version`: the loader and the runtime's start, for each program."""
    programs = {"same-libraries": [same_libraries(binary, work)],
                "splashboard": [binary, "--version"],
                "splashboard-net": [os.path.join(os.path.dirname(binary), "splashboard-net"), "--version"],
                "splashboard-media": [os.path.join(os.path.dirname(binary), "splashboard-media"), "--version"],
                "feh": ["feh", "--version"]}
    result = {}
    for name, cmd in programs.items():
        timed(cmd, env)
        walls = [timed(cmd, env)[0] * 1000 for _ in range(runs)]
        result[name] = {"median_ms": round(statistics.median(walls), 2)}
        if name not in ("feh", "same-libraries"):
            ldd = subprocess.run(["ldd", cmd[0]], capture_output=True, text=True).stdout
            result[name]["linked"] = sum(1 for l in ldd.splitlines() if ".so" in l)
    return result


def footprint(deb, binary):
    """The package's size, what it installs, and each program's size and ICU data."""
    installed_kb = int(subprocess.run(["dpkg-deb", "-f", deb, "Installed-Size"], capture_output=True, text=True,
                                      check=True).stdout.strip())
    programs = {}
    for name in ("splashboard", "splashboard-net", "splashboard-media"):
        path = os.path.join(os.path.dirname(binary), name)
        # grep, not read here: this script's own peak must stay small (see `timed`).
        icu = subprocess.run(["grep", "-c", "icudt", path], capture_output=True, text=True).stdout.strip() not in ("", "0")
        programs[name] = {"mb": round(os.path.getsize(path) / 1e6, 1), "icu_data": icu}
    return {"deb": os.path.basename(deb), "deb_mb": round(os.path.getsize(deb) / 1e6, 1),
            "installed_mb": round(installed_kb * 1024 / 1e6, 1), "programs": programs}


def idle(binary, env, work):
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

    display_libs = libraries(proc.pid)
    child = network_child(proc.pid)
    net_libs = libraries(child) if child else set()
    cpu0, sw0 = cpu_and_switches()
    ncpu0, nsw0 = all_threads_usage(child) if child else (0, 0)
    time.sleep(30)
    cpu1, sw1 = cpu_and_switches()
    ncpu1, nsw1 = all_threads_usage(child) if child else (0, 0)
    proc.kill()
    proc.wait()
    return {"cpu_seconds": round(cpu1 - cpu0, 3), "cpu_percent": round((cpu1 - cpu0) / 30 * 100, 3),
            "wakeups_per_second": round((sw1 - sw0) / 30, 2),
            "network_process": {"cpu_seconds": round(ncpu1 - ncpu0, 3),
                                "wakeups_per_second": round((nsw1 - nsw0) / 30, 2)} if child else None,
            "display_libraries": len(display_libs),
            "display_networking_libraries": sorted(l for l in display_libs if l.startswith(NETWORKING)),
            "network_libraries": len(net_libs),
            "network_networking_libraries": len([l for l in net_libs if l.startswith(NETWORKING)])}


def peak_rss_mib(pid):
    """The peak resident memory (VmHWM) of a running process, in MiB; 0 once it is gone."""
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def pss_mib(pid):
    """A running process's proportional set size (shared pages split among their users), MiB."""
    try:
        for line in open("/proc/%d/smaps_rollup" % pid):
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def children(pid):
    try:
        return [int(c) for c in open("/proc/%d/task/%d/children" % (pid, pid)).read().split()]
    except OSError:
        return []


def video(binary, env, work, seconds=30):
    """A 60 s 1080p30 H.264 clip under the pill for the splash's `seconds` (a video
    countdown is capped at 30), against mpv --no-audio --hwdec=no --vo=x11 playing the
    same file for as long on the same screen: dropped frames, CPU seconds per second of
    video (display and media process together, from wait4's rusage, which counts the reaped
    media process), their memory together, and the time from the show's start to its
    first video frame. Memory together is the peak of their summed proportional set sizes
    (sampled every 0.25 s, against mpv's sampled the same way): the frame ring is mapped by
    both, so their peak RSS (VmHWM, also given) counts it twice."""
    clip = os.path.join(work, "clip-1080p30.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "60",
                    "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", clip], check=True)
    poster = os.path.join(work, "poster.jpg")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", clip, "-frames:v", "1", poster], check=True)
    feed = os.path.join(work, "feed-video.json")
    json.dump({"campaigns": [{"id": "clip", "picUrl": "poster.jpg", "videoUrl": "clip-1080p30.mp4", "showTime": 1000,
                              "countdown": seconds}]}, open(feed, "w"))
    args = ["--feed", feed, "--data-dir", os.path.join(work, "data-video"), "--cache-dir", os.path.join(work, "cache-video")]
    subprocess.run([binary, "sync"] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    result = {"seconds": seconds}
    # Splashboard: the splash plays the clip until its countdown ends.
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "--exit-after", "splash", "--log-format", "json"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    peaks = {"display": 0.0, "media": 0.0, "together_pss": 0.0}
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout.read().decode().splitlines()))
    reader.start()
    while True:
        done, _, usage = os.wait4(proc.pid, os.WNOHANG)
        if done:
            break
        peaks["display"] = max(peaks["display"], peak_rss_mib(proc.pid))
        together = pss_mib(proc.pid)
        for child in children(proc.pid):
            try:
                if b"splashboard-media" in open("/proc/%d/cmdline" % child, "rb").read():
                    peaks["media"] = max(peaks["media"], peak_rss_mib(child))
                    together += pss_mib(child)
            except OSError:
                pass
        peaks["together_pss"] = max(peaks["together_pss"], together)
        time.sleep(0.25)
    reader.join()
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    events = [json.loads(l) for l in lines if l.startswith("{")]
    first = next((e for e in events if e["event"] == "video"), {})
    ended = next((e for e in events if e["event"] == "video_ended"), {})
    result["splashboard"] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "cpu_per_video_s": round(cpu / seconds, 3),
                             "first_video_frame_ms": first.get("ms"),
                             "presented": ended.get("presented"), "dropped": ended.get("dropped"),
                             "peak_rss_mib": {k: round(v, 1) for k, v in peaks.items()},
                             "errors": [e["message"] for e in events if e["event"] == "error"]}
    result["splashboard"]["peak_rss_mib"]["together_hwm"] = round(peaks["display"] + peaks["media"], 1)
    # mpv on the same file and screen, for as long.
    mpv = ["mpv", "--no-config", "--no-audio", "--hwdec=no", "--vo=x11", "--fs", "--really-quiet",
           "--end=%d" % seconds, clip]
    start = time.perf_counter()
    proc = subprocess.Popen(mpv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    mpv_pss = 0.0
    while True:
        done, _, usage = os.wait4(proc.pid, os.WNOHANG)
        if done:
            break
        mpv_pss = max(mpv_pss, pss_mib(proc.pid))
        time.sleep(0.25)
    cpu_mpv = usage.ru_utime + usage.ru_stime
    result["mpv"] = {"wall_s": round(time.perf_counter() - start, 2), "cpu_s": round(cpu_mpv, 2),
                     "cpu_per_video_s": round(cpu_mpv / seconds, 3), "peak_rss_mib": round(usage.ru_maxrss / 1024.0, 1),
                     "peak_pss_mib": round(mpv_pss, 1)}
    result["cpu_ratio"] = round(cpu / cpu_mpv, 2)
    result["rss_ratio"] = round(peaks["together_pss"] / mpv_pss, 2) if mpv_pss else None
    return result


def skip_latency(binary, env, work, runs):
    data, cache = os.path.join(work, "data-1080p"), os.path.join(work, "cache-1080p")
    feed = os.path.join(work, "feed-1080p.json")
    latencies = []
    x, y = pill_center(1920, 1080, 30)
    for _ in range(runs):
        proc = subprocess.Popen([binary, "--countdown", "30", "--log-format", "json", "--exit-after", "detail",
                                 "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        events = []
        for line in proc.stdout:
            event = json.loads(line)
            events.append(event)
            if event.get("event") == "first_frame":
                time.sleep(0.5)
                subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)
        proc.wait()
        skip = next(e for e in events if e.get("event") == "skip")
        if skip.get("by") != "tap":
            raise RuntimeError("the click did not skip: %s" % skip)
        frame = next(e["t"] for e in events if e.get("event") == "frame" and e.get("scene") == "detail")
        latencies.append((frame - skip["t"]) * 1000)
    return {"median_ms": round(statistics.median(latencies), 1), "max_ms": round(max(latencies), 1)}


def sync(binary, env, work, image):
    www = os.path.join(work, "www")
    os.makedirs(www)
    for i in range(10):
        shutil.copy(image, os.path.join(www, "p%d.jpg" % i))
    # Kept under the 1 MiB feed limit: about 90 bytes a campaign.
    campaigns = [{"id": "c%05d" % i, "picUrl": "p%d.jpg" % (i % 10), "showTime": 5,
                  "updatedAt": "2026-%02d-%02dT08:00:00+08:00" % (1 + i % 12, 1 + i % 28)} for i in range(10000)]
    json.dump({"campaigns": campaigns}, open(os.path.join(www, "feed.json"), "w"), separators=(",", ":"))
    for i in range(10):
        json.dump([{"id": "warm%d" % i, "picUrl": "p%d.jpg" % i, "showTime": 1}],
                  open(os.path.join(www, "pre%d.json" % i), "w"))
    server, port = start_nginx(work, www)
    try:
        url = "http://127.0.0.1:%d/feed.json" % port
        # Pictures first (they are the network's cost, not the sync's): a one-campaign feed per picture.
        warm_data, warm_cache = os.path.join(work, "warm-data"), os.path.join(work, "warm-cache")
        for i in range(10):
            subprocess.run([binary, "sync", "--feed", "http://127.0.0.1:%d/pre%d.json" % (port, i),
                            "--data-dir", warm_data, "--cache-dir", warm_cache],
                           check=True, stdout=subprocess.DEVNULL, env=env)

        def sync_ms(data, cache):
            out = subprocess.run([binary, "sync", "--feed", url, "--data-dir", data, "--cache-dir", cache],
                                 check=True, capture_output=True, text=True, env=env).stdout
            return float(out.rsplit(";", 1)[1].split()[0]), out.strip()

        # The first sync of the big feed, nine times from the same starting point.
        firsts = []
        for n in range(9):
            data, cache = os.path.join(work, "sync-data-%d" % n), os.path.join(work, "sync-cache-%d" % n)
            shutil.copytree(warm_data, data)
            shutil.copytree(warm_cache, cache)
            firsts.append(sync_ms(data, cache))
        db = [os.path.join(data, "splashboard.db"), os.path.join(data, "splashboard.db-wal")]
        before = fingerprint(db)
        not_modified = [sync_ms(data, cache) for _ in range(5)]
        after = fingerprint(db)
        # A running kiosk syncs every interval with the session it keeps (virtual clock:
        # ten syncs in under a second); its `sync` events say how long each took.
        out = subprocess.run([binary, "--headless", "--clock", "virtual", "--sync-interval", "10", "--exit-after", "100",
                              "--feed", url, "--data-dir", data, "--cache-dir", cache],
                             check=True, capture_output=True, text=True, env=env).stdout
        events = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
        kiosk = [e["ms"] for e in events if e.get("event") == "sync" and e.get("status") == "not_modified"]
    finally:
        server.kill()
        server.wait()
    return {"first_ms": statistics.median(m for m, _ in firsts), "first": firsts[0][1],
            "not_modified_process_ms": statistics.median(m for m, _ in not_modified),
            "not_modified": not_modified[0][1],
            "not_modified_kiosk_ms": statistics.median(kiosk[1:]) if len(kiosk) > 1 else None,
            "not_modified_kiosk_first_ms": kiosk[0] if kiosk else None,
            "writes_on_304": before != after}


def verdict(ok):
    return "met" if ok else "**not met**"


def picture_rows(r):
    ff, idle_r, skip, s = r["first_frame"], r["idle"], r["skip"], r["sync"]
    rows = []
    for name in ("1080p", "4K"):
        f = ff[name]
        rows.append("| first frame → exit, cached %s JPEG | %.0f ms | %.0f ms | %.2f × feh | ≤ %.1f × feh | %s |" % (
            name, f["splashboard"]["median_ms"], f["feh"]["median_ms"], f["time_ratio"], TARGETS["first_frame_ratio"][name],
            verdict(f["time_ratio"] <= TARGETS["first_frame_ratio"][name])))
        rows.append("| peak RSS of that run, %s | %.1f MiB | %.1f MiB | %.2f × feh | ≤ %.1f × feh | %s |" % (
            name, f["splashboard"]["median_rss_mib"], f["feh"]["median_rss_mib"], f["rss_ratio"], TARGETS["rss_ratio"][name],
            verdict(f["rss_ratio"] <= TARGETS["rss_ratio"][name])))
    rows.append("| idle on the detail screen, 30 s | %.2f CPU s (%.1f %% of a core), %.1f wake-ups/s | — | — | ≤ %.1f %% of a core | %s |" % (
        idle_r["cpu_seconds"], idle_r["cpu_percent"], idle_r["wakeups_per_second"], TARGETS["idle_percent"],
        verdict(idle_r["cpu_percent"] <= TARGETS["idle_percent"])))
    net = idle_r.get("network_process")
    if net:
        rows.append("| idle: its network process, same 30 s | %.2f CPU s, %.1f wake-ups/s (all threads) | — | — | — | |" % (
            net["cpu_seconds"], net["wakeups_per_second"]))
    rows.append("| shared libraries mapped, display process | %d (networking: %s) | — | — | no networking | %s |" % (
        idle_r["display_libraries"], ", ".join(idle_r["display_networking_libraries"]) or "none",
        verdict(not idle_r["display_networking_libraries"])))
    rows.append("| shared libraries mapped, network process | %d (%d of them networking) | — | — | — | |" % (
        idle_r["network_libraries"], idle_r["network_networking_libraries"]))
    st = r["startup"]
    ratio = st["splashboard"]["median_ms"] / st["feh"]["median_ms"]
    rows.append("| exec → exit of `--version` (loader + runtime start) | display %.1f ms (%d linked), network %.1f ms (%d linked), media %.1f ms (%d linked) | %.1f ms | %.2f × feh | ≤ %.1f × feh | %s |" % (
        st["splashboard"]["median_ms"], st["splashboard"]["linked"], st["splashboard-net"]["median_ms"],
        st["splashboard-net"]["linked"], st["splashboard-media"]["median_ms"], st["splashboard-media"]["linked"],
        st["feh"]["median_ms"], ratio, TARGETS["version_ratio"], verdict(ratio <= TARGETS["version_ratio"])))
    rows.append("| of that: an empty program needing the display's shared libraries (the loader alone) | %.1f ms | %.1f ms | %.2f × feh | — | |" % (
        st["same-libraries"]["median_ms"], st["feh"]["median_ms"], st["same-libraries"]["median_ms"] / st["feh"]["median_ms"]))
    op = r["operator"]
    rows.append("| operator view opened (F2) → its first frame, 10,000 campaigns against 10 | %.1f ms against %.1f ms | — | %.2f × | — | |" % (
        op["10000"]["median_ms"], op["10"]["median_ms"], op["ratio"]))
    rows.append("| skip: click on the pill → detail frame presented | %.1f ms (max %.1f) | — | — | ≤ %.0f ms | %s |" % (
        skip["median_ms"], skip["max_ms"], TARGETS["skip_ms"], verdict(skip["median_ms"] <= TARGETS["skip_ms"])))
    rows.append("| sync of a 10,000-campaign feed (pictures cached) | %.0f ms | — | — | ≤ %.0f ms | %s |" % (
        s["first_ms"], TARGETS["sync_ms"], verdict(s["first_ms"] <= TARGETS["sync_ms"])))
    kiosk = s["not_modified_kiosk_ms"]
    rows.append("| sync answered 304, in the running kiosk | %s, %s | — | — | ≤ %.0f ms, no writes | %s |" % (
        "%.1f ms" % kiosk if kiosk is not None else "n/a", "database written" if s["writes_on_304"] else "no database writes",
        TARGETS["not_modified_ms"], verdict(kiosk is not None and kiosk <= TARGETS["not_modified_ms"] and not s["writes_on_304"])))
    rows.append("| sync answered 304, `splashboard sync` (a new process) | %.1f ms | — | — | — | |" % s["not_modified_process_ms"])
    return rows


def markdown(r):
    rows = ["| what | Splashboard | feh | ratio | target | |", "|---|---|---|---|---|---|"]
    fp = r.get("footprint")
    if fp:
        rows.append("| the package, %s | %.1f MB | — | — | ≤ %.0f MB | %s |" % (
            fp["deb"], fp["deb_mb"], TARGETS["deb_mb"], verdict(fp["deb_mb"] <= TARGETS["deb_mb"])))
        rows.append("| what it installs | %.1f MB | — | — | ≤ %.0f MB | %s |" % (
            fp["installed_mb"], TARGETS["installed_mb"], verdict(fp["installed_mb"] <= TARGETS["installed_mb"])))
        progs = fp["programs"]
        rows.append("| the programs (stripped): display, network, media | %s | — | — | no ICU | %s |" % (
            ", ".join("%.1f MB" % progs[n]["mb"] for n in ("splashboard", "splashboard-net", "splashboard-media")),
            verdict(not any(p["icu_data"] for p in progs.values()))))
    if "first_frame" in r:
        rows += picture_rows(r)
    v = r.get("video")
    if v:
        sb, mp = v["splashboard"], v["mpv"]
        rows.append("| 1080p30 H.264 under the pill, %d s: frames dropped | %s of %s | — | — | %d | %s |" % (
            v["seconds"], sb["dropped"], sb["presented"], TARGETS["video_dropped"],
            verdict(sb["dropped"] is not None and sb["dropped"] <= TARGETS["video_dropped"] and not sb["errors"])))
        rows.append("| that clip: CPU seconds a second of video (display + media) | %.3f | mpv %.3f | %.2f × mpv | ≤ %.1f × mpv | %s |" % (
            sb["cpu_per_video_s"], mp["cpu_per_video_s"], v["cpu_ratio"], TARGETS["video_cpu_ratio"],
            verdict(v["cpu_ratio"] <= TARGETS["video_cpu_ratio"])))
        rows.append("| that clip: memory, display + media together (peak summed PSS; peak RSS %.1f + %.1f MiB) | %.1f MiB | mpv %.1f MiB (peak RSS %.1f) | %.2f × mpv | ≤ %.1f × mpv | %s |" % (
            sb["peak_rss_mib"]["display"], sb["peak_rss_mib"]["media"], sb["peak_rss_mib"]["together_pss"],
            mp["peak_pss_mib"], mp["peak_rss_mib"], v["rss_ratio"], TARGETS["video_rss_ratio"],
            verdict(v["rss_ratio"] is not None and v["rss_ratio"] <= TARGETS["video_rss_ratio"])))
        rows.append("| that clip: show start → first video frame (the poster before) | %s ms | — | — | ≤ %.0f ms | %s |" % (
            sb["first_video_frame_ms"], TARGETS["video_first_frame_ms"],
            verdict(sb["first_video_frame_ms"] is not None and sb["first_video_frame_ms"] <= TARGETS["video_first_frame_ms"])))
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--deb", default=None, help="the package the programs came from, for the footprint rows")
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--json", default=None)
    ap.add_argument("--markdown", default=None)
    ap.add_argument("--no-video", action="store_true", help="leave out the video rows (they take about two minutes)")
    ap.add_argument("--only-video", action="store_true", help="only the video rows")
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
        if args.deb:
            results["footprint"] = footprint(os.path.abspath(args.deb), binary)
        if not args.only_video:
            results["first_frame"] = first_frame(binary, env, work, images, args.runs)
            results["idle"] = idle(binary, env, work)
            results["startup"] = startup(binary, env, args.runs, work)
            results["operator"] = operator_view(binary, env, work, images["1080p"], 9)
            results["skip"] = skip_latency(binary, env, work, 10)
            results["sync"] = sync(binary, env, work, images["1080p"])
        if not args.no_video:
            results["video"] = video(binary, env, work)
    finally:
        xvfb.kill()
        xvfb.wait()
        shutil.rmtree(work, ignore_errors=True)

    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        open(args.json, "w").write(text + "\n")
    if args.markdown:
        open(args.markdown, "w").write(markdown(results))
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
