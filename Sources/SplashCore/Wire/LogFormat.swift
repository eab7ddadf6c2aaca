/// How events are written: readable lines on stderr, or JSON lines on stdout.
public enum LogFormat: String, Equatable, Sendable, CaseIterable {
    case text
    case json
}
