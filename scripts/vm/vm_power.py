"""Power cuts at random moments: the ledger and the database survive every one."""

import os
import random
import subprocess
import time

from vmlib import VM, log
from vmcommon import (
    wait_journal, restart, set_config,
)


def run_power_cuts(folder, accel, report, cuts, seed):
    rng = random.Random(seed)
    report.note(f"power cuts: {cuts}, random seed {seed}")
    vm = VM(folder, "power", accel=accel, gpus="virtio", extra_cmdline="fsck.mode=force fsck.repair=no")
    vm.start()
    bad = []
    worst_shows = 0
    fsck_seen = False
    try:
        vm.login()
        set_config(vm, ["feed = file:///usr/local/share/vmtest/feed.json", "countdown = 2", "attract-after = 2",
                        "sync-interval = 10"])
        vm.sh("systemctl restart splashboard; sync")
        for i in range(cuts + 1):
            if i > 0:
                vm = VM(folder, "power", accel=accel, gpus="virtio", extra_cmdline="fsck.mode=force fsck.repair=no",
                        fresh=False)
                vm.start()
                vm.login()
                # The root filesystem as this boot found it: the kernel replays its journal at
                # mount; systemd-fsck-root (or the initramfs's fsck) checks it, forced by
                # fsck.mode=force; and the kernel reports any ext4 error it meets.
                status = vm.sh("systemctl show -p ExecMainStatus --value systemd-fsck-root")[1].strip()
                passes = vm.sh("journalctl -b -u systemd-fsck-root -o cat --no-pager 2>/dev/null | grep -c '^Pass 5' || true")[1]
                fsck = f"e2fsck -f exit {status}" if passes.strip() == "1" else f"not run ({status})"
                failed = "failed" if status not in ("0", "") else vm.sh("systemctl is-failed systemd-fsck-root")[1].strip()
                ext4 = vm.sh("dmesg | grep -c 'EXT4-fs error' || true")[1].strip()
                back = wait_journal(vm, r"first_frame", 0, 120)
                integrity = vm.sh("runuser -u splashboard -- sqlite3 /var/lib/splashboard/splashboard.db "
                                  "'PRAGMA integrity_check'")[1].strip()
                shows = vm.sh("runuser -u splashboard -- sqlite3 /var/lib/splashboard/splashboard.db "
                              "\"SELECT count(*) FROM shows WHERE campaign_id='capped'\"")[1].strip()
                partial = vm.sh("ls -A /var/cache/splashboard | grep -c '^.partial-' || true")[1].strip()
                shot = vm.screendump(f"cut{i}")
                n = int(shows) if shows.isdigit() else 999
                worst_shows = max(worst_shows, n)
                problems = []
                if failed == "failed" or fsck != "e2fsck -f exit 0" or ext4 != "0":
                    problems.append(f"filesystem: {fsck.strip()} ({ext4} ext4 errors)")
                fsck_seen = fsck_seen or fsck == "e2fsck -f exit 0"
                if integrity != "ok":
                    problems.append(f"integrity: {integrity}")
                if n > 12:
                    problems.append(f"{n} shows of a campaign allowed 12")
                if partial != "0":
                    problems.append(f"{partial} partial cache files")
                if back is None or shot.is_black():
                    problems.append("kiosk not back on screen")
                if problems:
                    bad.append(f"cut {i}: " + "; ".join(problems))
                log(f"   cut {i}: fsck {fsck.strip() or 'not run'}, ext4 errors {ext4}, integrity {integrity}, "
                    f"capped shows {shows}/12, partial files {partial}, kiosk {'back' if back else 'MISSING'}")
            if i < cuts:
                time.sleep(rng.uniform(1, 14))
                vm.power_cut()
        # Last, a clean shutdown and an offline check of the whole filesystem from the host.
        vm.serial.sendall(b"systemctl poweroff\n")
        vm.proc.wait(timeout=120)
        raw = os.path.join(vm.work, "final.raw")
        subprocess.run(["qemu-img", "convert", "-O", "raw", vm.overlay, raw], check=True)
        offline = subprocess.run(["e2fsck", "-fn", raw], capture_output=True, text=True)
        os.unlink(raw)
        if offline.returncode != 0:
            bad.append(f"e2fsck -fn after the last boot: exit {offline.returncode}: {offline.stdout[-400:]}")
        if not fsck_seen:
            bad.append("no boot ran a full e2fsck")
        report.check(f"{cuts} power cuts during shows and syncs: clean filesystem and database, no over-show, "
                     "no partial cache file, the kiosk back every boot", not bad,
                     "; ".join(bad) or f"most shows of the capped campaign: {worst_shows}/12; "
                     f"e2fsck -f at every boot and e2fsck -fn of the final image clean")
    finally:
        vm.power_cut()
