import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The process's standard output and error, written whole (as Foundation's
/// `FileHandle.standardOutput.write` did); a closed pipe ends the writing quietly.
public enum StandardStream {
    case output, error

    /// Writes all of `data`, retrying what a signal interrupts.
    public func write(_ data: Data) {
        let fd: Int32 = self == .output ? 1 : 2
        data.withUnsafeBytes { raw in
            guard var at = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = Glibc.write(fd, at, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                at += n
                left -= n
            }
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) { write(Data(text.utf8)) }
}
