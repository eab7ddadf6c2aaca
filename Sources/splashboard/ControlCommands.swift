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
            let (answer, _) = try ask(.status)
            // A kiosk with another data folder than the one named answered: another kiosk
            // shares this runtime folder. Said, and not taken for the one asked about.
            if options.dataDirNamed, let theirs = answer["data_dir"] as? String,
               URL(fileURLWithPath: theirs).standardizedFileURL.path != URL(fileURLWithPath: options.dataDir).standardizedFileURL.path {
                fputs("splashboard: status: the kiosk answering at \(socketPath) keeps its data in \(TerminalText.printable(theirs)), "
                      + "not in \(options.dataDir) (--data-dir): it is another kiosk. Two kiosks need runtime folders of their own "
                      + "(XDG_RUNTIME_DIR) for status to reach each one\n", stderr)
                return 1
            }
            if json {
                let data = Data(JSONValue(answer).encoded().utf8)
                print(String(decoding: data, as: UTF8.self))
                return 0
            }
            func when(_ key: String) -> String? {
                (answer[key] as? String).flatMap { ISO8601.date(from: $0) }.map { HumanTime.string($0, zone: .current, seconds: true) }
            }
            func text(_ key: String) -> String? {
                switch answer[key] {
                case let s as String: return TerminalText.printable(s)
                case let n as Int: return String(n)
                case let d as Double: return JSONValue.double(d).encoded()
                case let b as Bool: return b ? "true" : "false"
                default: return nil
                }
            }
            var screen = text("scene") ?? "?"
            if let campaign = text("campaign") {
                screen += ", campaign \(campaign)"
            } else if screen == "splash" {
                screen += ", the default picture (no campaign eligible at this splash)"
            } else if screen == "detail" {
                screen += ", after the default picture"
            }
            if let countdown = text("countdown") { screen += ", 跳过 \(countdown)" }
            print("screen: \(screen) (\(text("screen") ?? "?"))")
            if let power = text("screen_power") { print("power: \(power)") }
            if let schedule = text("screen_schedule_in_force") { print("schedule: \(schedule)") }
            for line in (answer["runs_out"] as? [String] ?? []).map(TerminalText.printable) { print("runs out: \(line)") }
            print("feed: \(text("feed") ?? "?")")
            print("last sync: \(when("last_sync") ?? "never") (the catalog last confirmed with the feed); "
                  + "last change: \(when("last_change") ?? "never")")
            print("last error: \(text("last_error") ?? "none")" + (when("next_sync").map { "; next sync: \($0)" } ?? ""))
            let warnings = (answer["feed_warnings"] as? [String] ?? []).map(TerminalText.printable)
            print("feed warnings: " + (warnings.isEmpty ? "none" : "\(warnings.count)"))
            for warning in warnings { print("  \(warning)") }
            for problem in (answer["problems"] as? [String] ?? []).map(TerminalText.printable) { print("problem: \(problem)") }
            for problem in (answer["picture_problems"] as? [String] ?? []).map(TerminalText.printable) { print("picture: \(problem)") }
            let groups = (answer["groups"] as? [String] ?? []).map(TerminalText.printable)
            print("groups: " + (groups.isEmpty ? "none" : groups.joined(separator: ", ")))
            for other in (answer["other_screens"] as? [String] ?? []).map(TerminalText.printable) { print("not for this screen: \(other)") }
            print("unsent reports: \(text("report_unsent") ?? "0")")
            print("uptime: \(text("uptime_seconds") ?? "?") s; version \(text("version") ?? "?"); device \(text("device") ?? "-")")
            return 0
        } catch {
            // A pipeline reading --json gets an answer too.
            if json { print(JSONValue.object([("running", .bool(false)), ("error", .string(error.explained))]).encoded()) }
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
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
            guard let png, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw ControlError.failed("the answer is not a PNG") }
            do {
                try png.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw ControlError.failed("cannot write \(path): \(error.explained)")
            }
            print("\(path): \(answer["width"] ?? "?")x\(answer["height"] ?? "?"), \(png.count) bytes")
            return 0
        } catch {
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
    }

    /// `splashboard screen on|off|auto`: the kiosk's answer is what its screen is now.
    func screen(_ state: ScreenCommand) -> Int32 {
        do {
            let (answer, _) = try ask(.screen(state))
            print(TerminalText.printable(answer["summary"] as? String ?? "done"))
            return 0
        } catch {
            fputs("splashboard: \(error.explained)\n", stderr)
            return 1
        }
    }

    /// Sends `request` and reads the answer line, and the bytes it announces.
    private func ask(_ request: ControlRequest) throws -> ([String: Any], Data?) {
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
        guard let header = try? JSONReader.value(line) as? [String: Any] else {
            throw ControlError.failed("the kiosk's answer is not one")
        }
        guard header["ok"] as? Bool == true else {
            throw ControlError.failed("the kiosk says: \(header["error"] as? String ?? "no")")
        }
        let expected = header["bytes"] as? Int ?? 0
        guard expected > 0 else { return (header["answer"] as? [String: Any] ?? [:], nil) }
        guard let payload = channel.bytes(expected, by: deadline) else {
            throw ControlError.failed("the kiosk closed the connection before its answer was whole")
        }
        return (header["answer"] as? [String: Any] ?? [:], payload)
    }
}
