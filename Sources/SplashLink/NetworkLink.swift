import CSystem
import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// The display process's line to the network process: requests go out as JSON lines on a
/// Unix socket and answers come back on a reader thread of its own. The link is made at
/// the first request and made again after it breaks, so either process may restart: a
/// request in flight when the line breaks is answered with an error, and the kiosk's own
/// retry (the sync's backoff, the poem's) asks again.
///
/// The line is either a child started with a socket pair (`spawn`: `make run`, tests,
/// any session without the service) or a connection to the service's socket (`socket`).
public final class NetworkLink: @unchecked Sendable {
    /// How the network process is reached.
    public enum Endpoint: Equatable {
        /// Start `executable` with `arguments`; the socket is its file descriptor 3.
        case spawn(executable: String, arguments: [String])
        /// Connect to the network process listening at this path.
        case socket(String)
    }

    /// Called with the answer, or with why there is none.
    public typealias Completion = (Result<NetworkAnswer, NetworkLinkError>) -> Void

    private let endpoint: Endpoint
    private let clock: @Sendable () -> TimeInterval
    private let lock = Lock()
    private var connection: Connection?
    private var nextID = 1

    /// `clock` gives the seconds deadlines are set and checked in: monotonic (a wall clock
    /// that jumps — NTP at boot on a device with no RTC — must expire nothing).
    public init(endpoint: Endpoint, clock: @escaping @Sendable () -> TimeInterval = MonotonicClock.seconds) {
        self.endpoint = endpoint
        self.clock = clock
    }

    /// Where the network process's program is looked for: `$SPLASHBOARD_NET`, beside this
    /// program, then where the package installs it.
    public static func programCandidates(environment: [String: String]) -> [String] {
        ChildProgram.candidates("splashboard-net", variable: "SPLASHBOARD_NET", environment: environment)
    }

    /// The first of `programCandidates` that can be run.
    public static func locateProgram(environment: [String: String]) throws -> String {
        let places = programCandidates(environment: environment)
        guard let found = places.first(where: { access($0, X_OK) == 0 }) else { throw NetworkLinkError.notFound(places) }
        return found
    }

    /// Sends one request; `completion` runs on another thread with the answer, or with why
    /// there is none (after `timeout` seconds at the latest). Never blocks on the other side.
    public func send(_ ask: NetworkRequest.Ask, timeout: TimeInterval, completion: @escaping Completion) {
        lock.lock()
        let id = nextID
        nextID += 1
        let current: Connection
        do {
            current = try connection ?? open()
        } catch {
            lock.unlock()
            completion(.failure(error as? NetworkLinkError ?? .cannotStart(error.explained)))
            return
        }
        connection = current
        lock.unlock()
        let line = NetworkWire.line(NetworkRequest(id: id, ask: ask))
        if let failure = current.send(line, id: id, deadline: clock() + timeout,
                                      timeout: Int(timeout), completion: completion) {
            drop(current)
            completion(.failure(failure))
        }
    }

    /// Ends the line (and the child, when there is one); requests in flight get an error.
    public func close() {
        lock.lock()
        let current = connection
        connection = nil
        lock.unlock()
        current?.end(.stopped("the kiosk is closing"))
    }

    private func drop(_ broken: Connection) {
        lock.lock()
        if connection === broken { connection = nil }
        lock.unlock()
    }

    private func open() throws -> Connection {
        switch endpoint {
        case .spawn(let executable, let arguments):
            return try Connection.spawn(executable, arguments, clock: clock, onEnd: { [weak self] in self?.drop($0) })
        case .socket(let path):
            return try Connection.connect(path, clock: clock, onEnd: { [weak self] in self?.drop($0) })
        }
    }
}
