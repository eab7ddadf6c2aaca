"""A fleet's upgrade: the running kiosk upgraded through apt from a signed repository
(`make repo`) served on the host and reached through QEMU's restricted user network."""

import base64
import functools
import http.server
import os
import shutil
import socketserver
import subprocess
import tempfile
import threading

from vmlib import VM, ROOT, log
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
        if vm is not None:
            vm.power_cut()
        if server is not None:
            server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
