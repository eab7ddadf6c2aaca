#!/usr/bin/env python3
"""The console benchmark: the kiosk against fbi on the same pictures, screen and VM.

One VM of the boot test (scripts/vm/vmlib.py: minimal Debian 12, no X, no Mesa) with a
1920x1080 screen. For a 1080p and a 4K JPEG, runs alternate between the two programs:

  - first frame: the program is started from the serial shell, and QEMU's screendump is
    polled until the middle of the screen shows the picture's green band: the time from
    the start command to that screendump, the same observer for both;
  - peak RSS: the process's high-water mark (VmHWM in /proc) a second after the picture
    is seen, read the same way for both (fbi forks onto its virtual terminal, so a
    waiting parent's rusage would miss it). For the kiosk, which does more once its
    first frame is up (it draws the detail screen ahead for the skip), also GNU time's
    peak of a run that ends at the first frame (`--exit-after first-frame`), as the X11
    benchmark measures it; fbi does nothing more once its picture is up.

Medians and ratios are printed as a Markdown table (and written with --markdown).
The kiosk draws through its DRM console output; fbi through the kernel's fbdev
emulation of the same DRM device. Timing under TCG emulation is slow for both alike.

Usage: vm-bench.py --deb PATH [--runs 5] [--gpu std|virtio] [--markdown FILE]"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402

SCREEN = (1920, 1080)
PICTURES = {"1080p": "/usr/local/share/vmtest/bench-1080.jpg", "4K": "/usr/local/share/vmtest/bench-4k.jpg"}


def shows_picture(screen):
    """Whether the middle of the screen is the picture's green band."""
    x, y = screen.width // 2, screen.height // 4
    i = (y * screen.width + x) * 3
    r, g, b = screen.pixels[i], screen.pixels[i + 1], screen.pixels[i + 2]
    return g > 180 and r < 150 and b < 150


def kiosk_command(name):
    d = f"/var/tmp/bench-{name}"
    return f"splashboard --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache --countdown 30"


def fbi_command(path):
    return f"fbi -T 1 -a --noverbose {path}"


def clear_screen(vm):
    """Blacks out the console's framebuffer (fbi can leave its picture there on exit)."""
    vm.sh("cat /dev/zero > /dev/fb0 2>/dev/null; true")


def run(vm, command, process):
    """Seconds from the start command to the first screendump that shows the picture, and
    the process's peak resident memory (MiB) a second later."""
    vm.sh(f"kill $(pidof {process}) 2>/dev/null; sleep 0.5")
    clear_screen(vm)
    if shows_picture(vm.screendump("before")):
        raise RuntimeError("the picture is still on the screen before the run")
    started = time.time()
    vm.sh(f"({command} > /dev/null 2>&1 &)")
    while time.time() - started < 120:
        if shows_picture(vm.screendump("probe")):
            seconds = time.time() - started
            time.sleep(1)
            status, out = vm.sh(f"grep VmHWM /proc/$(pidof -s {process})/status")
            vm.sh(f"kill $(pidof {process}) 2>/dev/null; sleep 0.5")
            if status != 0 or "VmHWM" not in out:
                raise RuntimeError(f"no memory figure for {process}: {out}")
            return seconds, int(out.split()[-2]) / 1024.0
    raise RuntimeError(f"{process} never showed the picture")


def pages_by_library(vm, name):
    """Where the kiosk's resident memory is a second after its first frame: the pages of
    each file it maps (the program, each shared library), and the rest, in MiB; with which
    libraries came with Debian's SDL2 (libSDL2, SDL2_image, SDL2_ttf and what they link)."""
    run_kiosk = kiosk_command(name)
    vm.sh("kill $(pidof splashboard) 2>/dev/null; sleep 0.5")
    clear_screen(vm)
    started = time.time()
    vm.sh(f"({run_kiosk} > /dev/null 2>&1 &)")
    while time.time() - started < 120 and not shows_picture(vm.screendump("probe")):
        pass
    time.sleep(1)
    _, out = vm.sh("awk '/^[0-9a-f]+-[0-9a-f]+ /{name=($6==\"\" ? \"[anonymous]\" : $6)} /^Rss:/{rss[name]+=$2} "
                   "END{for (n in rss) print rss[n], n}' /proc/$(pidof -s splashboard)/smaps", timeout=60)
    vm.sh("kill $(pidof splashboard) 2>/dev/null; sleep 0.5")
    _, sdl = vm.sh("for l in /usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0 /usr/lib/x86_64-linux-gnu/libSDL2_image-2.0.so.0 "
                   "/usr/lib/x86_64-linux-gnu/libSDL2_ttf-2.0.so.0; do echo $l; ldd $l | awk '{print $3}'; done | "
                   "xargs -n1 readlink -f | sort -u")
    sdl_files = set(sdl.split())
    rows = []
    for line in out.splitlines():
        kb, _, path = line.partition(" ")
        if kb.isdigit():
            rows.append((int(kb) / 1024.0, path))
    return rows, sdl_files


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deb", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gpu", choices=["std", "virtio"], default="std")
    parser.add_argument("--markdown")
    args = parser.parse_args()

    folder = vmlib.build_image(args.deb)
    vm = vmlib.VM(folder, "bench", gpus=args.gpu, size=SCREEN)
    vm.start()
    try:
        vm.login()
        # The programs take turns on the screen: the service steps aside.
        vm.sh("systemctl stop splashboard.service")
        for name, path in PICTURES.items():
            d = f"/var/tmp/bench-{name}"
            vm.sh(f"mkdir -p {d} && printf '%s' '[{{\"id\":\"b\",\"picUrl\":\"file://{path}\",\"showTime\":1000000}}]' "
                  f"> {d}/feed.json && splashboard sync --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache")
            # One run of each first: files in the page cache, the kiosk's screen size remembered.
            run(vm, kiosk_command(name), "splashboard")
            run(vm, fbi_command(path), "fbi")
        rows = []
        for name, path in PICTURES.items():
            times = {"splashboard": [], "fbi": []}
            peaks = {"splashboard": [], "fbi": []}
            for n in range(args.runs):
                order = [("splashboard", kiosk_command(name)), ("fbi", fbi_command(path))]
                if n % 2:
                    order.reverse()
                for process, command in order:
                    seconds, peak = run(vm, command, process)
                    times[process].append(seconds)
                    peaks[process].append(peak)
                status, out = vm.sh(f"/usr/bin/time -f 'RSS %M' {kiosk_command(name)} --exit-after first-frame "
                                    "2>&1 >/dev/null | grep '^RSS'", timeout=180)
                if status != 0 or not out.startswith("RSS"):
                    raise RuntimeError(f"no first-frame peak for the kiosk: {out}")
                peaks.setdefault("first", []).append(int(out.split()[-1]) / 1024.0)
                vmlib.log(f"{name} run {n + 1}: kiosk {times['splashboard'][-1]:.2f} s {peaks['splashboard'][-1]:.1f} MiB, "
                          f"fbi {times['fbi'][-1]:.2f} s {peaks['fbi'][-1]:.1f} MiB")
            t = {k: statistics.median(v) for k, v in times.items()}
            m = {k: statistics.median(v) for k, v in peaks.items()}
            rows.append((name, t, m))
        pages, sdl_files = pages_by_library(vm, "1080p")
    finally:
        vm.power_cut()

    lines = ["| console, 1920x1080, " + args.gpu + " GPU (TCG) | splashboard | fbi | ratio | target |",
             "|---|---|---|---|---|"]
    for name, t, m in rows:
        lines.append(f"| first frame, cached {name} JPEG | {t['splashboard']:.2f} s | {t['fbi']:.2f} s | "
                     f"{t['splashboard'] / t['fbi']:.2f} × fbi | ≤ 0.8 × fbi |")
        lines.append(f"| peak RSS to the first frame, {name} | {m['first']:.1f} MiB | {m['fbi']:.1f} MiB | "
                     f"{m['first'] / m['fbi']:.2f} × fbi | ≤ 1.3 × fbi |")
        lines.append(f"| peak RSS a second later (detail screen drawn ahead), {name} | {m['splashboard']:.1f} MiB | "
                     f"{m['fbi']:.1f} MiB | {m['splashboard'] / m['fbi']:.2f} × fbi | — |")
    real = {}
    for mib, path in pages:
        real[path] = real.get(path, 0) + mib
    total = sum(real.values())
    files = {p: v for p, v in real.items() if p.startswith("/") and not p.startswith("/dev/")}
    program = {p: v for p, v in files.items() if p.endswith("/splashboard")}
    libraries = {p: v for p, v in files.items() if p not in program}
    from_sdl = {p: v for p, v in libraries.items() if p in sdl_files}
    lines += ["", f"Resident memory a second after the first frame, 1080p: {total:.1f} MiB.", "",
              "| part | MiB |", "|---|---|",
              f"| the program (`splashboard`, Swift runtime linked statically) | {sum(program.values()):.1f} |",
              f"| Debian's SDL2, SDL2_image, SDL2_ttf and the {len(from_sdl)} libraries of theirs mapped "
              f"| {sum(from_sdl.values()):.1f} |",
              f"| the other {len(libraries) - len(from_sdl)} shared libraries (glibc, SQLite, TurboJPEG, libpng, libdrm…) "
              f"| {sum(libraries.values()) - sum(from_sdl.values()):.1f} |",
              f"| device memory mapped (dumb buffers, the framebuffer) | "
              f"{sum(v for p, v in real.items() if p.startswith('/dev/')):.1f} |",
              f"| the rest: heap (the frame, the detail drawn ahead, what is under the pill), stacks | "
              f"{total - sum(files.values()) - sum(v for p, v in real.items() if p.startswith('/dev/')):.1f} |",
              "", "| library (with SDL2: ●) | MiB |", "|---|---|"]
    for path, mib in sorted(libraries.items(), key=lambda kv: -kv[1]):
        if mib >= 0.1:
            lines.append(f"| {os.path.basename(path)}{' ●' if path in from_sdl else ''} | {mib:.1f} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
