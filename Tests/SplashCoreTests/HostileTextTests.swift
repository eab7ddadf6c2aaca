import Foundation
import Testing
@testable import SplashCore

/// Text no feed may use to freeze the screen: capped on the way in, laid out in work
/// proportional to what is shown. Work is counted in measurements (what costs time when a
/// font measures), never in seconds.
@Suite struct HostileTextTests {
    let feedURL = URL(string: "https://cdn.example.test/kiosk/feed.json")!

    @Test func longTextFieldsAreCutWithAWarning() throws {
        let title = String(repeating: "标", count: 100_000)
        let detail = String(repeating: "word ", count: 3_000)
        let message = String(repeating: "话", count: 5_000)
        let json = """
        {"message": "\(message)", "campaigns": [{"id": "a", "picUrl": "a.jpg", "showTime": 1, "title": "\(title)",
         "detail": "\(detail)"}, {"id": "b", "picUrl": "b.jpg", "showTime": 1, "title": "short"}]}
        """
        let doc = try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
        let a = doc.campaigns[0]
        #expect(a.title?.count == FeedDocument.maxTitle)
        #expect(a.title?.hasSuffix("…") == true)
        #expect(a.detail?.count == FeedDocument.maxDetail)
        #expect(doc.message?.count == FeedDocument.maxMessage)
        #expect(doc.campaigns[1].title == "short")
        #expect(doc.warnings.contains("campaigns[0].title: longer than 200 characters; cut"))
        #expect(doc.warnings.contains("campaigns[0].detail: longer than 2000 characters; cut"))
        #expect(doc.warnings.contains("message: longer than 2000 characters; cut"))
        #expect(doc.warnings.count == 3)
    }

    /// A measure that counts its calls and the characters it was given: 10 px a character.
    final class Ruler {
        var calls = 0
        var characters = 0
        func measure(_ s: String) -> Int {
            calls += 1
            characters += s.count
            return s.count * 10
        }
    }

    @Test func aLineLimitStopsTheWorkHoweverLongTheText() {
        for text in [String(repeating: "字", count: 1_000_000), String(repeating: "x", count: 1_000_000),
                     String(repeating: "word ", count: 200_000)] {
            let ruler = Ruler()
            let lines = LineBreaker.wrap(text, maxWidth: 400, maxLines: 2, measure: ruler.measure)
            #expect(lines.count == 3)
            #expect(lines.allSatisfy { $0.count <= 40 })
            // Three lines of about 40 characters: a few hundred measurements, not a million.
            #expect(ruler.calls < 400, "\(ruler.calls) measurements")
            #expect(ruler.characters < 20_000, "\(ruler.characters) characters measured")
        }
    }

    @Test func wrappingIsLinearInTheText() {
        // One long word (the case that was quadratic) and plain CJK text, ten times longer:
        // ten times the measuring, not a hundred.
        for unit in ["x", "字"] {
            let small = Ruler()
            _ = LineBreaker.wrap(String(repeating: unit, count: 2_000), maxWidth: 400, measure: small.measure)
            let large = Ruler()
            _ = LineBreaker.wrap(String(repeating: unit, count: 20_000), maxWidth: 400, measure: large.measure)
            let ratio = Double(large.characters) / Double(small.characters)
            #expect(ratio > 5 && ratio < 15, "\(unit): \(small.characters) → \(large.characters) characters measured")
        }
    }

    @Test func breakUnitsAreTheSameMadeOneAtATime() {
        let text = "（你好）世界，Hello  world! 「引号」end. 一二三"
        #expect(LineBreaker.breakUnits(text) == ["（你", "好）", "世", "界，", "Hello  ", "world! ", "「引", "号」",
                                                  "end. ", "一", "二", "三"])
    }
}

/// What a feed wrote cannot act on the operator's terminal.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(TerminalText.printable("plain 标题 text") == "plain 标题 text")
        #expect(TerminalText.printable("\u{1B}]0;pwned\u{07}title") == "\\x1b]0;pwned\\x07title")
        #expect(TerminalText.printable("a\u{1B}[2Jb\nc\r") == "a\\x1b[2Jb\\x0ac\\x0d")
        #expect(TerminalText.printable("c1\u{9B}31m") == "c1\\u{9b}31m")
        #expect(TerminalText.printable("evil\u{202E}txt.exe") == "evil\\u{202e}txt.exe")
        #expect(TerminalText.printable("del\u{7F}") == "del\\x7f")
    }

    @Test func tablesAndLogLinesAreEscaped() {
        var table = TextTable(header: ["id", "title"])
        table.append(["a", "\u{1B}[31mred"])
        #expect(!table.render().contains("\u{1B}"))
        #expect(table.render().contains("\\x1b[31mred"))
        let line = KioskEvent.warning(message: "campaign \u{1B}[2J").textLine()
        #expect(!line.unicodeScalars.contains { $0.value == 0x1B })
        // JSON lines stay JSON: the escape is JSON's own.
        #expect(KioskEvent.warning(message: "\u{1B}").jsonLine(at: 0).contains("\\u001b"))
    }
}
