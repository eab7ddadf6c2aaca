/// Which clock drives the kiosk.
public enum ClockMode: String, Equatable, Sendable, CaseIterable {
    /// Real time: the loop sleeps until the next deadline.
    case real
    /// Time jumps to the next deadline instead of sleeping (tests, CI).
    case virtual
}
