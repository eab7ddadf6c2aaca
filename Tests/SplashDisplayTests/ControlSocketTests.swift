import Foundation
import SplashCore
import SplashServices
import SplashTestSupport
import Testing

/// `splashboard status` and `splashboard screenshot` against a running headless kiosk, and
/// what its control socket does with input that is not a request.
@Suite struct ControlSocketTests {
    struct Kiosk {
        let process = Process()
        let environment: [String: String]
        let socket: String

        /// `runtimeFolder` false: no XDG_RUNTIME_DIR (a shell opened with `su`, a cron job).
        init(_ s: StoredCampaign, extra: [String], runtimeFolder: Bool = true) throws {
            var environment = ProcessInfo.processInfo.environment
            // Empty: as good as unset, and not replaced by the tests' own runtime folder.
            environment["XDG_RUNTIME_DIR"] = runtimeFolder ? s.folder + "/run" : ""
            self.environment = environment
            socket = runtimeFolder ? s.folder + "/run/splashboard/control.sock" : s.folder + "/data/control.sock"
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["--headless"] + extra + s.args
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            #expect(waitUntilListening(socket), "the kiosk never listened on \(socket)")
        }

        /// Runs `splashboard ARGS` as the operator would, beside the kiosk.
        func command(_ arguments: [String]) throws -> KioskRun {
            try runKiosk(arguments, environment: environment)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test func statusAndScreenshotShowWhatIsOnTheScreen() throws {
        let s = try StoredCampaign()
        let snapshots = s.folder + "/snapshots"
        let kiosk = try Kiosk(s, extra: ["--countdown", "30", "--exit-after", "20", "--rotate", "90",
                                         "--snapshot", snapshots, "--device-id", "lobby-3"])
        defer { kiosk.stop() }
        let status = try kiosk.command(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["scene"] as? String == "splash")
        #expect(object["campaign"] as? String == "stored")
        #expect((1...30).contains(object["countdown"] as? Int ?? 0))
        #expect(object["device"] as? String == "lobby-3")
        #expect(object["feed"] as? String == URL(fileURLWithPath: s.feed).absoluteString)
        #expect((object["uptime_seconds"] as? Double ?? -1) >= 0)
        let text = try kiosk.command(["status"])
        #expect(text.stdout.hasPrefix("screen: splash, campaign stored, 跳过 "), "\(text.stdout)")

        // The screenshot is the frame on the screen: the last snapshot, taken between two ticks.
        var matched = false
        for attempt in 0..<4 where !matched {
            let before = try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted()
            let shot = try kiosk.command(["screenshot", s.folder + "/shot\(attempt).png"])
            let after = try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted()
            #expect(shot.status == 0, "\(shot.stderr)")
            guard before == after, let last = after.last else { continue }
            let screen = try Snapshot(s.folder + "/shot\(attempt).png")
            let snapshot = try Snapshot(snapshots + "/" + last)
            #expect(screen.width == snapshot.width && screen.height == snapshot.height)
            #expect(screen.differences(from: snapshot, in: Rect(x: 0, y: 0, width: screen.width, height: screen.height)) == 0)
            matched = true
        }
        #expect(matched, "the countdown ticked during every screenshot")
    }

    @Test func withoutARuntimeFolderTheSocketIsInTheDataFolderAndStatusFindsIt() throws {
        let s = try StoredCampaign()
        let kiosk = try Kiosk(s, extra: ["--countdown", "30", "--exit-after", "20"], runtimeFolder: false)
        defer { kiosk.stop() }
        #expect(FileManager.default.fileExists(atPath: kiosk.socket))
        let status = try kiosk.command(["status"] + s.args)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("screen: splash, campaign stored"), "\(status.stdout)")
    }

    @Test func aKioskThatIsNotRunningIsOneLineAndExitOne() throws {
        let s = try StoredCampaign()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = s.folder + "/run"
        for arguments in [["status"], ["screenshot", s.folder + "/x.png"]] {
            let run = try runKiosk(arguments, environment: environment)
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("splashboard: no kiosk is running here") && run.stderr.split(separator: "\n").count == 1,
                    "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.folder + "/x.png"))
    }

    @Test func inputThatIsNotARequestGetsAnErrorAndNeverStopsTheKiosk() throws {
        let s = try StoredCampaign()
        let kiosk = try Kiosk(s, extra: ["--countdown", "2", "--attract-after", "1", "--exit-after", "12"])
        defer { kiosk.stop() }
        let hostile: [(Data, String?)] = [
            (Data(repeating: 0x41, count: 100_000), "longer than 4096"),
            (Data("{\"command\": \"format-disk\"}\n".utf8), "unknown command"),
            (Data("not json\n".utf8), "not a request"),
            (Data([0xFF, 0x00, 0x0A]), "not a request"),
            (Data(), nil),  // connects and goes
        ]
        for (bytes, expected) in hostile {
            let reply = try Self.exchange(kiosk.socket, bytes)
            if let expected {
                #expect(reply.contains("\"ok\":false") && reply.contains(expected), "\(reply)")
            }
        }
        // A peer that connects and says nothing is dropped after the read deadline.
        let silent = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = UnixSocket.withAddress(kiosk.socket) { connect(silent, $0, $1) }
        let status = try kiosk.command(["status", "--json"])
        close(silent)
        #expect(status.status == 0, "\(status.stderr)")
        // Nor does one that sends a byte every half second: the whole line has a deadline,
        // not each read, so the next peer is answered. The drip would outlast that deadline
        // (2 s) six times over; it stops once the answer has come, or the kiosk hung up.
        let dripping = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = UnixSocket.withAddress(kiosk.socket) { connect(dripping, $0, $1) }
        let dripStarted = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let dripEnded = DispatchSemaphore(value: 0)
        let drip = Thread {
            defer { dripStarted.signal(); dripEnded.signal() }
            for i in 0..<24 {
                guard send(dripping, "{", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                if i == 0 { dripStarted.signal() }
                if answered.wait(timeout: .now() + 0.5) == .success { return }
            }
        }
        drip.start()
        dripStarted.wait()
        let next = try kiosk.command(["status", "--json"])
        answered.signal()
        dripEnded.wait()
        #expect(next.status == 0, "a dripping peer held the control socket: \(next.stderr)")
        close(dripping)
        kiosk.process.waitUntilExit()
        #expect(kiosk.process.terminationStatus == 0)
    }

    /// Sends `bytes` (then closes the writing side) and returns what comes back.
    static func exchange(_ path: String, _ bytes: Data) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard UnixSocket.withAddress(path, { connect(fd, $0, $1) }) == 0 else { throw DisplayTestError.unreadable(path) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var reply = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &reply, reply.count, 0)
        return String(decoding: reply[0..<max(0, n)], as: UTF8.self)
    }
}
