import Foundation
import Testing
@testable import SplashCore

/// The control socket's answers are one type at both ends: what the kiosk writes is read back
/// into the very value, and a line that is not the answer asked for is refused with why.
@Suite struct ControlAnswerTests {
    @Test func everyAnswerReadsBackAsItWasWritten() throws {
        var status = KioskStatus(version: "1.2.3", device: "lobby-3", scene: "splash", campaign: "a", countdown: 4,
                                 feed: "https://cdn.example/feed.json", lastSync: Date(timeIntervalSince1970: 1_790_000_000),
                                 lastChange: Date(timeIntervalSince1970: 1_789_990_000), lastError: nil, warnings: ["w1"],
                                 reportUnsent: 7, uptimeSeconds: 12.5, screen: "1920x1080")
        status.problems = ["p"]
        status.pictureProblems = ["b: picture refused: not an image"]
        status.groups = ["lobby", "lobby-3"]
        status.otherScreens = ["cafe-offer: for the groups cafe"]
        status.nextSync = Date(timeIntervalSince1970: 1_790_000_900)
        status.screenOn = false
        status.screenReason = .schedule
        status.screenUntil = Date(timeIntervalSince1970: 1_790_030_000)
        status.screenSchedule = .feed
        status.screenSummary = "screen off (schedule) until 07:30"
        status.screenScheduleGroup = "lobby"
        status.screenScheduleInForce = "the feed's, 07:30-22:00"
        status.runOut = ["a: about 1 h"]
        status.dataDir = "/var/lib/splashboard"
        let answers: [(ControlRequest, ControlAnswer, Int?)] = [
            (.status, .status(status), nil),
            (.screen(.off), .screen(on: false, reason: .command, summary: "screen off (command) until 07:30"), nil),
            (.screenshot, .screenshot(Size(width: 1920, height: 1080)), 5000),
        ]
        for (request, answer, bytes) in answers {
            let line = answer.line(bytes: bytes)
            #expect(line.last == 0x0A && !line.dropLast().contains(0x0A))
            let read = try ControlAnswer.parse(line.dropLast(), answering: request)
            #expect(read.answer == answer && read.bytes == (bytes ?? 0))
        }
    }

    @Test func aRefusalOrAnAnswerToAnotherRequestIsAnErrorThatSaysSo() {
        let refused = ControlAnswer.failureLine(.failed("nothing is on the screen yet"))
        #expect(throws: ControlError.failed("the kiosk says: nothing is on the screen yet")) {
            try ControlAnswer.parse(refused.dropLast(), answering: .screenshot)
        }
        // A screen answer read as a screenshot, a status missing its version, no JSON at all.
        let screen = ControlAnswer.screen(on: true, reason: .schedule, summary: "on").line(bytes: nil).dropLast()
        #expect(throws: ControlError.self) { try ControlAnswer.parse(Data(screen), answering: .screenshot) }
        #expect(throws: ControlError.self) {
            try ControlAnswer.parse(Data(#"{"ok": true, "answer": {"scene": "splash"}}"#.utf8), answering: .status)
        }
        #expect(throws: ControlError.failed("the kiosk's answer is not one")) { try ControlAnswer.parse(Data("HTTP/1.1 200".utf8), answering: .status) }
    }
}
