import Foundation

/// The network process's answer to one `NetworkRequest`.
public struct NetworkAnswer: Codable, Equatable, Sendable {
    /// The id of the request answered.
    public var id: Int
    /// A sync's outcome.
    public var report: SyncReport?
    /// The poem fetched.
    public var poem: Poem?
    /// The cached poem picture.
    public var path: String?
    /// Why the request failed (a poem or picture that could not be fetched).
    public var error: String?

    /// The answer to request `id`, with what its kind of request is answered with.
    public init(id: Int, report: SyncReport? = nil, poem: Poem? = nil, path: String? = nil, error: String? = nil) {
        self.id = id
        self.report = report
        self.poem = poem
        self.path = path
        self.error = error
    }
}
