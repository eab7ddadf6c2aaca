import Foundation

/// What the display process asks of the network process, one JSON object per line on
/// their Unix socket. Each request carries an id its answer repeats.
public struct NetworkRequest: Codable, Equatable, Sendable {
    /// What a request asks for.
    public enum Kind: String, Codable, Sendable {
        /// Sync the feed at `now` (the kiosk's clock); answered with `report`.
        case sync
        /// Fetch a poem; answered with `poem`.
        case poem
        /// Fetch the poem picture at `url` into the image cache; answered with `path`.
        case poemPicture = "poem_picture"
        /// Shows have ended: send what the ledger has not reported yet (`report-url`).
        /// Answered at once; the sending goes on in the network process.
        case report
    }

    /// Chosen by the display process; the answer repeats it.
    public var id: Int
    /// What is asked.
    public var kind: Kind
    /// The kiosk's clock, for `sync`.
    public var now: Date?
    /// The picture to fetch, for `poemPicture`.
    public var url: String?

    /// A request; `now` and `url` are given only for the kinds that use them.
    public init(id: Int, kind: Kind, now: Date? = nil, url: String? = nil) {
        self.id = id
        self.kind = kind
        self.now = now
        self.url = url
    }
}
