/// Where the poetry panel's entry came from.
public enum PoetrySource: String, Equatable, Sendable {
    case placeholder
    case timeline
    case cache
    case bundled
}
