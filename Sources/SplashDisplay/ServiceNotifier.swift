import Foundation
import Glibc

/// Tells systemd how the service is doing, with sd_notify(3)'s protocol written out: one
/// datagram to the socket in `$NOTIFY_SOCKET`. `READY=1` once the first frame is on the
/// screen (the unit is `Type=notify`), and `WATCHDOG=1` from the main loop at half the
/// unit's `WatchdogSec=` (`$WATCHDOG_USEC`), so a loop that hangs gets the process
/// restarted. Outside systemd (no `$NOTIFY_SOCKET`) every call does nothing.
public final class ServiceNotifier {
    private let socketPath: String?
    /// How often the loop must say it is alive; nil when systemd asked for no watchdog.
    public let watchdogInterval: Double?
    private var lastPing: UInt64 = 0

    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        // WATCHDOG_PID, when set, names the process the watchdog is for.
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if path != nil, forUs, let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            watchdogInterval = usec / 1_000_000 / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// The first frame is on the screen.
    public func ready() {
        send("READY=1\nSTATUS=showing the kiosk")
        lastPing = RunClock.monotonicNanos()
    }

    /// A line for `systemctl status`.
    public func status(_ text: String) {
        send("STATUS=" + text)
    }

    /// Says the loop is alive, when half the watchdog interval has passed since the last time.
    public func keepAlive() {
        guard let watchdogInterval else { return }
        let now = RunClock.monotonicNanos()
        guard Double(now &- lastPing) / 1e9 >= watchdogInterval * 0.5 else { return }
        lastPing = now
        send("WATCHDOG=1")
    }

    private func send(_ message: String) {
        guard var path = socketPath else { return }
        // A name starting with @ is in the abstract namespace: a NUL byte first.
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + (abstract ? 1 : 0) < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: (abstract ? [0] : []) + bytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 1 : 0))
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
