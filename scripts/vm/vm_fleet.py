"""A fleet's upgrade: the running kiosk upgraded through apt from a signed repository
(`make repo`) served on the host and reached through QEMU's restricted user network."""

import base64
import functools
import http.server
import json
import os
import re
import shutil
import socketserver
import subprocess
import tempfile
import threading

from vmlib import VM, ROOT, build_image, log
from vmcommon import journal_length, wait_journal, main_pid

# Where the guest finds the repository: QEMU forwards this address to the host's server.
REPO_ADDRESS = "10.0.2.100"
APT_ONLY_OURS = "-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts=/etc/apt/sources.list.d"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    """A static web server for `folder` on a free port of 127.0.0.1, in a thread."""
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def stop(vm, server, work):
    """The guest cut off, the server stopped, the run's folder gone (whichever there is)."""
    if vm is not None:
        vm.power_cut()
    if server is not None:
        server.shutdown()
    shutil.rmtree(work, ignore_errors=True)


def next_package(deb, work):
    """The package after `deb`: the same programs, numbered as the next commit's build."""
    version = subprocess.run(["dpkg-deb", "-f", deb, "Version"], capture_output=True, text=True, check=True).stdout.strip()
    arch = subprocess.run(["dpkg-deb", "-f", deb, "Architecture"], capture_output=True, text=True, check=True).stdout.strip()
    unpacked = os.path.join(work, "next")
    subprocess.run(["dpkg-deb", "-R", deb, unpacked], check=True)
    control = os.path.join(unpacked, "DEBIAN", "control")
    text = open(control).read().replace(f"Version: {version}\n", f"Version: {version}.1\n")
    open(control, "w").write(text)
    out = os.path.join(work, f"splashboard_{version}.1_{arch}.deb")
    subprocess.run(["dpkg-deb", "-b", "-Zxz", unpacked, out], check=True, capture_output=True)
    return version, version + ".1", out


def ledger(vm):
    """The shows in the ledger, and how many distinct show ids."""
    _, out = vm.sh("sqlite3 /var/lib/splashboard/splashboard.db 'SELECT COUNT(*), COUNT(DISTINCT show_id) FROM ledger'")
    total, distinct = (out.strip().split("|") + ["0", "0"])[:2]
    return int(total or 0), int(distinct or 0)


def run_upgrade(folder, accel, report, deb):
    """The kiosk showing its campaigns; the next package added to a repository made by
    make repo; the device trusts its key, adds it as README says, and upgrades with apt-get
    while the kiosk runs. After: the new package, the kiosk restarted and on the screen,
    the same shows (none counted twice), config, device id and cache."""
    work = tempfile.mkdtemp(prefix="splashboard-fleet-")
    server = None
    vm = None
    try:
        old, new, next_deb = next_package(deb, work)
        env = dict(os.environ, REPO_DIR=os.path.join(work, "repo"), REPO_KEY_DIR=os.path.join(work, "key"))
        made = subprocess.run(["sh", "scripts/repo.sh", next_deb], cwd=ROOT, env=env, capture_output=True, text=True)
        if made.returncode != 0:
            raise RuntimeError("make repo failed: " + made.stderr[-1000:])
        key = open(os.path.join(work, "repo", "splashboard-archive-keyring.asc"), "rb").read()
        server, port = serve(os.path.join(work, "repo"))
        log(f"upgrade: {old} -> {new}, repository on 127.0.0.1:{port} as http://{REPO_ADDRESS}/")
        # QEMU runs the command for each connection the guest makes to the address (a
        # chardev target would serve only the first).
        vm = VM(folder, "upgrade", accel=accel, gpus="virtio", net=True,
                guestfwd=f"tcp:{REPO_ADDRESS}:80-cmd:socat - TCP:127.0.0.1:{port}")
        vm.start()
        vm.login()
        wait_journal(vm, r"first_frame", 0, 120)
        # A few shows first: the attract loop brings a splash back every cycle.
        wait_journal(vm, r"event=splash|\"event\":\"splash\"|splash campaign", 0, 120)
        before_pid = main_pid(vm)
        before_shows = ledger(vm)
        conf = vm.sh("md5sum /etc/splashboard/splashboard.conf | cut -c1-32")[1].strip()
        device = vm.sh("splashboard status --json 2>/dev/null | grep -o '\"device\":\"[^\"]*\"'")[1].strip()
        cache = vm.sh("ls /var/cache/splashboard | wc -l")[1].strip()

        # README's steps: the key, the source, then apt-get (only this repository: the
        # restricted network reaches nothing else).
        vm.sh("echo " + base64.b64encode(key).decode() +
              " | base64 -d > /usr/share/keyrings/splashboard-archive-keyring.asc")
        vm.sh("printf '%s\\n' 'Types: deb' 'URIs: http://" + REPO_ADDRESS + "/' 'Suites: stable' 'Components: main' "
              "'Signed-By: /usr/share/keyrings/splashboard-archive-keyring.asc' > /etc/apt/sources.list.d/splashboard.sources")
        start = journal_length(vm)
        updated, out = vm.sh(f"apt-get {APT_ONLY_OURS} update 2>&1 | tail -n 3", timeout=180)
        status, upgraded = vm.sh(f"DEBIAN_FRONTEND=noninteractive apt-get {APT_ONLY_OURS} install -y --only-upgrade "
                                 "splashboard 2>&1 | tail -n 4", timeout=600)
        version = vm.sh("dpkg-query -W -f '${Version}' splashboard")[1].strip()
        report.check("apt-get upgrades the kiosk from the signed repository on the fleet's server",
                     version == new, f"{old} -> {version}: {out.strip().splitlines()[-1:] + upgraded.strip().splitlines()[-1:]}")
        again = wait_journal(vm, r"first_frame", start, 120)
        after_pid = main_pid(vm)
        screen = vm.screendump("upgraded")
        report.check("the upgrade restarts the kiosk, which is on the screen again",
                     again is not None and after_pid not in ("", "0", before_pid) and not screen.is_black(),
                     f"pid {before_pid} -> {after_pid}; {again and again.split('splashboard: ')[-1]}")
        after_shows = ledger(vm)
        report.check("every show is kept and none is counted twice",
                     after_shows[0] >= before_shows[0] and after_shows[0] == after_shows[1],
                     f"ledger {before_shows[0]} -> {after_shows[0]} shows, {after_shows[1]} distinct ids")
        conf_after = vm.sh("md5sum /etc/splashboard/splashboard.conf | cut -c1-32")[1].strip()
        device_after = vm.sh("splashboard status --json 2>/dev/null | grep -o '\"device\":\"[^\"]*\"'")[1].strip()
        cache_after = vm.sh("ls /var/cache/splashboard | wc -l")[1].strip()
        report.check("the config, the device id and the cache are kept",
                     conf_after == conf and device_after == device and device != "" and cache_after == cache,
                     f"config {conf[:8]}/{conf_after[:8]}, {device_after}, cache {cache} -> {cache_after} files")
    finally:
        stop(vm, server, work)


# The feed the first boot's kiosk is pointed at: one campaign for its group, one for another,
# their pictures beside it (the package's demo pictures).
FIRST_BOOT_FEED = {
    "campaigns": [
        {"id": "lobby-welcome", "picUrl": "spring-tea.jpg", "showTime": 100, "title": "lobby", "groups": ["lobby"]},
        {"id": "cafe-menu", "picUrl": "night-market.jpg", "showTime": 100, "title": "cafe", "groups": ["cafe"]},
    ],
}


def depends(deb):
    """The packages `deb` depends on, the first of each alternative, without versions."""
    text = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True, check=True).stdout
    return [part.split("|")[0].split("(")[0].strip() for part in text.split(",") if part.strip()]


def seed_disk(work, user_data):
    """A NoCloud seed: a FAT disk labelled cidata with the user data and an instance id."""
    disk = os.path.join(work, "seed.img")
    for name, text in (("user-data", user_data), ("meta-data", "instance-id: kiosk-first-boot\nlocal-hostname: kiosk-vm\n")):
        open(os.path.join(work, name), "w").write(text)
    subprocess.run(["mkfs.vfat", "-C", "-n", "CIDATA", disk, "2048"], check=True, capture_output=True)
    subprocess.run(["mcopy", "-i", disk, os.path.join(work, "user-data"), os.path.join(work, "meta-data"), "::"],
                   check=True)
    return disk


def run_first_boot(deb, accel, report):
    """A system with cloud-init and without the kiosk boots with a NoCloud seed made from
    packaging/cloud-init/user-data.yaml (as make repo REPO_URL=… fills it in, the settings
    set): cloud-init adds the repository with its key, installs the package, writes the
    settings and the time zone and reboots; the kiosk then comes up on the feed and the
    groups the file names."""
    work = tempfile.mkdtemp(prefix="splashboard-first-boot-")
    server = None
    vm = None
    try:
        # What the package depends on is in the image (the restricted network reaches only
        # the repository), as is cloud-init with gpg, which takes the key, and the zone
        # database every Debian and Raspberry Pi OS install has; no Debian source.
        folder = build_image(deb, flavour="first-boot", install=False,
                                   packages=depends(deb) + ["cloud-init", "gnupg", "dosfstools", "tzdata"],
                                   extra_hooks=[
                                       # The image has its own DHCP client (systemd-networkd).
                                       'printf "network: {config: disabled}\\n" > '
                                       '"$1/etc/cloud/cloud.cfg.d/99-vmtest-network.cfg"',
                                       # No Debian source: the network reaches only the repository.
                                       ': > "$1/etc/apt/sources.list"; rm -f "$1"/etc/apt/sources.list.d/*',
                                   ])
        env = dict(os.environ, REPO_DIR=os.path.join(work, "repo"), REPO_KEY_DIR=os.path.join(work, "key"),
                   REPO_URL=f"http://{REPO_ADDRESS}")
        made = subprocess.run(["sh", "scripts/repo.sh", deb], cwd=ROOT, env=env, capture_output=True, text=True)
        if made.returncode != 0:
            raise RuntimeError("make repo failed: " + made.stderr[-1000:])
        open(os.path.join(work, "repo", "feed.json"), "w").write(json.dumps(FIRST_BOOT_FEED))
        for picture in ("spring-tea.jpg", "night-market.jpg"):
            data = subprocess.run(f"dpkg-deb --fsys-tarfile '{deb}' | tar -xO ./usr/share/splashboard/demo/{picture}",
                                  shell=True, capture_output=True, check=True).stdout
            open(os.path.join(work, "repo", picture), "wb").write(data)
        user_data = open(os.path.join(work, "repo", "user-data.yaml")).read()
        user_data = user_data.replace("feed = https://kiosk.example.com/feed.json", f"feed = http://{REPO_ADDRESS}/feed.json")
        user_data = user_data.replace("timezone: Asia/Shanghai", "timezone: Europe/Berlin")
        checked = subprocess.run(["cloud-init", "schema", "--config-file", os.path.join(work, "repo", "user-data.yaml")],
                                 capture_output=True, text=True) if shutil.which("cloud-init") else None
        seed = seed_disk(work, user_data)
        server, port = serve(os.path.join(work, "repo"))
        vm = VM(folder, "first-boot", accel=accel, gpus="virtio", net=True, drives=[seed],
                guestfwd=f"tcp:{REPO_ADDRESS}:80-cmd:socat - TCP:127.0.0.1:{port}")
        vm.start()
        vm.login()
        # cloud-init's stages, then its reboot: the shell of the second boot.
        vm.sh("cloud-init status --wait >/dev/null 2>&1; true", timeout=1200)
        vm.buffer = b""
        vm.login(timeout=600)
        installed = vm.sh("dpkg-query -W -f '${Version}' splashboard 2>/dev/null")[1].strip()
        done = vm.sh("cloud-init status 2>/dev/null | grep -o 'status: [a-z]*'")[1].strip()
        report.check("a first boot with the NoCloud seed installs the kiosk from the repository and reboots",
                     installed != "" and "done" in done,
                     f"splashboard {installed or 'not installed'}; cloud-init {done}; "
                     f"schema on the host: {checked.stdout.strip() if checked else 'cloud-init not installed here'}")
        first = wait_journal(vm, r"first_frame", 0, 180)
        synced = wait_journal(vm, r"sync status=", 0, 180)
        zone = vm.sh("cat /etc/timezone 2>/dev/null || readlink /etc/localtime | sed 's|.*zoneinfo/||'")[1].strip()
        zone_why = vm.sh("ls -l /etc/localtime; date +%Z; grep -i -m3 'timezone' /var/log/cloud-init.log | cut -c1-200")[1]
        groups = vm.sh("grep -E '^(feed|device-groups|rotate) = ' /etc/splashboard/splashboard.conf | tr '\\n' ';'")[1]
        campaigns = vm.sh("splashboard campaigns 2>&1 | grep -E 'lobby-welcome|cafe-menu'")[1]
        report.check("the kiosk comes up on the feed and the groups the file names, in its time zone",
                     first is not None and synced is not None and 'status="ok"' in synced and zone == "Europe/Berlin"
                     and "device-groups = lobby" in groups
                     and re.search(r"lobby-welcome.*yes", campaigns) is not None
                     and re.search(r"cafe-menu.*other screens|cafe-menu.*no \(", campaigns) is not None,
                     f"{synced and synced.split('splashboard: ')[-1]}; zone {zone}; {groups}; {campaigns.strip()}"
                     + ("" if zone == "Europe/Berlin" else f"; {zone_why}"))
    finally:
        stop(vm, server, work)
