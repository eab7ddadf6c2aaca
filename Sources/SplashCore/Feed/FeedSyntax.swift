import FoundationEssentials

/// What to say about a feed that is not JSON: where the syntax breaks (line and column),
/// or that the address answered a web page instead.
public enum FeedSyntax {
    /// A description of `data` when it is HTML or XML rather than JSON (a login page, an
    /// error page, a CDN's "not found"), else nil.
    public static func markup(_ data: Data) -> String? {
        var head = data.prefix(512)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") else {
            return nil
        }
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        let lower = text.lowercased()
        var title = ""
        if let open = lower.firstRange(of: "<title"), let close = lower[open.upperBound...].firstRange(of: "</title>"),
           let gt = lower[open.upperBound...].firstIndex(of: ">"), gt < close.lowerBound {
            let start = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: gt) + 1)
            let end = text.index(text.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: close.lowerBound))
            let t = text[start..<end].trimmed
            if !t.isEmpty { title = " titled \"\(TerminalText.clipped(t, to: 60))\"" }
        }
        let kind = lower.contains("<html") || lower.contains("<!doctype html") ? "an HTML page" : "XML or HTML"
        return "the feed URL answered \(kind)\(title), not JSON: check the address, or whether the server needs a login"
    }

    /// The JSON reader's complaint with the line and column it points at; for the two
    /// mistakes people make most, a comment and a missing comma, what and where they are.
    public static func describe(_ error: Error, in data: Data) -> String {
        if let mistake = commonMistake(in: data) { return mistake }
        let failure = error as? JSONReader.Failure
        let text = failure?.reason ?? error.explained
        var reason = text
        var place = ""
        if data.isEmpty {
            reason = "the answer is empty"
        } else if failure?.endsEarly == true {
            let (line, column) = lineAndColumn(of: data.count, in: data)
            place = "line \(line), column \(column): "
            reason = "the document ends before it is complete (a closing } or ] or a quote is missing)"
        } else if let offset = failure?.offset {
            let (line, column) = lineAndColumn(of: offset, in: data)
            place = "line \(line), column \(column): "
            if let unclosed = unclosedBracket(before: offset, in: data) {
                reason = unclosed
            } else {
                let near = excerpt(at: offset, in: data)
                if !near.isEmpty { reason += " near \"\(near)\"" }
            }
        }
        while reason.hasSuffix(".") { reason.removeLast() }
        reason = reason.prefix(1).lowercased() + reason.dropFirst()
        return place + TerminalText.clipped(reason, to: 160)
    }

    /// Where the document has a comma right before `}` or `]`: accepted here, but not JSON,
    /// so other tools (validators, editors, other players) refuse such a feed.
    public static func trailingCommas(_ data: Data) -> [String] {
        var found: [String] = []
        var strings = JSONStringSpans()
        var comma: Int?
        for (offset, byte) in data.enumerated() {
            if strings.skips(byte) { continue }
            switch byte {
            case UInt8(ascii: "\""): comma = nil
            case UInt8(ascii: ","): comma = offset
            case 0x20, 0x09, 0x0A, 0x0D: break
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let at = comma, found.count < 20 {
                    let (line, column) = lineAndColumn(of: at, in: data)
                    found.append("line \(line), column \(column): a comma before \(byte == UInt8(ascii: "}") ? "}" : "]"), which JSON "
                                 + "does not allow: other tools refuse this feed; remove the comma")
                }
                comma = nil
            default: comma = nil
            }
        }
        return found
    }

    /// A comment (`//` or `/* */`, which JSON has not) or a missing comma between two values,
    /// with its line and column (for a missing comma: right after the value it should follow,
    /// which is where it goes); nil when neither is found.
    static func commonMistake(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var inString = false
        var escaped = false
        // Just after the end of the last value, while nothing but blanks has followed it.
        var valueEnd: Int?
        var i = 0
        func missingComma(_ at: Int) -> String {
            let (line, column) = lineAndColumn(of: at, in: data)
            let (nextLine, _) = lineAndColumn(of: i, in: data)
            let next = nextLine == line ? "" : " (the next value starts on line \(nextLine))"
            return "line \(line), column \(column): a comma is missing here, between two values\(next)"
        }
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") {
                    inString = false
                    valueEnd = i + 1
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "/") where i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*")):
                let (line, column) = lineAndColumn(of: i, in: data)
                return "line \(line), column \(column): a comment (\(bytes[i + 1] == UInt8(ascii: "/") ? "//" : "/* */")): "
                    + "JSON has no comments; remove it"
            case UInt8(ascii: "\""):
                if let end = valueEnd { return missingComma(end) }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if let end = valueEnd { return missingComma(end) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                valueEnd = i + 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                valueEnd = nil
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                // A number or a literal (true, false, null): to its end.
                if let end = valueEnd { return missingComma(end) }
                var j = i
                while j < bytes.count, !" \t\r\n,:]}[{\"/".utf8.contains(bytes[j]) { j += 1 }
                valueEnd = j
                i = j
                continue
            }
            i += 1
        }
        return nil
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func lineAndColumn(of offset: Int, in data: Data) -> (Int, Int) {
        let bytes = data.prefix(max(0, offset))
        var line = 1
        var lineStart = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }

    /// When the byte at `offset` closes a bracket of the other kind (`]` while an object is
    /// open, `}` while a list is), what is missing and where the open one began.
    static func unclosedBracket(before offset: Int, in data: Data) -> String? {
        let bytes = [UInt8](data)
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else { return nil }
        var open: [(byte: UInt8, at: Int)] = []
        var strings = JSONStringSpans()
        for i in 0..<offset {
            let byte = bytes[i]
            if strings.skips(byte) { continue }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): open.append((byte, i))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
        guard let last = open.last else { return nil }
        let closing: UInt8 = last.byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard closing != bytes[offset] else { return nil }
        let (line, column) = lineAndColumn(of: last.at, in: data)
        let what = last.byte == UInt8(ascii: "{") ? "the object" : "the list"
        let found = String(UnicodeScalar(bytes[offset]))
        let missing = String(UnicodeScalar(closing))
        return "\(what) opened at line \(line), column \(column) is not closed: a \(missing) is missing before this \(found)"
    }

    /// A few characters of the document around `offset`, on one line.
    static func excerpt(at offset: Int, in data: Data) -> String {
        let start = max(data.startIndex, data.startIndex + offset - 12)
        let end = min(data.endIndex, data.startIndex + offset + 12)
        guard start < end else { return "" }
        let text = String(decoding: data[start..<end], as: UTF8.self)
            .replacing("\u{FFFD}", with: "")
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        return TerminalText.printable(text.trimmedSpaces)
    }
}
