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

With --video (or --only-video), an image of its own that adds mpv (which brings X and
Mesa, kept out of the boot test's image) and a 60 s H.264 clip: the kiosk plays it under
the pill for a 30 s splash (`--seconds`; 10 for an arm64 .deb) on the DRM console, then `mpv --no-audio --hwdec=no --vo=drm`
plays the same file for as long on the same screen: frames dropped, CPU seconds per second
of video (GNU time, which counts the reaped media process), peak summed PSS (display and
media process, sampled every 0.25 s, as mpv's is) and the first clip frame. TCG cannot
decode 1080p30 in real time, so the clip is 640x360 at 30 frames a second, scaled to the
1920x1080 screen by both.

With --against OLD.deb, an earlier package's programs run beside this one's in the same VM,
alternated with it and fbi: the first-frame and memory rows get a column for it, so a
change between two commits is measured on the same machine, pictures and minute (its
programs are unpacked into /opt/against, its catalog kept apart, no config file read).

Usage: vm-bench.py --deb PATH [--against OLD.deb] [--runs 5] [--gpu std|virtio] [--markdown FILE] [--video | --only-video]"""
import argparse
import base64
import json
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


# The kiosk runs as the service's user with the service's groups, as it does on a kiosk (a
# sync never fetches as root), through setpriv, which executes it in place: no PAM session,
# no process in between. HOME is /var/tmp, which any user may write: fontconfig keeps its cache there.
AS_KIOSK = ("env HOME=/var/tmp setpriv --reuid=splashboard --regid=splashboard "
            "--groups video,render,input,splashboard-data")


AGAINST = "/opt/against/usr/bin/splashboard"


def kiosk_command(name, against=False):
    """The kiosk on the benchmark's feed; `against`: the earlier package's, on a catalog of
    its own and no config file (this package's may name settings it does not know)."""
    if against:
        d = f"/var/tmp/bench-{name}-against"
        return (f"{AS_KIOSK} {AGAINST} --config /var/tmp/bench-empty.conf --feed {d}/feed.json --data-dir {d}/data "
                f"--cache-dir {d}/cache --countdown 30")
    d = f"/var/tmp/bench-{name}"
    return f"{AS_KIOSK} splashboard --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache --countdown 30"


def fbi_command(path, arch="amd64"):
    """fbi on the first virtual terminal, in a session of its own (without a controlling
    terminal, the one it opens becomes its own). On x86_64 (Debian 12's fbi on the fbdev
    emulation) not with that terminal as its standard input: fbi then quits at once, having
    shown nothing. On arm64 (Debian 13's fbi drawing through DRM, the virt board having no
    fbdev) the other way round: without that terminal as its input it shows the picture
    and quits at once, so its memory cannot be read; with it, it stays."""
    if arch == "arm64":
        return f"setsid sh -c 'exec fbi -T 1 -a --noverbose {path} < /dev/tty1'"
    return f"setsid fbi -T 1 -a --noverbose {path}"


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
    # What the machine says then: the programs still running, and who holds the screen.
    _, who = vm.sh("for p in /proc/[0-9]*; do c=$(cat $p/comm 2>/dev/null); case $c in splash*|fbi) echo \"running: $c\";; esac; "
                   "ls -l $p/fd 2>/dev/null | grep -q 'dri\\|fb0' && echo \"holds the screen: $c\"; done; "
                   "echo \"foreground terminal: $(fgconsole 2>&1)\"")
    raise RuntimeError(f"{process} never showed the picture; on the machine: {who.strip()}")


def first_frame_peak(vm, command):
    """GNU time's peak resident memory (MiB) of a kiosk run that ends at its first frame."""
    status, out = vm.sh(f"/usr/bin/time -f 'RSS %M' {command} --exit-after first-frame 2>&1 >/dev/null | grep '^RSS'",
                        timeout=180)
    if status != 0 or not out.startswith("RSS"):
        raise RuntimeError(f"no first-frame peak for {command}: {out}")
    return int(out.split()[-1]) / 1024.0


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
    _, sdl = vm.sh("for l in /usr/lib/*-linux-gnu/libSDL2-2.0.so.0 /usr/lib/*-linux-gnu/libSDL2_image-2.0.so.0 "
                   "/usr/lib/*-linux-gnu/libSDL2_ttf-2.0.so.0; do echo $l; ldd $l | awk '{print $3}'; done | "
                   "xargs -n1 readlink -f | sort -u")
    sdl_files = set(sdl.split())
    rows = []
    for line in out.splitlines():
        kb, _, path = line.partition(" ")
        if kb.isdigit():
            rows.append((int(kb) / 1024.0, path))
    return rows, sdl_files


MEASURE = r"""
names="$1"; shift
/usr/bin/time -f 'CPU %U %S %e' -o /var/tmp/measure-time "$@" > /var/tmp/measure-out 2> /var/tmp/measure-err &
sleep 0.2
max=0
: > /var/tmp/measure-each
while pgrep -x time > /dev/null; do
  sum=0
  for name in $names; do
    each=0
    for p in $(pgrep -x "$name"); do
      v=$(awk '/^Pss:/{print $2}' /proc/$p/smaps_rollup 2>/dev/null); each=$((each + ${v:-0}))
    done
    echo "$name $each" >> /var/tmp/measure-each
    sum=$((sum + each))
  done
  [ $sum -gt $max ] && max=$sum
  sleep 0.25
done
peaks=$(awk '{if ($2 > m[$1]) m[$1] = $2} END {for (n in m) printf "%s=%d,", n, m[n]}' /var/tmp/measure-each)
echo "PSS $max $(cat /var/tmp/measure-time | tail -n 1) $peaks"
"""
# Seconds of the clip played by each (`--seconds`): 30, or 10 for an arm64 .deb, whose
# emulated machine makes mpv, which shows every frame, take about seven times as long.
SECONDS_PLAYED = 30


def play(vm, pattern, command):
    """Runs `command` under GNU time with the summed PSS of the processes named by `pattern`
    sampled; a screendump 10 s in and another a second later. (PSS MiB, CPU s, wall s, dumps)."""
    script = base64.b64encode((MEASURE.strip() + "\n").encode()).decode()
    vm.sh(f"echo {script} | base64 -d > /var/tmp/measure.sh")
    vm.sh(f"(sh /var/tmp/measure.sh '{pattern}' {command} > /var/tmp/measure-result 2>&1 &)")
    time.sleep(10)
    dumps = (vm.screendump("video-a"), None)
    time.sleep(1)
    dumps = (dumps[0], vm.screendump("video-b"))
    deadline = time.time() + SECONDS_PLAYED * (6 if SECONDS_PLAYED >= 30 else 40) + 120
    while time.time() < deadline:
        status, out = vm.sh("cat /var/tmp/measure-result 2>/dev/null")
        if out.startswith("PSS"):
            parts = out.split()
            if len(parts) < 6:
                raise RuntimeError(f"{command}: {out} {vm.sh('cat /var/tmp/measure-err /var/tmp/measure-time')[1][-2000:]}")
            each = dict(kv.split("=") for kv in (parts[6] if len(parts) > 6 else "").split(",") if "=" in kv)
            return (int(parts[1]) / 1024.0, float(parts[3]) + float(parts[4]), float(parts[5]), dumps,
                    {k: int(v) / 1024.0 for k, v in each.items()})
        time.sleep(2)
    raise RuntimeError(f"{command} did not end: {vm.sh('cat /var/tmp/measure-err')[1][-2000:]}")


def video_rows(vm, clip, runs):
    """The kiosk and mpv, alternated, on the clip: the rows of the table."""
    d = "/var/tmp/bench-video"
    feed = ('{"campaigns":[{"id":"clip","picUrl":"file:///usr/share/splashboard/demo/spring-tea.jpg",'
            f'"videoUrl":"file://{clip}","showTime":1000000,"countdown":{SECONDS_PLAYED}}}]}}')
    status, out = vm.sh(f"mkdir -p {d} && printf '%s' '{feed}' > {d}/feed.json && chown -R splashboard: {d} && "
                        f"{AS_KIOSK} splashboard sync --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache",
                        timeout=180)
    if status != 0:
        raise RuntimeError(f"the benchmark's sync failed: {out}")
    kiosk = (f"{AS_KIOSK} splashboard --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache --exit-after splash "
             "--log-format json")
    mpv = f"mpv --no-config --no-audio --hwdec=no --vo=drm --really-quiet --end={SECONDS_PLAYED} {clip}"
    found = {"kiosk": [], "mpv": []}
    for n in range(runs):
        order = [("kiosk", "splashboard splashboard-med", kiosk), ("mpv", "mpv", mpv)]
        if n % 2:
            order.reverse()
        for who, pattern, command in order:
            pss, cpu, wall, (a, b), each = play(vm, pattern, command)
            moving = a.diff_box(b) is not None and not a.is_black()
            row = {"pss": pss, "cpu": cpu / SECONDS_PLAYED, "cpu_s": cpu, "wall": wall, "moving": moving, "each": each}
            if who == "kiosk":
                _, out = vm.sh("cat /var/tmp/measure-out")
                events = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
                ended = next((e for e in events if e.get("event") == "video_ended"), {})
                first = next((e for e in events if e.get("event") == "video"), {})
                row.update(dropped=ended.get("dropped"), presented=ended.get("presented"), first=first.get("ms"),
                           errors=[e.get("message") for e in events if e.get("event") == "error"])
            row["display"] = each.get("splashboard", 0.0)
            row["media"] = each.get("splashboard-med", 0.0)
            found[who].append(row)
            vmlib.log(f"video run {n + 1}, {who}: {row}")
    k, m = found["kiosk"], found["mpv"]
    med = lambda rows, key: statistics.median(r[key] for r in rows)
    cpu_k, cpu_m, pss_k, pss_m = med(k, "cpu"), med(m, "cpu"), med(k, "pss"), med(m, "pss")
    shown = ", ".join(f"{r['presented']} shown, {r['dropped']} dropped" for r in k)
    return [
        f"| 640x360p30 H.264, {SECONDS_PLAYED} s of it ({SECONDS_PLAYED * 30} frames), scaled to the screen: frames | {shown} (of {SECONDS_PLAYED * 30} due) | "
        "— | — | 0 dropped |",
        f"| wall time | {med(k, 'wall'):.1f} s (the splash's {SECONDS_PLAYED} s) | {med(m, 'wall'):.1f} s | — | — |",
        f"| CPU seconds a frame shown | {1000 * med(k, 'cpu_s') / max(1, statistics.median(r['presented'] or 1 for r in k)):.0f} ms | "
        f"{1000 * med(m, 'cpu_s') / (SECONDS_PLAYED * 30):.0f} ms | — | — |",
        f"| that clip: CPU seconds a second of video (display + media) | {cpu_k:.3f} | {cpu_m:.3f} | "
        f"{cpu_k / cpu_m:.2f} × mpv | ≤ 1.0 × mpv |",
        f"| that clip: memory, display + media together (peak summed PSS; each's peak: display "
        f"{med(k, 'display'):.1f}, media {med(k, 'media'):.1f}) | {pss_k:.1f} MiB | {pss_m:.1f} MiB | "
        f"{pss_k / pss_m:.2f} × mpv | ≤ 1.0 × mpv |",
        f"| that clip: show start → first video frame | {', '.join(str(r['first']) for r in k)} ms | — | — | ≤ 100 ms |",
        f"| the screen moving 10 s in (screendumps a second apart differ) | "
        f"{'yes' if all(r['moving'] for r in k) else 'no'} | {'yes' if all(r['moving'] for r in m) else 'no'} | — | — |",
    ] + ([f"| errors | {'; '.join(e for r in k for e in r['errors'])} | | | |"] if any(r["errors"] for r in k) else [])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deb", required=True)
    parser.add_argument("--against", help="an earlier .deb of the same architecture, measured beside this one")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gpu", choices=["std", "virtio"], default=None,
                        help="std (VGA, bochs) on x86_64; an arm64 .deb: virtio, the GPU of QEMU's virt board")
    parser.add_argument("--markdown")
    parser.add_argument("--video", action="store_true", help="also the video rows, against mpv --vo=drm")
    parser.add_argument("--only-video", action="store_true", help="only the video rows")
    parser.add_argument("--seconds", type=int, default=None,
                        help="seconds of the clip each plays (default 30; an arm64 .deb: 10)")
    args = parser.parse_args()
    arch = vmlib.deb_arch(args.deb)
    global SECONDS_PLAYED
    SECONDS_PLAYED = args.seconds or (10 if arch == "arm64" else 30)
    args.gpu = args.gpu or ("virtio" if arch == "arm64" else "std")
    where = f"console, 1920x1080, {args.gpu} GPU ({'aarch64, ' if arch == 'arm64' else ''}TCG)"

    if args.video or args.only_video:
        clip = vmlib.bench_clip()
        folder = vmlib.build_image(args.deb, flavour="bench-video", packages=["mpv", "procps"], files=[clip])
    else:
        folder = vmlib.build_image(args.deb, flavour="against" if args.against else "",
                                   files=[args.against] if args.against else [])
    vm = vmlib.VM(folder, "bench", gpus=args.gpu, size=SCREEN)
    vm.start()
    rows = []
    video = []
    try:
        vm.login()
        # The programs take turns on the screen: the service steps aside.
        vm.sh("systemctl stop splashboard.service")
        if args.video or args.only_video:
            video = video_rows(vm, "/usr/local/share/vmtest/" + os.path.basename(clip), max(1, min(args.runs, 3)))
        if args.only_video:
            print("\n".join(["| " + where + " | splashboard | mpv | ratio | target |",
                             "|---|---|---|---|---|"] + video))
            if args.markdown:
                with open(args.markdown, "w") as f:
                    f.write("\n".join(video) + "\n")
            return
        if args.against:
            # The earlier package's programs, the network program beside the display's
            # (where an older one looks first).
            status, out = vm.sh(f"dpkg-deb -x /usr/local/share/vmtest/{os.path.basename(args.against)} /opt/against && "
                                "cp /opt/against/usr/libexec/splashboard/* /opt/against/usr/bin/ && : > /var/tmp/bench-empty.conf && "
                                f"{AGAINST} --version", timeout=120)
            if status != 0:
                raise RuntimeError(f"the earlier package does not run: {out}")
            vmlib.log(f"against: {out.strip()}")
        for name, path in PICTURES.items():
            for against, program in [(False, "splashboard")] + ([(True, AGAINST + " --config /var/tmp/bench-empty.conf")]
                                                                 if args.against else []):
                d = f"/var/tmp/bench-{name}" + ("-against" if against else "")
                status, out = vm.sh(f"mkdir -p {d} && printf '%s' '[{{\"id\":\"b\",\"picUrl\":\"file://{path}\",\"showTime\":1000000}}]' "
                                    f"> {d}/feed.json && chown -R splashboard: {d} && "
                                    f"{AS_KIOSK} {program} sync --feed {d}/feed.json --data-dir {d}/data --cache-dir {d}/cache",
                                    timeout=180)
                if status != 0:
                    raise RuntimeError(f"the benchmark's sync failed: {out}")
                # One run of each first: files in the page cache, the kiosk's screen size remembered.
                run(vm, kiosk_command(name, against), "splashboard")
            run(vm, fbi_command(path, arch), "fbi")
        for name, path in PICTURES.items():
            times = {"splashboard": [], "fbi": [], "against": []}
            peaks = {"splashboard": [], "fbi": [], "against": []}
            for n in range(args.runs):
                order = [("splashboard", "splashboard", kiosk_command(name)), ("fbi", "fbi", fbi_command(path, arch))]
                if args.against:
                    order.insert(1, ("against", "splashboard", kiosk_command(name, True)))
                if n % 2:
                    order.reverse()
                for label, process, command in order:
                    seconds, peak = run(vm, command, process)
                    times[label].append(seconds)
                    peaks[label].append(peak)
                peaks.setdefault("first", []).append(first_frame_peak(vm, kiosk_command(name)))
                if args.against:
                    peaks.setdefault("against-first", []).append(first_frame_peak(vm, kiosk_command(name, True)))
                vmlib.log(f"{name} run {n + 1}: kiosk {times['splashboard'][-1]:.2f} s {peaks['splashboard'][-1]:.1f} MiB, "
                          f"fbi {times['fbi'][-1]:.2f} s {peaks['fbi'][-1]:.1f} MiB"
                          + (f", earlier kiosk {times['against'][-1]:.2f} s {peaks['against'][-1]:.1f} MiB" if args.against else ""))
            t = {k: statistics.median(v) for k, v in times.items() if v}
            m = {k: statistics.median(v) for k, v in peaks.items() if v}
            rows.append((name, t, m))
        pages, sdl_files = pages_by_library(vm, "1080p")
    finally:
        vm.power_cut()

    earlier = f" earlier package ({os.path.basename(args.against)}) | ratio |" if args.against else ""
    lines = ["| " + where + " | splashboard | fbi | ratio | target |" + earlier,
             "|---|---|---|---|---|" + ("---|---|" if args.against else "")]

    def beside(values, key, unit, fmt):
        """The earlier package's figure and its ratio to fbi's, when it was measured."""
        if not args.against:
            return ""
        if key not in values:
            return " — | — |"
        return f" {fmt.format(values[key])} {unit} | {values[key] / values['fbi']:.2f} × fbi |"
    for name, t, m in rows:
        lines.append(f"| first frame, cached {name} JPEG | {t['splashboard']:.2f} s | {t['fbi']:.2f} s | "
                     f"{t['splashboard'] / t['fbi']:.2f} × fbi | ≤ 0.8 × fbi |" + beside(t, "against", "s", "{:.2f}"))
        lines.append(f"| peak RSS to the first frame, {name} | {m['first']:.1f} MiB | {m['fbi']:.1f} MiB | "
                     f"{m['first'] / m['fbi']:.2f} × fbi | ≤ 1.3 × fbi |" + beside(m, "against-first", "MiB", "{:.1f}"))
        lines.append(f"| peak RSS a second later (detail screen drawn ahead), {name} | {m['splashboard']:.1f} MiB | "
                     f"{m['fbi']:.1f} MiB | {m['splashboard'] / m['fbi']:.2f} × fbi | — |" + beside(m, "against", "MiB", "{:.1f}"))
    if video:
        lines += ["", "| " + where.replace("console", "console video") + " | splashboard | mpv | ratio | target |",
                  "|---|---|---|---|---|"] + video
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
              f"| libraries in the closure of Debian's SDL2, SDL2_image and SDL2_ttf: {len(from_sdl)} mapped "
              f"({'SDL2 itself among them' if any('libSDL2' in p for p in from_sdl) else 'SDL2 itself not: only those the program links for itself'}) "
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
