import FoundationEssentials

/// Why a request to the network process got no answer.
public enum NetworkLinkError: LocalizedError, Equatable {
    /// The network process's program is not installed beside this one.
    case notFound([String])
    /// It could not be started.
    case cannotStart(String)
    /// Nothing listens on the network process's socket.
    case unreachable(socket: String, reason: String)
    /// The connection ended before the answer came (the process stopped or was restarted).
    case stopped(String)
    /// No answer within the time a request may take; the network process was restarted.
    case timedOut(seconds: Int)
    /// The network process answered that the request failed, and why.
    case failed(String)

    /// What went wrong, in words for the operator, with what to do where that is known.
    public var errorDescription: String? {
        switch self {
        case .notFound(let places):
            return "cannot find the network process (splashboard-net) in \(places.joined(separator: ", ")); "
                + "set SPLASHBOARD_NET to its path"
        case .cannotStart(let reason):
            return "cannot start the network process: \(reason)"
        case .unreachable(let socket, let reason):
            return "the network process is not reachable at \(socket): \(reason) (is splashboard-net.socket running?)"
        case .stopped(let reason):
            return "the network process stopped before answering (\(reason))"
        case .timedOut(let seconds):
            return "the network process gave no answer in \(seconds) s; it was restarted"
        case .failed(let reason):
            return reason
        }
    }
}
