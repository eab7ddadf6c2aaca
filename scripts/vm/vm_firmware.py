"""The firmware's framebuffer: a UEFI boot (OVMF) with the GPU's driver held back, so that
only efifb is there (no /dev/dri), then the driver loaded and the kiosk moving to it."""

import time

from vm_displays import picture_share
from vmcommon import boot_lines, journal_length, journal_stamp, wait_journal
from vmlib import VM


def run_uefi(folder, accel, report):
    vm = VM(folder, "uefi", accel=accel, gpus="std", firmware="uefi", extra_cmdline="modprobe.blacklist=bochs")
    vm.start()
    try:
        vm.login()
        devices = vm.sh("cat /proc/fb; ls /dev/dri 2>&1 | head -n 1")[1].strip().replace("\n", "; ")
        first, started = boot_lines(vm)
        shot = vm.screendump("uefi-efifb")
        report.check("on the firmware's framebuffer alone (UEFI, efifb, no DRM device) the kiosk draws through fbdev",
                     first is not None and 'driver="fbdev"' in started and picture_share(shot) > 0.5,
                     f"{devices}; {started.split('splashboard: ')[-1]}; lit {picture_share(shot):.2f}")
        stamp = journal_stamp(vm, "first_frame", last=False)
        if stamp is not None:
            report.timeline.append(("first frame (READY=1), UEFI, efifb alone", stamp))
        # The text console shares efifb's memory: with the terminal in graphics mode, a
        # kernel message at the highest level, or text written to the kiosk's own terminal
        # (tty1; the kernel's messages go to the serial console here), changes no pixel.
        detail = wait_journal(vm, r"detail campaign", 0, 60)
        time.sleep(1)
        before = vm.screendump("uefi-before-alert")
        vm.sh("for i in 1 2 3; do echo '<1>splashboard boot test: a kernel alert over the kiosk' > /dev/kmsg; "
              "printf '\\n\\nsplashboard boot test: text on tty1\\n' > /dev/tty1; done")
        time.sleep(2)
        after_alert = vm.screendump("uefi-after-alert")
        changed = sum(1 for a, b in zip(before.pixels, after_alert.pixels) if a != b)
        report.check("neither a kernel message at <1> nor text written to tty1 changes a pixel of the framebuffer "
                     "(the terminal in graphics mode)",
                     detail is not None and changed == 0, f"{changed} bytes differ")
        # The GPU's driver comes: efifb goes, bochs-drm's card appears, and the kiosk follows.
        start = journal_length(vm)
        at = float(vm.sh("cut -d' ' -f1 /proc/uptime; modprobe bochs")[1].split()[0])
        moved = wait_journal(vm, r"output.*/dev/dri/card", start, 30)
        stamp = journal_stamp(vm, "output")
        took = stamp - at if stamp is not None else 999
        time.sleep(3)
        after = vm.screendump("uefi-bochs")
        restarts = vm.sh("systemctl show -p NRestarts --value splashboard")[1].strip()
        report.check("when the GPU's driver loads, the kiosk moves from efifb to its DRM device by itself (no restart)",
                     moved is not None and restarts == "0" and picture_share(after) > 0.5,
                     f"{took:.1f} s after modprobe bochs (guest clock); NRestarts={restarts}; "
                     f"{moved and moved.split('splashboard: ')[-1]}")
    finally:
        vm.power_cut()
    # The same UEFI boot with the GPU's driver loading as usual: which screen the first
    # frame is on, and when, beside the boot above.
    vm = VM(folder, "uefi-drm", accel=accel, gpus="std", firmware="uefi")
    vm.start()
    try:
        vm.login()
        first, started = boot_lines(vm)
        stamp = journal_stamp(vm, "first_frame", last=False)
        if stamp is not None:
            report.timeline.append(("first frame (READY=1), UEFI, bochs-drm as usual", stamp))
        shot = vm.screendump("uefi-drm")
        report.check("a UEFI boot with the GPU's driver as usual shows the kiosk on the screen",
                     first is not None and picture_share(shot) > 0.5, started.split("splashboard: ")[-1])
    finally:
        vm.power_cut()
