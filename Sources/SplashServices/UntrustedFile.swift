import FoundationEssentials
import Glibc
import SplashCore

/// A file another process may have written (a cached picture, the feed's confirmation, a
/// memo), opened as the display trusts one: without following a symbolic link, without
/// blocking (a FIFO or a device in its place is refused, never waited on), a regular file
/// no larger than it may be. Whoever wrote the name — the network process, a hand in the
/// folder — cannot make the screen wait or read beyond it.
public enum UntrustedFile {
    /// The largest picture file read (the download limit for pictures).
    public static let maxBytes = 20 << 20

    /// The content of the file at `path` (its first `first` bytes, when given), read under
    /// those rules.
    public static func read(_ path: String, first: Int? = nil, limit: Int = maxBytes) throws -> Data {
        let (fd, size) = try open(path, limit: limit)
        defer { close(fd) }
        var data = Data(count: min(size, first ?? Int.max))
        var filled = 0
        while filled < data.count {
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return data.prefix(filled)
    }

    /// The file at `path` opened for reading under those rules, with its size: a
    /// descriptor the caller closes (it may hand it to another process, as a clip is handed
    /// to the media process).
    public static func open(_ path: String, limit: Int = maxBytes) throws -> (fd: Int32, size: Int) {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link" : String(cString: strerror(errno)).lowercased()
            throw ImageError.undecodable("\(path) cannot be opened (\(reason))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ImageError.undecodable("\(path) is not a regular file")
        }
        guard Int(st.st_size) <= limit else {
            close(fd)
            throw ImageError.undecodable("\(path) is larger than \(limit >> 20) MiB")
        }
        return (fd, Int(st.st_size))
    }

    /// The text of a small file this user wrote itself (a memo), or nil: one owned by
    /// anyone else — put in its place by another process sharing the folder — is not read.
    public static func ownText(_ path: String, limit: Int = 4096) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_uid == geteuid(), let data = try? read(path, limit: limit) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Writes a small file only this user may change (0600), whole (a temporary name,
    /// renamed); best effort.
    public static func writeOwn(_ text: String, to path: String) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
    }
}
