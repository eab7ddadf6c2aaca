"""Other screens: the bochs driver, and a display whose driver comes after boot."""

import re
import time

from vmlib import VM
from vmcommon import (
    boot_lines, journal_length, wait_journal, journal_stamp,
)


def picture_share(screen):
    """The share of a screendump that is lit: near 1 for the kiosk's pictures, low for the
    text console."""
    px = screen.pixels
    lit = sum(1 for i in range(0, len(px) - 2, 3 * 53) if px[i] + px[i + 1] + px[i + 2] > 120)
    return lit / (len(px) // (3 * 53))


def run_gpus(folder, accel, report, gpus, name, devices):
    vm = VM(folder, name, accel=accel, gpus=gpus)
    vm.start()
    try:
        vm.login()
        first, started = boot_lines(vm)
        chosen = re.search(r'output="(/dev/dri/(card\d+)) ([^ ]+)', started)
        _, status = vm.sh("for c in /sys/class/drm/card*-*; do echo \"$(basename $c) $(cat $c/status)\"; done")
        # Which QEMU device each card is: virtio-gpu is gpu0/gpu1, the standard VGA (bochs-drm) vga0.
        _, drivers = vm.sh("for c in /sys/class/drm/card[0-9]; do echo $(basename $c) "
                           "$(basename $(readlink $c/device/driver)); done")
        qom = {}
        for line in drivers.splitlines():
            card, driver = line.split()
            qom[card] = "vga0" if "bochs" in driver else [d for d in devices if d.startswith("gpu")][0]
        shares = {d: picture_share(vm.screendump(f"{name}-{d}", device=d)) for d in devices}
        on = qom.get(chosen.group(2)) if chosen else None
        report.check(f"{gpus}: the kiosk draws on a DRM device with a connected screen, and says which",
                     first is not None and on is not None and shares[on] > 0.5
                     and all(shares[d] < 0.5 for d in devices if d != on),
                     f"{chosen and chosen.group(0)} = {on}; connectors: {status.replace(chr(10), ', ')}; "
                     f"lit share of each screen: {shares}")
    finally:
        vm.power_cut()


def run_hotplug(folder, accel, report):
    """No display at boot, one later. QEMU cannot hot-add a GPU (its display devices are not
    hot-pluggable: `device_add virtio-gpu-pci` answers "expects a pluggable device type"),
    so the GPU is there but its driver is held back at boot and loaded later — what a Pi
    does when its GPU driver comes up after the service has started."""
    vm = VM(folder, "hotplug", accel=accel, gpus="virtio", extra_cmdline="modprobe.blacklist=virtio_gpu")
    vm.start()
    try:
        vm.login()
        waiting = wait_journal(vm, r"waiting for one", 0, 90)
        time.sleep(10)
        restarts = vm.sh("systemctl show -p NRestarts --value splashboard")[1].strip()
        dark = vm.screendump("hotplug-before")
        report.check("with no display at boot the kiosk waits for one (no crash loop, nothing drawn elsewhere)",
                     waiting is not None and restarts == "0" and not wait_journal(vm, r"first_frame", 0, 1),
                     f"{waiting and waiting.split('splashboard: ')[-1]}; NRestarts={restarts}")
        start = journal_length(vm)
        at = float(vm.sh("cut -d' ' -f1 /proc/uptime; modprobe virtio_gpu")[1].split()[0])
        first = wait_journal(vm, r"first_frame", start, 40)
        stamp = journal_stamp(vm, "first_frame")
        took = stamp - at if stamp is not None else 999
        shot = vm.screendump("hotplug")
        report.check("a display that appears later (its driver loaded after boot) shows the kiosk within 15 s",
                     first is not None and took <= 15 and picture_share(shot) > 0.5,
                     f"{took:.1f} s after modprobe virtio_gpu (guest clock); before: "
                     f"{'black' if dark.is_black() else 'not black'}")
    finally:
        vm.power_cut()
