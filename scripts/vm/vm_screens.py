"""The screens kiosks really have, beyond one output: two displays at once, a switch to
another virtual terminal and back, a panel mounted turned, and QEMU's cirrus as a third
KMS driver."""

import re
import time

from vm_displays import picture_share
from vmcommon import (
    LONG_COUNTDOWN, OUT, boot_lines, journal_length, pill_box, restart, set_config, wait_journal,
)
from vmlib import VM


def said(line):
    return line and line.split("splashboard: ")[-1]


def listed(line):
    """How many screens an event's `outputs` list names."""
    m = re.search(r"outputs=\[(.*?)\]", line or "")
    return m.group(1).count("/dev/") if m else 0


def run_two_displays(folder, accel, report):
    """The standard VGA (bochs-drm) and a virtio GPU, each with a screen: the kiosk on
    both, each screen unplugged and plugged in again on its own."""
    vm = VM(folder, "two-displays", accel=accel, gpus="std+virtio")
    vm.start()
    try:
        vm.login()
        first, started = boot_lines(vm)
        # Both on the detail screen (the splash has a countdown pill on each).
        wait_journal(vm, r"detail campaign", 0, 60)
        time.sleep(2)
        shots = {d: vm.screendump(f"two-displays-{d}", device=d) for d in ("vga0", "gpu0")}
        for d, shot in shots.items():
            shot.save_png(f"{OUT}/two-displays-{d}.png")
        shares = {d: round(picture_share(s), 2) for d, s in shots.items()}
        report.check("two displays (std VGA at 1280x800, virtio GPU at 1024x768): the kiosk draws on both, each in "
                     "its own mode, and `started` lists both",
                     first is not None and all(v > 0.5 for v in shares.values()) and listed(started) == 2
                     and "1024x768" in started and "1280x800" in started,
                     f"lit share of each screen: {shares}; {said(started)}")
        _, status = vm.sh("for c in /sys/class/drm/card*-*; do [ \"$(cat $c/status)\" = connected ] && "
                          "basename $c; done")
        connectors = status.split()
        for connector in connectors:
            card = connector.split("-")[0]
            driver = vm.sh(f"basename $(readlink /sys/class/drm/{card}/device/driver)")[1].strip()
            device = "vga0" if "bochs" in driver else "gpu0"
            other = "gpu0" if device == "vga0" else "vga0"
            start = journal_length(vm)
            vm.sh(f"echo off > /sys/class/drm/{connector}/status")
            gone = wait_journal(vm, r"output output=", start, 30)
            time.sleep(2)
            left = picture_share(vm.screendump(f"two-displays-{connector}-off", device=other))
            start = journal_length(vm)
            vm.sh(f"echo on > /sys/class/drm/{connector}/status")
            back = wait_journal(vm, r"output output=", start, 30)
            time.sleep(2)
            both = {d: round(picture_share(vm.screendump(f"two-displays-{connector}-on", device=d)), 2)
                    for d in ("vga0", "gpu0")}
            report.check(f"{connector} ({driver}) unplugged: the other screen goes on; plugged in again: "
                         "the kiosk is on both",
                         gone is not None and back is not None and left > 0.5 and all(v > 0.5 for v in both.values())
                         and listed(gone) == 1 and listed(back) == 2,
                         f"unplugged: {said(gone)}; other lit {left:.2f}; back: {said(back)}; lit {both}")
            vm.sh(f"echo detect > /sys/class/drm/{connector}/status")
    finally:
        vm.power_cut()


def run_terminal(folder, accel, report):
    """`chvt 2` shows tty2's console (the kiosk gives DRM master up); `chvt 1` brings the
    kiosk back within 2 s."""
    vm = VM(folder, "terminal", accel=accel, gpus="virtio")
    vm.start()
    try:
        vm.login()
        wait_journal(vm, r"detail campaign", 0, 120)
        time.sleep(1)
        # On a DRM device too, a kernel message at the highest level changes no pixel.
        before = vm.screendump("terminal-before-alert")
        vm.sh("echo '<1>splashboard boot test: a kernel alert over the kiosk' > /dev/kmsg")
        time.sleep(1)
        after = vm.screendump("terminal-after-alert")
        changed = sum(1 for a, b in zip(before.pixels, after.pixels) if a != b)
        report.check("a kernel message at <1> changes no pixel of the kiosk's DRM screen", changed == 0,
                     f"{changed} bytes differ")
        start = journal_length(vm)
        vm.sh("chvt 2")
        away = wait_journal(vm, r"terminal shown=false", start, 10)
        time.sleep(3)
        tty2 = vm.screendump("terminal-tty2")
        tty2.save_png(f"{OUT}/tty2.png")
        report.check("chvt 2: the kiosk gives its screen up and tty2's console is shown",
                     away is not None and picture_share(tty2) < 0.2,
                     f"{said(away)}; lit share {picture_share(tty2):.2f}")
        start = journal_length(vm)
        at = time.time()
        vm.sh("chvt 1")
        back = wait_journal(vm, r"terminal shown=true", start, 10)
        lit = 0.0
        while time.time() - at < 2.0 and lit <= 0.5:
            lit = picture_share(vm.screendump("terminal-tty1"))
        took = time.time() - at
        restarts = vm.sh("systemctl show -p NRestarts --value splashboard")[1].strip()
        report.check("chvt 1: the kiosk takes its screen back and is on it again within 2 s (no restart)",
                     back is not None and lit > 0.5 and restarts == "0",
                     f"{said(back)}; lit share {lit:.2f} {took:.1f} s after chvt 1 (host clock); NRestarts={restarts}")
    finally:
        vm.power_cut()


def run_panel(folder, accel, report):
    """A panel mounted turned, in a mode of its own, as the kernel's command line says
    (`video=Virtual-1:1024x768,panel_orientation=right_side_up`): drawn turned in that
    mode with nothing configured, and a tap on the turned pill skips; then `drm-mode` in
    the config overrides the mode."""
    vm = VM(folder, "panel", accel=accel, gpus="virtio",
            extra_cmdline="video=Virtual-1:1024x768,panel_orientation=right_side_up")
    vm.start()
    try:
        vm.login()
        started = wait_journal(vm, r"started version", 0, 120) or ""
        set_config(vm, [f"countdown = {LONG_COUNTDOWN}"])
        start = restart(vm)
        box, shot = pill_box(vm, start)
        if box:
            shot.save_png(f"{OUT}/panel-right-side-up.png")
            turned = box[0] > shot.width / 2 and box[1] > shot.height / 2
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            vm.tap(cx, cy, (shot.width, shot.height))
            line = wait_journal(vm, r"skip by=", start, 15)
            report.check("a panel whose connector says right side up is drawn turned with no rotate, in the mode "
                         "video= asks for, and a tap on the turned pill skips",
                         "1024x768 turned 90" in started and shot.width == 1024 and turned
                         and line is not None and 'by="tap"' in line,
                         f"{said(started)}; pill at {box} (bottom right when turned); {said(line)}")
        else:
            report.check("a panel whose connector says right side up is drawn turned with no rotate, in the mode "
                         "video= asks for, and a tap on the turned pill skips", False, f"pill not found; {said(started)}")
        # drm-mode in the config wins over video=; a mode the screen lacks is said and not used.
        set_config(vm, ["drm-mode = 800x600"])
        start = restart(vm)
        chosen = wait_journal(vm, r"started version", start, 60)
        set_config(vm, ["drm-mode = 1234x567"])
        start = restart(vm)
        missing = wait_journal(vm, r"started version", start, 60)
        shot = vm.screendump("panel-drm-mode")
        report.check("drm-mode = 800x600 overrides video=; a drm-mode the screen lacks is said, and its mode kept",
                     chosen is not None and "800x600 turned 90" in chosen and missing is not None
                     and "no 1234x567 mode" in missing and "1024x768" in missing and shot.width == 1024,
                     f"{said(chosen)}; {said(missing)}")
        set_config(vm, [])
    finally:
        vm.power_cut()


def run_cirrus(folder, accel, report):
    """QEMU's cirrus VGA (the kernel's cirrus driver) as a third KMS driver."""
    vm = VM(folder, "cirrus", accel=accel, gpus="cirrus")
    vm.start()
    try:
        vm.login()
        first, started = boot_lines(vm)
        driver = vm.sh("basename $(readlink /sys/class/drm/card0/device/driver) 2>&1")[1].strip()
        wait_journal(vm, r"detail campaign", 0, 60)
        time.sleep(1)
        shot = vm.screendump("cirrus")
        shot.save_png(f"{OUT}/cirrus.png")
        report.check("QEMU's cirrus VGA (cirrus-qemu): the kiosk draws on it",
                     first is not None and picture_share(shot) > 0.5,
                     f"driver {driver}; {said(started)}; lit share {picture_share(shot):.2f}")
    finally:
        vm.power_cut()
