import Foundation
import Glibc
import SplashCore
import SplashLink
import SplashServices
import SplashStorage
import SplashTestSupport
import Testing

/// The display process links no networking code and goes on drawing whatever its network
/// process does: stopped, frozen, killed, or sending what is not an answer.
@Suite struct PrivilegeSeparationTests {
    /// A kiosk started in the background, read line by line.
    final class Running {
        let process = Process()
        private let lock = NSLock()
        private var text = ""

        /// `holding`: a device the kiosk is started holding open as descriptor 7, not
        /// close-on-exec (as a screen or an input device would be), to see that none leaks.
        init(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
             holding device: String? = nil) throws {
            if let device {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "exec 7<\"$0\"; exec \"$@\"", device, Binary.path] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: Binary.path)
                process.arguments = arguments
            }
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                self.lock.lock()
                self.text += String(decoding: data, as: UTF8.self)
                self.lock.unlock()
            }
            try process.run()
        }

        var output: String { lock.lock(); defer { lock.unlock() }; return text }

        func count(_ event: String) -> Int { output.components(separatedBy: "\"event\":\"\(event)\"").count - 1 }

        /// Waits (at most `seconds`) until `condition` holds.
        @discardableResult
        func wait(_ seconds: Double, until condition: () -> Bool) -> Bool {
            eventually(within: seconds, condition)
        }

        /// The network process this kiosk started, once it has.
        /// The network process, once it runs its own program (`serve`): a child caught
        /// between its clone and its exec is the kiosk's own copy, which the kiosk waits
        /// for (posix_spawn), and stopping it there would stop the kiosk too.
        var networkChild: pid_t? {
            let pid = process.processIdentifier
            guard let list = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
            return list.split(separator: " ").compactMap { pid_t($0) }.first { child in
                let argv = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline")))?
                    .split(separator: 0).map { String(decoding: $0, as: UTF8.self) } ?? []
                return argv.count > 1 && argv[1] == "serve"
            }
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// /proc/PID/maps, read to its end (its size says 0, so it is read as a stream).
    static func maps(of pid: pid_t) -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    @Test func theDisplayProcessMapsNoNetworkingCodeAndItsNetworkProcessDoes() throws {
        let s = try StoredCampaign()
        let kiosk = try Running(["--headless", "--countdown", "5", "--exit-after", "20"] + s.args, holding: "/dev/zero")
        defer { kiosk.stop() }
        #expect(kiosk.wait(15) { kiosk.count("sync") > 0 }, "no sync: \(kiosk.output)")
        let child = try #require(kiosk.networkChild, "no network process was started")
        let display = Self.maps(of: kiosk.process.processIdentifier)
        let network = Self.maps(of: child)
        #expect(display.contains("libfreetype"), "the display's maps were not read")
        // Headless, as on the console, the display maps no SDL either, nor what SDL brings:
        // it loads SDL2 only to open a window.
        #expect(!["libSDL2", "libX11", "libwayland", "libpulse", "libasound"].contains { display.contains($0) },
                "\(display.split(separator: "\n").filter { $0.contains("SDL") || $0.contains("X11") }.prefix(5))")
        // The network process links no SDL (nor what SDL brings: X11, Wayland, PulseAudio).
        #expect(!["libSDL2", "libX11", "libwayland", "libpulse"].contains { network.contains($0) },
                "\(network.split(separator: "\n").filter { $0.contains("SDL") || $0.contains("X11") }.prefix(5))")
        // The display does hold a device the network process could inherit.
        let held = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(kiosk.process.processIdentifier)/fd/7")
        #expect(held == "/dev/zero", "the display holds no device to leak: \(held ?? "nothing")")
        #expect(!display.contains("libcurl") && !display.contains("FoundationNetworking"),
                "\(display.split(separator: "\n").filter { $0.contains("curl") || $0.contains("Networking") })")
        #expect(network.contains("libcurl") || network.contains("FoundationNetworking"), "\(network.prefix(300))")
        // The network process holds none of the display's descriptors: 0–2 and its socket.
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child)/fd").compactMap { Int($0) }
        let inherited = fds.filter { $0 > 3 }.compactMap { fd in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/fd/\(fd)")
        }
        #expect(!inherited.contains { $0.hasPrefix("/dev/") }, "\(inherited)")
    }

    /// A folder with one clip campaign (a 1280x720 poster, a 4:3 clip of `seconds`), synced:
    /// the folder and the kiosk's arguments for it.
    static func syncedClip(seconds: Double, showLimit: Int) throws -> (String, [String]) {
        let dir = try temporaryFolder()
        try writeImage(dir + "/poster.png", width: 1280, height: 720, bands: [red])
        try Clips.make(dir + "/a.mp4", seconds: seconds)
        let feed = try writeFeed(dir, #"{"campaigns": [{"id": "a", "picUrl": "poster.png", "videoUrl": "a.mp4", "showTime": "#
                                 + "\(showLimit)}]}")
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        _ = try runKiosk(["sync"] + args)
        return (dir, args)
    }

    /// A video splash: the display maps no FFmpeg; the media process it starts does, holds
    /// only its socket and the clip it was given (no device of the display's, no other
    /// socket), and runs under a syscall filter of its own.
    @Test func theMediaProcessDecodesUnderItsOwnFilterAndTheDisplayMapsNoFFmpeg() throws {
        let (_, args) = try Self.syncedClip(seconds: 10, showLimit: 9)
        let kiosk = try Running(["--headless", "--exit-after", "splash"] + args, holding: "/dev/zero")
        defer { kiosk.stop() }
        #expect(kiosk.wait(15) { kiosk.count("video") > 0 }, "no video frame: \(kiosk.output)")
        let pid = kiosk.process.processIdentifier
        let children = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { pid_t($0) }
        let media = try #require(children.first { child in
            ((try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8)) ?? "").contains("splashboard-media")
        }, "no media process among \(children)")
        #expect(!Self.maps(of: pid).contains("libavcodec"), "the display maps FFmpeg")
        #expect(Self.maps(of: media).contains("libavcodec"))
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(media)/fd").compactMap { Int($0) }
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(media)/fd/\($0)") }
        // Every thread, the decoder's included, runs under the filter.
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(media)/task")
        #expect(threads.count > 1, "the decoder runs threads: \(threads)")
        for thread in threads {
            let status = try String(contentsOfFile: "/proc/\(media)/task/\(thread)/status", encoding: .utf8)
            #expect(status.contains("Seccomp:\t2") && status.contains("NoNewPrivs:\t1"),
                    "thread \(thread): \(status)")
        }
        #expect(!held.contains { $0.hasPrefix("/dev/") && $0 != "/dev/null" }, "\(held)")
        #expect(held.filter { $0.hasPrefix("socket:") }.count == 1, "\(held)")
        // Its frames are planar YUV (12 bits a pixel): a ring of three 960x720 frames (the
        // 4:3 clip fitted on 1280x720) in 3 MiB rather than the 8 MiB of BGRA.
        let ring = try String(contentsOfFile: "/proc/\(media)/maps", encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("memfd:splashboard-frames") }
            .compactMap { line -> Int? in
                let range = line.split(separator: " ")[0].split(separator: "-").compactMap { Int($0, radix: 16) }
                return range.count == 2 ? range[1] - range[0] : nil
            }
        #expect(ring.count == 1 && (3 * 960 * 720 * 3 / 2...3 * 960 * 720 * 2).contains(ring[0]), "\(ring)")
        // Its address space is limited.
        let limits = try String(contentsOfFile: "/proc/\(media)/limits", encoding: .utf8)
        #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max address space") && $0.contains("2147483648") }, "\(limits)")
    }

    /// `splashboard-media check-filter ARGUMENTS`: its exit status and what it said.
    static func checkFilter(_ arguments: [String]) throws -> (Int32, String) {
        let media = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().appendingPathComponent("splashboard-media").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: media)
        process.arguments = ["check-filter"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
    }

    /// Under the media process's filter, on this machine, every call a compromised probe
    /// would plant a FIFO, mark or touch a file, or reach beyond itself with fails with the
    /// filter's error (not the file system's); nothing is left in the folder.
    @Test func theMediaFilterStopsWhatAProbeMustNeverDo() throws {
        let folder = try temporaryFolder()
        let (status, said) = try Self.checkFilter([folder])
        #expect(status == 0, "\(said)")
        let lines = said.split(separator: "\n")
        for call in ["mknodat (a FIFO)", "mknodat (a file)", "setxattr", "utimensat", "userfaultfd", "memfd_create", "openat",
                     "socket", "fchmodat", "unshare"] {
            #expect(lines.contains { $0.hasPrefix(call + ": stopped") }, "\(call): \(said)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// A play's filter, on this machine: what a probe's stops is stopped but the frame ring,
    /// and its broker hands out what was opened for it before the filter (a stand-in for a
    /// decoder device, removed from the disk first: only the broker can answer for it) twice,
    /// its folder each time, then nothing.
    @Test func aPlaysFilterHandsOutItsDecoderTwiceAndNothingElse() throws {
        let folder = try temporaryFolder()
        let (status, said) = try Self.checkFilter(["--play", folder])
        #expect(status == 0, "\(said)")
        let lines = said.split(separator: "\n").map(String.init)
        for call in ["mknodat (a FIFO)", "mknodat (a file)", "setxattr", "utimensat", "userfaultfd", "openat", "socket", "fchmodat",
                     "unshare", "openat (the handed-out device, 3)", "openat (the device folder, after finish)"] {
            #expect(lines.contains { $0.hasPrefix(call + ": stopped") }, "\(call): \(said)")
        }
        for handout in ["openat (the handed-out device, 1)", "openat (the handed-out device, 2)", "opendir (the device folder, 1)",
                        "opendir (the device folder, 2)"] {
            #expect(lines.contains(handout + ": handed out"), "\(handout): \(said)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// With a video device in /dev (every Pi has its decoders there), the media process
    /// still installs its filter before it reads a byte of the clip: the kiosk runs in a
    /// mount namespace of its own whose /dev holds a `video0` (not a decoder: it is closed,
    /// and the clip decoded in software), traced with strace.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
    func withAVideoDeviceTheMediaProcessIsLockedDownBeforeItReadsTheClip() throws {
        let (dir, args) = try Self.syncedClip(seconds: 2, showLimit: 2)
        try FileManager.default.createDirectory(atPath: dir + "/dev", withIntermediateDirectories: false)
        let script = """
            set -e
            mount --make-rprivate /
            mount -t tmpfs none "$0/dev"
            cp -a /dev/. "$0/dev/" 2>/dev/null || true
            mknod "$0/dev/video0" c 1 3
            mount --bind "$0/dev" /dev
            exec strace -f -qq -ff -o "$0/trace" -e trace=execve,seccomp,recvmsg,pread64 "$@"
            """
        let run = try runKiosk(["--headless", "--exit-after", "splash"] + args, wrapper: ["unshare", "-m", "sh", "-c", script, dir])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "video").count > 0, "no video frame: \(run.stdout.suffix(600))")
        let traces = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("trace.") }
            .map { try String(contentsOfFile: dir + "/" + $0, encoding: .utf8) }
        let media = try #require(traces.first { $0.hasPrefix("execve(") && $0.contains("splashboard-media\"") && $0.contains("\"play\"]") },
                                 "no media process traced among \(traces.count)")
        let lines = media.split(separator: "\n").map(String.init)
        // The clip's descriptor, as it came with the display's request.
        let receivedAt = try #require(lines.firstIndex { $0.contains("SCM_RIGHTS") }, "\(lines.prefix(20))")
        let received = lines[receivedAt]
        let clip = try #require(received.range(of: "cmsg_data=[").map { received[$0.upperBound...].prefix { $0.isNumber } }, "\(received)")
        let filter = try #require(lines.firstIndex { $0.hasPrefix("seccomp(SECCOMP_SET_MODE_FILTER") }, "\(lines.prefix(20))")
        // (The loader reads libraries with pread64 too, before the request came.)
        let firstRead = try #require(lines[receivedAt...].firstIndex { $0.hasPrefix("pread64(\(clip),") },
                                     "the clip was never read: \(lines.prefix(20))")
        #expect(filter < firstRead, "the clip was read before the filter: \(lines[firstRead]) / \(lines[filter])")
    }

    @Test(.enabled(if: PrivilegeSeparationTests.canUnshareNetwork()))
    func withNoNetworkAtAllTheDisplayShowsTheStoredCampaigns() throws {
        let s = try StoredCampaign()
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "detail"] + s.args,
                               wrapper: ["unshare", "-rn"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "stored")
        #expect(run.events(named: "detail").count == 1)
    }

    /// Whether this machine lets a user make an empty network namespace.
    static func canUnshareNetwork() -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["unshare", "-rn", "true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    @Test func aFrozenNetworkProcessNeverFreezesTheScreen() throws {
        let s = try StoredCampaign()
        let server = try TestServer(root: s.folder)
        // An http feed: each sync goes through the network process.
        let kiosk = try Running(["--headless", "--countdown", "3", "--attract-after", "1", "--exit-after", "8",
                                 "--feed", server.url("/files/feed.json").absoluteString,
                                 "--data-dir", s.folder + "/data", "--cache-dir", s.folder + "/cache"])
        defer { kiosk.stop() }
        #expect(kiosk.wait(10) { kiosk.networkChild != nil })
        let child = try #require(kiosk.networkChild)
        kill(child, SIGSTOP)
        defer { kill(child, SIGKILL) }
        let frames = kiosk.count("frame")
        // The countdown ticks on, the detail comes, and the attract loop brings the splash back.
        #expect(kiosk.wait(8) { kiosk.count("detail") > 0 && kiosk.count("frame") >= frames + 3 }, "\(kiosk.output)")
        kiosk.process.waitUntilExit()
        #expect(kiosk.process.terminationStatus == 0)
    }

    /// Every misbehaviour of the fault server, as the feed and as a feed's pictures, reaches
    /// only the network process: the screen counts down, hands over and loops as usual.
    @Test(arguments: ["/hang", "/drip", "/big/30", "/redirect/0", "/reset", "/status/500", "/truncated/feed.json",
                      "/as/text%2Fhtml/page.html", "/files/hostile.json"])
    func everyFaultOfTheServerLeavesTheScreenRunning(feedPath: String) throws {
        let s = try StoredCampaign()
        try "<!DOCTYPE html><html><body>not a feed</body></html>".write(toFile: s.folder + "/page.html", atomically: true,
                                                                        encoding: .utf8)
        let pictures = ["/hang", "/drip", "/big/30", "/truncated/a.jpg", "/as/text%2Fhtml/page.html", "/redirect/0", "/reset"]
        let entries = pictures.enumerated().map { #"{"id": "h\#($0.offset)", "picUrl": "\#($0.element)", "showTime": 5}"# }
        try "[\(entries.joined(separator: ","))]".write(toFile: s.folder + "/hostile.json", atomically: true, encoding: .utf8)
        let server = try TestServer(root: s.folder)
        // Real time, nine at once beside the other tests: 7 s leave room for a slow start
        // and two splashes (one comes every 2 s).
        let run = try runKiosk(["--headless", "--countdown", "1", "--attract-after", "1", "--exit-after", "7",
                                "--feed", server.url(feedPath).absoluteString,
                                "--data-dir", s.folder + "/data", "--cache-dir", s.folder + "/cache"])
        #expect(run.status == 0, "\(feedPath): \(run.stderr.suffix(500))")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "stored", "\(feedPath)")
        #expect(run.events(named: "splash").count >= 2, "\(feedPath): the attract loop stopped")
        #expect(run.events(named: "detail").count >= 1, "\(feedPath)")
    }

    @Test(arguments: ["garbage", "flood", "wrong-id", "hang", "exit"])
    func aHostileNetworkProcessCannotStopTheScreen(mode: String) throws {
        let s = try StoredCampaign()
        let wrapper = try Self.hostileProgram(in: s.folder)
        var environment = ProcessInfo.processInfo.environment
        environment["SPLASHBOARD_NET"] = wrapper
        environment["HOSTILE_MODE"] = mode
        // An http address that is never reached: only the impostor answers.
        let run = try runKiosk(["--headless", "--countdown", "1", "--attract-after", "1", "--exit-after", "4",
                                "--feed", "http://127.0.0.1:9/feed.json",
                                "--data-dir", s.folder + "/data", "--cache-dir", s.folder + "/cache"],
                               environment: environment)
        #expect(run.status == 0, "\(mode): \(run.stderr.suffix(500))")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "stored", "\(mode)")
        #expect(run.events(named: "splash").count >= 2, "\(mode): the attract loop stopped")
        #expect(run.events(named: "detail").count >= 1, "\(mode)")
        let syncs = run.events(named: "sync")
        if mode == "hang" {
            #expect(syncs.isEmpty)
        } else {
            #expect(syncs.first?["status"] as? String == "error", "\(mode): \(syncs)")
        }
    }

    /// A clock a test moves by hand.
    final class HandClock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: TimeInterval = 1000
        var now: TimeInterval {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }

    /// Request deadlines are on the link's clock (monotonic in the kiosk), never on the
    /// wall clock (an NTP jump at boot expires nothing): a request of an hour to a network
    /// process that does not answer times out, and the process is stopped, within seconds of
    /// real time once that clock is moved past its deadline — which it could not do if the
    /// deadline were on real time.
    @Test func requestDeadlinesFollowTheLinksClockNotTheWallClock() throws {
        let folder = try temporaryFolder()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SplashTestSupport/hostile_network.py").path
        let wrapper = folder + "/hanging-net"
        try "#!/bin/sh\nHOSTILE_MODE=hang exec python3 \(script) \"$@\"\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let clock = HandClock()
        let link = NetworkLink(endpoint: .spawn(executable: wrapper, arguments: []), clock: { clock.now })
        defer { link.close() }
        let done = DispatchSemaphore(value: 0)
        let outcome = NSLock()
        var result: Result<NetworkAnswer, NetworkLinkError>?
        link.send(.sync(now: nil), timeout: 3600) { answer in
            outcome.lock(); result = answer; outcome.unlock()
            done.signal()
        }
        clock.now += 3601
        // Wakes the reader, which reads the clock again; its own deadline is two hours on.
        link.send(.report, timeout: 7200) { _ in }
        #expect(done.wait(timeout: .now() + 10) == .success, "an hour on the link's clock did not end the request")
        outcome.lock()
        defer { outcome.unlock() }
        #expect(result == .failure(.timedOut(seconds: 3600)), "\(String(describing: result))")
    }

    /// A headless run to the detail screen with hostile_network.py in `mode` as its
    /// network process.
    static func withHostileNetwork(_ mode: String, _ s: StoredCampaign, _ arguments: [String]) throws -> KioskRun {
        var environment = ProcessInfo.processInfo.environment
        environment["SPLASHBOARD_NET"] = try hostileProgram(in: s.folder)
        environment["HOSTILE_MODE"] = mode
        return try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "detail"] + arguments,
                            environment: environment)
    }

    @Test func aPoemPictureOutsideTheCacheIsRefused() throws {
        let s = try StoredCampaign()
        let run = try Self.withHostileNetwork("bad-path", s, ["--poetry-url", "http://127.0.0.1:9/poem",
                                                             "--poetry-image-url", "http://127.0.0.1:9/p.jpg"] + s.args)
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        #expect(run.stdout.contains("/etc/passwd, not a file of the image cache"), "\(run.stdout)")
        #expect(run.events(named: "poetry").contains { $0["origin"] as? String == "静夜思" })
    }

    @Test func whatTheNetworkProcessSendsIsHeldToTheSameLimitsAsTheNetwork() throws {
        let s = try StoredCampaign()
        let run = try Self.withHostileNetwork("huge", s, ["--feed", "http://127.0.0.1:9/feed.json", "--poetry-url", "http://127.0.0.1:9/poem",
                                                          "--data-dir", s.folder + "/data", "--cache-dir", s.folder + "/cache"])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let sync = try #require(run.events(named: "sync").first)
        #expect(sync["campaigns"] as? Int == 0, "\(sync)")
        // The 300,000-character poem is refused as a fetched one would be: the panel keeps its own.
        #expect(!run.events(named: "poetry").contains { ($0["origin"] as? String)?.hasPrefix("长长") == true })
        #expect(run.stdout.contains("beyond the limits"), "\(run.stdout.suffix(800))")
        #expect(run.stdout.count < 200_000, "\(run.stdout.count) bytes of events")
    }

    @Test func theDisplayTakesOnlyCacheNamesItMadeAndNeverWaitsOnAFile() throws {
        let s = try StoredCampaign()
        let outside = s.folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try writeImage(outside + "/private.jpg", width: 320, height: 180, bands: [.init(red: 10, green: 200, blue: 10)])
        let db = s.folder + "/data/splashboard.db"
        // A network process gone bad names a picture outside the cache.
        try SQLiteDatabase(path: db).execute("UPDATE campaigns SET image_key = '../outside/private.jpg'")
        let escaped = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "splash"] + s.args)
        #expect(escaped.status == 0, "\(escaped.stderr.suffix(500))")
        #expect(escaped.events(named: "splash").first?["campaign"] is NSNull, "\(escaped.events(named: "splash"))")
        let shown = escaped.events(named: "splash").first?["image"] as? String ?? ""
        #expect(!shown.contains("private.jpg"), "\(shown)")
        // Or puts a FIFO where the cached picture was: opened without blocking, refused.
        let key = String(repeating: "ab", count: 32)
        try SQLiteDatabase(path: db).execute("UPDATE campaigns SET image_key = ?", [.text(key)])
        #expect(mkfifo(s.folder + "/cache/" + key, 0o600) == 0)
        let fifo = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "detail"] + s.args)
        #expect(fifo.status == 0, "\(fifo.stderr.suffix(500))")
        #expect(fifo.events(named: "detail").count == 1)
        #expect(fifo.stdout.contains("not a regular file"), "\(fifo.stdout.suffix(800))")
    }

    /// A network process serving `net.sock` in a stored campaign's folder, with a poem picture
    /// configured, listening, for as long as `body` runs.
    static func withPoemServer(_ body: (_ socket: String, _ s: StoredCampaign) throws -> Void) throws {
        let s = try StoredCampaign()
        let path = s.folder + "/net.sock"
        let network = Process()
        network.executableURL = URL(fileURLWithPath: Binary.path + "-net")
        network.arguments = ["serve", "--network-socket", path, "--poetry-url", "http://127.0.0.1:9/poem",
                             "--poetry-image-url", "http://127.0.0.1:9/p.jpg"] + s.args
        network.standardError = FileHandle.nullDevice
        try network.run()
        defer {
            kill(network.processIdentifier, SIGKILL)
            network.waitUntilExit()
        }
        // The socket's file is there before it listens: wait until it answers.
        let refused = #"{"id": 0, "kind": "poem_picture", "url": "http://127.0.0.1:9/other.jpg"}"#
        try #require(eventually(within: 30) { requestLine(path, refused) != "cannot connect" }, "the network process never listened")
        try body(path, s)
    }

    @Test func theNetworkSocketFetchesOnlyTheConfiguredPoemPicture() throws {
        try Self.withPoemServer { path, _ in
            // A peer does not choose what is fetched: a local file, or any picture, is refused.
            for url in ["file:///etc/hostname", "http://127.0.0.1:9/other.jpg"] {
                let answer = requestLine(path, #"{"id": 1, "kind": "poem_picture", "url": "\#(url)"}"#)
                #expect(answer.contains("only the configured poetry-image-url is fetched") && !answer.contains("\"path\""), "\(answer)")
            }
        }
    }

    @Test(.enabled(if: getuid() == 0, "another user's client is started only as root"))
    func theNetworkSocketServesOnlyTheDisplaysUser() throws {
        try Self.withPoemServer { path, s in
            // Another user who could reach the socket (its mode opened to everyone here) is refused by its credentials.
            #expect(chmod(s.folder, 0o755) == 0 && chmod(path, 0o666) == 0)
            let other = Process()
            other.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            // It is refused as soon as it connects, before it has asked anything.
            let client = "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.makefile().readline())"
            other.arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/python3", "-c", client, path]
            let out = Pipe()
            other.standardOutput = out
            other.standardError = out
            try other.run()
            other.waitUntilExit()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(said.contains("this socket serves the kiosk's display only (uid 65534 refused)"), "\(said)")
        }
    }

    /// The service's shape: a network process listening on a socket of its own, kiosks that
    /// come and go connecting to it, and a kiosk that finds it gone.
    @Test func kiosksUseANetworkProcessListeningOnASocketAndCarryOnWhenItIsGone() throws {
        try Self.withListeningNetworkProcess { network, socket, s in
            let args = ["--headless", "--clock", "virtual", "--exit-after", "detail", "--network-socket", socket] + s.args
            for _ in 0..<2 {
                let run = try runKiosk(args)
                #expect(run.events(named: "sync").first?["status"] as? String == "not_modified", "\(run.stdout)")
            }
            kill(network.processIdentifier, SIGKILL)
            network.waitUntilExit()
            let alone = try runKiosk(args)
            #expect(alone.status == 0)
            #expect(alone.events(named: "splash").first?["campaign"] as? String == "stored")
            let sync = try #require(alone.events(named: "sync").first)
            #expect(sync["status"] as? String == "error")
            #expect((sync["error"] as? String)?.contains("not reachable at \(socket)") == true, "\(sync)")
        }
    }

    /// The network process serves a bounded number of connections at once: one more is
    /// turned away with one line (not a thread each until the process has none), and a slot
    /// freed by a connection that ended serves the next.
    @Test func theNetworkProcessServesABoundedNumberOfConnectionsAtOnce() throws {
        try Self.withListeningNetworkProcess { network, socket, s in
            // Sixteen idle connections, each answered: a line that is no request gets its error.
            var held: [Int32] = []
            defer { for fd in held { close(fd) } }
            for _ in 0..<16 {
                let fd = try UnixSocket.connect(socket)
                held.append(fd)
            }
            // The seventeenth is turned away at once, with the reason.
            let refused = requestLine(socket, "{}", seconds: 10)
            #expect(refused.contains("16 connections are served at once already"), "\(refused)")
            // One ends: the next is served (its line that is no request is answered as such).
            close(held.removeFirst())
            #expect(eventually(within: 10) { requestLine(socket, "x", seconds: 5).contains("not a request") })
        }
    }

    /// Runs `body` with the network process as the service runs it, listening on a socket
    /// (there once `body` starts) over a stored campaign's folders; killed after.
    static func withListeningNetworkProcess(_ body: (Process, String, StoredCampaign) throws -> Void) throws {
        let s = try StoredCampaign()
        let socket = s.folder + "/net.sock"
        let network = Process()
        network.executableURL = URL(fileURLWithPath: Binary.path + "-net")
        network.arguments = ["serve", "--network-socket", socket] + s.args
        network.standardOutput = FileHandle.nullDevice
        network.standardError = FileHandle.nullDevice
        try network.run()
        defer {
            if network.isRunning { kill(network.processIdentifier, SIGKILL) }
            network.waitUntilExit()
        }
        #expect(eventually(within: 5) { FileManager.default.fileExists(atPath: socket) })
        try body(network, socket, s)
    }

    /// A program that runs hostile_network.py, for SPLASHBOARD_NET.
    static func hostileProgram(in folder: String) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SplashTestSupport/hostile_network.py").path
        let wrapper = folder + "/hostile-net"
        try "#!/bin/sh\nexec python3 \(script) \"$@\"\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        return wrapper
    }
}
