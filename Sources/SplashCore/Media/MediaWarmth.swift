/// Whether the shell keeps a media process ready for the next video show, as the state
/// derives it (`MediaWarmRules`).
public enum MediaWarmth: Equatable, Sendable {
    /// None kept: no clip to play next, the screen dark, or not started.
    case cold
    /// One kept ready.
    case kept
    /// One could not be started ahead of a show: none is asked for again in this run (each
    /// video show starts its own).
    case failed
}
