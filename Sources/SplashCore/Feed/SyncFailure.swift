/// What kind of thing made a sync fail, as a fleet's alerts tell them apart.
public enum SyncFailure: String, Codable, Equatable, Sendable, CaseIterable {
    /// The feed's host name did not resolve (DNS, or no network).
    case resolve
    /// The address refused the connection, or could not be reached.
    case connect
    /// No answer in time.
    case timeout
    /// The TLS handshake failed (a certificate).
    case tls
    /// A server answered with an error status.
    case status
    /// The address rule (`allow-private-addresses`) refused where it led.
    case addressRule = "address_rule"
    /// The document is not a valid feed.
    case invalidFeed = "invalid_feed"
    /// The device's own storage failed (a folder that cannot be written, a full disk).
    case storage
    /// Anything else.
    case other
}
