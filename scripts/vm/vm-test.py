#!/usr/bin/env python3
"""The kiosk as it really boots: installs the .deb on a minimal Debian 12 in QEMU (no X,
no Mesa) and checks the console through QMP (screendump, tablet, keyboard, power cuts)
and a shell on the serial console. One line per check, `ok` or `FAILED`; exit 1 when any
check failed. `make vm-test` runs it; see docs/KIOSK-BOOT.md."""

import argparse
import os
import random
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import syscalls  # noqa: E402
import vmcommon  # noqa: E402
import vmlib  # noqa: E402
from vmcommon import OUT, UNIT, Report  # noqa: E402
from vm_console import run_console  # noqa: E402
from vm_displays import run_gpus, run_hotplug  # noqa: E402
from vm_firmware import run_uefi  # noqa: E402
from vm_network import run_network_down  # noqa: E402
from vm_power import run_power_cuts  # noqa: E402
from vm_schedule import run_schedule  # noqa: E402
from vm_screens import run_cirrus, run_panel, run_terminal, run_two_displays  # noqa: E402
from vm_fleet import run_first_boot, run_upgrade  # noqa: E402
from vm_video import run_video  # noqa: E402
from vmlib import log  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deb", required=True)
    parser.add_argument("--only", default=None,
                        help="comma-separated runs: console, network, gpus, hotplug, uefi, screens, schedule, video, power, "
                             "upgrade, first-boot (an arm64 .deb: console, network, screens, schedule, video, power, the "
                             "runs of a virtio GPU)")
    parser.add_argument("--cuts", type=int, default=None,
                        help="power cuts: 30 (arm64: 10, each boot of the emulated aarch64 machine taking minutes)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--accel", choices=["auto", "kvm", "tcg"], default="auto")
    args = parser.parse_args()
    arch = vmlib.deb_arch(args.deb)
    qemu = "qemu-system-aarch64" if arch == "arm64" else "qemu-system-x86_64"
    for tool in (qemu, "qemu-img", "mmdebstrap", "mkfs.ext4"):
        if not shutil.which(tool):
            print(f"vm-test: FAILED: {tool} is not installed (make vm-test installs it)")
            return 1
    if arch == "arm64":
        # An aarch64 guest under TCG takes about twice as long as an x86_64 one here.
        vmcommon.SLOWER = 2
    if args.cuts is None:
        args.cuts = 10 if arch == "arm64" else 30
    if args.only is None:
        # -M virt has PCI virtio devices, no VGA or Cirrus card, no firmware framebuffer.
        args.only = ("console,network,screens,schedule,video,power" if arch == "arm64"
                     else "console,network,gpus,hotplug,uefi,screens,schedule,video,power,upgrade,first-boot")
    os.makedirs(OUT, exist_ok=True)
    folder = vmlib.build_image(os.path.abspath(args.deb))
    accel = args.accel
    if accel == "auto":
        accel = "kvm" if vmlib.kvm_works(folder) else "tcg"
    log(f"accelerator: {accel}")
    report = Report()
    report.note(f"accelerator: {accel}")
    report.note(f"architecture: {arch}")
    runs = args.only.split(",")
    # The paths without a screen are traced on this machine when the program is its own
    # architecture; an arm64 program's calls are traced inside the VM (the console run).
    if "console" in runs and arch == "amd64":
        binary = os.path.join(vmlib.ROOT, "build", os.path.basename(args.deb)[:-4], "usr", "bin", "splashboard")
        called = syscalls.trace_host(binary, vmlib.ROOT)
        missing = sorted(called - syscalls.allowed(UNIT))
        report.check("the syscall filter allows every call of the paths without a screen (HTTP sync, pictures, "
                     "poems, operator view, sync/campaigns/cache clear)", bool(called) and not missing,
                     f"{len(called)} system calls traced; outside the filter: {missing or 'none'}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    t0 = time.time()
    plan = [
        ("console", lambda: run_console(folder, accel, report)),
        ("network", lambda: run_network_down(folder, accel, report)),
        ("gpus", lambda: run_gpus(folder, accel, report, "std", "bochs", ["vga0"])),
        ("hotplug", lambda: run_hotplug(folder, accel, report)),
        ("uefi", lambda: run_uefi(folder, accel, report)),
        # QEMU's virt board has no VGA or Cirrus card: on arm64 the screens run is the
        # terminal switch and the turned panel, on the virtio GPU.
        ("screens" if arch == "amd64" else "", lambda: run_two_displays(folder, accel, report)),
        ("screens", lambda: run_terminal(folder, accel, report)),
        ("screens", lambda: run_panel(folder, accel, report)),
        ("screens" if arch == "amd64" else "", lambda: run_cirrus(folder, accel, report)),
        ("schedule", lambda: run_schedule(folder, accel, report)),
        ("video", lambda: run_video(folder, accel, report)),
        ("power", lambda: run_power_cuts(folder, accel, report, args.cuts, seed)),
        ("upgrade", lambda: run_upgrade(folder, accel, report, os.path.abspath(args.deb))),
        ("first-boot", lambda: run_first_boot(os.path.abspath(args.deb), accel, report)),
    ]
    for name, run in plan:
        if name not in runs:
            continue
        try:
            run()
        except Exception as error:  # a run that could not go on is a failed check, not a crash
            report.check(f"the {name} run completes", False, f"{type(error).__name__}: {error}")
    log("boot timeline (seconds since kernel start, from PID 1's timestamps):")
    for what, value in report.timeline:
        log(f"   {what}: {value}")
    checks = sum(1 for line in report.lines if line.startswith(("ok:", "FAILED:")))
    log(f"vm-test: {checks} checks, {report.failures} FAILED, {time.time() - t0:.0f} s")
    with open(os.path.join(OUT, "report.txt"), "w") as f:
        f.write("\n".join(report.lines) + "\n\nboot timeline:\n")
        for what, value in report.timeline:
            f.write(f"{what}: {value}\n")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
