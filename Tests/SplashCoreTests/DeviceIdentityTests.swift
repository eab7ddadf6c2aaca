import Foundation
import Testing
@testable import SplashCore

@Suite struct DeviceIdentityTests {
    /// The vector systemd 252 gives: `systemd-id128 machine-id --app-specific=4f3a…7e26` on
    /// a machine whose /etc/machine-id is 3d1219c7c4c5404aaa1f6d2a48adfda4.
    @Test func theApplicationSpecificIdIsSystemds() {
        #expect(DeviceIdentity.applicationSpecific(machineID: "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
                == "a53ec7e5a9274530aadb83ee7168ef97")
        #expect(DeviceIdentity.applicationSpecific(machineID: "not a machine id") == nil)
        #expect(DeviceIdentity.applicationSpecific(machineID: "3d1219c7c4c5404aaa1f6d2a48adfda") == nil)
    }

    /// Against systemd itself, on this machine, where both exist.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-id128")
                   && FileManager.default.fileExists(atPath: "/etc/machine-id"), "needs systemd-id128 and a machine id"))
    func itAgreesWithSystemdId128() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-id128")
        p.arguments = ["machine-id", "--app-specific=\(DeviceIdentity.applicationID)"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let expected = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let machine = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
        #expect(DeviceIdentity.applicationSpecific(machineID: machine) == expected)
        #expect(!machine.contains(expected))
    }

    @Test func aGivenIdIsCheckedAndKept() throws {
        #expect(try parse(["--device-id", "lobby-3:east_1.a"]).options.deviceID == "lobby-3:east_1.a")
        #expect(try parse([]).options.deviceID == nil)
        for bad in ["", "two words", "a/b", String(repeating: "x", count: 65), "\u{1b}[2J"] {
            #expect(parseError(["--device-id", bad])?.source == "--device-id", "\(bad)")
        }
    }
}
