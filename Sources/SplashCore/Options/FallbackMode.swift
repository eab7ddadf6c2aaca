/// What the splash does when no campaign is eligible.
public enum FallbackMode: String, Equatable, Sendable, CaseIterable {
    /// Show the bundled default splash image with the same countdown.
    case image
    /// Go straight to the detail screen.
    case skip
}
