#!/usr/bin/env python3
"""Crash safety: runs the kiosk headless (virtual clock, attract loop on, syncs running
against a local server), kills it with SIGKILL at a random moment, starts it again, and
checks after every kill. With --kill either, half the runs first kill the network process
(the kiosk's child, splashboard-net) at a random moment and check that the kiosk goes on
drawing without it, before the kiosk itself is killed. After every kill:

  - PRAGMA integrity_check is ok;
  - every `splash` event the kiosk printed is in the show ledger (record, then show);
  - no campaign's ledger exceeds its showTime;
  - no temporary cache file left by the kill survives the next start.

Usage: crash-loop.py --binary PATH [--runs N] [--seed S] [--kill display|either]
Prints one JSON summary line; exits 1 if any check failed."""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SERVER = os.path.join(ROOT, "Tests", "SplashTestSupport", "fault_server.py")
SHOW_TIME = {"steady": 1000000, "limited": 7}


def write_feed(www, revision):
    feed = [
        # A new picture URL every run, served slowly: kills land in the middle of downloads.
        {"id": "steady", "picUrl": "/slow/steady.jpg?rev=%d" % revision, "showTime": SHOW_TIME["steady"],
         "title": "rev %d" % revision, "updatedAt": "2026-01-01T00:00:00Z"},
        {"id": "limited", "picUrl": "limited.jpg", "showTime": SHOW_TIME["limited"],
         "updatedAt": "2026-06-01T00:00:00Z"},
    ]
    tmp = os.path.join(www, "feed.json.tmp")
    with open(tmp, "w") as f:
        json.dump(feed, f)
    os.replace(tmp, os.path.join(www, "feed.json"))


def ledger(db):
    con = sqlite3.connect(db, timeout=10)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        counts = dict(con.execute("SELECT campaign_id, COUNT(*) FROM shows GROUP BY campaign_id").fetchall())
    finally:
        con.close()
    return ok, counts


def partials(cache):
    if not os.path.isdir(cache):
        return set()
    return {n for n in os.listdir(cache) if n.startswith(".partial-")}


def network_child(pid):
    """The kiosk's network process, when it has started one."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        return None
    for child in children:
        try:
            with open("/proc/%d/comm" % child) as f:
                if f.read().strip().startswith("splashboard-net"):
                    return child
        except OSError:
            continue
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--max-wait", type=float, default=0.8)
    ap.add_argument("--kill", choices=["display", "either"], default="display")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)

    work = tempfile.mkdtemp(prefix="splashboard-crash-")
    www, data, cache = (os.path.join(work, d) for d in ("www", "data", "cache"))
    os.makedirs(www)
    shutil.copy(os.path.join(ROOT, "assets", "default-splash.jpg"), os.path.join(www, "steady.jpg"))
    shutil.copy(os.path.join(ROOT, "assets", "demo", "night-market.jpg"), os.path.join(www, "limited.jpg"))
    server = subprocess.Popen([sys.executable, SERVER, www], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    feed = "http://127.0.0.1:%d/files/feed.json" % port

    printed = {}
    problems = []
    kills = 0
    network_kills = 0
    shows_seen = 0
    leftover_checks = 0
    env = dict(os.environ, HOME=work)
    ok, counts = "not checked", {}
    try:
        for run in range(args.runs):
            write_feed(www, run)  # every run's first sync applies a changed feed
            before = partials(cache)
            proc = subprocess.Popen(
                [args.binary, "--headless", "--clock", "virtual", "--attract-after", "1", "--countdown", "1",
                 "--sync-interval", "10", "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            lines = []
            reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
            reader.start()
            time.sleep(rng.uniform(0.05, args.max_wait))
            # A temporary file from the previous kill must be gone once this run has started.
            if before and any(b'"first_frame"' in l for l in lines):
                leftover_checks += 1
                survivors = before & partials(cache)
                if survivors:
                    problems.append("run %d: temporary files survived the start: %s" % (run, sorted(survivors)))
            if args.kill == "either" and rng.random() < 0.5:
                # The network process goes first; the kiosk must go on drawing without it.
                child = network_child(proc.pid)
                if child is not None:
                    os.kill(child, signal.SIGKILL)
                    network_kills += 1
                    kills += 1
                    frames_before = sum(1 for l in lines if b'"frame"' in l)
                    time.sleep(rng.uniform(0.3, args.max_wait + 0.3))
                    if proc.poll() is not None:
                        problems.append("run %d: the kiosk ended (%s) after its network process was killed"
                                        % (run, proc.returncode))
                    elif sum(1 for l in lines if b'"frame"' in l) <= frames_before:
                        problems.append("run %d: no frame drawn after the network process was killed" % run)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            reader.join(timeout=5)
            kills += 1
            for line in lines:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue  # the kill may cut the last line
                if event.get("event") == "splash" and event.get("campaign"):
                    printed[event["campaign"]] = printed.get(event["campaign"], 0) + 1
                    shows_seen += 1
            if not os.path.exists(os.path.join(data, "splashboard.db")):
                continue
            ok, counts = ledger(os.path.join(data, "splashboard.db"))
            if ok != "ok":
                problems.append("run %d: integrity_check says %s" % (run, ok))
            for campaign, n in printed.items():
                if counts.get(campaign, 0) < n:
                    problems.append("run %d: %s printed %d splashes, ledger has %d" % (run, campaign, n, counts.get(campaign, 0)))
            for campaign, limit in SHOW_TIME.items():
                if counts.get(campaign, 0) > limit:
                    problems.append("run %d: %s shown %d times, showTime %d" % (run, campaign, counts[campaign], limit))
        # One last start to clear whatever the last kill left. (Its own sync may begin a
        # new download before it exits; only files from before the start must be gone.)
        before = partials(cache)
        final = subprocess.run([args.binary, "--headless", "--clock", "virtual", "--exit-after", "first-frame",
                                "--feed", feed, "--data-dir", data, "--cache-dir", cache],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, timeout=60)
        if final.returncode != 0:
            problems.append("the start after the last kill failed with %d" % final.returncode)
        if before & partials(cache):
            problems.append("temporary files survived the final start: %s" % sorted(before & partials(cache)))
        ok, counts = ledger(os.path.join(data, "splashboard.db"))
    except Exception as error:  # the summary is printed whatever happened, with the reason
        problems.append("the loop stopped: %r" % (error,))
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)

    summary = {"seed": seed, "runs": args.runs, "kills": kills, "network_kills": network_kills,
               "splashes_printed": shows_seen,
               "ledger": counts, "show_time": SHOW_TIME, "leftover_checks": leftover_checks,
               "integrity": ok, "problems": problems}
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
