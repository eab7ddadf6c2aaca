import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// The kiosk in a real window under Xvfb: a display that appears late, a window that
/// changes size, a click on a rotated screen.
@Suite(.serialized) struct WindowedKioskTests {
    @Test func aDisplayThatAppearsLateGetsTheSplash() throws {
        let display = VirtualDisplay()
        let kiosk = try RunningKiosk(["--wait-for-display", "--log-format", "json", "--exit-after", "first-frame",
                                      "--size", "800x600"], display: display.name)
        // The display appears once the kiosk has said it waits for one, however slow the start.
        #expect(kiosk.waitFor(stderr: "waiting for one"))
        try display.start()
        let run = kiosk.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("waiting for one"))
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("waiting") }.count == 1)
        #expect(run.events(named: "started").first?["driver"] as? String == "x11")
        #expect(run.events(named: "started").first?["renderer"] as? String == "software")
        #expect(run.names.contains("first_frame"))
    }

    @Test func aResizedWindowIsLaidOutAgain() throws {
        let display = VirtualDisplay()
        try display.start()
        let folder = try temporaryFolder()
        let kiosk = try RunningKiosk(["--log-format", "json", "--size", "800x600", "--countdown", "30",
                                      "--exit-after", "detail", "--snapshot", folder], display: display.name)
        let window = try display.window(of: kiosk)
        #expect(kiosk.waitFor(event: "first_frame"))
        try display.run("xdotool", ["windowsize", window, "1000", "500"])
        // However slow the machine: the splash is drawn again at the new size, then a click
        // on the pill where the new layout puts it ends the run.
        let laidOut = eventually {
            snapshots(folder).contains { (try? Snapshot($0)).map { $0.width == 1000 && $0.height == 500 } ?? false }
        }
        #expect(laidOut, "no frame at 1000x500")
        let pill = SkipButton(screen: Size(width: 1000, height: 500)).frame.center
        try display.run("xdotool", ["mousemove", "--window", window, "\(pill.x)", "\(pill.y)", "click", "1"])
        let run = kiosk.finish()
        #expect(run.status == 0, "\(run.stderr)")
        let sizes = try snapshots(folder).map { try Snapshot($0) }.map { "\($0.width)x\($0.height)" }
        #expect(sizes.first == "800x600")
        #expect(sizes.last == "1000x500", "\(sizes)")
        #expect(run.events(named: "skip").first?["by"] as? String == "tap", "\(run.stdout)")
    }

    @Test func withoutAWindowManagerTheWindowCoversTheDisplayAndTheFirstClickCounts() throws {
        let display = VirtualDisplay()
        try display.start(size: "1280x720")
        let kiosk = try RunningKiosk(["--log-format", "json", "--countdown", "30", "--exit-after", "splash"],
                                     display: display.name)
        let window = try display.window(of: kiosk)
        #expect(kiosk.waitFor(event: "first_frame"))
        // No window manager to ask for fullscreen: a borderless window over the whole display.
        let geometry = try display.run("xdotool", ["getwindowgeometry", window])
        #expect(geometry.contains("Position: 0,0"), "\(geometry)")
        #expect(geometry.contains("Geometry: 1280x720"), "\(geometry)")
        // A click at once, the one that gives the window focus, is a tap like any other.
        let pill = SkipButton(screen: Size(width: 1280, height: 720)).frame.center
        try display.run("xdotool", ["mousemove", "\(pill.x)", "\(pill.y)", "click", "1"])
        let run = kiosk.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "skip").first?["by"] as? String == "tap")
    }

    @Test func screenOffInAWindowGoesBlackAndSaysWhatTheXServerCannotDo() throws {
        let display = VirtualDisplay()
        try display.start(size: "800x600")
        let s = try StoredCampaign()
        let runtime = ["XDG_RUNTIME_DIR": s.folder + "/run"]
        var environment = ProcessInfo.processInfo.environment
        environment.merge(runtime) { $1 }
        let kiosk = try RunningKiosk(["--log-format", "json", "--countdown", "30", "--exit-after", "30"] + s.args,
                                     display: display.name, environment: runtime)
        #expect(kiosk.waitFor(event: "first_frame"))
        let shot = s.folder + "/shot.png"
        #expect(try runKiosk(["screen", "off"], environment: environment).status == 0)
        // Xvfb has no DPMS: the picture goes black, and the kiosk says the signal stays on.
        #expect(kiosk.waitFor(event: "warning", timeout: 10))
        #expect(try runKiosk(["screenshot", shot], environment: environment).status == 0)
        let dark = try Snapshot(shot)
        #expect(dark.width == 800 && dark.count(in: Rect(x: 0, y: 0, width: 800, height: 600), differingFrom: .black, by: 0) == 0)
        #expect(try runKiosk(["screen", "on"], environment: environment).status == 0)
        #expect(kiosk.waitFor(event: "splash", timeout: 10))
        // The picture comes back: screenshots until it is there.
        #expect(try eventually(within: 10) {
            guard try runKiosk(["screenshot", shot], environment: environment).status == 0 else { return false }
            return try Snapshot(shot).count(in: Rect(x: 0, y: 0, width: 800, height: 600), differingFrom: .black) > 100_000
        }, "the screen stayed black after screen on")
        let run = kiosk.finish()
        #expect(run.events(named: "warning").contains { ($0["message"] as? String)?.contains("the X server has no DPMS") == true })
        let states = run.events(named: "screen").compactMap { $0["state"] as? String }
        #expect(states == ["on", "off", "on"], "\(run.names)")
    }

    @Test func aClickOnTheRotatedPillSkips() throws {
        let display = VirtualDisplay()
        try display.start(size: "1280x720")
        // Full screen 1280x720 turned 90°: the layout is 720x1280 and its top-right pill
        // is drawn at the output's bottom-right.
        let kiosk = try RunningKiosk(["--log-format", "json", "--rotate", "90", "--countdown", "30",
                                      "--exit-after", "splash"], display: display.name)
        let pill = SkipButton(screen: Size(width: 720, height: 1280)).frame.center
        let output = (x: 1279 - pill.y, y: pill.x)
        #expect(kiosk.waitFor(event: "first_frame"))
        try display.run("xdotool", ["mousemove", "\(output.x)", "\(output.y)", "click", "1"])
        let run = kiosk.finish()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "skip").first?["by"] as? String == "tap")
    }
}
