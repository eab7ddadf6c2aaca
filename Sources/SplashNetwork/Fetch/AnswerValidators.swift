import FoundationEssentials

/// The validators an answer may leave to be sent back (`If-None-Match`,
/// `If-Modified-Since`) and its `Cache-Control`, each kept only in its own well-formed,
/// bounded shape: whatever a server writes there is stored in the database, read at every
/// sync and sent out again in a request's head. Anything else is dropped, and the file is
/// fetched in full next time.
enum AnswerValidators {
    /// The longest ETag or Cache-Control kept, in bytes.
    static let maxBytes = 256

    /// `text` if it is an RFC 9110 entity-tag (`"…"` or `W/"…"`, the inside printable
    /// ASCII but `"`, or bytes of 0x80 and up) of at most 256 bytes; else nil.
    static func entityTag(_ text: String?) -> String? {
        guard let text else { return nil }
        var bytes = Array(text.utf8)
        guard bytes.count <= maxBytes else { return nil }
        if bytes.starts(with: Array("W/".utf8)) { bytes.removeFirst(2) }
        guard bytes.count >= 2, bytes.first == 0x22, bytes.last == 0x22 else { return nil }
        let inside = bytes.dropFirst().dropLast()
        return inside.allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 } ? text : nil
    }

    /// `text` if it is an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 5.6.7); else nil.
    static func lastModified(_ text: String?) -> String? {
        guard let text else { return nil }
        let b = Array(text.utf8)
        guard b.count == 29 else { return nil }
        let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func word(_ at: Int) -> String { String(decoding: b[at..<at + 3], as: UTF8.self) }
        func digits(_ at: Int, _ count: Int) -> Int? {
            let slice = b[at..<at + count]
            guard slice.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: slice, as: UTF8.self))
        }
        func byte(_ at: Int, _ c: Character) -> Bool { b[at] == c.asciiValue }
        guard days.contains(word(0)), byte(3, ","), byte(4, " "), let day = digits(5, 2), (1...31).contains(day),
              byte(7, " "), months.contains(word(8)), byte(11, " "), digits(12, 4) != nil, byte(16, " "),
              let hour = digits(17, 2), hour < 24, byte(19, ":"), let minute = digits(20, 2), minute < 60, byte(22, ":"),
              let second = digits(23, 2), second <= 60, String(decoding: b[25...], as: UTF8.self) == " GMT" else { return nil }
        return text
    }

    /// `text` if it is at most 256 bytes of printable ASCII (spaces and tabs included); else nil.
    static func cacheControl(_ text: String?) -> String? {
        guard let text else { return nil }
        let bytes = Array(text.utf8)
        return bytes.count <= maxBytes && bytes.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) }) ? text : nil
    }
}
