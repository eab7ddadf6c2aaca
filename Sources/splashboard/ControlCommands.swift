import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// `splashboard status` and `splashboard screenshot FILE.png`: ask the running kiosk over
/// its control socket. A kiosk that is not running is one line and exit 1.
struct ControlCommands {
    let options: KioskOptions

    /// The most a whole answer may take to arrive (a screenshot's picture included).
    static let answerSeconds: TimeInterval = 20
    /// The longest answer line (the picture that may follow is announced in it).
    static let headerLimit = 1 << 20

    /// The socket: in this user's runtime folder, else the service's.
    var socketPath: String {
        let service = DefaultPaths.serviceRuntime + "/" + ControlRequest.socketName
        guard let own = options.runtimeDir.map({ $0 + "/" + ControlRequest.socketName }) else { return service }
        return FileManager.default.fileExists(atPath: own) || !FileManager.default.fileExists(atPath: service) ? own : service
    }

    /// Whether a kiosk answers on the control socket.
    var kioskAnswers: Bool { (try? ask(.status)) != nil }

    func status(json: Bool) -> Int32 {
        do {
            guard case .status(let answer) = try ask(.status).answer else { throw ControlError.failed("the kiosk's answer is not a status") }
            // A kiosk with another data folder than the one named answered: another kiosk
            // shares this runtime folder. Said, and not taken for the one asked about.
            if options.dataDirNamed, let theirs = answer.dataDir,
               URL(fileURLWithPath: theirs).standardizedFileURL.path != URL(fileURLWithPath: options.dataDir).standardizedFileURL.path {
                fputs("splashboard: status: the kiosk answering at \(socketPath) keeps its data in \(TerminalText.printable(theirs)), "
                      + "not in \(options.dataDir) (--data-dir): it is another kiosk. Two kiosks need runtime folders of their own "
                      + "(XDG_RUNTIME_DIR) for status to reach each one\n", stderr)
                return 1
            }
            if json {
                print(answer.json.encoded())
                return 0
            }
            for line in Self.lines(of: answer) { print(line) }
            return 0
        } catch {
            // A pipeline reading --json gets an answer too.
            if json { print(JSONValue.object([("running", .bool(false)), ("error", .string(error.explained))]).encoded()) }
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
    }

    /// The status as `splashboard status` prints it, a line each.
    static func lines(of s: KioskStatus) -> [String] {
        func when(_ date: Date?) -> String? { date.map { HumanTime.string($0, zone: .current, seconds: true) } }
        let p = TerminalText.printable
        var lines: [String] = []
        var screen = p(s.scene)
        if let campaign = s.campaign {
            screen += ", campaign \(p(campaign))"
        } else if s.scene == "splash" {
            screen += ", the default picture (no campaign eligible at this splash)"
        } else if s.scene == "detail" {
            screen += ", after the default picture"
        }
        if let countdown = s.countdown { screen += ", 跳过 \(countdown)" }
        lines.append("screen: \(screen) (\(p(s.screen)))")
        lines.append("power: \(p(s.screenSummary))")
        lines.append("schedule: \(p(s.screenScheduleInForce))")
        lines += s.runOut.map { "runs out: \(p($0))" }
        lines.append("feed: \(p(s.feed))")
        let sync: String = "last sync: \(when(s.lastSync) ?? "never") (the catalog last confirmed with the feed); "
        lines.append(sync + "last change: \(when(s.lastChange) ?? "never")")
        let next: String = when(s.nextSync).map { "; next sync: \($0)" } ?? ""
        lines.append("last error: \(s.lastError.map(p) ?? "none")" + next)
        lines.append("feed warnings: " + (s.warnings.isEmpty ? "none" : "\(s.warnings.count)"))
        lines += s.warnings.map { "  \(p($0))" }
        lines += s.problems.map { "problem: \(p($0))" }
        lines += s.pictureProblems.map { "picture: \(p($0))" }
        lines.append("groups: " + (s.groups.isEmpty ? "none" : s.groups.map(p).joined(separator: ", ")))
        lines += s.otherScreens.map { "not for this screen: \(p($0))" }
        lines.append("unsent reports: \(s.reportUnsent)")
        let uptime: String = JSONValue.double((s.uptimeSeconds * 10).rounded() / 10).encoded()
        lines.append("uptime: \(uptime) s; version \(p(s.version)); device \(s.device.map(p) ?? "-")")
        return lines
    }

    func screenshot(to path: String) -> Int32 {
        // Checked before asking: the kiosk's frame is not fetched for a file that cannot be written.
        let folder = path.deletingLastPathComponent
        guard PathKind.of(folder) == .folder else {
            fputs("splashboard: screenshot \(path): the folder \(folder) does not exist; make it or name another\n", stderr)
            return 1
        }
        guard access(folder, W_OK) == 0 else {
            fputs("splashboard: screenshot \(path): the folder \(folder) cannot be written by \(FolderAccess.user(getuid()))\n", stderr)
            return 1
        }
        do {
            let (answer, png) = try ask(.screenshot)
            guard case .screenshot(let size) = answer, let png, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
                throw ControlError.failed("the answer is not a PNG")
            }
            do {
                try png.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw ControlError.failed("cannot write \(path): \(error.explained)")
            }
            print("\(path): \(size.width)x\(size.height), \(png.count) bytes")
            return 0
        } catch {
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
    }

    /// `splashboard screen on|off|auto`: the kiosk's answer is what its screen is now.
    func screen(_ state: ScreenCommand) -> Int32 {
        do {
            guard case let .screen(_, _, summary) = try ask(.screen(state)).answer else {
                throw ControlError.failed("the kiosk's answer names no screen state")
            }
            print(TerminalText.printable(summary))
            return 0
        } catch {
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
    }

    /// Sends `request` and reads the answer line, and the bytes it announces.
    private func ask(_ request: ControlRequest) throws -> (answer: ControlAnswer, png: Data?) {
        let path = socketPath
        let fd: Int32
        do {
            fd = try UnixSocket.connect(path)
        } catch let error as UnixSocketError {
            if error.code == EACCES { throw ControlError.failed("\(path): permission denied (ask as the splashboard user or group)") }
            throw ControlError.notRunning(path)
        }
        defer { close(fd) }
        let channel = LineChannel(fd: fd, limit: Self.headerLimit)
        let deadline = MonotonicClock.seconds() + Self.answerSeconds
        guard channel.send(request.line) else { throw ControlError.failed("the kiosk closed the connection before it was asked") }
        let line: Data
        switch channel.next(by: deadline) {
        case .line(let got): line = got
        case .timedOut: throw ControlError.failed("the kiosk did not answer within \(Int(Self.answerSeconds)) s")
        case .tooLong: throw ControlError.failed("the kiosk's answer is not one (over \(Self.headerLimit) bytes)")
        case .closed, .failed: throw ControlError.failed("the kiosk closed the connection before its answer was whole")
        }
        let (answer, expected) = try ControlAnswer.parse(line, answering: request)
        guard expected > 0 else { return (answer, nil) }
        guard let payload = channel.bytes(expected, by: deadline) else {
            throw ControlError.failed("the kiosk closed the connection before its answer was whole")
        }
        return (answer, payload)
    }
}
