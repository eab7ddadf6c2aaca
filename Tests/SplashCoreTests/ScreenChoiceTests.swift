import Testing
@testable import SplashCore

/// How a console screen's mode and turn are chosen, and a touch carried between screens.
@Suite struct ScreenChoiceTests {
    let hd = Size(width: 1920, height: 1080)
    let small = Size(width: 1280, height: 720)

    @Test func modesAreWrittenAsTheConfigHasThem() {
        #expect(DisplayMode(parsing: "1920x1080") == DisplayMode(size: hd))
        #expect(DisplayMode(parsing: "1280X720@60") == DisplayMode(size: small, refresh: 60))
        for bad in ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "1920x1080@60@1", "10x10", "1920x1080p"] {
            #expect(DisplayMode(parsing: bad) == nil, "\(bad)")
        }
        #expect(DisplayMode(size: small, refresh: 50).description == "1280x720@50")
    }

    @Test func theOverrideThenTheCommandLineThenThePreferredMode() {
        let modes = [
            ModeChoice.Mode(size: hd, refresh: 60, preferred: true),
            ModeChoice.Mode(size: hd, refresh: 50),
            ModeChoice.Mode(size: small, refresh: 60),
            ModeChoice.Mode(size: small, refresh: 50, userDefined: true),
        ]
        #expect(ModeChoice.pick(modes, override: nil) == (3, false))
        let withoutCommandLine = Array(modes.prefix(3))
        #expect(ModeChoice.pick(withoutCommandLine, override: nil) == (0, false))
        #expect(ModeChoice.pick(modes, override: DisplayMode(size: hd)) == (0, false))
        #expect(ModeChoice.pick(modes, override: DisplayMode(size: hd, refresh: 50)) == (1, false))
        #expect(ModeChoice.pick(modes, override: DisplayMode(size: small)) == (2, false))
        // Asked for a mode the screen does not list: the usual choice, and the caller says so.
        #expect(ModeChoice.pick(modes, override: DisplayMode(size: Size(width: 800, height: 600))) == (3, true))
        // No preferred mode at all: the first.
        #expect(ModeChoice.pick([ModeChoice.Mode(size: small, refresh: 60), ModeChoice.Mode(size: hd, refresh: 60)],
                                override: nil) == (0, false))
        #expect(ModeChoice.pick([], override: nil) == (nil, false))
    }

    @Test func aPanelsOrientationTurnsThePictureAsTheKernelsConsoleDoes() {
        #expect(PanelOrientation(rawValue: "Right Side Up")?.rotation == .quarter)
        #expect(PanelOrientation(rawValue: "Left Side Up")?.rotation == .threeQuarters)
        #expect(PanelOrientation(rawValue: "Upside Down")?.rotation == .half)
        #expect(PanelOrientation(rawValue: "Normal")?.rotation == Rotation.none)
        #expect(PanelOrientation(rawValue: "sideways") == nil)
        // `rotate` in the config adds to the panel's own turn.
        #expect(Rotation.quarter.adding(.threeQuarters) == .none)
        #expect(Rotation.half.adding(.threeQuarters) == .quarter)
        #expect(Rotation.none.adding(.half) == .half)
    }

    @Test func aTouchOnAnotherScreensPillLandsOnTheFirstScreensPill() {
        for (from, to) in [(small, hd), (hd, small), (Size(width: 800, height: 1280), hd)] {
            let source = SkipButton(screen: from)
            let target = SkipButton(screen: to)
            let corners = [Point(x: source.frame.x, y: source.frame.y), source.frame.center,
                           Point(x: source.hitArea.x + 1, y: source.hitArea.y + source.hitArea.height - 2)]
            for p in corners {
                let carried = LayoutTranslation.translate(p, from: from, to: to)
                #expect(target.hitArea.contains(carried), "\(p) on \(from) is \(carried) on \(to)")
            }
            // Elsewhere: the same share across and down, never on the pill.
            let middle = LayoutTranslation.translate(Point(x: from.width / 2, y: from.height / 2), from: from, to: to)
            #expect(middle == Point(x: to.width / 2, y: to.height / 2))
            #expect(!target.hitArea.contains(middle))
        }
        #expect(LayoutTranslation.translate(Point(x: 7, y: 9), from: hd, to: hd) == Point(x: 7, y: 9))
    }
}
