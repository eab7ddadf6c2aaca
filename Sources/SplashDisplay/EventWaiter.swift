import CSDL2
import FoundationEssentials
import Glibc

/// Sleeps until the next SDL event or a deadline, without spinning.
///
/// SDL 2.26 waits natively only on some video drivers (X11, Wayland); on the others —
/// its own `kmsdrm`, `dummy` headless — `SDL_WaitEventTimeout` wakes every
/// millisecond to poll. There the waiter sleeps in `poll(2)` itself: on a pipe that
/// background work writes to, and on its own read-only copies of the input devices, so
/// a touch or key wakes it and SDL then reads the event from its own copy. On the DRM
/// console (no SDL video driver) the devices are `EvdevInput`'s, which turns what they
/// report into SDL events, and every rescan also asks the output whether its screen changed.
final class EventWaiter {
    private let native: Bool
    private let console: EvdevInput?
    /// Called at each rescan (about every 2 s while idle) on the console.
    private let onRescan: (() -> Void)?
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
    private let onTerminal: ((TerminalSwitch.Request) -> Void)?

    init(driver: String, console: EvdevInput? = nil, onRescan: (() -> Void)? = nil,
         terminal: TerminalSwitch? = nil, onTerminal: ((TerminalSwitch.Request) -> Void)? = nil) {
        self.terminal = terminal
        self.onTerminal = onTerminal
        native = driver == "x11" || driver == "wayland"
        watchInputs = driver != "dummy" && console == nil
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

    /// Wakes a waiting `next` from another thread (after it pushed an SDL event).
    func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The next event, waiting at most `timeoutMs` (nil: until there is one).
    func next(timeoutMs: Int32?) -> SDL_Event? {
        var event = SDL_Event()
        if native {
            let got = timeoutMs.map { SDL_WaitEventTimeout(&event, $0) } ?? SDL_WaitEvent(&event)
            return got != 0 ? event : nil
        }
        if SDL_PollEvent(&event) != 0 { return event }
        let deadline = timeoutMs.map { RunClock.monotonicNanos() + UInt64($0) * 1_000_000 }
        while true {
            let now = RunClock.monotonicNanos()
            let left = deadline.map { $0 > now ? Int32(min(Double(Int32.max), Double($0 - now) / 1e6).rounded(.up)) : 0 }
            let period = quickRescans > 0 ? Self.quickRescanMs : Self.rescanMs
            let sinceRescan = Int32(min(Double(period), Double(RunClock.monotonicNanos() - lastRescan) / 1e6))
            let slice = rescansPaused ? (left ?? -1) : min(left ?? period, max(0, period - sinceRescan))
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if let devices, devices.fd >= 0 { fds.append(pollfd(fd: devices.fd, events: Int16(POLLIN), revents: 0)) }
            if let terminal { fds.append(pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0)) }
            fds += (console?.descriptors ?? Array(inputs.values)).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), slice)
            var rescanNow = false
            for entry in fds where entry.revents != 0 {
                let hungUp = entry.revents & Int16(POLLIN) == 0
                if let terminal, entry.fd == terminal.fd {
                    // Away: the screens are given up before the switch goes on. Back: the
                    // kernel hears first, then the screens are taken again.
                    for request in terminal.take() {
                        if request == .back { terminal.acknowledge() }
                        onTerminal?(request)
                        if request == .away { terminal.release() }
                    }
                } else if let devices, entry.fd == devices.fd {
                    if devices.changed() {
                        rescanNow = true
                        quickRescans = 4
                    }
                } else if let console, entry.fd != wakeRead {
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
                onRescan?()
            }
            SDL_PumpEvents()
            if SDL_PollEvent(&event) != 0 { return event }
            // Background work is done, or the deadline has come: the loop looks again.
            if ready > 0, fds[0].revents != 0 { return nil }
            if let deadline, RunClock.monotonicNanos() >= deadline { return nil }
        }
    }

    private func drain(_ fd: Int32, lost: Bool) {
        if lost, let path = inputs.first(where: { $0.value == fd })?.key {
            // The device went away (unplugged).
            close(fd)
            inputs[path] = nil
            return
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
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
