import Foundation
import Testing
@testable import SplashCore

/// JSON read without Foundation's JSONSerialization: the same values for what both read,
/// its errors at the byte where the text breaks, and hostile documents refused.
@Suite struct JSONReaderTests {
    func read(_ text: String) throws -> Any { try JSONReader.value(Data(text.utf8)) }

    @Test func valuesAreReadAsTheyAreWritten() throws {
        let object = try #require(try read(#"{"a": [1, -2.5, 1e3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {}}"#)
                                  as? [String: Any])
        let list = try #require(object["a"] as? [Any])
        #expect(list[0] as? Int == 1 && list[1] as? Double == -2.5 && list[2] as? Double == 1000)
        #expect(list[3] as? Bool == true && list[4] as? Bool == false && list[5] is JSONNull)
        #expect(list[6] as? String == "x\"\\/\u{8}\u{c}\n\r\té😀")
        #expect((object["b"] as? [String: Any])?.isEmpty == true)
        #expect(try read(" 42 ") as? Int == 42)
        #expect(try read("\u{FEFF}[]".replacingOccurrences(of: "\u{FEFF}", with: "\u{FEFF}")) is [Any])
        #expect(try read("9223372036854775808") as? Double == 9_223_372_036_854_775_808)
        #expect(try read(#"{"a":1,"a":2}"#).self is [String: Any])
        // A comma before a closing bracket is read, as JSONSerialization read it.
        #expect((try read("[1,2,]") as? [Any])?.count == 2)
    }

    @Test func whatJSONSerializationReadsReadsTheSame() throws {
        let documents = [#"{"campaigns":[{"id":"a","picUrl":"https://x/y.jpg","showTime":5,"priority":-1,"#
                         + #""hours":["07:00-12:00"],"title":"秋季大促","weight":0.25}],"message":null}"#,
                         #"[0, -0, 0.5, 123456789012, 1E-7, "", "\u0000"]"#]
        for text in documents {
            let ours = JSONValue(try read(text)).encoded()
            let theirs = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(text.utf8)),
                                                    options: [.sortedKeys])
            let again = JSONValue(try JSONReader.value(theirs)).encoded()
            #expect(ours == again, "\(text)")
        }
    }

    @Test func brokenTextSaysWhereItBreaks() {
        func failure(_ text: String) -> JSONReader.Failure? {
            do { _ = try read(text); return nil } catch { return error as? JSONReader.Failure }
        }
        #expect(failure(#"{"a" 1}"#) == .init(offset: 5, reason: "unexpected character '1'"))
        #expect(failure("[1, 2") == .init(offset: 5, reason: "unexpected end of file", endsEarly: true))
        #expect(failure(#"["abc"#).map { ($0.reason, $0.endsEarly) } ?? ("", false) == ("unterminated string", true))
        // A text cut short is told by what happened, not by the words (`FeedSyntax` asks).
        #expect(failure(#"{"a" 1}"#)?.endsEarly == false && failure("[] []")?.endsEarly == false)
        #expect(failure("[01]")?.reason == "a number with a leading zero")
        #expect(failure("[1.]")?.reason == "a number without digits after its point")
        #expect(failure(#"["\x"]"#)?.reason == "an invalid escape \\x")
        #expect(failure(#"["\ud800"]"#)?.reason == "a lone surrogate in a \\u escape")
        #expect(failure("[\"a\nb\"]")?.reason == "a control character inside a string")
        #expect(failure("[] []")?.reason == "text after the end of the document")
        #expect(failure("tru")?.reason == "unexpected end of file")
        #expect(failure("")?.reason == "unexpected end of file")
        #expect(failure("[1e999]")?.reason == "a number too large")
        #expect((try? JSONReader.value(Data([0x22, 0xFF, 0x22]))) == nil)
    }

    @Test func deepNestingIsRefusedNotFollowed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONReader.Failure.self) { try read(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? read(fine)) != nil)
    }
}
