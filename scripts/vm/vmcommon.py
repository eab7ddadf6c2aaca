"""What the boot test's runs share: the report, the journal and unit helpers, where the
screendumps go."""

import os
import re
import time

import syscalls
import vmlib
from vmlib import log


OUT = os.path.join(vmlib.ROOT, "build", "vm-test")
CONF = "/etc/splashboard/splashboard.conf"
UNIT = open(os.path.join(vmlib.ROOT, "packaging", "splashboard.service")).read()
NET_UNIT = open(os.path.join(vmlib.ROOT, "packaging", "splashboard-net.service")).read()


class Report:
    def __init__(self):
        self.lines = []
        self.failures = 0
        self.timeline = []

    def check(self, what, ok, detail=""):
        line = f"{'ok' if ok else 'FAILED'}: {what}" + (f" ({detail})" if detail else "")
        if not ok:
            self.failures += 1
        self.lines.append(line)
        log(line)
        return ok

    def note(self, text):
        self.lines.append("   " + text)
        log("   " + text)


def journal_length(vm):
    _, out = vm.sh("journalctl -b -u splashboard -o cat --no-pager 2>/dev/null | wc -l")
    return int(out.strip() or 0)


def journal_stamp(vm, pattern, last=True):
    """When the kiosk's journal line matching `pattern` (the last, or the first) was
    written, in seconds since the guest's kernel started; None when there is none."""
    pick = "tail" if last else "head"
    _, line = vm.sh(f"journalctl -b -u splashboard -o short-monotonic --no-pager 2>/dev/null | grep -E '{pattern}' | {pick} -n 1")
    m = re.search(r"\[\s*([\d.]+)\]", line)
    return float(m.group(1)) if m else None


# How much longer than on x86_64 the guest takes for the same work: every wait for the
# kiosk's journal is stretched by it (vm-test.py sets 2 for the emulated aarch64 machine).
SLOWER = 1


def wait_journal(vm, pattern, start, timeout):
    """Waits for a line of the kiosk's journal after line `start` matching `pattern`
    (only the new lines cross the serial console), `timeout` seconds on x86_64."""
    deadline = time.time() + timeout * SLOWER
    while time.time() < deadline:
        _, out = vm.sh(f"journalctl -b -u splashboard -o cat --no-pager 2>/dev/null | tail -n +{start + 1} | "
                       f"grep -m1 -E '{pattern}' || true")
        if out.strip():
            return out.strip().splitlines()[0]
        time.sleep(0.5)
    return None


def last_countdown(vm, start):
    """The last number the splash announced after journal line `start` ("" when none):
    said beside a skip check's result, so that a late input is told from a lost one."""
    _, out = vm.sh(f"journalctl -b -u splashboard -o cat --no-pager 2>/dev/null | tail -n +{start + 1} | "
                   f"grep -E 'countdown value=' | tail -n 1 || true")
    return out.strip().rsplit("=", 1)[-1] if out.strip() else ""


def boot_lines(vm):
    """The kiosk's `first_frame` and `started` lines of this boot (waiting up to two
    minutes for the first); `started` is "" when missing."""
    first = wait_journal(vm, r"first_frame", 0, 120)
    started = wait_journal(vm, r"started version", 0, 5) or ""
    return first, started


def restart(vm):
    """Restarts the kiosk; returns the journal position before it."""
    start = journal_length(vm)
    vm.sh("systemctl restart splashboard")
    return start


def main_pid(vm):
    return vm.sh("systemctl show -p MainPID --value splashboard")[1].strip()


def activated_at(vm, unit):
    """Seconds from kernel start to when systemd saw `unit` become active (for the kiosk,
    READY=1, sent right after its first frame), from PID 1's own clock: the journal's time
    of a line is when journald read it, seconds late on a busy boot."""
    _, out = vm.sh(f"systemctl show -p ActiveEnterTimestampMonotonic --value {unit}")
    return int(out.strip() or 0) / 1e6 or None


def set_config(vm, lines):
    """The packaged config plus the test's lines. A setting the test gives is commented out
    where it stood before (and put back at the next call), as an operator edits the file: a
    setting given twice is a warning the checks would read."""
    vm.sh(f"sed -i '/^# vm-test$/,$d' {CONF}")
    vm.sh(f"sed -i 's/^#vm-test-was# //' {CONF}")
    if lines:
        for key in sorted({line.split("=")[0].strip() for line in lines}):
            vm.sh(f"sed -i 's/^\\({key} *=\\)/#vm-test-was# \\1/' {CONF}")
        vm.sh("printf '%s\\n' '# vm-test' " + " ".join(f"'{line}'" for line in lines) + f" >> {CONF}")


def is_small(box, screen, fraction=0.05):
    x0, y0, x1, y1 = box
    return (x1 - x0) * (y1 - y0) < fraction * screen.width * screen.height


# The countdown for the checks that act on the splash: long enough that a slow serial
# console on a loaded host still acts while the splash is up.
LONG_COUNTDOWN = 15
# The splash is counting down once one of its first numbers after the first is announced.
# Under emulation the first second can pass while the detail screen is drawn ahead (about
# 2 s on the aarch64 VM): the number due then never appears and is not announced, so any
# of the next few says the countdown runs.
COUNTING = "countdown value=(" + "|".join(str(v) for v in range(LONG_COUNTDOWN - 4, LONG_COUNTDOWN)) + ")$"


def pill_box(vm, start):
    """The countdown's digit, found as what changes between two screendumps a second
    apart while the splash counts down."""
    if not wait_journal(vm, COUNTING, start, 60):
        return None, None
    a = vm.screendump("pill-a")
    time.sleep(1.2)
    b = vm.screendump("pill-b")
    box = a.diff_box(b)
    return box, a




def traced_outside_filter(vm, command, unit_text, user="splashboard"):
    """The system calls `command` makes as the unit's user (strace), and those of them
    the unit's SystemCallFilter does not allow."""
    vm.sh(f"strace -f -qq -c -o /tmp/calls.trace -u {user} {command}", timeout=120)
    _, table = vm.sh("awk 'NR>2 && $NF ~ /^[a-z0-9_]+$/ && $NF != \"total\" {print $NF}' /tmp/calls.trace")
    called = set(table.split())
    return called, sorted(called - syscalls_allowed(vm, unit_text))


def syscalls_allowed(vm, unit_text):
    """The calls the unit's filter allows, with the groups as the guest's systemd (the one
    that applies the filter) has them for the guest's architecture; expanded once per VM
    and unit (each group is a round trip over the serial console)."""
    known = vm.__dict__.setdefault("allowed_calls", {})
    if unit_text not in known:
        known[unit_text] = syscalls.allowed(
            unit_text, analyze=lambda g: vm.sh(f"systemd-analyze syscall-filter --no-pager {g}")[1])
    return known[unit_text]


def screen_path(vm, name):
    return os.path.join(vm.work, name + ".ppm")

