import Foundation
@testable import SplashCore
@testable import SplashDisplay
import Testing

extension InProcessCanvasTests {
    /// With several console screens, the core lays out for the first: a touch on another
    /// screen, each laid out for its own size and turn, lands where it was meant on the first.
    @Suite struct ScreensInputTests {
        /// A touch at 0…1 across the screen `index` (0 the first) as `EvdevInput` gives it.
        func touch(_ x: Double, _ y: Double, screen index: Int) -> ShellEvent {
            .touch(down: true, x: x, y: y, screen: index)
        }

        func point(_ event: ShellEvent, on screens: Screens) -> Point? {
            guard case .action(let make) = InputMapper.meaning(of: event, screens: screens, pill: { SkipButton(screen: $0) }),
                  case .pressed(let p, _) = make(Instant(uptime: 0, date: Date(timeIntervalSince1970: 0)))
            else { return nil }
            return p
        }

        @Test func aTouchOnAnotherScreensPillIsOnTheFirstScreensPill() throws {
            let first = try Canvas(consoleFrame: Size(width: 1920, height: 1080), output: nil, rotation: .none)
            // The second screen is smaller and turned (a panel mounted on its side).
            let second = try Canvas(consoleFrame: Size(width: 1280, height: 800), output: nil, rotation: .quarter,
                                    shelf: first.shelf)
            let screens = Screens(console: first, others: [second])
            let pill = SkipButton(screen: first.layoutSize)
            let theirs = SkipButton(screen: second.layoutSize)
            #expect(second.layoutSize == Size(width: 800, height: 1280))
            // The second screen's pill centre, where it is on the glass: turned 90° clockwise.
            let c = theirs.frame.center
            let onGlass = (x: Double(1280 - 1 - c.y) / 1279, y: Double(c.x) / 799)
            let carried = try #require(point(touch(onGlass.x, onGlass.y, screen: 1), on: screens))
            #expect(pill.hitArea.contains(carried), "\(carried) should be on \(pill.hitArea)")
            // The same place on the first screen is not its pill; the middle of the second is the middle of the first.
            let same = try #require(point(touch(onGlass.x, onGlass.y, screen: 0), on: screens))
            #expect(!pill.hitArea.contains(same))
            let middle = try #require(point(touch(0.5, 0.5, screen: 1), on: screens))
            #expect(abs(middle.x - 960) <= 2 && abs(middle.y - 540) <= 2, "\(middle)")
            // A screen that is not there (unplugged since) is the first.
            let stale = try #require(point(touch(0.5, 0.5, screen: 3), on: screens))
            #expect(abs(stale.x - 960) <= 2 && abs(stale.y - 540) <= 2)
        }
    }
}
