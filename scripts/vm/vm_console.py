"""The main run: the kiosk on the console of one virtio GPU, with its tablet and keyboard:
its processes and users, the screen, taps and keys, rotation, the syscall filter, the
sandbox and the watchdog."""

import re
import shutil
import time

from vmlib import VM, image_arch
from vmcommon import (
    OUT, UNIT, NET_UNIT, journal_length, wait_journal, restart, main_pid, activated_at,
    set_config, is_small, LONG_COUNTDOWN, COUNTING, pill_box, last_countdown, traced_outside_filter, screen_path,
    journal_stamp, syscalls_allowed,
)


def run_console(folder, accel, report):
    """The main run: one virtio GPU, tablet and keyboard, no network."""
    vm = VM(folder, "console", accel=accel, gpus="virtio")
    vm.start()
    try:
        vm.login()
        first = wait_journal(vm, r"first_frame", 0, 120)
        pid = main_pid(vm)
        screen = vm.screendump("boot")
        active = vm.sh("systemctl is-active splashboard")[1].strip()
        report.check("the kiosk is on the console after power-on, through its own unit",
                     first is not None and active == "active" and not screen.is_black(),
                     f"state {active}, {first and first.split('splashboard: ')[-1]}")
        started = wait_journal(vm, r"started version", 0, 5) or ""
        report.check("it draws through libdrm dumb buffers in software (no GL)",
                     'driver="drm"' in started and 'renderer="software"' in started,
                     started.split("splashboard: ")[-1])
        uid = vm.sh(f"awk '/^Uid:/ {{print $2}}' /proc/{pid}/status")[1].strip()
        kiosk_uid = vm.sh("id -u splashboard")[1].strip()
        report.check("as the splashboard user", uid == kiosk_uid and uid != "0", f"uid {uid}")
        status, pkgs = vm.sh("dpkg-query -W -f '${Package}\\n' | grep -E '^(xserver|xorg|libgl1-mesa-dri|libegl|mesa)' "
                             "| grep -vx mesa-libgallium || true")
        # (libgbm, a small loader, comes with Debian's SDL2 package; without a DRI driver it
        # does nothing, and the kiosk never calls it. On Debian 13 libgbm1 depends on Mesa's
        # gallium library, so it is installed there; it must never be loaded.)
        maps = vm.sh(f"grep -cE 'libEGL|libGL[.X]|libGLES|_dri[.]so|libgallium' /proc/{pid}/maps || true")[1].strip()
        report.check("without X, Mesa or EGL installed or loaded", pkgs.strip() == "" and maps == "0",
                     f"packages: {pkgs.strip() or 'none'}; GL libraries mapped: {maps}")
        getty = vm.sh("systemctl is-active getty@tty1")[1].strip()
        report.check("no login prompt on tty1 while the kiosk has it", getty != "active", f"getty@tty1 {getty}")

        # Two processes: the display has no network and maps no networking code; the network
        # process (started by its socket at the display's first request) has no devices.
        synced = wait_journal(vm, r"sync status=", 0, 120)
        net_pid = vm.sh("systemctl show -p MainPID --value splashboard-net")[1].strip()
        net_active = vm.sh("systemctl is-active splashboard-net")[1].strip()
        lib_count = "awk '$6 ~ /[.]so/ {print $6}' /proc/%s/maps | sort -u | wc -l"
        networking = "grep -cE 'libcurl|libssl|libgnutls|libnghttp2|libssh2|FoundationNetworking' /proc/%s/maps || true"
        display_libs = vm.sh(lib_count % pid)[1].strip()
        display_net = vm.sh(networking % pid)[1].strip()
        net_libs = vm.sh(lib_count % net_pid)[1].strip()
        net_net = vm.sh(networking % net_pid)[1].strip()
        report.check("the display process maps none of libcurl's libraries; the network process does",
                     synced is not None and net_active == "active" and display_net == "0" and net_net not in ("", "0"),
                     f"display: {display_libs} libraries, {display_net} networking mappings; network process "
                     f"({net_active}): {net_libs} libraries, {net_net} networking mappings; "
                     f"{synced and synced.split('splashboard: ')[-1]}")
        own_ns = vm.sh(f"readlink /proc/{pid}/ns/net")[1].strip()
        init_ns = vm.sh("readlink /proc/1/ns/net")[1].strip()
        families = vm.sh("systemctl show -p RestrictAddressFamilies --value splashboard")[1].strip()
        report.check("the display process has no network: a namespace of its own, AF_UNIX only",
                     own_ns != init_ns and families == "AF_UNIX", f"{own_ns} (init {init_ns}); families {families}")
        devices = vm.sh(f"nsenter -t {net_pid} -m -- ls /dev")[1].split()
        seen = [d for d in ("dri", "input", "tty1", "fb0", "card0") if d in devices]
        report.check("the network process sees no DRM, input or console device", bool(devices) and not seen,
                     f"/dev in its namespace: {' '.join(devices)}")

        # The network process is a user of its own: it cannot signal the display, use its
        # control socket or rewrite a picture it has checked; both run within their limits.
        net_uid = vm.sh(f"awk '/^Uid:/ {{print $2}}' /proc/{net_pid}/status")[1].strip()
        own_net_uid = vm.sh("id -u splashboard-net")[1].strip()
        signal = vm.sh(f"runuser -u splashboard-net -- kill -0 {pid}")[0]
        control = vm.sh("runuser -u splashboard-net -- splashboard status")
        modes = vm.sh("stat -c '%U:%G:%a' /var/cache/splashboard/* | sort | uniq -c")[1].strip()
        folders = vm.sh("stat -c '%n %U:%G:%a' /var/lib/splashboard /var/cache/splashboard")[1].strip()
        report.check("the network process runs as splashboard-net: it cannot signal the display or use its control "
                     "socket, and the pictures it cached are read-only to the display",
                     net_uid == own_net_uid and net_uid not in ("", "0", uid) and signal != 0 and control[0] != 0
                     and modes and all(line.split()[-1] == "splashboard-net:splashboard-data:640"
                                       for line in modes.splitlines()),
                     f"uid {net_uid}; kill -0 as it: exit {signal}; status as it: {control[1].strip()[:90]}; "
                     f"cache files: {modes.replace(chr(10), ', ')}; {folders.replace(chr(10), ', ')}")
        shown = wait_journal(vm, r'splash campaign="', 0, 60)
        db_modes = vm.sh("stat -c '%n %a' /var/lib/splashboard/splashboard.db*")[1].strip()
        report.check("the network process applies the feed to the shared database and the display counts its shows "
                     "(the database's files are the group's to write)",
                     synced is not None and 'status="error"' not in synced and shown is not None and db_modes
                     and all(line.split()[-1] in ("660", "2660") for line in db_modes.splitlines()),
                     f"{synced and synced.split('splashboard: ')[-1][:100]}; {shown and shown.split('splashboard: ')[-1][:80]}; "
                     f"{db_modes.replace(chr(10), ', ')}")
        usage = {}
        for unit, unit_pid in (("splashboard", pid), ("splashboard-net", net_pid)):
            limits = vm.sh(f"systemctl show -p LimitNOFILE,TasksMax,MemoryMax --value {unit} | tr '\\n' ' '")[1].strip()
            fds = vm.sh(f"ls /proc/{unit_pid}/fd | wc -l")[1].strip()
            threads = vm.sh(f"awk '/^Threads:/ {{print $2}}' /proc/{unit_pid}/status")[1].strip()
            peak = vm.sh(f"awk '/^VmHWM:/ {{print $2}}' /proc/{unit_pid}/status")[1].strip()
            usage[unit] = f"{unit}: limits {limits}; {fds} descriptors, {threads} threads, peak {int(peak or 0) // 1024} MiB"
        report.check("both units have LimitNOFILE, TasksMax and MemoryMax set, above what they use",
                     all("infinity" not in u.split(";")[0] for u in usage.values()), "; ".join(usage.values()))

        # The remote commands, as the service user, against the sandboxed service.
        code, status = vm.sh("runuser -u splashboard -- splashboard status --json")
        code_shot, shot_line = vm.sh("runuser -u splashboard -- splashboard screenshot /tmp/remote.png && "
                                     "head -c 8 /tmp/remote.png | od -An -tx1")
        report.check("splashboard status and screenshot answer from the running service (/run/splashboard)",
                     code == 0 and '"scene"' in status and code_shot == 0 and "89 50 4e 47" in shot_line,
                     f"{status.strip()[:160]}; screenshot: {shot_line.strip()[:80]}")

        # Either process killed: the other carries on.
        shot_before = vm.screendump("net-kill-before")
        vm.sh("systemctl kill -s KILL splashboard-net")
        time.sleep(6)
        same = main_pid(vm) == pid and vm.sh("systemctl is-active splashboard")[1].strip() == "active"
        back = vm.sh("systemctl show -p NRestarts --value splashboard-net")[1].strip()
        shot_after = vm.screendump("net-kill-after")
        report.check("the network process killed: the display carries on, and the network process comes back",
                     same and not shot_after.is_black() and back not in ("", "0"),
                     f"display pid {'unchanged' if same else 'changed'}; splashboard-net NRestarts={back}; "
                     f"screen {'drawn' if not shot_after.is_black() else 'black'}")
        del shot_before
        ff = activated_at(vm, "splashboard")
        report.timeline.append(("first frame (READY=1), virtio GPU, no network", ff))
        _, chain = vm.sh("systemd-analyze critical-chain splashboard.service --no-pager 2>&1 | tail -n +3")
        report.timeline.append(("critical chain", chain))
        shutil.copy(screen_path(vm, "boot"), OUT + "/boot.ppm")

        # The countdown ticks in the pill, then the detail screen.
        set_config(vm, ["countdown = 8"])
        restart(vm)
        frames = []
        t_end = time.time() + 18
        while time.time() < t_end:
            frames.append(vm.screendump(f"cd{len(frames)}"))
            time.sleep(0.2)
        distinct = [frames[0]]
        for f in frames[1:]:
            if f.diff_box(distinct[-1], step=4) is not None:
                distinct.append(f)
        boxes = [distinct[i].diff_box(distinct[i + 1]) for i in range(len(distinct) - 1)]
        ticks = [i for i, b in enumerate(boxes) if is_small(b, distinct[0]) and b[0] > distinct[0].width * 0.6
                 and b[3] < distinct[0].height * 0.25]
        big_after = [i for i, b in enumerate(boxes) if ticks and i > ticks[-1] and not is_small(b, distinct[0], 0.3)]
        report.check("the countdown ticks in the pill (screendumps differ only there), then the detail screen",
                     len(ticks) >= 3 and bool(big_after),
                     f"{len(ticks)} ticks inside the pill, boxes {[boxes[i] for i in ticks][:3]}; "
                     f"detail after: {bool(big_after)}")
        if ticks:
            distinct[ticks[0]].save_png(OUT + "/splash.png")
        distinct[-1].save_png(OUT + "/detail.png")

        # A tap on the pill skips; a tap elsewhere clicks through; Esc skips.
        set_config(vm, [f"countdown = {LONG_COUNTDOWN}"])
        start = restart(vm)
        box, shot = pill_box(vm, start)
        if box:
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            vm.tap(cx, cy, (shot.width, shot.height))
            line = wait_journal(vm, r"skip by=", start, 15)
            report.check("a tap on the pill via the tablet skips (skip by=tap)", line and 'by="tap"' in line,
                         f"tap at {cx},{cy}: {line and line.split('splashboard: ')[-1]}")
        else:
            report.check("a tap on the pill via the tablet skips (skip by=tap)", False, "pill not found")
        start = restart(vm)
        at = None
        if wait_journal(vm, COUNTING, start, 60):
            at = last_countdown(vm, start)
            vm.tap(400, 500, (1280, 800))
        line = wait_journal(vm, r"skip by=", start, 15)
        report.check("a tap elsewhere on the picture clicks through", line and 'by="click_through"' in line,
                     f"tapped at {at} left: {line and line.split('splashboard: ')[-1]}")
        start = restart(vm)
        at = None
        if wait_journal(vm, COUNTING, start, 60):
            at = last_countdown(vm, start)
            vm.key("esc")
        line = wait_journal(vm, r"skip by=", start, 15)
        report.check("Esc on the keyboard skips", line and 'by="key"' in line,
                     f"pressed at {at} left: {line and line.split('splashboard: ')[-1]}")

        # Rotated: the picture turns, and a tap on the turned pill still skips.
        set_config(vm, [f"countdown = {LONG_COUNTDOWN}", "rotate = 90"])
        start = restart(vm)
        box, shot = pill_box(vm, start)
        if box:
            shot.save_png(OUT + "/rotated.png")
            turned = box[0] > shot.width / 2 and box[1] > shot.height / 2
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            vm.tap(cx, cy, (shot.width, shot.height))
            line = wait_journal(vm, r"skip by=", start, 15)
            report.check("rotate = 90 turns the picture and a tap on the turned pill skips",
                         turned and line and 'by="tap"' in line,
                         f"pill at {box} (bottom right when turned), {line and line.split('splashboard: ')[-1]}")
        else:
            report.check("rotate = 90 turns the picture and a tap on the turned pill skips", False, "pill not found")

        # Idle on the detail screen.
        set_config(vm, ["countdown = 1", "attract-after = 0"])
        start = restart(vm)
        wait_journal(vm, r"detail campaign", start, 60)
        time.sleep(8)
        pid = main_pid(vm)
        # A wake-up is a sleep that ended: voluntary switches (a preemption in the middle of
        # work, frequent under emulation, is none).
        probe = (f"cat /proc/{pid}/stat | awk '{{print $14+$15}}'; "
                 f"cat /proc/{pid}/task/*/status | awk '/^voluntary_ctxt_switches/ {{s+=$2}} END {{print s}}'")
        before = [int(x) for x in vm.sh(probe)[1].split()]
        time.sleep(60)
        after = [int(x) for x in vm.sh(probe)[1].split()]
        hz = int(vm.sh("getconf CLK_TCK")[1].strip() or 100)
        cpu = (after[0] - before[0]) / hz / 60 * 100
        wakeups = (after[1] - before[1]) / 60
        if image_arch(folder) == "amd64":
            report.check("idle on the detail screen: CPU <= 0.5 % of a core and <= 1 wake-up a second over 60 s",
                         cpu <= 0.5 and wakeups <= 1.0, f"CPU {cpu:.2f} %, {wakeups:.2f} wake-ups/s")
        else:
            # Every instruction of an arm64 guest is emulated here: its CPU time says how fast
            # the emulator is, not the kiosk (reported); how often it wakes is the kiosk's own.
            report.check("idle on the detail screen: <= 1 wake-up a second over 60 s (CPU time under emulation "
                         "reported, not judged)", wakeups <= 1.0, f"CPU {cpu:.2f} % of an emulated core, "
                         f"{wakeups:.2f} wake-ups/s")

        # The syscall filter against what the program calls on the console (DRM, evdev, the
        # operator view, exit), traced as the splashboard user with the service stopped.
        vm.sh("systemctl stop splashboard")
        vm.sh("printf '%s\\n' '1 tap skip' '3 key f2' '5 key escape' > /tmp/console.script")
        called, missing = traced_outside_filter(
            vm, "/usr/bin/splashboard --data-dir /var/lib/splashboard --cache-dir /var/cache/splashboard "
                "--network-socket /run/splashboard-net.sock --exit-after 8 --script /tmp/console.script", UNIT)
        report.check("the syscall filter allows every call the console path makes", bool(called) and not missing,
                     f"{len(called)} system calls traced; outside the filter: {missing or 'none'}")
        # And the network process's filter against a sync of the demo feed with its pictures.
        called, missing = traced_outside_filter(
            vm, "/usr/libexec/splashboard/splashboard-net sync --data-dir /tmp/net-data --cache-dir /tmp/net-cache",
            NET_UNIT, user="splashboard-net")
        report.check("the network process's syscall filter allows every call a sync makes", bool(called) and not missing,
                     f"{len(called)} system calls traced; outside the filter: {missing or 'none'}")
        if image_arch(folder) != "amd64":
            # The paths without a screen, traced on x86_64 by vm-test.py on the host: here, in
            # the guest, for its own architecture (the headless kiosk with its operator view,
            # then campaigns and cache clear).
            vm.sh("rm -rf /tmp/h && mkdir -p /tmp/h && chown splashboard /tmp/h")
            called, missing = traced_outside_filter(
                vm, "/usr/bin/splashboard --headless --data-dir /tmp/h/data --cache-dir /tmp/h/cache "
                    "--exit-after 8 --script /tmp/console.script", UNIT)
            for command in ("campaigns", "cache clear"):
                more, _ = traced_outside_filter(
                    vm, f"/usr/bin/splashboard {command} --data-dir /tmp/h/data --cache-dir /tmp/h/cache", UNIT)
                called |= more
            missing = sorted(called - syscalls_allowed(vm, UNIT))
            report.check(f"the syscall filter allows every call of the paths without a screen on {image_arch(folder)} "
                         "(headless kiosk and its sync, operator view, campaigns, cache clear)", bool(called) and not missing,
                         f"{len(called)} system calls traced; outside the filter: {missing or 'none'}")
        vm.sh("systemctl start splashboard")

        # The sandbox.
        pid = main_pid(vm)
        gid = vm.sh("id -g splashboard")[1].strip()
        groups = vm.sh("id -G splashboard | tr ' ' ','")[1].strip()
        enter = f"nsenter -t {pid} -m -S {kiosk_uid} -G {gid} --"
        home = vm.sh(f"{enter} cat /home/alice/secret")[0]
        root = vm.sh(f"{enter} cat /root/secret")[0]
        report.check("the service cannot read /root or /home", home != 0 and root != 0,
                     f"cat exit status {home} and {root} inside its mount namespace; groups {groups}")
        caps = vm.sh(f"grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/{pid}/status | awk '{{print $2}}' | sort -u")[1].split()
        report.check("it runs with no capabilities", caps == ["0000000000000000"], " ".join(caps))
        for unit in ("splashboard.service", "splashboard-net.service"):
            _, security = vm.sh(f"systemd-analyze security {unit} --no-pager 2>&1 | tail -n 1")
            m = re.search(r"level for \S+: ([\d.]+)", security)
            level = float(m.group(1)) if m else 99
            report.check(f"systemd-analyze security of {unit} is at or below 2.0", level <= 2.0, security.strip())
        sigsys = vm.sh("journalctl -b --no-pager 2>/dev/null | grep -cE 'SIGSYS|code=killed, status=31' || true")[1].strip()
        report.check("the syscall filter lets the program run (no SIGSYS this boot)", sigsys == "0", f"{sigsys} lines")
        restarts = vm.sh("systemctl show -p NRestarts --value splashboard")[1].strip()
        uptime = float(vm.sh("cut -d' ' -f1 /proc/uptime")[1].strip())
        report.check("the service stays up (NRestarts=0) for 2 minutes", restarts == "0" and uptime >= 120,
                     f"NRestarts={restarts} after {uptime:.0f} s")

        # A hung kiosk is restarted by the watchdog.
        set_config(vm, [])
        start = restart(vm)
        wait_journal(vm, r"first_frame", start, 60)
        pid = main_pid(vm)
        watchdog = vm.sh("systemctl show -p WatchdogUSec --value splashboard")[1].strip()
        start = journal_length(vm)
        stopped_at = float(vm.sh(f"cut -d' ' -f1 /proc/uptime; kill -STOP {pid}")[1].split()[0])
        back = wait_journal(vm, r"first_frame", start, 90)
        stamp = journal_stamp(vm, "first_frame")
        took = stamp - stopped_at if stamp is not None else 999
        report.check("a hung kiosk (kill -STOP) is restarted within 2 x WatchdogSec",
                     back is not None and main_pid(vm) != pid and took <= 20,
                     f"WatchdogSec {watchdog}, first frame again {took:.1f} s after the stop (guest clock)")
        vm.sh("sync")
    finally:
        vm.power_cut()
