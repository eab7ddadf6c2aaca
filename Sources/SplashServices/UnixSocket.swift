import FoundationEssentials
import Glibc

/// Unix sockets made in one place: stream connections and listeners at a path, and single
/// datagrams (the journal, systemd's notifications). Every descriptor is close-on-exec.
/// A path starting with `@` is in the abstract namespace (systemd's `NOTIFY_SOCKET` may be).
public enum UnixSocket {
    /// Calls `body` with `path` as a `sockaddr` and its length; nil when the path is too
    /// long for one.
    public static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let abstract = path.hasPrefix("@")
        // An abstract name starts with a NUL byte; its length is exactly what it holds.
        let bytes = abstract ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        let length = abstract ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
                              : socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// A stream socket connected to `path`; the caller closes it. `failFast`: a listener
    /// whose queue is full is an error at once (`EAGAIN`) rather than a wait; the socket
    /// blocks as usual afterwards.
    public static func connect(_ path: String, failFast: Bool = false) throws -> Int32 {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (failFast ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, flags, 0)
        guard fd >= 0 else { throw UnixSocketError.failed(call: "socket", path: path, errno: errno) }
        guard let connected = withAddress(path, { Glibc.connect(fd, $0, $1) }) else {
            close(fd)
            throw UnixSocketError.pathTooLong(path)
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw UnixSocketError.failed(call: "connect", path: path, errno: code)
        }
        if failFast { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return fd
    }

    /// Whether something listens and answers at `path` (a socket file nobody serves is stale).
    public static func isAnswering(_ path: String) -> Bool {
        guard let fd = try? connect(path) else { return false }
        close(fd)
        return true
    }

    /// A stream socket listening at `path` with this file `mode`; a stale file there is
    /// replaced. The caller closes it (and removes the file).
    public static func listen(at path: String, mode: mode_t, backlog: Int32) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketError.failed(call: "socket", path: path, errno: errno) }
        unlink(path)
        guard let bound = withAddress(path, { bind(fd, $0, $1) }) else {
            close(fd)
            throw UnixSocketError.pathTooLong(path)
        }
        let failed = bound != 0 ? "bind" : chmod(path, mode) != 0 ? "chmod" : Glibc.listen(fd, backlog) != 0 ? "listen" : nil
        if let failed {
            let code = errno
            close(fd)
            throw UnixSocketError.failed(call: failed, path: path, errno: code)
        }
        return fd
    }

    /// Sends `bytes` as one datagram to the socket at `path`; whether all of it went.
    @discardableResult
    public static func sendDatagram(_ bytes: Data, to path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let sent = withAddress(path) { address, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        return sent == bytes.count
    }
}
