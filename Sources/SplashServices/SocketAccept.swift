import FoundationEssentials
import Glibc
import SplashCore

/// Accepting connections on a listening socket, as every server in the kiosk does it.
public enum SocketAccept {
    /// The waits while out of descriptors or memory: 10 ms, doubling to a second.
    static let backoff = Backoff(first: 0.01, cap: 1)

    /// The next connection on `listener`, close-on-exec; retried after an interruption or
    /// a peer that went before it was accepted. When the process or the system is out of
    /// descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`), it waits — 10 ms,
    /// doubling to a second — and tries again, saying so once through `warn`: a flood of
    /// connections must not stop a server for good. Nil only when the socket itself is
    /// unusable (closed, not listening).
    public static func next(on listener: Int32, warn: ((String) -> Void)? = nil) -> Int32? {
        var failures = 0
        var warned = false
        while true {
            let client = accept(listener, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return client
            }
            let error = errno
            if error == EINTR || error == ECONNABORTED || error == EPROTO { continue }
            guard [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error) else { return nil }
            if !warned {
                warn?("cannot accept a connection (\(String(cString: strerror(error)))); waiting for descriptors to be freed")
                warned = true
            }
            failures += 1
            usleep(UInt32(Self.backoff.delay(failures: failures) * 1_000_000))
        }
    }
}
