/// Steps through a JSON document byte by byte and tells which bytes are inside a string, so
/// that the feed's syntax checks look only at its structure (a `]` or a `,` in a text is none).
struct JSONStringSpans {
    private var inString = false
    private var escaped = false

    /// Takes the next byte: whether it is inside a string — its text or its closing quote. An
    /// opening quote is not: it starts a value, as the structure sees it.
    mutating func skips(_ byte: UInt8) -> Bool {
        guard inString else {
            if byte == UInt8(ascii: "\"") { inString = true }
            return false
        }
        if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString = false
        }
        return true
    }
}
