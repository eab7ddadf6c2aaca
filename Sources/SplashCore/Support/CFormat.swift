#if canImport(Glibc)
import Glibc
#endif

public extension String {
    /// Numbers written by C's printf format (`"%.1f"`, `"%02d"`, `"%08X"`): what
    /// Foundation's `String(format:)` did, for the numeric formats only (no `%@`). The
    /// programs never set a locale, so the decimal sign is C's point.
    init(cFormat format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
