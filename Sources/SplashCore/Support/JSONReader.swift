import FoundationEssentials

/// JSON text read into plain Swift values: `[String: Any]`, `[Any]`, `String`, `Int` (a
/// number written without fraction or exponent that fits), `Double`, `Bool` and
/// `JSONNull`. Written here because the programs carry no Foundation beyond its essentials
/// (no JSONSerialization); it accepts what that accepted (a scalar document, a comma
/// before `}` or `]`) and says where the text breaks, as a byte offset.
public enum JSONReader {
    /// Why the text is not JSON, and the byte offset where that shows.
    public struct Failure: Error, Equatable, Sendable, LocalizedError {
        public let offset: Int
        public let reason: String
        /// The text ended before the document did (a value, a string or a bracket left open):
        /// a feed cut short, told by what happened rather than by the words.
        public var endsEarly = false
        public var errorDescription: String? { "\(reason) at byte \(offset)" }
    }

    /// Deeper documents are refused rather than read on the stack.
    public static let maxDepth = 512

    /// The value `data` holds (a UTF-8 byte order mark first is skipped).
    public static func value(_ data: Data) throws -> Any {
        try [UInt8](data).withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { parser.at = 3 }
            parser.skipBlanks()
            let value = try parser.value(depth: 0)
            parser.skipBlanks()
            if parser.at < buffer.count { throw parser.fail("text after the end of the document") }
            return value
        }
    }

    /// A JSON number as a Double, whether it was read as an Int or a Double.
    public static func number(_ raw: Any?) -> Double? {
        switch raw {
        case let n as Int: return Double(n)
        case let d as Double: return d
        default: return nil
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        func fail(_ reason: String, at offset: Int? = nil) -> Failure {
            Failure(offset: offset ?? at, reason: reason)
        }

        /// The text ended where more of the document was due.
        func endedEarly(_ reason: String, at offset: Int? = nil) -> Failure {
            Failure(offset: offset ?? at, reason: reason, endsEarly: true)
        }

        mutating func skipBlanks() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        func unexpected() -> Failure {
            guard at < bytes.count else { return endedEarly("unexpected end of file") }
            let byte = bytes[at]
            let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return fail("unexpected character \(shown)")
        }

        mutating func value(depth: Int) throws -> Any {
            guard at < bytes.count else { throw unexpected() }
            switch bytes[at] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"): return try literal("true", true)
            case UInt8(ascii: "f"): return try literal("false", false)
            case UInt8(ascii: "n"): return try literal("null", JSONNull())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw unexpected()
            }
        }

        mutating func literal(_ word: String, _ value: Any) throws -> Any {
            for byte in word.utf8 {
                guard at < bytes.count, bytes[at] == byte else { throw unexpected() }
                at += 1
            }
            return value
        }

        mutating func object(depth: Int) throws -> Any {
            guard depth <= JSONReader.maxDepth else { throw fail("nested deeper than \(JSONReader.maxDepth) levels") }
            at += 1
            var result: [String: Any] = [:]
            while true {
                skipBlanks()
                guard at < bytes.count else { throw unexpected() }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return result }
                guard bytes[at] == UInt8(ascii: "\"") else { throw unexpected() }
                let key = try string()
                skipBlanks()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw unexpected() }
                at += 1
                skipBlanks()
                result[key] = try value(depth: depth)
                skipBlanks()
                guard at < bytes.count else { throw unexpected() }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "}") else { throw unexpected() }
            }
        }

        mutating func array(depth: Int) throws -> Any {
            guard depth <= JSONReader.maxDepth else { throw fail("nested deeper than \(JSONReader.maxDepth) levels") }
            at += 1
            var result: [Any] = []
            while true {
                skipBlanks()
                guard at < bytes.count else { throw unexpected() }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return result }
                result.append(try value(depth: depth))
                skipBlanks()
                guard at < bytes.count else { throw unexpected() }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                guard bytes[at] == UInt8(ascii: "]") else { throw unexpected() }
            }
        }

        mutating func string() throws -> String {
            let start = at
            at += 1
            var out: [UInt8] = []
            while true {
                guard at < bytes.count else { throw endedEarly("unterminated string", at: start) }
                let byte = bytes[at]
                switch byte {
                case UInt8(ascii: "\""):
                    at += 1
                    return try text(out, from: start)
                case UInt8(ascii: "\\"):
                    at += 1
                    guard at < bytes.count else { throw endedEarly("unterminated string", at: start) }
                    let escape = bytes[at]
                    at += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                                throw fail("a lone surrogate in a \\u escape", at: at - 6)
                            }
                            at += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a \\u escape", at: at - 12) }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(code) {
                            throw fail("a lone surrogate in a \\u escape", at: at - 6)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("an invalid \\u escape", at: at - 6) }
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    default:
                        throw fail("an invalid escape \\\(Character(Unicode.Scalar(escape)))", at: at - 2)
                    }
                case 0x00..<0x20:
                    throw fail("a control character inside a string")
                default:
                    out.append(byte)
                    at += 1
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard at < bytes.count, let digit = Character(Unicode.Scalar(bytes[at])).hexDigitValue else {
                    throw fail("an invalid \\u escape")
                }
                code = code * 16 + UInt32(digit)
                at += 1
            }
            return code
        }

        func text(_ utf8: [UInt8], from start: Int) throws -> String {
            var iterator = utf8.makeIterator()
            var decoder = UTF8()
            var scalars = String.UnicodeScalarView()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return String(scalars)
                case .error: throw fail("a string that is not valid UTF-8", at: start)
                }
            }
        }

        mutating func number() throws -> Any {
            let start = at
            func digits() -> Int {
                let from = at
                while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
                return at - from
            }
            if bytes[at] == UInt8(ascii: "-") { at += 1 }
            let intStart = at
            guard digits() > 0 else { throw fail("a number without digits", at: start) }
            if bytes[intStart] == UInt8(ascii: "0"), at - intStart > 1 { throw fail("a number with a leading zero", at: start) }
            var whole = true
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                whole = false
                guard digits() > 0 else { throw fail("a number without digits after its point", at: start) }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                whole = false
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw fail("a number without digits in its exponent", at: start) }
            }
            let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            if whole, let n = Int(literal) { return n }
            guard let d = Double(literal), d.isFinite else { throw fail("a number too large", at: start) }
            return d
        }
    }
}

/// JSON's `null`, as `JSONReader` reads it.
public struct JSONNull: Equatable, Hashable, Sendable {
    public init() {}
}
