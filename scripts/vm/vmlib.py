"""A Debian 12 virtual machine for the boot test: the disk image, QEMU, QMP and a shell
on the serial console. Used by scripts/vm/vm-test.py."""

import hashlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import time
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VM_DIR = os.path.join(ROOT, ".build", "vm")

# What the image holds besides the .deb: a minimal system that boots (no X, no Mesa).
# sqlite3 reads the database after power cuts; strace is for the syscall list.
# fbi is the console image viewer the benchmark compares with, and GNU time measures both
# (scripts/vm/vm-bench.py). cec-ctl (v4l-utils) is the emulated TV of the screen schedule's run.
PACKAGES = ["systemd-sysv", "udev", "linux-image-amd64", "e2fsprogs", "kmod", "sqlite3", "strace",
            "util-linux", "fbi", "time", "kbd", "v4l-utils"]

# The kiosk's settings for the test (appended to the packaged config, as an operator would).
TEST_CONFIG = """
# boot test
countdown = 6
attract-after = 15
"""

# A feed with one campaign capped at a few shows, for the power-cut runs.
POWER_FEED = {
    "message": "boot test",
    "campaigns": [
        {"id": "capped", "picUrl": "file:///usr/share/splashboard/demo/spring-tea.jpg", "showTime": 12,
         "title": "capped", "updatedAt": "2026-11-20T10:00:00Z"},
        {"id": "plenty", "picUrl": "file:///usr/share/splashboard/demo/night-market.jpg", "showTime": 100000,
         "title": "plenty", "updatedAt": "2026-11-01T10:00:00Z"},
    ],
}


def log(text):
    print(text, flush=True)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def bench_pictures():
    """A 1080p and a 4K JPEG for the console benchmark (three bands, green in the middle,
    shaded so they compress like a photograph rather than flat colour), made with cjpeg."""
    folder = os.path.join(VM_DIR, "bench-pictures")
    os.makedirs(folder, exist_ok=True)
    made = []
    for name, (w, h) in (("bench-1080.jpg", (1920, 1080)), ("bench-4k.jpg", (3840, 2160))):
        out = os.path.join(folder, name)
        if not os.path.exists(out):
            rows = bytearray()
            for y in range(h):
                shade = 40 + (y * 160) // h
                row = bytearray()
                for band, color in enumerate(((255, shade, shade), (shade, 230, shade), (shade, shade, 255))):
                    x0, x1 = w * band // 3, w * (band + 1) // 3
                    row += bytes(color) * (x1 - x0)
                rows += row
            ppm = out + ".ppm"
            with open(ppm, "wb") as f:
                f.write(b"P6 %d %d 255\n" % (w, h) + bytes(rows))
            with open(out + ".tmp", "wb") as f:
                subprocess.run(["cjpeg", "-quality", "90", ppm], stdout=f, check=True)
            os.rename(out + ".tmp", out)
            os.unlink(ppm)
        made.append(out)
    return made


# A feed of two video campaigns, one H.264 MP4 and one VP9 WebM, each shown once, with the
# demo's pictures as posters: the video run.
VIDEO_FEED = {
    "message": "boot test: video",
    "campaigns": [
        # A picture first (the highest priority, one show): the media process the kiosk keeps
        # ready loads its libraries meanwhile, as it does on a kiosk that has been running
        # (under emulation a cold start takes longer than a first frame may).
        {"id": "first", "picUrl": "file:///usr/share/splashboard/demo/spring-tea.jpg", "showTime": 1, "priority": 1,
         "title": "first", "updatedAt": "2026-11-01T10:00:00Z"},
        {"id": "h264", "picUrl": "file:///usr/share/splashboard/demo/spring-tea.jpg", "showTime": 1,
         "videoUrl": "file:///usr/local/share/vmtest/clip-h264.mp4", "title": "H.264", "updatedAt": "2026-11-01T10:00:00Z"},
        {"id": "vp9", "picUrl": "file:///usr/share/splashboard/demo/night-market.jpg", "showTime": 1,
         "videoUrl": "file:///usr/local/share/vmtest/clip-vp9.webm", "title": "VP9", "updatedAt": "2026-11-20T10:00:00Z"},
    ],
}


def video_clips():
    """Two 8 s clips of ffmpeg's test pattern for the video run, small enough to decode in
    software under TCG: 640x360 at 15 frames a second, H.264 in MP4 and VP9 in WebM."""
    folder = os.path.join(VM_DIR, "video-clips")
    os.makedirs(folder, exist_ok=True)
    made = []
    for name, codec in (("clip-h264.mp4", ["-c:v", "libx264", "-preset", "veryfast"]),
                        ("clip-vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "400k"])):
        out = os.path.join(folder, name)
        if not os.path.exists(out):
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=15", "-t", "8"]
                           + codec + ["-pix_fmt", "yuv420p", out + ".part" + os.path.splitext(name)[1]], check=True)
            os.rename(out + ".part" + os.path.splitext(name)[1], out)
        made.append(out)
    return made


def bench_clip():
    """The console benchmark's clip: 60 s of ffmpeg's test pattern, H.264 in MP4, at a size
    and rate TCG can decode in software in real time (640x360, 30 frames a second)."""
    out = os.path.join(VM_DIR, "video-clips", "bench-640x360p30.mp4")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not os.path.exists(out):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "60",
                        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", out + ".part.mp4"], check=True)
        os.rename(out + ".part.mp4", out)
    return out


# The arm64 image (make vm-test ARCH=arm64): Debian 13, as Raspberry Pi OS 64-bit is based on
# it, with the libraries the .deb depends on already there, so that installing the .deb (run
# under qemu-user: binfmt_misc) fetches nothing. Its base is kept as a folder by its recipe:
# made once (about 25 minutes on 2 cores, the maintainer scripts emulated), reused by every
# .deb after.
ARM64_PACKAGES = [
    "systemd-sysv", "udev", "linux-image-arm64", "e2fsprogs", "kmod", "sqlite3", "strace", "util-linux", "fbi",
    "time", "kbd", "v4l-utils", "procps", "passwd", "fonts-wqy-microhei", "systemd-timesyncd",
    "libsdl2-2.0-0", "libsdl2-image-2.0-0", "libsdl2-ttf-2.0-0", "libsqlite3-0", "libfontconfig1", "libdrm2",
    "libturbojpeg0", "libpng16-16t64", "libwebp7", "libavformat61", "libavcodec61", "libswscale8", "libavutil59",
    "libqrencode4", "libcurl4t64",
]


# Installed on top of the base for each image: Debian 13's `login` is no longer essential,
# and the serial console's autologin (agetty) runs it.
ARM64_IMAGE_PACKAGES = ["login"]


def arm64_binfmt():
    """Makes sure arm64 programs run here (qemu-user through binfmt_misc), for the image's
    maintainer scripts; raises with what to install when they cannot."""
    if not os.path.exists("/proc/sys/fs/binfmt_misc/register"):
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"], check=False)
    if not os.path.exists("/proc/sys/fs/binfmt_misc/qemu-aarch64"):
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], check=False)
    if not os.path.exists("/proc/sys/fs/binfmt_misc/qemu-aarch64"):
        raise RuntimeError("arm64 programs cannot run here: install qemu-user-static and binfmt-support "
                           "(make vm-test ARCH=arm64 does) and mount binfmt_misc")


def arm64_base():
    """The arm64 base system as a folder under .build/vm, made by mmdebstrap once per recipe."""
    folder = os.path.join(VM_DIR, "arm64")
    os.makedirs(folder, exist_ok=True)
    recipe = json.dumps(["trixie", ARM64_PACKAGES], sort_keys=True)
    key = hashlib.sha256(recipe.encode()).hexdigest()[:16]
    base = os.path.join(folder, f"base-{key}")
    if os.path.exists(base):
        log(f"arm64 base: {base} (cached)")
        return base
    arm64_binfmt()
    for old in os.listdir(folder):
        if old.startswith("base-"):
            shutil.rmtree(os.path.join(folder, old), ignore_errors=True)
    cmd = ["mmdebstrap", "--variant=apt", "--architectures=arm64", "--include=" + ",".join(ARM64_PACKAGES),
           # The serial console of -M virt, for the test's shell.
           "--customize-hook=chroot \"$1\" systemctl enable serial-getty@ttyAMA0.service",
           "trixie", base + ".part"]
    log("arm64 base: mmdebstrap under qemu-user (about 25 minutes the first time; kept after)")
    build_log = os.path.join(folder, "mmdebstrap.log")
    with open(build_log, "w") as out:
        if subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
            raise RuntimeError("mmdebstrap failed:\n" + open(build_log).read()[-3000:])
    os.rename(base + ".part", base)
    return base


def deb_arch(deb):
    """The architecture a .deb is for (dpkg-deb reads its control file)."""
    return subprocess.run(["dpkg-deb", "-f", deb, "Architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()


def image_arch(folder):
    """The architecture of an image folder's system: arm64 images say so in a file."""
    path = os.path.join(folder, "arch")
    return open(path).read().strip() if os.path.exists(path) else "amd64"


def build_image(deb, flavour="", packages=(), files=(), install=True, extra_hooks=()):
    """The disk image with the .deb installed, cached under .build/vm by its inputs. A
    `flavour` (the console benchmark's video rows: mpv, which brings X and Mesa) has images
    of its own, with more `packages` and `files` (copied to /usr/local/share/vmtest). An
    arm64 .deb gets a Debian 13 arm64 image (build_arm64_image)."""
    deb_name = os.path.basename(deb)
    arm64 = deb_arch(deb) == "arm64"
    serial = "ttyAMA0" if arm64 else "ttyS0"
    pictures = bench_pictures() + video_clips() + list(files)
    feed = json.dumps(POWER_FEED, ensure_ascii=False)
    video_feed = json.dumps(VIDEO_FEED, ensure_ascii=False)
    # The .deb, installed as the README says; or not (`install` False: an image for a first
    # boot that installs it from a repository, with what it depends on already there).
    installing = [
        f'copy-in {deb} /root',
        f'chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q /root/{deb_name}',
        f'rm "$1/root/{deb_name}"',
    ] if install else []
    hooks = installing + [
        # A shell on the serial console for the test (root, no password).
        f'mkdir -p "$1/etc/systemd/system/serial-getty@{serial}.service.d"',
        'printf "[Service]\\nExecStart=\\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200 %%I linux\\n" '
        f'> "$1/etc/systemd/system/serial-getty@{serial}.service.d/autologin.conf"',
        'echo kiosk-vm > "$1/etc/hostname"',
        'printf "/dev/vda / ext4 errors=remount-ro 0 1\\n" > "$1/etc/fstab"',
        # A DHCP client on every wired link, as a kiosk image would have one.
        'mkdir -p "$1/etc/systemd/network"',
        'printf "[Match]\\nName=en*\\n\\n[Network]\\nDHCP=yes\\n" > "$1/etc/systemd/network/20-wired.network"',
        'chroot "$1" systemctl enable systemd-networkd.service',
        # A secret of another user's, which the kiosk must not be able to read.
        'mkdir -p "$1/home/alice" && echo secret > "$1/home/alice/secret" && echo secret > "$1/root/secret"',
        f"printf '%s' '{TEST_CONFIG}' >> \"$1/etc/splashboard/splashboard.conf\"" if install else "true",
        'mkdir -p "$1/usr/local/share/vmtest"',
        f"printf '%s' '{feed}' > \"$1/usr/local/share/vmtest/feed.json\"",
        f"printf '%s' '{video_feed}' > \"$1/usr/local/share/vmtest/video-feed.json\"",
    ] + [f"copy-in {p} /usr/local/share/vmtest" for p in pictures] + list(extra_hooks)
    if arm64:
        # As on the x86_64 image, which has none: no timesyncd, whose "synchronized" flag
        # never comes without a network, so the clock is judged by the build date and the
        # screen schedule applies (a Pi with its network does set the flag).
        hooks.append('chroot "$1" systemctl mask systemd-timesyncd.service')
    if arm64:
        packages = ARM64_IMAGE_PACKAGES + list(packages)
    # The image is kept under .build/vm, keyed by the .deb and the recipe.
    everything = (ARM64_PACKAGES if arm64 else PACKAGES) + list(packages)
    recipe = json.dumps([everything, hooks], sort_keys=True)
    key = hashlib.sha256((sha256_file(deb) + recipe).encode()).hexdigest()[:16]
    if arm64:
        flavour = "arm64" + ("-" + flavour if flavour else "")
    prefix = "image-" + (flavour + "-" if flavour else "")
    folder = os.path.join(VM_DIR, prefix + key)
    disk = os.path.join(folder, "disk.img")
    if os.path.exists(disk):
        log(f"image: {folder} (cached)")
        return folder
    for old in os.listdir(VM_DIR) if os.path.isdir(VM_DIR) else []:
        if old.startswith(prefix) and (flavour or old.count("-") == 1):
            shutil.rmtree(os.path.join(VM_DIR, old), ignore_errors=True)
    os.makedirs(folder, exist_ok=True)
    rootfs = os.path.join(folder, "rootfs")
    shutil.rmtree(rootfs, ignore_errors=True)
    if arm64:
        build_arm64_image(rootfs, hooks, list(packages))
        with open(os.path.join(folder, "arch"), "w") as f:
            f.write("arm64\n")
        return finish_image(folder, rootfs, disk)
    cmd = ["mmdebstrap", "--variant=apt", "--include=" + ",".join(everything)]
    cmd += ["--customize-hook=" + h for h in hooks]
    cmd += ["bookworm", rootfs]
    log("image: mmdebstrap (about a minute or two)")
    build_log = os.path.join(VM_DIR, "mmdebstrap.log")
    with open(build_log, "w") as out:
        if subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
            raise RuntimeError("mmdebstrap failed:\n" + open(build_log).read()[-3000:])
    return finish_image(folder, rootfs, disk)


def build_arm64_image(rootfs, hooks, packages):
    """The arm64 system in `rootfs`: a copy of the cached base, then the image's hooks run
    as mmdebstrap would run them (`copy-in`, and shell lines with the root as $1), the
    arm64 programs of the maintainer scripts under qemu-user."""
    base = arm64_base()
    arm64_binfmt()
    log("image: the arm64 base copied, the .deb installed under qemu-user (a few minutes)")
    subprocess.run(["cp", "-a", base, rootfs], check=True)
    mounts = []
    try:
        for kind, where in (("proc", "proc"), ("sysfs", "sys")):
            subprocess.run(["mount", "-t", kind, kind, os.path.join(rootfs, where)], check=True)
            mounts.append(os.path.join(rootfs, where))
        subprocess.run(["mount", "--bind", "/dev", os.path.join(rootfs, "dev")], check=True)
        mounts.append(os.path.join(rootfs, "dev"))
        shutil.copy("/etc/resolv.conf", os.path.join(rootfs, "etc", "resolv.conf"))
        # No service starts inside the image while it is made (as mmdebstrap does it).
        policy = os.path.join(rootfs, "usr", "sbin", "policy-rc.d")
        with open(policy, "w") as f:
            f.write("#!/bin/sh\nexit 101\n")
        os.chmod(policy, 0o755)
        if packages:
            subprocess.run(["chroot", rootfs, "sh", "-c", "apt-get update -q && DEBIAN_FRONTEND=noninteractive "
                            "apt-get install -y -q --no-install-recommends " + " ".join(packages)], check=True)
        build_log = os.path.join(VM_DIR, "arm64", "image.log")
        with open(build_log, "w") as out:
            for hook in hooks:
                if hook.startswith("copy-in "):
                    _, source, target = hook.split(" ", 2)
                    shutil.copy(source, os.path.join(rootfs, target.lstrip("/")))
                    continue
                if subprocess.run(["sh", "-c", hook, "sh", rootfs], stdout=out, stderr=subprocess.STDOUT).returncode:
                    raise RuntimeError(f"image hook failed: {hook}\n" + open(build_log).read()[-3000:])
        os.unlink(policy)
    finally:
        for m in reversed(mounts):
            subprocess.run(["umount", "-l", m], check=False)


def finish_image(folder, rootfs, disk):
    """The kernel and initrd beside the image, its package list, and the ext4 disk made
    from `rootfs` (which goes)."""
    boot = os.path.join(rootfs, "boot")
    kernel = sorted(f for f in os.listdir(boot) if f.startswith("vmlinuz-"))[-1]
    initrd = sorted(f for f in os.listdir(boot) if f.startswith("initrd.img-"))[-1]
    shutil.copy(os.path.join(boot, kernel), os.path.join(folder, "vmlinuz"))
    shutil.copy(os.path.join(boot, initrd), os.path.join(folder, "initrd.img"))
    with open(os.path.join(folder, "depends.txt"), "w") as f:
        out = subprocess.run(["chroot", rootfs, "dpkg-query", "-W", "-f", "${Package}\\n"],
                             capture_output=True, text=True).stdout
        f.write(out)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "root", "-d", rootfs, disk + ".tmp", "3G"], check=True)
    os.rename(disk + ".tmp", disk)
    shutil.rmtree(rootfs)
    log(f"image: {folder}")
    return folder


class Screen:
    """A screendump: width, height and RGB bytes (from QEMU's PPM)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        # The header is three numbers and one whitespace byte; the pixels follow. (Splitting
        # the whole file on whitespace ate a first pixel byte of 0x0B or 0x0D, a dark
        # picture's top-left corner, and shifted every colour by one channel.)
        header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        assert header, "not a PPM"
        self.width, self.height = int(header.group(1)), int(header.group(2))
        self.pixels = data[header.end():header.end() + self.width * self.height * 3]

    def is_black(self):
        return max(self.pixels[::97]) < 16

    def diff_box(self, other, step=2):
        """The box (x0, y0, x1, y1) around the pixels that differ, or None."""
        if (self.width, self.height) != (other.width, other.height):
            return (0, 0, self.width, self.height)
        x0 = y0 = 10 ** 9
        x1 = y1 = -1
        a, b, w = self.pixels, other.pixels, self.width
        for y in range(0, self.height, step):
            row = y * w * 3
            ra, rb = a[row:row + w * 3], b[row:row + w * 3]
            if ra == rb:
                continue
            for x in range(0, w, step):
                i = x * 3
                if abs(ra[i] - rb[i]) + abs(ra[i + 1] - rb[i + 1]) + abs(ra[i + 2] - rb[i + 2]) > 24:
                    x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
        return None if x1 < 0 else (x0, y0, x1 + 1, y1 + 1)

    def save_png(self, path):
        raw = b"".join(b"\x00" + self.pixels[y * self.width * 3:(y + 1) * self.width * 3] for y in range(self.height))

        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
        with open(path, "wb") as f:
            f.write(png)


def kvm_works(folder):
    """Whether a guest kernel boots under KVM here (on some hosts /dev/kvm exists but the
    guest hangs): boots the image once and waits for the serial console."""
    if image_arch(folder) != "amd64" or not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False
    vm = VM(folder, "probe", accel="kvm", gpus="none")
    try:
        vm.start()
        return vm.wait_serial(b"login", 40) or vm.wait_serial(b"root@", 5)
    except Exception:
        return False
    finally:
        vm.power_cut()


# Debian's ovmf: UEFI firmware for QEMU.
OVMF = "/usr/share/ovmf/OVMF.fd"


class VM:
    """One QEMU machine on a copy-on-write overlay of the image."""

    def __init__(self, folder, name, accel="tcg", gpus="virtio", net=False, extra_cmdline="",
                 size=(1280, 800), fresh=True, firmware="bios", guestfwd=None, drives=()):
        self.folder = folder
        # Raw disk images attached after the system's, read-only (a cloud-init seed).
        self.drives = list(drives)
        # With `net`: a guest address:port forwarded to one on the host (QEMU's guestfwd),
        # the only place the restricted network reaches.
        self.guestfwd = guestfwd
        self.name = name
        self.accel = accel
        self.gpus = gpus
        self.net = net
        self.size = size
        self.extra_cmdline = extra_cmdline
        # "uefi": OVMF (Debian's ovmf), which boots the kernel through its EFI stub and
        # leaves it the firmware's framebuffer (efifb).
        self.firmware = firmware
        self.work = os.path.join(VM_DIR, "run-" + name)
        if fresh:
            shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work, exist_ok=True)
        self.overlay = os.path.join(self.work, "disk.qcow2")
        if fresh or not os.path.exists(self.overlay):
            subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", os.path.join(folder, "disk.img"),
                            "-F", "raw", self.overlay], check=True)
        self.proc = None
        self.serial = None
        self.qmp_sock = None
        self.buffer = b""
        self.serial_log = open(os.path.join(self.work, "serial.log"), "ab")

    def command(self):
        w, h = self.size
        arm64 = image_arch(self.folder) == "arm64"
        # arm64: QEMU's virt board with a Cortex-A72 (a Raspberry Pi 4's core), its PL011
        # serial port, PCI virtio devices as on x86_64; no firmware (the kernel is loaded).
        cmdline = (f"root=/dev/vda ro console={'ttyAMA0' if arm64 else 'ttyS0'},115200 quiet loglevel=3 "
                   "systemd.show_status=0 " + self.extra_cmdline)
        machine = (["qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a72"] if arm64
                   else ["qemu-system-x86_64", "-machine", "q35"])
        cmd = machine + ["-accel", self.accel, "-m", "1024", "-smp", "2",
               "-kernel", os.path.join(self.folder, "vmlinuz"), "-initrd", os.path.join(self.folder, "initrd.img"),
               "-append", cmdline,
               "-drive", f"file={self.overlay},if=virtio,format=qcow2",
               *[arg for d in self.drives for arg in ("-drive", f"file={d},if=virtio,format=raw,readonly=on")],
               "-display", "none", "-S",
               "-chardev", f"socket,id=ser0,path={self.work}/serial.sock,server=on,wait=off",
               "-serial", "chardev:ser0",
               "-qmp", f"unix:{self.work}/qmp.sock,server=on,wait=off",
               "-device", "virtio-tablet-pci,id=tablet", "-device", "virtio-keyboard-pci,id=keyboard"]
        if self.gpus == "virtio":
            cmd += ["-vga", "none", "-device", f"virtio-gpu-pci,id=gpu0,xres={w},yres={h}"]
        elif self.gpus == "std":
            cmd += ["-vga", "none", "-device", f"VGA,id=vga0,xres={w},yres={h}"]
        elif self.gpus == "std+virtio":
            # Two screens of different sizes: each is laid out for its own.
            cmd += ["-vga", "none", "-device", f"VGA,id=vga0,xres={w},yres={h}",
                    "-device", "virtio-gpu-pci,id=gpu0,xres=1024,yres=768"]
        elif self.gpus == "cirrus":
            cmd += ["-vga", "none", "-device", "cirrus-vga,id=vga0"]
        else:
            cmd += ["-vga", "none"]
        if self.firmware == "uefi":
            cmd += ["-bios", OVMF]
        if self.net:
            netdev = "user,id=net0,restrict=on" + (f",guestfwd={self.guestfwd}" if self.guestfwd else "")
            cmd += ["-netdev", netdev, "-device", "virtio-net-pci,netdev=net0,id=nic0"]
        else:
            cmd += ["-nic", "none"]
        return cmd

    def start(self, before_boot=None):
        for s in ("serial.sock", "qmp.sock"):
            try:
                os.unlink(os.path.join(self.work, s))
            except FileNotFoundError:
                pass
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                     stdout=open(os.path.join(self.work, "qemu.log"), "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while not (os.path.exists(os.path.join(self.work, "qmp.sock"))
                   and os.path.exists(os.path.join(self.work, "serial.sock"))):
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("QEMU did not start: " + open(os.path.join(self.work, "qemu.log")).read()[-2000:])
            time.sleep(0.05)
        self.qmp_sock = socket.socket(socket.AF_UNIX)
        self.qmp_sock.connect(os.path.join(self.work, "qmp.sock"))
        self.qmp_file = self.qmp_sock.makefile("rwb")
        self.qmp_file.readline()
        self.qmp("qmp_capabilities")
        self.serial = socket.socket(socket.AF_UNIX)
        self.serial.connect(os.path.join(self.work, "serial.sock"))
        self.serial.setblocking(False)
        self.buffer = b""
        if before_boot:
            before_boot(self)
        self.started_at = time.time()
        self.qmp("cont")

    def qmp(self, execute, **arguments):
        message = {"execute": execute}
        if arguments:
            message["arguments"] = arguments
        self.qmp_file.write(json.dumps(message).encode() + b"\n")
        self.qmp_file.flush()
        while True:
            line = self.qmp_file.readline()
            if not line:
                raise RuntimeError("QMP closed")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {execute}: {reply['error']}")

    def _pump(self, timeout):
        import select
        ready, _, _ = select.select([self.serial], [], [], timeout)
        if ready:
            try:
                data = self.serial.recv(65536)
            except BlockingIOError:
                return
            if data:
                self.serial_log.write(data)
                self.serial_log.flush()
                self.buffer += data

    def wait_serial(self, needle, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if needle in self.buffer:
                return True
            self._pump(0.2)
        return needle in self.buffer

    def login(self, timeout=240):
        """Waits for the root shell on the serial console and makes it quiet."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if re.search(rb"root@kiosk-vm:[^\n]*# ?$", self.buffer.rstrip(b" ") + b" ") or b"root@kiosk-vm" in self.buffer:
                break
            self._pump(0.5)
        else:
            raise RuntimeError("no shell on the serial console")
        self.serial.sendall(b"stty -echo; export PS1= PAGER=cat SYSTEMD_PAGER=cat TERM=dumb; dmesg -n 1\n")
        time.sleep(0.5)
        self.sh("true", timeout=30)

    def sh(self, command, timeout=60):
        """Runs a shell command on the serial console; returns (status, output)."""
        marker = "M%08x" % int.from_bytes(os.urandom(4), "big")
        self.buffer = b""
        line = f"{command}; echo \"{marker}:$?:{marker}\"\n"
        self.serial.sendall(line.encode())
        pattern = re.compile(rb"(.*)" + marker.encode() + rb":(\d+):" + marker.encode(), re.S)
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = pattern.search(self.buffer)
            if m:
                out = m.group(1).decode(errors="replace").replace("\r", "")
                return int(m.group(2)), out.strip("\n")
            self._pump(0.2)
        raise RuntimeError(f"serial command timed out: {command}")

    def screendump(self, name, device=None):
        path = os.path.join(self.work, name + ".ppm")
        args = {"filename": path}
        if device:
            args["device"] = device
        self.qmp("screendump", **args)
        return Screen(path)

    def tap(self, x, y, screen):
        """A tap through the virtio tablet at pixel (x, y) of a screen of `screen` size."""
        w, h = screen
        vx = round(x * 32767 / max(w - 1, 1))
        vy = round(y * 32767 / max(h - 1, 1))
        self.qmp("input-send-event", events=[{"type": "abs", "data": {"axis": "x", "value": vx}},
                                             {"type": "abs", "data": {"axis": "y", "value": vy}}])
        self.qmp("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(0.05)
        self.qmp("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def key(self, qcode):
        for down in (True, False):
            self.qmp("input-send-event", events=[{"type": "key", "data": {"down": down,
                                                                          "key": {"type": "qcode", "data": qcode}}}])
            time.sleep(0.05)

    def power_cut(self):
        """QMP quit: the machine stops at once, as when the plug is pulled."""
        try:
            if self.qmp_sock:
                self.qmp("quit")
        except Exception:
            pass
        if self.proc:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for s in (self.serial, self.qmp_sock):
            try:
                s and s.close()
            except Exception:
                pass
        self.proc = self.serial = self.qmp_sock = None
