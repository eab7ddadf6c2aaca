/// The attract loop's look ahead, on the detail screen, at the splash it shows next: its
/// picture starts decoding a little before the splash (`Kiosk.decodeAheadSeconds`), once.
public enum SplashLookAhead: Equatable, Sendable {
    /// Not looked at yet (since the detail screen came, or since the last input).
    case notYet
    /// The next splash's picture is decoding ahead (the display keeps it with the detail
    /// screen's pictures).
    case decoding(String)
    /// Looked at, with nothing to decode (no campaign eligible and `fallback = skip`): the
    /// loop waits for the splash's own moment.
    case nothingToDecode

    /// The picture decoding ahead, if any.
    public var picture: String? {
        if case .decoding(let path) = self { return path }
        return nil
    }
}
