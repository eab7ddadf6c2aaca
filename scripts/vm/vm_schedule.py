"""The screen schedule as it really runs: hours that end a minute or two after the kiosk
starts and begin again a minute later. At the end the TV (the `vivid` test driver's
emulated HDMI input, configured as a TV with cec-ctl) receives <Standby> over the kernel's
CEC framework, the CRTC is inactive, nothing is counted and the kiosk's loop sleeps; at
the start <Image View On> and <Active Source> arrive and a splash is shown and counted.
Then `splashboard screen off|on` does the same at once, and a TV that acknowledges
nothing gets each message three times before the signal goes off without it."""

import re
import time
from datetime import datetime, timedelta, timezone

from vm_displays import picture_share
from vmcommon import OUT, journal_length, set_config, wait_journal
from vmlib import VM


def said(line):
    return line and line.split("splashboard: ")[-1]


def crtc_active(vm):
    """The first CRTC's `active` in the DRM state (debugfs): '1', '0' or '?'."""
    _, out = vm.sh("mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; "
                   "grep -m1 -E '^\\s*active=' /sys/kernel/debug/dri/0/state || true")
    m = re.search(r"active=(\d)", out)
    return m.group(1) if m else "?"


def shows(vm):
    _, out = vm.sh("sqlite3 /var/lib/splashboard/splashboard.db 'SELECT count(*) FROM ledger' 2>&1")
    return int(out.strip()) if out.strip().isdigit() else -1


def main_thread_switches(vm):
    """The kiosk's main thread's voluntary and involuntary context switches so far."""
    _, out = vm.sh("p=$(systemctl show -p MainPID --value splashboard); "
                   "grep ctxt_switches /proc/$p/task/$p/status | awk '{s+=$2} END {print s}'")
    return int(out.strip() or -1)


def cec_log(vm):
    return vm.sh("cat /tmp/cec-tv.log 2>/dev/null")[1]


def run_schedule(folder, accel, report):
    vm = VM(folder, "schedule", accel=accel, gpus="virtio")
    vm.start()
    try:
        vm.login()
        wait_journal(vm, r"detail campaign", 0, 120)
        # The emulated HDMI: vivid's input is the TV, its output the kiosk's CEC adapter.
        vm.sh("modprobe vivid n_devs=1 node_types=0x101 num_inputs=1 input_types=0x03 num_outputs=1 output_types=0x01")
        time.sleep(2)
        # Newer vivid (Debian 13's 6.12) connects its HDMI input to a test pattern generator
        # until told to take vivid's own HDMI output: then the output sees the input's EDID
        # and gets a physical address, as a kiosk's port does from its TV. (Debian 12's has no
        # such control and is connected already.)
        _, menus = vm.sh("for v in /dev/video*; do v4l2-ctl -d $v -L 2>/dev/null | grep -A4 'hdmi_000_0_is_connected_to' "
                         "| sed \"s|^|$v |\"; done")
        for line in menus.splitlines():
            m = re.match(r"(\S+)\s+(\d+): (.*)", line)
            # The menu: "0: Test Pattern Generator", "1: None", "2: Output HDMI 000-0".
            if m and m.group(3).strip().startswith("Output"):
                vm.sh(f"v4l2-ctl -d {m.group(1)} --set-ctrl hdmi_000_0_is_connected_to={m.group(2)}")
                time.sleep(2)
                break
        _, adapters = vm.sh("for d in /dev/cec*; do echo \"$d $(cec-ctl -d $d | grep -m1 'Adapter ' | awk '{print $NF}')\"; done")
        tv = next((line.split()[0] for line in adapters.splitlines() if "vid-cap" in line), None)
        source = next((line.split()[0] for line in adapters.splitlines() if "vid-out" in line), None)
        report.check("vivid's emulated HDMI brings two CEC adapters: the input (the TV) and the output (the kiosk's)",
                     tv is not None and source is not None, adapters.replace("\n", "; "))
        if not tv or not source:
            return
        vm.sh(f"cec-ctl -d {tv} --tv --osd-name TV >/dev/null")
        vm.sh(f"(cec-ctl -d {tv} --monitor > /tmp/cec-tv.log 2>&1 &)")
        # cec-follower plays the TV's part: it goes to standby at <Standby> and wakes at <Image View On>.
        vm.sh(f"(cec-follower -d {tv} > /tmp/cec-follower.log 2>&1 &)")

        def tv_power():
            """The TV's power status, as the kiosk's adapter asks it."""
            out = vm.sh(f"cec-ctl -d {source} --to 0 --give-device-power-status 2>&1 | grep -m1 pwr-state || true")[1]
            m = re.search(r"pwr-state: ([a-z-]+)", out)
            return m.group(1) if m else "?"
        # Hours that end at the minute after next and begin again a minute after that (UTC, the VM's zone).
        _, now_text = vm.sh("date -u +%s")
        now = datetime.fromtimestamp(int(now_text.strip()), timezone.utc)
        end = (now + timedelta(minutes=2)).replace(second=0, microsecond=0)
        again = end + timedelta(minutes=1)
        hours = f"{(now - timedelta(minutes=5)):%H:%M}-{end:%H:%M}, {again:%H:%M}-{(again + timedelta(hours=2)):%H:%M}"
        set_config(vm, [f"screen-hours = {hours}"])
        start = journal_length(vm)
        vm.sh("systemctl restart splashboard")
        wait_journal(vm, r"first_frame", start, 60)
        lit = wait_journal(vm, r"screen state=\"on\" reason=\"start\"", start, 5)
        status_on = vm.sh("splashboard status | grep '^power:'")[1].strip()

        off = wait_journal(vm, r"screen state=\"off\"", start, 240)
        _, wall = vm.sh("journalctl -b -u splashboard -o short-unix --no-pager 2>/dev/null | grep -m1 'screen state=\"off\"' | cut -d' ' -f1")
        late = float(wall.strip() or 0) - end.timestamp()
        time.sleep(2)
        dark = vm.screendump("schedule-dark")
        dark.save_png(f"{OUT}/schedule-dark.png")
        active = crtc_active(vm)
        status_off = vm.sh("splashboard status | grep '^power:'")[1].strip()
        log = cec_log(vm)
        power_off = tv_power()
        report.check("the hours end: a `screen off` event on time, <Standby> arrives at the TV over CEC (the TV goes "
                     "to standby), the CRTC is inactive and QEMU's display shows no active output",
                     lit is not None and off is not None and -1 <= late <= 5 and "STANDBY" in log.upper()
                     and "standby" in power_off and active == "0" and picture_share(dark) < 0.05,
                     f"{said(off)}; {late:+.1f} s after {end:%H:%M:%S}; {status_on} -> {status_off}; CRTC active={active}; "
                     f"screen {dark.width}x{dark.height} lit {picture_share(dark):.2f}; TV saw standby: {'STANDBY' in log.upper()}, "
                     f"its power status: {power_off}")
        # Dark: the main loop sleeps and nothing is counted.
        counted = shows(vm)
        switches = main_thread_switches(vm)
        time.sleep(30)
        woke = main_thread_switches(vm) - switches
        report.check("while dark for 30 s: the kiosk's loop does not wake and no show is counted",
                     woke <= 1 and shows(vm) == counted and counted > 0,
                     f"main thread woke {woke} times; shows {counted} -> {shows(vm)}")

        on = wait_journal(vm, r"screen state=\"on\" reason=\"schedule\"", start, 120)
        time.sleep(1)
        with open(f"{OUT}/cec-tv.log", "w") as f:
            f.write(cec_log(vm))
        _, wall = vm.sh("journalctl -b -u splashboard -o short-unix --no-pager 2>/dev/null | grep -m1 'screen state=\"on\" reason=\"schedule\"' "
                        "| cut -d' ' -f1")
        on_late = float(wall.strip() or 0) - again.timestamp()
        time.sleep(3)
        back = vm.screendump("schedule-back")
        log = cec_log(vm)
        splash = wait_journal(vm, r"splash campaign", journal_length(vm) - 40, 10)
        power_on = tv_power()
        report.check("the hours begin again: on time, <Image View On> and <Active Source> arrive at the TV (it wakes), "
                     "the CRTC is active, the kiosk is on the screen and a splash is counted",
                     on is not None and -1 <= on_late <= 5 and "IMAGE_VIEW_ON" in log.upper() and power_on.endswith("on") and "ACTIVE_SOURCE" in log.upper()
                     and crtc_active(vm) == "1" and picture_share(back) > 0.5 and shows(vm) == counted + 1,
                     f"{said(on)}; {on_late:+.1f} s after {again:%H:%M:%S}; TV power status {power_on}; lit {picture_share(back):.2f}; shows {counted} -> {shows(vm)}; {said(splash)}")

        # At once, by command.
        mark = journal_length(vm)
        vm.sh(": > /tmp/cec-tv.log")
        answer = vm.sh("splashboard screen off")[1].strip()
        cmd_off = wait_journal(vm, r"screen state=\"off\" reason=\"command\"", mark, 15)
        time.sleep(2)
        report.check("`splashboard screen off` turns it off at once: <Standby> to the TV, the CRTC inactive",
                     cmd_off is not None and "STANDBY" in cec_log(vm).upper() and crtc_active(vm) == "0"
                     and picture_share(vm.screendump("schedule-command-off")) < 0.05,
                     f"{answer}; {said(cmd_off)}")
        # A monitor that drops its hotplug signal while its input is dark is not unplugged:
        # nothing is looked for (no `output` event); lit again, the screen is read afresh.
        connector = vm.sh("cd /sys/class/drm && for c in card*-*; do [ \"$(cat $c/status)\" = connected ] && "
                          "echo $c && break; done")[1].strip()
        mark = journal_length(vm)
        vm.sh(f"echo off > /sys/class/drm/{connector}/status")
        time.sleep(4)
        vm.sh(f"echo detect > /sys/class/drm/{connector}/status")
        time.sleep(1)
        faults = vm.sh(f"journalctl -b -u splashboard -o cat --no-pager 2>/dev/null | tail -n +{mark + 1} | "
                       "grep -c 'output output=' || true")[1].strip()
        vm.sh("splashboard screen on")
        lit = wait_journal(vm, r"screen state=\"on\" reason=\"command\"", mark, 15)
        time.sleep(3)
        again = vm.screendump("schedule-command-on")
        report.check(f"{connector} dropping its hotplug signal while dark is no unplugged screen (no `output` "
                     "event); `splashboard screen on` lights it again at once",
                     faults == "0" and lit is not None and picture_share(again) > 0.5 and crtc_active(vm) == "1",
                     f"output events while dark: {faults}; {said(lit)}; lit {picture_share(again):.2f}")
        # A TV that acknowledges nothing: each message three times, then the signal goes off without it.
        vm.sh(f"cec-ctl -d {tv} --clear >/dev/null")
        mark = journal_length(vm)
        vm.sh("splashboard screen off")
        warned = wait_journal(vm, r"HDMI-CEC: .*Standby.* after 3 tries", mark, 30)
        time.sleep(2)
        report.check("a TV that does not acknowledge: <Standby> tried 3 times, a warning, and the display signal "
                     "goes off all the same", warned is not None and crtc_active(vm) == "0",
                     f"{said(warned)}; CRTC active={crtc_active(vm)}")
        # Stopped while dark (a restart, an upgrade) and started again with no schedule at
        # all: the new run wakes the TV and lights the screen after its first frame.
        vm.sh(f"pkill cec-follower; cec-ctl -d {tv} --tv --osd-name TV >/dev/null; "
              f"(cec-follower -d {tv} > /tmp/cec-follower.log 2>&1 &)")
        vm.sh("splashboard screen on")
        time.sleep(2)
        vm.sh("splashboard screen off")
        time.sleep(3)
        asleep = tv_power()
        marked = vm.sh("test -e /var/lib/splashboard/screen-dark && echo yes || echo no")[1].strip()
        set_config(vm, [])
        mark = journal_length(vm)
        vm.sh("systemctl restart splashboard")
        first = wait_journal(vm, r"first_frame", mark, 60)
        time.sleep(4)
        awake = tv_power()
        report.check("restarted while dark with no schedule: the new run wakes the TV and lights the screen after "
                     "its first frame", first is not None and "standby" in asleep and marked == "yes"
                     and awake.endswith("on") and crtc_active(vm) == "1"
                     and vm.sh("test -e /var/lib/splashboard/screen-dark && echo yes || echo no")[1].strip() == "no",
                     f"TV {asleep} -> {awake}; marker while dark: {marked}; CRTC active={crtc_active(vm)}")
        restarts = vm.sh("systemctl show -p NRestarts --value splashboard")[1].strip()
        sigsys = vm.sh("journalctl -b --no-pager 2>/dev/null | grep -cE 'SIGSYS|code=killed, status=31' || true")[1].strip()
        report.check("through it all the kiosk never restarted, and its sandbox let every means through (no SIGSYS)",
                     restarts == "0" and sigsys == "0", f"NRestarts={restarts}; {sigsys} SIGSYS lines")
    finally:
        vm.power_cut()
