import Foundation
import Glibc
import SplashCore
import SplashDisplay
import SplashTestSupport
import Testing

/// The kiosk under systemd: `READY=1` once the first frame is up and `WATCHDOG=1` from the
/// loop, sent to a real datagram socket as systemd's `$NOTIFY_SOCKET` would be.
@Suite struct ServiceNotifierTests {
    /// A bound datagram socket that collects what is sent to it.
    final class NotifySocket {
        let path: String
        let fd: Int32

        init(folder: String) throws {
            path = folder + "/notify"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }

        deinit { close(fd) }

        /// Every message waiting, in order.
        func messages() -> [String] {
            var found: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n <= 0 { return found }
                found.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }
    }

    @Test func readyAfterTheFirstFrameThenTheWatchdogIsFed() throws {
        let dir = try temporaryFolder()
        let notify = try NotifySocket(folder: dir)
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = notify.path
        env["WATCHDOG_USEC"] = "1000000"
        // A real-clock run of 3 s on the detail screen: the loop feeds the watchdog while it
        // waits (how often is `theWatchdogIsFedAtHalfItsInterval`'s, on a hand clock).
        let run = try runKiosk(["--headless", "--countdown", "1", "--attract-after", "0", "--exit-after", "3",
                                "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        let messages = notify.messages()
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        #expect(messages.contains("WATCHDOG=1"), "\(messages)")
    }

    @Test func aKioskStartedOutsideItsHoursIsReadyAtOnceWithItsWatchdogRelaxed() throws {
        let dir = try temporaryFolder()
        let notify = try NotifySocket(folder: dir)
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = notify.path
        env["WATCHDOG_USEC"] = "10000000"
        env["TZ"] = "UTC"
        // On for one minute, twelve hours from now: dark at the start.
        let from = Date().addingTimeInterval(12 * 3600)
        let hours = ScreenPowerHeadlessTests.clock(from) + "-" + ScreenPowerHeadlessTests.clock(from.addingTimeInterval(60))
        let run = try runKiosk(["--headless", "--screen-hours", hours, "--exit-after", "2",
                                "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.names.contains("first_frame") && !run.names.contains("splash"), "\(run.names)")
        let messages = notify.messages()
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("WATCHDOG_USEC=600000000") }, "\(messages)")
        #expect(messages.contains { $0.contains("STATUS=screen off (schedule) until ") }, "\(messages)")
    }

    @Test func theWatchdogIsFedAtHalfItsInterval() throws {
        let dir = try temporaryFolder()
        let notify = try NotifySocket(folder: dir)
        var now = 100.0
        // WatchdogSec=2: the loop must say it is alive every second; it says so every half.
        let notifier = ServiceNotifier(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"]) { now }
        #expect(notifier.watchdogInterval == 1)
        notifier.ready()
        #expect(notify.messages().first?.hasPrefix("READY=1") == true)
        var sent: [Int] = []
        for tenth in 1...40 {
            now = 100 + Double(tenth) / 10
            notifier.keepAlive()
            if notify.messages() == ["WATCHDOG=1"] { sent.append(tenth) }
        }
        // A loop woken every 0.1 s pings at 0.5 s, 1.0 s, …: never twice within half the interval.
        #expect(sent == [5, 10, 15, 20, 25, 30, 35, 40], "\(sent)")
        // Woken late (a long wait), it pings at once.
        now += 30
        notifier.keepAlive()
        #expect(notify.messages() == ["WATCHDOG=1"])
    }

    @Test func withoutSystemdNothingIsSent() throws {
        let notifier = ServiceNotifier(environment: [:])
        #expect(notifier.watchdogInterval == nil)
        // A watchdog meant for another process is not this one's.
        let other = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000",
                                                  "WATCHDOG_PID": "1"])
        #expect(other.watchdogInterval == nil)
        let ours = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000"])
        #expect(ours.watchdogInterval == 5)
    }

    @Test func theConsoleIsUsedOnlyWithoutADisplayServer() {
        #expect(Canvas.Output.automatic(headless: true, drmDevice: "/dev/dri/card1", environment: [:]) == .window)
        #expect(Canvas.Output.automatic(headless: false, drmDevice: "/dev/dri/card1", environment: [:])
                == .console(device: "/dev/dri/card1"))
        #expect(Canvas.Output.automatic(headless: false, drmDevice: nil, environment: ["DISPLAY": ":0"]) == .window)
        #expect(Canvas.Output.automatic(headless: false, drmDevice: nil, environment: ["WAYLAND_DISPLAY": "wayland-0"])
                == .window)
        #expect(Canvas.Output.automatic(headless: false, drmDevice: nil, environment: ["SDL_VIDEODRIVER": "kmsdrm"])
                == .window)
        // No display server: the console, which waits for a DRM device if there is none yet.
        #expect(Canvas.Output.automatic(headless: false, drmDevice: nil, environment: [:]) == .console(device: nil))
    }
}
