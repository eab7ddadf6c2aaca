import Foundation
import SplashTestSupport
import Testing

/// The kiosk and its network process killed with SIGKILL at random moments: 20 runs, about
/// half of which kill the network process first (200 runs in `make reliability`).
@Suite struct CrashLoopTests {
    @Test func twentyKillsLoseNothingAndNeverOverShow() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/crash-loop.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--binary", Binary.path, "--runs", "20", "--kill", "either"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let summary = try #require(try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                                   "no summary from crash-loop.py: \(errors.suffix(2000))")
        // The seed, to run the same kills again: scripts/crash-loop.py --seed S.
        let seed = summary["seed"] as? Int ?? -1
        print("crash loop: random seed \(seed)")
        #expect(process.terminationStatus == 0, "seed \(seed): \(summary["problems"] ?? "")")
        // Every run ends with the kiosk killed; some kill its network process before.
        let networkKills = summary["network_kills"] as? Int ?? 0
        #expect(summary["kills"] as? Int == 20 + networkKills)
        #expect(networkKills > 0, "seed \(seed): the network process was never killed")
        #expect(summary["integrity"] as? String == "ok")
        #expect((summary["problems"] as? [String])?.isEmpty == true, "seed \(seed)")
        let ledger = try #require(summary["ledger"] as? [String: Int])
        // The limited campaign was shown, and never more than its showTime.
        let limited = try #require(ledger["limited"], "seed \(seed): no shows of the limited campaign: \(ledger)")
        #expect((1...7).contains(limited), "seed \(seed): \(limited) shows of 7")
        #expect((summary["splashes_printed"] as? Int ?? 0) > 0)
    }
}
