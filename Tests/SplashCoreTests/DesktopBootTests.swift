import Testing
@testable import SplashCore

/// A system that boots to a desktop hides the console kiosk; the kiosk says so, and how out.
@Suite struct DesktopBootTests {
    /// Raspberry Pi OS's desktop image: lightdm enabled, graphical.target by default.
    @Test func aDisplayManagerAndTheGraphicalTargetAreADesktop() throws {
        let pi = DesktopBoot(defaultTarget: "/usr/lib/systemd/system/graphical.target",
                             displayManager: "/usr/lib/systemd/system/lightdm.service")
        #expect(pi.bootsToDesktop)
        let warning = try #require(pi.warning)
        #expect(warning.contains("(lightdm.service)"))
        #expect(warning.contains("sudo systemctl set-default multi-user.target"))
        #expect(warning.contains("splashboard autostart on"))
    }

    /// Lite images boot to the console; a display manager left installed but a console
    /// target is no desktop either, nor a graphical target with no display manager.
    @Test func theConsoleIsNoDesktop() {
        #expect(DesktopBoot(defaultTarget: "multi-user.target", displayManager: "gdm3.service").warning == nil)
        #expect(DesktopBoot(defaultTarget: "graphical.target", displayManager: nil).warning == nil)
        #expect(DesktopBoot(defaultTarget: nil, displayManager: nil).warning == nil)
    }

    /// The entry's Exec is the program's path, quoted as the Desktop Entry spec reads it.
    @Test func theAutostartEntryRunsThisProgram() {
        let entry = AutostartEntry(program: "/usr/bin/splashboard")
        #expect(entry.text.contains("\nExec=/usr/bin/splashboard\n"))
        #expect(entry.text.hasPrefix("[Desktop Entry]\nType=Application\n"))
        #expect(AutostartEntry.quotedExec("/opt/my kiosk/splash$board") == #""/opt/my kiosk/splash\\$board""#)
        #expect(AutostartEntry.folder(environment: ["HOME": "/home/pi"]) == "/home/pi/.config/autostart")
        #expect(AutostartEntry.folder(environment: ["HOME": "/home/pi", "XDG_CONFIG_HOME": "/cfg"]) == "/cfg/autostart")
        #expect(AutostartEntry.folder(environment: [:]) == nil)
    }
}
