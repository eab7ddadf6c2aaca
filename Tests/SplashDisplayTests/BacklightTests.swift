import Foundation
import Testing
@testable import SplashDisplay

/// The backlights as sysfs lays them out (a folder per device with `brightness` and
/// `max_brightness`): off to 0 with the level kept, back to it, and to the maximum after a
/// restart while dark. No backlight exists on this machine, so the folder is made here.
@Suite struct BacklightTests {
    func panel(_ folder: String, _ name: String, brightness: Int, max: Int) throws {
        try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        try "\(brightness)\n".write(toFile: folder + "/\(name)/brightness", atomically: false, encoding: .utf8)
        try "\(max)\n".write(toFile: folder + "/\(name)/max_brightness", atomically: false, encoding: .utf8)
    }

    func level(_ folder: String, _ name: String) -> String? {
        try? String(contentsOfFile: folder + "/\(name)/brightness", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func offToZeroAndBackToWhatItWas() throws {
        let folder = NSTemporaryDirectory() + "backlight-" + UUID().uuidString
        try panel(folder, "rpi_backlight", brightness: 180, max: 255)
        try panel(folder, "10-0045", brightness: 0, max: 31)
        let backlight = Backlight(folder: folder)
        let off = backlight.turn(false)
        #expect(off.problems.isEmpty && off.done == ["backlight 10-0045 0", "backlight rpi_backlight 0"])
        #expect(level(folder, "rpi_backlight") == "0")
        let on = backlight.turn(true)
        #expect(on.problems.isEmpty)
        #expect(level(folder, "rpi_backlight") == "180")
        // One that was at 0 before (a kiosk restarted while dark) lights at its maximum.
        #expect(level(folder, "10-0045") == "31")
    }
}
