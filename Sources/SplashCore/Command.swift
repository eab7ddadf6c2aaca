/// What one invocation of `splashboard` does.
public enum Command: Equatable, Sendable {
    /// Run the kiosk (the default).
    case run
    /// Print usage.
    case help
    /// Print the version.
    case version
}
