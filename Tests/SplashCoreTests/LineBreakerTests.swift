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

    /// Chinese titles break at phrase boundaries where they can (after punctuation, before a
    /// joining word such as 暨), not in the middle of 颁奖 or 新品, and still as evenly as that
    /// allows; a title with no such boundary stays balanced.
    @Test func chineseTitlesBreakAtPhrases() {
        let gala = "二〇二六年度设计颁奖典礼暨秋季新品发布会：城市与自然的对话之夜"
        #expect(LineBreaker.balanced(gala, maxWidth: 120, maxLines: 3, measure: mono)
                == ["二〇二六年度设计颁奖典礼", "暨秋季新品发布会：", "城市与自然的对话之夜"])
        #expect(LineBreaker.balanced("秋季大促：全场商品五折起", maxWidth: 100, maxLines: 2, measure: mono) == ["秋季大促：", "全场商品五折起"])
        // No boundary: as even a split as the characters allow.
        let plain = LineBreaker.balanced("明前龙井第一批到店", maxWidth: 60, maxLines: 2, measure: mono)
        #expect(plain.count == 2 && abs(plain[0].count - plain[1].count) <= 1 && plain.joined() == "明前龙井第一批到店", "\(plain)")
        #expect(LineBreaker.isPhraseBoundary(after: "典礼", before: "暨秋") && !LineBreaker.isPhraseBoundary(after: "颁", before: "奖"))
    }

    @Test func newlinesAreKept() {
        #expect(LineBreaker.wrap("我要傍近你\n方不至于难过", maxWidth: 500, measure: mono) == ["我要傍近你", "方不至于难过"])
    }
}

@Suite struct GeometryTests {
    @Test func thePillIsTopRightAndScalesWithTheScreen() {
        let small = SkipButton(screen: Size(width: 640, height: 480))
        #expect(small.frame.height == SkipButton.smallestHeight && SkipButton.smallestHeight == 52)
        let hd = SkipButton(screen: Size(width: 1920, height: 1080))
        #expect(hd.frame.height == 65)
        #expect(hd.hitArea.contains(hd.frame.center))
        #expect(SkipButton.label(3) == "跳过 3")
        // On the grid's margin (90 px at 1080p), inside the action-safe area (3.5 % of the
        // width and of the height) at every size, and as wide as two digits need.
        #expect(hd.frame.maxX == 1920 - 90 && hd.frame.y == 90)
        for screen in [Size(width: 1920, height: 1080), Size(width: 1280, height: 720), Size(width: 800, height: 480),
                       Size(width: 3840, height: 2160), Size(width: 1080, height: 1920), Size(width: 480, height: 800),
                       Size(width: 720, height: 1280), Size(width: 2560, height: 1080)] {
            let pill = SkipButton(screen: screen).frame
            #expect(screen.width - pill.maxX >= (screen.width * 35 + 999) / 1000, "\(screen)")
            #expect(pill.y >= (screen.height * 35 + 999) / 1000, "\(screen)")
            #expect(screen.width - pill.maxX >= ScreenGrid(screen: screen).margin && pill.y >= ScreenGrid(screen: screen).margin)
            #expect(pill.width >= pill.height * 2 + pill.height * 3 / 4, "\(screen): room for 跳过 and two digits")
        }
        // The corner a letterboxed picture leaves clear: the pill and its inset all round.
        #expect(hd.corner == Size(width: hd.frame.width + 180, height: hd.frame.height + 180))
    }

    /// A letterboxed picture makes room for the pill where its bars are wide enough together:
    /// moved left (bars beside it) or down (bars above and below) just enough, or to the edge
    /// where the other bar would be a sliver; else it stays centred and the pill stands on it.
    @Test func aLetterboxedPictureLeavesThePillItsBar() {
        let screen = Size(width: 1280, height: 720)
        let corner = SkipButton(screen: screen).corner
        // 4:3: bars of 160 each side, 263 needed on the right, which would leave 57 on the
        // left (under the 60 px margin): flush left, one bar of 320 on the right.
        let fourThree = ImageFit.fit.placement(of: Size(width: 960, height: 720), on: screen, clearing: corner).destination
        #expect(fourThree == Rect(x: 0, y: 0, width: 960, height: 720), "\(fourThree) \(corner)")
        #expect(fourThree.maxX <= SkipButton(screen: screen).frame.x - 60)
        // 1:1 on 1920x1080: bars of 420 a side hold the pill's corner (358): centred.
        let hd = Size(width: 1920, height: 1080)
        let logo = ImageFit.fit.placement(of: Size(width: 1000, height: 1000), on: hd, clearing: SkipButton(screen: hd).corner)
        #expect(logo.destination.x == 420, "\(logo.destination) \(SkipButton(screen: hd).corner)")
        // A square: bars wide enough already; centred.
        let square = ImageFit.fit.placement(of: Size(width: 720, height: 720), on: screen, clearing: corner).destination
        #expect(square.x == 280)
        // 3:2: bars of 100 each side, too narrow together: centred, the pill on the picture.
        let threeTwo = ImageFit.fit.placement(of: Size(width: 1080, height: 720), on: screen, clearing: corner).destination
        #expect(threeTwo.x == 100)
        // A wide picture on a portrait screen moves down when the top bar is too short.
        let tall = Size(width: 720, height: 1280)
        let wide = ImageFit.fit.placement(of: Size(width: 720, height: 1000), on: tall, clearing: SkipButton(screen: tall).corner)
            .destination
        #expect(wide.y == SkipButton(screen: tall).corner.height && wide.maxY <= 1280, "\(wide)")
        // Covering (a crop of 12 % or less) leaves no bars to move: a 2:3 poster on 480x800.
        let poster = ImageFit.fit.placement(of: Size(width: 600, height: 900), on: Size(width: 480, height: 800),
                                            clearing: SkipButton(screen: Size(width: 480, height: 800)).corner).destination
        #expect(poster == Rect(x: 0, y: 0, width: 480, height: 800))
    }

    @Test func fitLetterboxesAndFillCrops() {
        let screen = Size(width: 1280, height: 720)
        let fit = ImageFit.fit.placement(of: Size(width: 235, height: 100), on: screen)
        #expect(fit.destination == Rect(x: 0, y: 87, width: 1280, height: 545))
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
        // A 4:3 picture keeps its bars (12.5 % each side); 16:10 on 16:9 (10 %) and 2:1 on 16:9
        // (11 %) cover the screen.
        #expect(ImageFit.fit.placement(of: Size(width: 1600, height: 1200), on: screen).destination.width == 960)
        #expect(ImageFit.fit.placement(of: Size(width: 1920, height: 1200), on: Size(width: 1920, height: 1080)).destination
                == Rect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(ImageFit.fit.placement(of: Size(width: 200, height: 100), on: screen).destination == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(ImageFit.snapShare == 12)
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
