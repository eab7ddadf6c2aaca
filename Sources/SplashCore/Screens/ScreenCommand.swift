/// What `splashboard screen on|off|auto` asks of the running kiosk.
public enum ScreenCommand: String, Equatable, Sendable, CaseIterable {
    /// On until the schedule next changes (for good where there is no schedule).
    case on
    /// Off until the schedule next changes (for good where there is no schedule).
    case off
    /// Back to the schedule.
    case auto
}
