import Foundation
import Glibc
import SplashServices

/// Sends one request line to the Unix socket at `path` and returns the first line that
/// comes back (what a peer of the kiosk's sockets reads), waiting at most `seconds`.
public func requestLine(_ path: String, _ request: String, seconds: Int = 20) -> String {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    guard UnixSocketAddress.with(path, { connect(fd, $0, $1) }) == 0 else { return "cannot connect" }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array((request + "\n").utf8)
    _ = send(fd, bytes, bytes.count, 0)
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while !answer.contains(0x0A) {
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { break }
        answer += chunk[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
}
