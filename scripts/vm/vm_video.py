"""Video campaigns on the console: a feed with an H.264 and a VP9 campaign, synced by hand
(`splashboard sync`: each clip probed by the media process), then each played
under the pill on the DRM screen by the media process the display starts: screendumps a
second apart differ in the clip and in the pill, each show is counted once as a video, the
display maps no libavcodec while its media process does, under a syscall filter of its own,
and nothing is restarted or killed."""

import re
import time

from vm_displays import picture_share
from vmcommon import OUT, journal_length, set_config, wait_journal
from vmlib import VM


def run_video(folder, accel, report):
    vm = VM(folder, "video", accel=accel, gpus="virtio")
    vm.start()
    try:
        vm.login()
        wait_journal(vm, r"detail campaign", 0, 120)
        # The display steps aside while the clips are fetched and probed: a clip still on its
        # way is no failure (its campaign shows its poster, README), but each campaign here has
        # one show, and on a slow machine (the arm64 VM probes for minutes) it would go to the
        # poster. The operator's own way: `splashboard sync` by hand, then the kiosk.
        vm.sh("systemctl stop splashboard.service splashboard-net.service")
        set_config(vm, ["feed = file:///usr/local/share/vmtest/video-feed.json", "attract-after = 5"])
        status, synced = vm.sh("splashboard sync 2>&1", timeout=600)
        report.check("`splashboard sync` fetches the video feed: both clips probed by the media process and cached",
                     status == 0 and "3 campaigns, 3 eligible" in synced and "warning" not in synced
                     and "error" not in synced,
                     f"exit {status}: {' | '.join(synced.strip().splitlines())}")
        _, listed = vm.sh("splashboard campaigns 2>&1")
        report.check("`splashboard campaigns` names each clip as the media process found it",
                     "h264 640x360 15 fps 8.0 s" in listed and "vp9 640x360 15 fps 8.0 s" in listed,
                     listed.replace("\n", " | ")[-400:])
        start = journal_length(vm)
        vm.sh("systemctl start splashboard.service")
        played = {}
        for round_ in range(2):
            splash = wait_journal(vm, r"splash campaign=\"(h264|vp9)\".*media=\"video\"", start, 90)
            campaign = re.search(r'campaign="(\w+)"', splash or "")
            first = wait_journal(vm, r"video ms=", start, 15)
            # The display's child running splashboard-media, found by its parent's pid (not every
            # kernel has /proc/PID/task/*/children: Debian's arm64 one has not), in one shell
            # command with no program started per process (the clip lasts 8 s, and a fork per
            # process takes that long under emulation).
            _, found = vm.sh("pid=$(systemctl show -p MainPID --value splashboard); echo $pid; "
                             "for f in $(grep -la splashboard-media /proc/[0-9]*/cmdline 2>/dev/null); do "
                             "d=${f%/cmdline}; grep -q \"^PPid:[[:space:]]*$pid$\" $d/status 2>/dev/null && echo ${d#/proc/}; "
                             "done | head -n 1")
            pid, media = (found.split() + ["", ""])[:2]
            _, maps = vm.sh(f"grep -c libavcodec /proc/{pid}/maps; grep -c libavcodec /proc/{media or 0}/maps 2>/dev/null; "
                            f"grep -E '^(Seccomp|NoNewPrivs):' /proc/{media or 0}/status 2>/dev/null | tr '\\n' ' '")
            a = vm.screendump(f"video-{round_}-a")
            time.sleep(1.0)
            b = vm.screendump(f"video-{round_}-b")
            a.save_png(f"{OUT}/video-{round_}-a.png")
            b.save_png(f"{OUT}/video-{round_}-b.png")
            box = a.diff_box(b)
            # The pill: the top-right corner of the screen.
            pill = (int(a.width * 0.8), 0, a.width, int(a.height * 0.15))
            pill_changed = box is not None and box[2] > pill[0] and box[1] < pill[3]
            counts = maps.split()
            name = campaign.group(1) if campaign else "?"
            played[name] = played.get(name, 0) + 1
            report.check(f"{name}: the clip plays under the pill on the console (screendumps a second apart differ "
                         "in the clip and in the pill; the screen is lit)",
                         splash is not None and first is not None and box is not None
                         and (box[2] - box[0]) * (box[3] - box[1]) > 0.2 * a.width * a.height and pill_changed
                         and picture_share(a) > 0.3,
                         f"{first}; changed {box} on {a.width}x{a.height}; pill changed: {pill_changed}")
            report.check(f"{name}: the display maps no libavcodec; its media process does, under a syscall filter "
                         "of its own (Seccomp 2, NoNewPrivs 1)",
                         len(counts) >= 2 and counts[0] == "0" and counts[1] != "0"
                         and re.search(r"Seccomp:\s+2", maps) is not None and re.search(r"NoNewPrivs:\s+1", maps) is not None,
                         f"display libavcodec mappings {counts[0] if counts else '?'}; media pid {media}: "
                         f"{counts[1] if len(counts) > 1 else '?'} libavcodec mappings, "
                         + " ".join(maps.split()[2:]))
            ended = wait_journal(vm, r"video_ended presented=", start, 30)
            report.check(f"{name}: the splash ends with its countdown, the clip's frames shown: {ended}",
                         ended is not None and int(re.search(r"presented=(\d+)", ended).group(1)) > 30, f"{ended}")
            start = journal_length(vm)
        # What both processes said, kept for whoever reads a failure.
        _, said = vm.sh("journalctl -b -u splashboard -u splashboard-net -o cat --no-pager 2>/dev/null | tail -n 80", timeout=120)
        with open(f"{OUT}/video-journal.txt", "w") as f:
            f.write(said)
        _, rows = vm.sh("sqlite3 /var/lib/splashboard/splashboard.db "
                        "\"SELECT campaign_id || ':' || count(*) || ':' || group_concat(media) FROM shows "
                        "WHERE campaign_id IN ('h264', 'vp9') GROUP BY campaign_id\"")
        report.check("each video campaign was shown once, and the ledger says it was a video",
                     sorted(rows.split()) == ["h264:1:video", "vp9:1:video"] and played == {"h264": 1, "vp9": 1},
                     f"{' '.join(rows.split())} (played {played})")
        _, errors = vm.sh("journalctl -b -u splashboard -u splashboard-net -o cat --no-pager 2>/dev/null | grep -E 'error message=|SIGSYS|code=killed' "
                          "| head -n 5")
        _, restarts = vm.sh("systemctl show -p NRestarts --value splashboard")
        report.check("no error, no SIGSYS and no restart while the clips played",
                     not errors.strip() and restarts.strip() == "0", f"{errors.strip() or 'no errors'}; restarts {restarts.strip()}")
    finally:
        vm.power_cut()
