/// Where a kiosk's run is: before `started`, started with its first sync and poem waiting
/// for the first frame (they would only compete with it), or running with them asked for —
/// at the first frame, or at the start when it started dark.
public enum Lifecycle: Equatable, Sendable {
    /// No `started` yet.
    case notStarted
    /// Started; the first sync and poem wait for the first frame.
    case started
    /// The first sync and poem have been asked for.
    case running

    /// Whether `started` has been seen.
    public var hasStarted: Bool { self != .notStarted }
}
