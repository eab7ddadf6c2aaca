/// A JSON value with ordered object keys, for writing event lines by hand.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Equal when they encode to the same text: key order counts, and `.int(1)` equals
    /// `.double(1)`.
    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded() == b.encoded() }

    /// The value a tree as `JSONReader` reads it holds (`[String: Any]`, `[Any]`, `String`,
    /// `Int`, `Double`, `Bool`, `JSONNull`); object keys sorted, anything else null.
    public init(_ any: Any) {
        switch any {
        case let value as JSONValue: self = value
        case let b as Bool: self = .bool(b)
        case let n as Int: self = .int(n)
        case let d as Double: self = .double(d)
        case let s as String: self = .string(s)
        case let list as [Any]: self = .array(list.map(JSONValue.init))
        case let object as [String: Any]: self = .object(object.keys.sorted().map { ($0, JSONValue(object[$0]!)) })
        default: self = .null
        }
    }

    /// Compact JSON text.
    public func encoded() -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .double(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .string(let s): return Self.quote(s)
        case .array(let items): return "[" + items.map { $0.encoded() }.joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quote($0.0) + ":" + $0.1.encoded() }.joined(separator: ",") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Controls, separators and the marks that reorder text, as \u escapes: the same
            // string to a JSON reader, nothing a terminal or a log viewer acts on.
            case _ where TerminalText.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
