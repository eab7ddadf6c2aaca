import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A file open for reading, a piece at a time (what Foundation's `FileHandle` was for
/// reading); closed when the reader goes.
public final class FileReader {
    private let fd: Int32

    /// Opens `path` for reading; nil when it cannot be opened.
    public init?(path: String) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Up to `count` bytes from where the reader is; empty at the end or on an error.
    public func read(upTo count: Int) -> Data {
        var data = Data(count: count)
        var got = 0
        data.withUnsafeMutableBytes { raw in
            while got < count {
                let n = Glibc.read(fd, raw.baseAddress! + got, count - got)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
        }
        return data.prefix(got)
    }

    /// The file's length in bytes.
    public var size: Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Everything from where the reader is to the end.
    public func readAll() -> Data { Self.readToEnd(fd) }

    /// Everything `fd` gives until its end (a pipe's writers all closed) or an error.
    public static func readToEnd(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return data }
            data.append(contentsOf: buffer[..<n])
        }
    }

    /// Moves to byte `offset`.
    public func seek(to offset: Int) { lseek(fd, off_t(offset), SEEK_SET) }
}
