import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

extension NetworkLink {
    /// One line to a network process and the requests waiting on it. Its reader thread
    /// waits in poll(2) for answers, for the earliest deadline, or for a new request.
    final class Connection: @unchecked Sendable {
        private let fd: Int32
        private let child: pid_t?
        private let wake: (read: Int32, write: Int32)
        private let lock = Lock()
        private var pending: [Int: (deadline: TimeInterval, timeout: Int, completion: Completion)] = [:]
        private var ended = false
        private let onEnd: (Connection) -> Void
        private let clock: @Sendable () -> TimeInterval

        private init(fd: Int32, child: pid_t?, clock: @escaping @Sendable () -> TimeInterval,
                     onEnd: @escaping (Connection) -> Void) throws {
            self.clock = clock
            var pipeFDs: [Int32] = [0, 0]
            guard splash_pipe_nonblocking(&pipeFDs) == 0 else {
                Glibc.close(fd)
                throw NetworkLinkError.cannotStart(String(cString: strerror(errno)))
            }
            self.fd = fd
            self.child = child
            self.wake = (pipeFDs[0], pipeFDs[1])
            self.onEnd = onEnd
            NamedThread.start(name: "splashboard.network-link") { [self] in readLoop() }
        }

        /// Starts the network process with one end of a socket pair as its descriptor 3
        /// (and no other descriptor of this process: not the screen's, not the input's).
        static func spawn(_ executable: String, _ arguments: [String], clock: @escaping @Sendable () -> TimeInterval,
                          onEnd: @escaping (Connection) -> Void) throws -> Connection {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                throw NetworkLinkError.cannotStart(String(cString: strerror(errno)))
            }
            // Its standard descriptors are this process's (its warnings go to the same log).
            let pid: pid_t
            do {
                pid = try ChildProgram.spawn(executable, arguments, descriptors: [(0, 0), (1, 1), (2, 2), (pair[1], 3)],
                                             adding: ["SPLASHBOARD_PARENT_PID": String(getpid())])
            } catch {
                Glibc.close(pair[0])
                Glibc.close(pair[1])
                throw NetworkLinkError.cannotStart((error as? ChildProgramError).map { "\(executable): \($0.reason)" }
                                                   ?? error.explained)
            }
            Glibc.close(pair[1])
            return try Connection(fd: pair[0], child: pid, clock: clock, onEnd: onEnd)
        }

        /// Connects to a network process listening at `path`.
        static func connect(_ path: String, clock: @escaping @Sendable () -> TimeInterval,
                            onEnd: @escaping (Connection) -> Void) throws -> Connection {
            let fd: Int32
            do {
                fd = try UnixSocket.connect(path, failFast: true)
            } catch let error as UnixSocketError {
                let reason = error.code.map { String(cString: strerror($0)) } ?? "the path is too long"
                throw NetworkLinkError.unreachable(socket: path, reason: reason)
            }
            return try Connection(fd: fd, child: nil, clock: clock, onEnd: onEnd)
        }

        /// Writes one request without waiting; returns why it could not be written.
        func send(_ line: Data, id: Int, deadline: TimeInterval, timeout: Int, completion: @escaping Completion) -> NetworkLinkError? {
            lock.lock()
            guard !ended else {
                lock.unlock()
                return .stopped("the line was closed")
            }
            pending[id] = (deadline, timeout, completion)
            lock.unlock()
            let written = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            guard written == line.count else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "the socket is full"
                lock.lock()
                pending[id] = nil
                lock.unlock()
                end(.stopped(reason))
                return .stopped(reason)
            }
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
            return nil
        }

        /// Ends the line once: every request waiting gets `reason`; the reader thread
        /// closes the socket and stops the child.
        func end(_ reason: NetworkLinkError) {
            lock.lock()
            guard !ended else {
                lock.unlock()
                return
            }
            ended = true
            let waiting = pending.values.map(\.completion)
            pending = [:]
            lock.unlock()
            onEnd(self)
            shutdown(fd, Int32(SHUT_RDWR))
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
            for completion in waiting { completion(.failure(reason)) }
        }

        private func readLoop() {
            var buffer = LineBuffer(limit: NetworkWire.lineLimit)
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                lock.lock()
                let done = ended
                let soonest = pending.values.min { $0.deadline < $1.deadline }
                lock.unlock()
                if done { break }
                let now = clock()
                if let soonest, soonest.deadline <= now {
                    // A process that does not answer is stopped; the next request starts anew.
                    end(.timedOut(seconds: soonest.timeout))
                    break
                }
                let waitMs = soonest.map { Int32(min(max(($0.deadline - now) * 1000, 1), 3_600_000)) } ?? -1
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, waitMs)
                if ready < 0 && errno != EINTR { end(.stopped(String(cString: strerror(errno)))); break }
                if fds[1].revents != 0 {
                    var drain = [UInt8](repeating: 0, count: 64)
                    while Glibc.read(wake.read, &drain, drain.count) > 0 {}
                }
                guard fds[0].revents != 0 else { continue }
                let n = Glibc.read(fd, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    end(.stopped(n == 0 ? "it closed the connection" : String(cString: strerror(errno))))
                    break
                }
                buffer.append(chunk[0..<n])
                while let line = buffer.next() { deliver(line) }
                if buffer.isOverLimit {
                    end(.stopped("an answer longer than \(NetworkWire.lineLimit) bytes"))
                    break
                }
            }
            Glibc.close(fd)
            Glibc.close(wake.read)
            Glibc.close(wake.write)
            if let child {
                // Stopped or not, the child goes with its line, and is reaped here.
                kill(child, SIGKILL)
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            }
        }

        private func deliver(_ line: Data) {
            guard let answer = try? NetworkWire.decode(NetworkAnswer.self, from: line) else {
                end(.stopped("an answer that is not one: \(String(decoding: line.prefix(80), as: UTF8.self))"))
                return
            }
            lock.lock()
            let waiting = pending.removeValue(forKey: answer.id)
            lock.unlock()
            guard let waiting else {
                // Not an answer to anything asked: the other side is not following the protocol.
                end(.stopped(answer.id == 0 ? "it refused a request: \(answer.outcome.failure ?? "")"
                                            : "an answer to a request never made"))
                return
            }
            waiting.completion(.success(answer))
        }
    }
}
