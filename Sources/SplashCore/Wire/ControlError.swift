import FoundationEssentials

/// Why a control request could not be answered.
public enum ControlError: LocalizedError, Equatable {
    case malformed(String)
    case notRunning(String)
    case failed(String)

    /// The reason, in words for the person who asked.
    public var errorDescription: String? {
        switch self {
        case .malformed(let why): return why
        case .notRunning(let socket): return "no kiosk is running here (nothing answers at \(socket))"
        case .failed(let why): return why
        }
    }
}
