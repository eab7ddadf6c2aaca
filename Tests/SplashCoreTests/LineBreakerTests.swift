import Testing
@testable import SplashCore

/// Every character 10 px wide: enough to see where lines break.
let mono: (String) -> Int = { $0.count * 10 }

@Suite struct LineBreakerTests {
    @Test func chineseBreaksBetweenCharacters() {
        #expect(LineBreaker.wrap("今年第一批明前龙井已经到店", maxWidth: 50, measure: mono) == ["今年第一批", "明前龙井已", "经到店"])
    }

    @Test func latinBreaksBetweenWords() {
        #expect(LineBreaker.wrap("Free tasting every afternoon", maxWidth: 130, measure: mono)
                == ["Free tasting", "every", "afternoon"])
    }

    @Test func closingPunctuationNeverStartsALine() {
        let lines = LineBreaker.wrap("一二三四，五六", maxWidth: 40, measure: mono)
        #expect(lines.allSatisfy { !$0.hasPrefix("，") })
        #expect(lines.joined() == "一二三四，五六")
    }

    @Test func openingBracketsNeverEndALine() {
        let lines = LineBreaker.wrap("一二三《书名》", maxWidth: 40, measure: mono)
        #expect(lines.allSatisfy { !$0.hasSuffix("《") })
    }

    @Test func mixedTextAndLongWords() {
        let lines = LineBreaker.wrap("去看看 https://example.test/very/long/path 吧", maxWidth: 100, measure: mono)
        #expect(lines.allSatisfy { mono($0) <= 100 })
        #expect(lines.joined().replacingOccurrences(of: " ", with: "") == "去看看https://example.test/very/long/path吧")
    }

    @Test func noWrappedLineStartsOrEndsWithASpace() {
        let text = "Join us  in the courtyard garden this weekend for guided walks,   seasonal tea and a market.\n  Indented too."
        for width in stride(from: 60, through: 300, by: 10) {
            for line in LineBreaker.wrap(text, maxWidth: width, measure: mono) {
                #expect(line.first != " " && line.last != " ", "\(width): \"\(line)\"")
            }
        }
    }

    @Test func aParagraphEndsWithNoWidow() {
        // Chinese: a last line of one character takes the one before it.
        #expect(LineBreaker.wrap("饮湖上初晴后雨", maxWidth: 60, measure: mono) == ["饮湖上初晴", "后雨"])
        #expect(LineBreaker.wrap("水光潋滟晴方好。", maxWidth: 70, measure: mono) == ["水光潋滟晴", "方好。"])
        // Latin: a last line of one word takes the word before it.
        #expect(LineBreaker.wrap("bring comfortable shoes and come early", maxWidth: 330, measure: mono)
                == ["bring comfortable shoes and", "come early"])
        #expect(LineBreaker.wrap("一二三四五六", maxWidth: 50, measure: mono) == ["一二三四", "五六"])
        // Not when the line before would be left with fewer than two.
        #expect(LineBreaker.wrap("ab cd", maxWidth: 20, measure: mono) == ["ab", "cd"])
        #expect(LineBreaker.wrap("一二三", maxWidth: 20, measure: mono) == ["一二", "三"])
        #expect(LineBreaker.wrap("abcdefghij k", maxWidth: 100, measure: mono) == ["abcdefghij", "k"])
    }

    @Test func aBalancedHeadlineSplitsInHalves() {
        let lines = LineBreaker.balanced("秋季大促：全场五折起", maxWidth: 80, maxLines: 2, measure: mono)
        #expect(lines.count == 2 && abs(lines[0].count - lines[1].count) <= 1, "\(lines)")
        #expect(LineBreaker.balanced("Autumn Garden Weekend", maxWidth: 220, maxLines: 2, measure: mono) == ["Autumn Garden Weekend"])
        #expect(LineBreaker.balanced("Autumn Garden Weekend", maxWidth: 150, maxLines: 2, measure: mono) == ["Autumn Garden", "Weekend"])
        // Never narrower than its widest word: no word is cut to balance.
        #expect(LineBreaker.balanced("a extraordinarily b", maxWidth: 170, maxLines: 2, measure: mono).allSatisfy { !$0.isEmpty })
        #expect(LineBreaker.balanced("a extraordinarily b", maxWidth: 170, maxLines: 2, measure: mono).contains { $0.contains("extraordinarily") })
    }

    @Test func newlinesAreKept() {
        #expect(LineBreaker.wrap("我要傍近你\n方不至于难过", maxWidth: 500, measure: mono) == ["我要傍近你", "方不至于难过"])
    }
}

@Suite struct GeometryTests {
    @Test func thePillIsTopRightAndScalesWithTheScreen() {
        let small = SkipButton(screen: Size(width: 640, height: 480), maxCountdown: 3)
        #expect(small.frame.height == SkipButton.smallestHeight && SkipButton.smallestHeight == 52)
        let hd = SkipButton(screen: Size(width: 1920, height: 1080), maxCountdown: 3)
        #expect(hd.frame.height == 65)
        #expect(hd.frame.maxX < 1920 && hd.frame.maxX > 1920 - 80)
        #expect(hd.frame.y < 60)
        #expect(hd.hitArea.contains(hd.frame.center))
        let wide = SkipButton(screen: Size(width: 1920, height: 1080), maxCountdown: 30)
        #expect(wide.frame.width > hd.frame.width)
        #expect(SkipButton.label(3) == "跳过 3")
        // Never across a picture's edge: a letterbox narrower than the pill puts it inside the
        // picture; one wide enough, or a picture covering the screen, leaves it where it is.
        let tall = Size(width: 480, height: 800)
        let plain = SkipButton(screen: tall, maxCountdown: 3)
        let poster = Rect(x: 0, y: 40, width: 480, height: 720)
        let moved = SkipButton(screen: tall, maxCountdown: 3, picture: poster)
        #expect(plain.frame.intersects(poster) && !poster.contains(plain.frame))
        #expect(poster.contains(moved.frame) && moved.frame.y == poster.y + plain.frame.y && moved.frame.maxX == plain.frame.maxX)
        let letterboxed = Rect(x: 460, y: 0, width: 360, height: 720)
        #expect(SkipButton(screen: Size(width: 1280, height: 720), maxCountdown: 3, picture: letterboxed).frame
                == SkipButton(screen: Size(width: 1280, height: 720), maxCountdown: 3).frame)
        #expect(SkipButton(screen: tall, maxCountdown: 3, picture: Rect(x: 0, y: 0, width: 480, height: 800)).frame == plain.frame)
    }

    @Test func fitLetterboxesAndFillCrops() {
        let screen = Size(width: 1280, height: 720)
        let fit = ImageFit.fit.placement(of: Size(width: 200, height: 100), on: screen)
        #expect(fit.destination == Rect(x: 0, y: 40, width: 1280, height: 640))
        let fill = ImageFit.fill.placement(of: Size(width: 200, height: 100), on: screen)
        #expect(fill.destination == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(fill.source == Rect(x: 11, y: 0, width: 178, height: 100))
        let tall = ImageFit.fit.placement(of: Size(width: 100, height: 200), on: screen)
        #expect(tall.destination == Rect(x: 460, y: 0, width: 360, height: 720))
        // A focal point: the crop keeps it in view, as near the middle as the edges let it.
        #expect(ImageFit.fill.placement(of: Size(width: 200, height: 100), on: screen, focus: FocusPoint(x: 0, y: 0.5)!).source.x == 0)
        #expect(ImageFit.fill.placement(of: Size(width: 200, height: 100), on: screen, focus: FocusPoint(x: 1, y: 0.5)!).source.x == 22)
        #expect(ImageFit.fill.placement(of: Size(width: 200, height: 100), on: screen, focus: FocusPoint(x: 0.55, y: 0.5)!).source.x == 21)
        #expect(ImageFit.fill.placement(of: Size(width: 100, height: 400), on: screen, focus: FocusPoint(x: 0.5, y: 0.1)!).source.y == 12)
        #expect(FocusPoint(x: 1.2, y: 0) == nil && FocusPoint(text: "0.25,0.75") == FocusPoint(x: 0.25, y: 0.75))
        // No slivers: a 16:9 picture on a 5:3 screen would leave 15 px bars; it covers the screen instead.
        let small = Size(width: 800, height: 480)
        #expect(ImageFit.fit.placement(of: Size(width: 1920, height: 1080), on: small).destination == Rect(x: 0, y: 0, width: 800, height: 480))
        #expect(ImageFit.fit.placement(of: Size(width: 1920, height: 1080), on: small, snap: false).destination.height == 450)
        // A 4:3 picture keeps its bars (12.5 % each side); so does 16:10 on 16:9 (10 %).
        #expect(ImageFit.fit.placement(of: Size(width: 1600, height: 1200), on: screen).destination.width == 960)
        #expect(ImageFit.fit.placement(of: Size(width: 1920, height: 1200), on: Size(width: 1920, height: 1080)).destination.width == 1728)
    }

    @Test func rotationMapsTouchesBackToLayout() {
        let output = Size(width: 1280, height: 720)
        #expect(Rotation.quarter.logicalSize(for: output) == Size(width: 720, height: 1280))
        // Layout top-right (719, 0) is drawn at the output's bottom-right when turned 90° clockwise.
        #expect(Rotation.quarter.logicalPoint(Point(x: 1279, y: 719), output: output) == Point(x: 719, y: 0))
        #expect(Rotation.half.logicalPoint(Point(x: 0, y: 0), output: output) == Point(x: 1279, y: 719))
        #expect(Rotation.threeQuarters.logicalPoint(Point(x: 0, y: 0), output: output) == Point(x: 719, y: 0))
    }

    @Test func colours() {
        #expect(RGBColor(hex: "#FED300") == .widgetYellow)
        #expect(RGBColor(hex: "fed300")?.description == "#FED300")
        #expect(RGBColor(hex: "#FED30") == nil)
        #expect(RGBColor(hex: "#GGGGGG") == nil)
    }

    @Test func eventLinesAreJSON() throws {
        let line = KioskEvent.splash(campaign: "a\"b", remaining: 2, image: "/x").jsonLine(at: 1.23456)
        #expect(line == #"{"event":"splash","t":1.235,"campaign":"a\"b","remaining":2,"image":"/x","media":"picture"}"#)
        #expect(KioskEvent.splash(campaign: nil, remaining: nil, image: "/d").jsonLine(at: 0)
                == #"{"event":"splash","t":0,"campaign":null,"remaining":null,"image":"/d","media":"picture"}"#)
        #expect(KioskEvent.skip(by: .clickThrough).jsonLine(at: 3) == #"{"event":"skip","t":3,"by":"click_through"}"#)
    }
}
