import Foundation
import Glibc
import SplashServices

/// Sends one request line to the Unix socket at `path` and returns the first line that
/// comes back with its newline (what a peer of the kiosk's sockets reads), or what came
/// before the peer closed or `seconds` passed.
public func requestLine(_ path: String, _ request: String, seconds: Int = 20) -> String {
    guard let fd = try? UnixSocket.connect(path) else { return "cannot connect" }
    defer { close(fd) }
    let channel = LineChannel(fd: fd, limit: 1 << 20)
    channel.send(Data((request + "\n").utf8))
    if case .line(let line) = channel.next(by: MonotonicClock.seconds() + Double(seconds)) {
        return String(decoding: line, as: UTF8.self) + "\n"
    }
    return String(decoding: channel.takeRest(), as: UTF8.self)
}

/// Waits until the Unix socket at `path` takes a connection (its file is there before it
/// listens); false when it never does within `seconds`.
public func waitUntilListening(_ path: String, within seconds: TimeInterval = 30) -> Bool {
    eventually(within: seconds) {
        guard let fd = try? UnixSocket.connect(path) else { return false }
        close(fd)
        return true
    }
}
