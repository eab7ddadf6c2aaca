/// How often a kiosk started before its screen looks for one (`--wait-for-display`): every
/// quarter second for the first five seconds — at boot the GPU's driver often comes a
/// moment after the service starts — then after 1 s, 2 s and every 4 s, so that a screen
/// plugged in later shows the kiosk soon and systemd's watchdog is fed meanwhile.
public enum DisplayWait {
    /// Looks at the quick pace before the backoff starts.
    public static let quickLooks = 20
    /// The wait between quick looks.
    public static let quickDelay: Seconds = 0.25
    /// The backoff after them.
    public static let backoff = Backoff(first: 1, cap: 4)

    /// The wait after `looks` looks that found no display.
    public static func delay(afterLooks looks: Int) -> Seconds {
        looks <= quickLooks ? quickDelay : backoff.delay(failures: looks - quickLooks)
    }
}
