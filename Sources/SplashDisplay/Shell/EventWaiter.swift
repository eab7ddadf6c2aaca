import FoundationEssentials
import Glibc

/// Sleeps until the next event (`ShellEvent`) or a deadline, without spinning.
///
/// In a window on X11 or Wayland, SDL waits for the window system's events itself, and
/// background work wakes it with an SDL event. Everywhere else — the console, headless,
/// SDL's own `kmsdrm` (whose `SDL_WaitEventTimeout` wakes every millisecond to poll) — the
/// waiter sleeps in `poll(2)` itself: on a pipe that background work writes to, and on the
/// input devices, so a touch or key wakes it. On the console the devices are
/// `EvdevInput`'s, which turns what they report into events, and every rescan also asks
/// the output whether its screen changed; with SDL's `kmsdrm`, SDL reads the events from
/// its own copies of the devices, the waiter's being only there to wake it.
final class EventWaiter {
    /// The window, whose events SDL reads; nil on the console and headless.
    private let window: SDLWindow?
    /// Whether SDL waits for the window's events itself (X11, Wayland).
    private let native: Bool
    private let console: EvdevInput?
    /// Events made by the loop's own machinery (a screen set up again), before the rest.
    private var pending: [ShellEvent] = []
    /// Called at each rescan (about every 2 s while idle) on the console.
    private let onRescan: (() -> ShellEvent?)?
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var inputs: [String: Int32] = [:]
    private let watchInputs: Bool
    /// How long a poll may last at most, so a device plugged in later is noticed.
    private static let rescanMs: Int32 = 2000
    /// While the screen is off, screens are not looked for (a monitor that drops its
    /// hotplug signal with its input dark is not unplugged) and nothing wakes the wait but
    /// input, the loop's own wake and device nodes coming and going.
    var rescansPaused = false
    private var lastRescan = RunClock.monotonicNanos()
    /// Device nodes coming and going, on the console: a rescan at once, then a few more a
    /// quarter second apart while the new device settles (a GPU's connectors are probed
    /// just after its node appears).
    private let devices: DeviceWatch?
    private var quickRescans = 0
    private static let quickRescanMs: Int32 = 250

    /// The console's terminal switches, and what to do at each.
    private let terminal: TerminalSwitch?
    private let onTerminal: ((TerminalSwitch.Request) -> ShellEvent?)?

    /// Waits on `window`'s events (nil: none, headless or on the console) and `console`'s
    /// input devices. What `onRescan` and `onTerminal` return comes next.
    init(window: SDLWindow?, console: EvdevInput? = nil, onRescan: (() -> ShellEvent?)? = nil,
         terminal: TerminalSwitch? = nil, onTerminal: ((TerminalSwitch.Request) -> ShellEvent?)? = nil) {
        self.terminal = terminal
        self.onTerminal = onTerminal
        self.window = window
        native = window?.waitsForEvents ?? false
        // With SDL's kmsdrm, the devices only wake the wait (SDL reads its own copies).
        watchInputs = window != nil && console == nil
        self.console = console
        self.onRescan = onRescan
        devices = console == nil ? nil : DeviceWatch()
        if !native {
            var fds: [Int32] = [0, 0]
            if pipe(&fds) == 0 {
                for fd in fds {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                }
                wakeRead = fds[0]
                wakeWrite = fds[1]
            }
            rescanInputs()
        }
    }

    deinit {
        for fd in inputs.values { close(fd) }
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Wakes `next` from any thread: background work posted to the mailbox.
    func wake() {
        if native {
            window?.wake()
            return
        }
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Adds an event of the loop's own (a screen set up again) before what comes next.
    func push(_ event: ShellEvent) {
        pending.append(event)
    }

    /// What is there already, without waiting: the loop's own events, the console's input,
    /// then the window's.
    func poll() -> ShellEvent? {
        // Background work's byte on the pipe comes first: its wake is never lost behind input.
        if !native, wakeRead >= 0, drain(wakeRead, lost: false) { queueWake() }
        if !pending.isEmpty { return pending.removeFirst() }
        if let console { pending += console.take() }
        if !pending.isEmpty { return pending.removeFirst() }
        while let window, let got = window.poll() {
            if let event = got { return event }
        }
        return nil
    }

    /// The next event, waited for up to `timeoutMs` (nil: until one comes); nil when the
    /// time ran out.
    func next(timeoutMs: Int32?) -> ShellEvent? {
        if let event = poll() { return event }
        let deadline = timeoutMs.map { RunClock.monotonicNanos() + UInt64(max(0, $0)) * 1_000_000 }
        func left() -> Int32? {
            let now = RunClock.monotonicNanos()
            return deadline.map { $0 > now ? Int32(min(Double(Int32.max), Double($0 - now) / 1e6).rounded(.up)) : 0 }
        }
        if native, let window {
            // SDL waits; an event the loop does not use waits on for what is left.
            while true {
                guard let got = window.next(timeoutMs: left()) else { return nil }
                if let event = got { return event }
                if left() == 0 { return nil }
            }
        }
        while true {
            let left = left()
            let period = quickRescans > 0 ? Self.quickRescanMs : Self.rescanMs
            let sinceRescan = Int32(min(Double(period), Double(RunClock.monotonicNanos() - lastRescan) / 1e6))
            let slice = rescansPaused ? (left ?? -1) : min(left ?? period, max(0, period - sinceRescan))
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if let devices, devices.fd >= 0 { fds.append(pollfd(fd: devices.fd, events: Int16(POLLIN), revents: 0)) }
            if let terminal { fds.append(pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0)) }
            fds += (console?.descriptors ?? Array(inputs.values)).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = Glibc.poll(&fds, nfds_t(fds.count), slice)
            var rescanNow = false
            for entry in fds where entry.revents != 0 {
                let hungUp = entry.revents & Int16(POLLIN) == 0
                if entry.fd == wakeRead {
                    if drain(wakeRead, lost: false) { queueWake() }
                } else if let terminal, entry.fd == terminal.fd {
                    // Away: the screens are given up before the switch goes on. Back: the
                    // kernel hears first, then the screens are taken again.
                    for request in terminal.take() {
                        if request == .back { terminal.acknowledge() }
                        if let event = onTerminal?(request) { pending.append(event) }
                        if request == .away { terminal.release() }
                    }
                } else if let devices, entry.fd == devices.fd {
                    if devices.changed() {
                        rescanNow = true
                        quickRescans = 4
                    }
                } else if let console {
                    console.read(entry.fd, hungUp: hungUp)
                } else {
                    drain(entry.fd, lost: hungUp)
                }
            }
            if rescansPaused {
                if rescanNow { rescanInputs(); console?.rescan() }
            } else if rescanNow || RunClock.monotonicNanos() - lastRescan >= UInt64(period) * 1_000_000 {
                // New input devices, and (on the console) a screen that went or came back.
                if !rescanNow, quickRescans > 0 { quickRescans -= 1 }
                lastRescan = RunClock.monotonicNanos()
                rescanInputs()
                console?.rescan()
                if let event = onRescan?() { pending.append(event) }
            }
            if let event = poll() { return event }
            // The deadline has come: the loop looks again.
            if let deadline, RunClock.monotonicNanos() >= deadline { return nil }
        }
    }

    /// A wake for the loop, once however many bytes came: it takes the whole mailbox.
    private func queueWake() {
        if !pending.contains(.wake) { pending.append(.wake) }
    }

    /// Reads `fd` (the wake pipe, a watched device) empty, or closes a device that went
    /// away; whether anything was read.
    @discardableResult
    private func drain(_ fd: Int32, lost: Bool) -> Bool {
        if lost, let path = inputs.first(where: { $0.value == fd })?.key {
            // The device went away (unplugged).
            close(fd)
            inputs[path] = nil
            return false
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var read = false
        while Glibc.read(fd, &buffer, buffer.count) > 0 { read = true }
        return read
    }

    /// Opens the input devices not watched yet.
    private func rescanInputs() {
        guard watchInputs else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input")) ?? []
        for name in names where name.hasPrefix("event") {
            let path = "/dev/input/" + name
            guard inputs[path] == nil else { continue }
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { inputs[path] = fd }
        }
    }
}
