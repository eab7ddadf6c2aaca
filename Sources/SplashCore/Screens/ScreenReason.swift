/// Why the screen is on or off (the `screen` event's `reason`).
public enum ScreenReason: String, Equatable, Sendable {
    /// The schedule (`screen-hours`, `screen-days`, `screen-off-dates`, or the feed's `screen`).
    case schedule
    /// `splashboard screen on|off`.
    case command
    /// A touch (or a key) on a dark screen, with `wake-on-touch` set.
    case touch
    /// How the kiosk started.
    case start
}
