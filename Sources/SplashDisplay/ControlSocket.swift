import Foundation
import Glibc
import SplashCore
import SplashServices

/// The running kiosk's control socket (`splashboard status`, `splashboard screenshot`): a
/// Unix stream socket in the runtime folder, mode 0660 (the service's group may ask). Each
/// connection is read on a thread of its own with a size limit and a deadline; the answer
/// is made on the loop's thread (`answer`, which waits for it at most a few seconds).
/// Whatever arrives — nothing, garbage, a flood, a peer that hangs up — gets at most an
/// error line; the loop never waits on a peer.
final class ControlSocket: @unchecked Sendable {
    /// Seconds a peer has to send its request line.
    static let readSeconds = 2
    let path: String
    private let listener: Int32
    private let answer: (ControlRequest) -> Result<(JSONValue, Data?), ControlError>

    /// Listens at `path`; nil (with the reason) when another kiosk answers there already,
    /// or the socket cannot be made.
    static func open(at path: String,
                     answer: @escaping (ControlRequest) -> Result<(JSONValue, Data?), ControlError>) -> (ControlSocket?, String?) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o750])
        // A socket that answers belongs to a kiosk still running; one that does not is stale.
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let live = UnixSocketAddress.with(path) { connect(probe, $0, $1) } == 0
        close(probe)
        if live { return (nil, "another kiosk answers at \(path); status and screenshot go to that one") }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = UnixSocketAddress.with(path) { bind(fd, $0, $1) }
        guard fd >= 0, bound == 0, chmod(path, 0o660) == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            return (nil, "no control socket at \(path): \(reason)")
        }
        return (ControlSocket(path: path, listener: fd, answer: answer), nil)
    }

    private init(path: String, listener: Int32,
                 answer: @escaping (ControlRequest) -> Result<(JSONValue, Data?), ControlError>) {
        self.path = path
        self.listener = listener
        self.answer = answer
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "splashboard.control"
        thread.start()
    }

    private func acceptLoop() {
        // One peer at a time: a request is small and its answer quick.
        while let client = SocketAccept.next(on: listener, warn: { fputs("splashboard: control socket: \($0)\n", stderr) }) {
            serve(client)
            close(client)
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: Self.readSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var line = Data()
        var chunk = [UInt8](repeating: 0, count: 1024)
        // The whole line within the time, not each read: a peer sending a byte now and then
        // does not hold the socket.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.readSeconds) * 1_000_000_000
        while !line.contains(0x0A) {
            guard line.count <= ControlRequest.limit else {
                return reply(fd, .failure(.malformed("a request longer than \(ControlRequest.limit) bytes")))
            }
            let now = DispatchTime.now().uptimeNanoseconds
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard now < deadline, poll(&ready, 1, Int32(max(1, (deadline - now) / 1_000_000))) == 1 else {
                if line.isEmpty { return }
                return reply(fd, .failure(.malformed("no whole request line within \(Self.readSeconds) s")))
            }
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                if line.isEmpty { return }  // connected and went: nothing to answer
                break
            }
            line.append(contentsOf: chunk[0..<n])
        }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(Data(line.prefix { $0 != 0x0A }))
        } catch {
            return reply(fd, .failure(error as? ControlError ?? .malformed(error.localizedDescription)))
        }
        reply(fd, answer(request))
    }

    private func reply(_ fd: Int32, _ result: Result<(JSONValue, Data?), ControlError>) {
        var out: Data
        switch result {
        case .success(let (header, payload)):
            var fields: [(String, JSONValue)] = [("ok", .bool(true)), ("answer", header)]
            if let payload { fields.append(("bytes", .int(payload.count))) }
            out = Data((JSONValue.object(fields).encoded() + "\n").utf8)
            if let payload { out.append(payload) }
        case .failure(let error):
            out = Data((JSONValue.object([("ok", .bool(false)), ("error", .string(error.localizedDescription))]).encoded()
                        + "\n").utf8)
        }
        out.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    deinit {
        close(listener)
        unlink(path)
    }
}
