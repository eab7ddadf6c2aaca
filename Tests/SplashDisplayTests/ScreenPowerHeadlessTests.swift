import Foundation
import Glibc
import SplashCore
import SplashServices
import SplashTestSupport
import Testing

/// The screen schedule in the real binary: a schedule ending in minutes on the virtual
/// clock (an `off` event at that moment, no show after it, the ledger agreeing), and
/// `splashboard screen off|auto` over the control socket of a running kiosk.
@Suite struct ScreenPowerHeadlessTests {
    /// `date` as `HH:MM` in UTC.
    static func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    @Test func aScheduleEndingInMinutesTurnsTheScreenOffThenAndNothingIsShownAfter() throws {
        let s = try StoredCampaign(showLimit: 1000)
        let now = Date()
        let minute = floor(now.timeIntervalSince1970 / 60) * 60
        // On from a minute ago until three minutes from now (over midnight when it must be).
        let end = Date(timeIntervalSince1970: minute + 180)
        let hours = Self.clock(Date(timeIntervalSince1970: minute - 60)) + "-" + Self.clock(end)
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--screen-hours", hours, "--countdown", "3",
                                "--attract-after", "20", "--exit-after", "900"] + s.args, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let screens = run.events(named: "screen")
        #expect(screens.first?["state"] as? String == "on" && screens.first?["reason"] as? String == "start")
        let off = try #require(screens.first { $0["state"] as? String == "off" }, "\(run.names)")
        #expect(off["reason"] as? String == "schedule")
        // The off event comes at the end of the hours, in the run's time (it began just after `now`).
        let t = try #require(off["t"] as? Double)
        let expected = end.timeIntervalSince(now)
        #expect(t >= expected - 5 && t <= expected + 1, "off at \(t) s, the hours end \(expected) s after the start")
        // Until tomorrow's start of the hours.
        let until = try #require((off["until"] as? String).flatMap(ISO8601.date(from:)))
        #expect(abs(until.timeIntervalSince(end) - (86_400 - 240)) < 1)
        // No splash after it, and no other change: 900 s dark.
        let splashes = run.events(named: "splash")
        #expect(!splashes.isEmpty)
        #expect(splashes.allSatisfy { ($0["t"] as? Double ?? .infinity) < t })
        #expect(screens.count == 2)
        // The ledger holds exactly the shows the run announced.
        let listed = try runKiosk(["campaigns", "--json"] + s.args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["shows"] as? Int == splashes.count)
    }

    @Test func aTouchOnADarkScreenLightsItForItsSecondsAndClicksNothing() throws {
        let s = try StoredCampaign(showLimit: 1000)
        // On for one minute, twelve hours from now: dark from the start.
        let from = Date().addingTimeInterval(12 * 3600)
        let hours = Self.clock(from) + "-" + Self.clock(from.addingTimeInterval(60))
        let script = s.folder + "/script"
        try "5 tap 640 360\n20 tap 100 100\n".write(toFile: script, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        // Each change is a journal entry of its own.
        let journal = s.folder + "/journal.sock"
        let listener = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(UnixSocket.withAddress(journal) { bind(listener, $0, $1) } == 0)
        defer { close(listener) }
        environment["SPLASHBOARD_JOURNAL_SOCKET"] = journal
        let run = try runKiosk(["--headless", "--clock", "virtual", "--screen-hours", hours, "--wake-on-touch", "30",
                                "--countdown", "3", "--attract-after", "0", "--script", script, "--exit-after", "120"] + s.args,
                               environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let screens = run.events(named: "screen").map { "\($0["state"] ?? "")/\($0["reason"] ?? "")@\(Int($0["t"] as? Double ?? -1))" }
        // Dark at the start; the tap at 5 s lights it; the one at 20 s (on the detail screen)
        // keeps it lit for 30 s more: dark again at 50 s, by the schedule.
        #expect(screens == ["off/start@0", "on/touch@5", "off/schedule@50"], "\(screens)")
        let splashes = run.events(named: "splash")
        #expect(splashes.count == 1 && (splashes.first?["t"] as? Double).map { abs($0 - 5) < 0.01 } == true)
        // The waking tap clicked nothing: the splash ended by its countdown.
        #expect(run.events(named: "skip").compactMap { $0["by"] as? String } == ["timeout"])
        let listed = try runKiosk(["campaigns", "--json"] + s.args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["shows"] as? Int == 1)
        var entries: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = recv(listener, &buffer, buffer.count, Int32(MSG_DONTWAIT)), n > 0 {
            entries.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        let power = entries.filter { $0.contains("SCREEN_POWER=") }
        #expect(power.count == 3, "\(entries)")
        #expect(power.first?.contains("MESSAGE=screen off (schedule) until ") == true, "\(power)")
        #expect(power.dropFirst().first?.contains("SCREEN_POWER=screen on (woken by a touch) until ") == true, "\(power)")
    }

    @Test func screenOffAndAutoOverTheControlSocket() throws {
        let s = try StoredCampaign()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = s.folder + "/run"
        let socket = s.folder + "/run/splashboard/control.sock"
        let out = s.folder + "/events.jsonl"
        FileManager.default.createFile(atPath: out, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--headless", "--countdown", "2", "--attract-after", "1", "--exit-after", "40"] + s.args
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        #expect(waitUntilListening(socket), "the kiosk never listened on \(socket)")

        let offAnswer = try runKiosk(["screen", "off"], environment: environment)
        #expect(offAnswer.status == 0, "\(offAnswer.stderr)")
        #expect(offAnswer.stdout == "screen off (splashboard screen off)\n")
        let status = try runKiosk(["status", "--json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["screen_on"] as? Bool == false && object["scene"] as? String == "off")
        #expect(object["screen_reason"] as? String == "command" && object["screen_schedule"] as? String == "none")
        let text = try runKiosk(["status"], environment: environment)
        #expect(text.stdout.contains("power: screen off (splashboard screen off)\n"), "\(text.stdout)")
        // Dark for three seconds of the kiosk's own time: the attract loop (1 s) shows nothing.
        let darkSince = try #require(object["uptime_seconds"] as? Double)
        #expect(try eventually {
            let now = try JSONSerialization.jsonObject(with: Data(try runKiosk(["status", "--json"], environment: environment).stdout.utf8))
            return ((now as? [String: Any])?["uptime_seconds"] as? Double ?? 0) >= darkSince + 3
        })
        let onAnswer = try runKiosk(["screen", "auto"], environment: environment)
        #expect(onAnswer.stdout == "screen on (no schedule)\n")
        // Lit again: said before anything else is asked.
        #expect(eventually {
            let said = KioskRun(status: 0, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", stderr: "")
            return said.events(named: "screen").count == 3
        })
        let bad = try runKiosk(["screen", "dim"], environment: environment)
        #expect(bad.status == 2 && bad.stderr.contains("screen dim: expected on, off or auto"), "\(bad.stderr)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()

        let run = KioskRun(status: 0, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", stderr: "")
        let screens = run.events(named: "screen").map { "\($0["state"] ?? "")/\($0["reason"] ?? "")" }
        #expect(screens == ["on/start", "off/command", "on/command"], "\(run.names)")
        let offAt = try #require(run.events(named: "screen")[1]["t"] as? Double)
        let onAt = try #require(run.events(named: "screen")[2]["t"] as? Double)
        let splashes = run.events(named: "splash").compactMap { $0["t"] as? Double }
        #expect(!splashes.contains { $0 > offAt && $0 < onAt }, "a splash while dark: \(splashes)")
        // Lit again, a splash comes at once.
        #expect(splashes.contains { $0 >= onAt && $0 < onAt + 0.5 })
    }
}
