"""The unit's system-call filter against what the program really calls.

`allowed(unit_text)` expands the unit's `SystemCallFilter=` lines the way systemd reads
them (the first line sets the allow list, `~` lines take groups away, later plain lines
add) with `systemd-analyze syscall-filter`. `trace_host(binary)` runs the shipped binary
under strace on every path that does not need a screen — the headless kiosk with an HTTP
feed, its pictures and a poem, the operator view, then `sync`, `campaigns` and
`cache clear` — and returns the names of the system calls made. The console path (DRM,
evdev) is traced the same way inside the VM by vm-test.py."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

_groups = {}


def _host_analyze(group):
    return subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager", group],
                          capture_output=True, text=True).stdout


def expand(word, analyze=_host_analyze, groups=None):
    """The names in `word` (a call, or a group that `analyze` lists), with groups of the
    same `analyze` remembered in `groups` (this machine's systemd: a module-wide table)."""
    groups = _groups if groups is None else groups
    if not word.startswith("@"):
        return {word}
    if word not in groups:
        names = set()
        for line in analyze(word).splitlines()[1:]:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            names |= expand(line, analyze, groups) if line.startswith("@") else {line}
        groups[word] = names
    return groups[word]


def allowed(unit_text, analyze=None):
    """The calls the unit's SystemCallFilter= lines allow, as this machine's systemd reads
    them, or as `analyze` (another systemd's `syscall-filter` listing: the VM's) does."""
    groups = None if analyze is None else {}
    analyze = analyze or _host_analyze
    result = None
    for line in unit_text.splitlines():
        m = re.match(r"SystemCallFilter=(~?)(.*)", line.strip())
        if not m:
            continue
        names = set()
        for word in m.group(2).split():
            names |= expand(word, analyze, groups)
        if result is None:
            result = names if not m.group(1) else None
        elif m.group(1):
            result -= names
        else:
            result |= names
    return result or set()


def names_from_strace(path, binary):
    """System call names from `strace -f -o path` output, counted from the moment `binary`
    is executed (what a wrapper such as setpriv calls before is not the program's)."""
    names = set()
    ours = set()
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^(\d+)\s+(?:<\.\.\. )?([a-z0-9_]+)[( ]", line)
            if not m:
                continue
            pid, name = m.group(1), m.group(2)
            if name == "execve" and f'"{binary}"' in line:
                ours.add(pid)
                continue
            if pid not in ours:
                continue
            child = re.search(r"^\d+\s+(?:clone3?|fork|vfork)\(.*\)\s+=\s+(\d+)", line)
            if child:
                ours.add(child.group(1))
            if name not in ("exit", "resumed"):
                names.add(name)
    return names


def trace_host(binary, root):
    """Runs the paths that need no screen under strace; returns the system calls made."""
    work = tempfile.mkdtemp(prefix="splashboard-syscalls-")
    www = os.path.join(work, "www")
    os.makedirs(www)
    demo = os.path.join(root, "assets", "demo")
    for name in os.listdir(demo):
        if name.endswith(".jpg"):
            shutil.copy(os.path.join(demo, name), www)
    with open(os.path.join(demo, "feed.json")) as f:
        feed = json.load(f)
    with open(os.path.join(www, "feed.json"), "w") as f:
        json.dump(feed, f, ensure_ascii=False)
    with open(os.path.join(www, "poem.json"), "w") as f:
        json.dump({"content": "春眠不觉晓，处处闻啼鸟。", "origin": "春晓", "author": "孟浩然", "category": "古诗"}, f,
                  ensure_ascii=False)
    server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1"], cwd=www,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = None
    deadline = time.time() + 10
    while port is None and time.time() < deadline:
        m = re.search(r"port (\d+)", server.stdout.readline())
        port = m and int(m.group(1))
    base = f"http://127.0.0.1:{port}"
    with open(os.path.join(work, "script"), "w") as f:
        f.write("0.5 tap skip\n1.5 key f2\n3 key escape\n")
    common = ["--data-dir", os.path.join(work, "data"), "--cache-dir", os.path.join(work, "cache"),
              "--feed", base + "/feed.json"]
    runs = [
        ["--headless", "--exit-after", "5", "--script", os.path.join(work, "script"),
         "--poetry-url", base + "/poem.json", "--poetry-image-url", base + "/spring-tea.jpg"] + common,
        ["sync"] + common,
        ["campaigns"] + common,
        ["cache", "clear"] + common,
    ]
    names = set()
    env = dict(os.environ, HOME=work, SPLASHBOARD_ASSETS=os.path.join(root, "assets"))
    # As an unprivileged user, as the service runs (SQLite, for one, calls fchown as root).
    user = []
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "65534:65534", work], check=True)
        os.chmod(work, 0o755)
        user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    env.pop("DISPLAY", None)
    try:
        for i, args in enumerate(runs):
            out = os.path.join(work, f"trace{i}")
            subprocess.run(["strace", "-f", "-qq", "-o", out] + user + [binary] + args, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
            names |= names_from_strace(out, binary)
    finally:
        server.terminate()
        shutil.rmtree(work, ignore_errors=True)
    return names
