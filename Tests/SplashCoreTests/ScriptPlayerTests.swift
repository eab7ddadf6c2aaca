import Foundation
import Testing
@testable import SplashCore

@Suite struct ScriptPlayerTests {
    @Test func stepsComeWhenDueAsTheActionsTheyStandFor() throws {
        let steps = try ScriptStep.parse("0.5 tap 10 20\n1 tap skip\n2 key escape\n", path: "s")
        var player = ScriptPlayer(steps)
        #expect(player.nextTime == 0.5)
        #expect(player.due(at: 0.4).isEmpty)
        let first = player.due(at: 1)
        #expect(first.count == 2)
        #expect(player.nextTime == 2)
        let state = makeState()
        let now = ManualClock().now
        #expect(ScriptPlayer.actions(for: first[0], in: state, at: now)
                == [.pressed(Point(x: 10, y: 20), now), .released(Point(x: 10, y: 20), now)])
        // "tap skip" taps the pill wherever this screen puts it.
        let pill = state.skipButton.frame.center
        #expect(ScriptPlayer.actions(for: first[1], in: state, at: now) == [.pressed(pill, now), .released(pill, now)])
        #expect(player.due(at: 10).count == 1)
        #expect(player.nextTime == nil)
    }
}
