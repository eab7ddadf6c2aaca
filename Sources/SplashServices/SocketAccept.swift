import Foundation
import Glibc

/// Accepting connections on a listening socket, as every server in the kiosk does it.
public enum SocketAccept {
    /// The next connection on `listener`, close-on-exec; retried after an interruption or
    /// a peer that went before it was accepted; nil when the socket fails for good.
    public static func next(on listener: Int32) -> Int32? {
        while true {
            let client = accept(listener, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return client
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }
}
