import FoundationEssentials

/// Why the metrics file could not be written.
enum MetricsFileError: LocalizedError, Equatable {
    /// The file (or its temporary twin) and the system's reason.
    case cannotWrite(String, String)

    var errorDescription: String? {
        switch self {
        case let .cannotWrite(path, reason): return "\(path): \(reason)"
        }
    }
}
