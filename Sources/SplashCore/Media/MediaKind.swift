/// What a splash shows: a picture, or a clip under the pill (`splash` event's `media`,
/// proof of play's `media`).
public enum MediaKind: String, Equatable, Sendable, Codable, CaseIterable {
    case picture
    case video
}
