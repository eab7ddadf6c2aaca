import Foundation

/// An X server of its own (Xvfb) on a free display number, for tests of the windowed
/// kiosk: late displays, resizes, clicks.
public final class VirtualDisplay {
    public private(set) var number: Int
    private var process: Process?
    /// The display's name was handed out (a kiosk waits for it): it may not move.
    private var named = false

    /// Picks a free display number; `start()` brings the server up.
    public init() {
        number = Self.freeNumber()
    }

    /// A display number no server holds (no lock file, no socket), picked at random so that
    /// tests running side by side rarely reach for the same one.
    private static func freeNumber() -> Int {
        var n = Int.random(in: 200...900)
        while FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
            n += 1
        }
        return n
    }

    public var name: String {
        named = true
        return ":\(number)"
    }

    /// Starts Xvfb and waits (at most 30 s) until it answers clients — it, not another
    /// server that took the same number first (a test beside this one): a server of its own
    /// that ended is tried again on another number, while the name is not handed out yet.
    public func start(size: String = "1920x1080") throws {
        for _ in 0..<5 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            p.arguments = [":\(number)", "-screen", "0", size + "x24", "-nolisten", "tcp"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            process = p
            // Its socket is made before it answers: ready when a client gets the screen's size.
            let answered = try eventually(within: 30, {
                guard p.isRunning else { return true }
                guard FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") else { return false }
                return try !run("xdotool", ["getdisplaygeometry"]).isEmpty
            })
            if answered, p.isRunning { return }
            p.waitUntilExit()
            process = nil
            guard !named else { break }
            number = Self.freeNumber()
        }
        throw VirtualDisplayError.didNotStart
    }

    /// Runs an X client (xdotool, …) against this display and returns its output.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        p.environment = ["DISPLAY": ":\(number)", "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The id of the first window named `name` that `kiosk` opens, waiting up to 60 s (a
    /// loaded machine is slow); throws with what the kiosk said when none appears or it
    /// exits first.
    public func window(of kiosk: RunningKiosk, named name: String = "Splashboard") throws -> String {
        var found: String?
        _ = try eventually(within: 60) {
            found = try run("xdotool", ["search", "--name", name]).split(separator: "\n").first.map(String.init)
            return found != nil || !kiosk.isRunning
        }
        if let found { return found }
        let ended = kiosk.finish(timeout: 1)
        throw VirtualDisplayError.noWindow(name: name, status: ended.status, stdout: ended.stdout, stderr: ended.stderr)
    }

    deinit {
        if let process {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

public enum VirtualDisplayError: Error {
    case didNotStart
    /// The kiosk opened no window of that name: how it ended (or that it was stopped) and what it said.
    case noWindow(name: String, status: Int32, stdout: String, stderr: String)
}

/// A kiosk process started in the background, to be interacted with while it runs.
public final class RunningKiosk {
    let process = Process()
    let out = Pipe()
    let err = Pipe()

    /// `environment`: variables set for the kiosk besides its own (a runtime folder to find its control socket in).
    public init(_ arguments: [String], display: String, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        var env = kioskEnvironment(ProcessInfo.processInfo.environment)
        env["DISPLAY"] = display
        env["SDL_VIDEODRIVER"] = "x11"
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Whether the kiosk has not exited yet.
    public var isRunning: Bool { process.isRunning }

    private let lock = NSLock()
    private var stdoutSoFar = Data()
    private var stderrSoFar = Data()
    private var readers: [DispatchSemaphore] = []

    /// Waits (at most `timeout` seconds) until the kiosk has announced `event`.
    public func waitFor(event: String, timeout: TimeInterval = 30) -> Bool {
        waitFor(timeout: timeout) { out, _ in out.contains("\"event\":\"\(event)\"") }
    }

    /// Waits (at most `timeout` seconds) until the kiosk has written `text` on stderr.
    public func waitFor(stderr text: String, timeout: TimeInterval = 30) -> Bool {
        waitFor(timeout: timeout) { _, err in err.contains(text) }
    }

    private func waitFor(timeout: TimeInterval, _ seen: (String, String) -> Bool) -> Bool {
        startReading()
        return eventually(within: timeout) {
            lock.lock()
            let out = String(decoding: stdoutSoFar, as: UTF8.self)
            let err = String(decoding: stderrSoFar, as: UTF8.self)
            lock.unlock()
            return seen(out, err)
        }
    }

    /// Reads both pipes as they are written, so a test can wait for what the kiosk says.
    private func startReading() {
        guard readers.isEmpty else { return }
        for (pipe, isOut) in [(out, true), (err, false)] {
            let done = DispatchSemaphore(value: 0)
            readers.append(done)
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty {
                        done.signal()
                        break
                    }
                    lock.lock()
                    if isOut { stdoutSoFar.append(chunk) } else { stderrSoFar.append(chunk) }
                    lock.unlock()
                }
            }
        }
    }

    /// Waits for the kiosk to exit (killing it after `timeout` seconds).
    public func finish(timeout: TimeInterval = 30) -> KioskRun {
        let killer = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        startReading()
        process.waitUntilExit()
        killer.cancel()
        for done in readers { _ = done.wait(timeout: .now() + 5) }
        lock.lock()
        defer { lock.unlock() }
        return KioskRun(status: process.terminationStatus, stdout: String(decoding: stdoutSoFar, as: UTF8.self),
                        stderr: String(decoding: stderrSoFar, as: UTF8.self))
    }
}
