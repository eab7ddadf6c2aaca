import Foundation
import Testing
import SplashTestSupport

/// `splashboard autostart on|off` as a desktop's user: an entry the desktop's own validator
/// accepts, in that user's autostart folder, removed again by `off`.
@Suite struct AutostartTests {
    /// Root runs it as nobody, in a home of nobody's; a user runs it as itself.
    @Test func onWritesAValidEntryAndOffRemovesIt() throws {
        var template = Array("/tmp/splashboard-autostart-XXXXXX".utf8CString)
        let home = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: home) }
        let asUser: [String] = getuid() == 0 ? ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] : []
        if getuid() == 0 {
            #expect(chown(home, 65534, 65534) == 0)
            #expect(chmod(home, 0o755) == 0)
        }
        let environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
        let on = try runKiosk(["autostart", "on"], environment: environment, wrapper: asUser)
        let entry = home + "/.config/autostart/splashboard.desktop"
        #expect(on.status == 0, "\(on.stderr)")
        #expect(on.stdout.contains(entry), "\(on.stdout)")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(text.contains("\nExec=\(Binary.path)\n"), "\(text)")
        let check = try runTool("/usr/bin/desktop-file-validate", [entry])
        #expect(check.status == 0 && check.output.isEmpty, "\(check.output)")

        let off = try runKiosk(["autostart", "off"], environment: environment, wrapper: asUser)
        #expect(off.status == 0, "\(off.stderr)")
        #expect(!FileManager.default.fileExists(atPath: entry))
        let again = try runKiosk(["autostart", "off"], environment: environment, wrapper: asUser)
        #expect(again.status == 0 && again.stdout.contains("nothing to remove"), "\(again.stdout)")
    }

    /// Root's entry would start the kiosk in no one's desktop: refused, saying whose to run it as.
    @Test(.enabled(if: getuid() == 0)) func rootIsToldToRunItAsTheDesktopsUser() throws {
        var template = Array("/tmp/splashboard-autostart-XXXXXX".utf8CString)
        let home = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try runKiosk(["autostart", "on"], environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("run it without sudo, as the user who logs in to the desktop"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/.config/autostart"))
    }

    /// A program's exit status and what it printed on both streams.
    private func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
