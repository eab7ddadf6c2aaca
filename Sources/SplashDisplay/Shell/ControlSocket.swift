import FoundationEssentials
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
    private let answer: (ControlRequest) -> Result<(ControlAnswer, Data?), ControlError>

    /// Listens at `path`; nil (with the reason) when another kiosk answers there already,
    /// or the socket cannot be made.
    static func open(at path: String,
                     answer: @escaping (ControlRequest) -> Result<(ControlAnswer, Data?), ControlError>) -> (ControlSocket?, String?) {
        let folder = path.deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o750])
        // A socket that answers belongs to a kiosk still running; one that does not is stale.
        if UnixSocket.isAnswering(path) { return (nil, "another kiosk answers at \(path); status and screenshot go to that one") }
        let fd: Int32
        do {
            fd = try UnixSocket.listen(at: path, mode: 0o660, backlog: 8)
        } catch {
            return (nil, "no control socket: \(error.explained)")
        }
        return (ControlSocket(path: path, listener: fd, answer: answer), nil)
    }

    private init(path: String, listener: Int32,
                 answer: @escaping (ControlRequest) -> Result<(ControlAnswer, Data?), ControlError>) {
        self.path = path
        self.listener = listener
        self.answer = answer
        NamedThread.start(name: "splashboard.control") { [self] in acceptLoop() }
    }

    private func acceptLoop() {
        // One peer at a time: a request is small and its answer quick.
        while let client = SocketAccept.next(on: listener, warn: { fputs("splashboard: control socket: \($0)\n", stderr) }) {
            serve(client)
            close(client)
        }
    }

    private func serve(_ fd: Int32) {
        // The whole line within the time, not each read: a peer sending a byte now and then
        // does not hold the socket.
        let channel = LineChannel(fd: fd, limit: ControlRequest.limit)
        let line: Data
        switch channel.next(within: Double(Self.readSeconds)) {
        case .line(let got): line = got
        case .tooLong: return reply(channel, .failure(.malformed("a request longer than \(ControlRequest.limit) bytes")))
        case .timedOut(partial: true):
            return reply(channel, .failure(.malformed("no whole request line within \(Self.readSeconds) s")))
        case .closed(partial: true): line = channel.takeRest()  // the peer ended its line by closing its side
        case .timedOut(partial: false), .closed(partial: false), .failed: return  // nothing asked: nothing to answer
        }
        let request: ControlRequest
        do {
            request = try ControlRequest.parse(line)
        } catch {
            return reply(channel, .failure(error as? ControlError ?? .malformed(error.explained)))
        }
        reply(channel, answer(request))
    }

    private func reply(_ channel: LineChannel, _ result: Result<(ControlAnswer, Data?), ControlError>) {
        var out: Data
        switch result {
        case .success(let (answer, payload)):
            out = answer.line(bytes: payload?.count)
            if let payload { out.append(payload) }
        case .failure(let error):
            out = ControlAnswer.failureLine(error)
        }
        // A peer that stops reading is not waited for long.
        var timeout = timeval(tv_sec: Self.readSeconds, tv_usec: 0)
        setsockopt(channel.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        channel.send(out)
    }

    deinit {
        close(listener)
        unlink(path)
    }
}
