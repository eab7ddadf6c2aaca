import Glibc
import FoundationEssentials
import SplashCore

/// Writes events: JSON lines on stdout, or readable lines on stderr. Each line is flushed
/// as it is written, so a crash loses no event already announced.
public final class EventLog {
    /// JSON lines on stdout, or readable lines on stderr.
    public let format: LogFormat

    /// Where the lines go; nil: stdout for JSON, stderr for text.
    private let stream: UnsafeMutablePointer<FILE>?

    /// A log that writes every event in `format`.
    public init(format: LogFormat) {
        self.format = format
        stream = nil
    }

    /// A log that writes every event in `format` to `stream` (a file of the caller's).
    public init(format: LogFormat, into stream: UnsafeMutablePointer<FILE>) {
        self.format = format
        self.stream = stream
    }

    /// Announces `event` at clock time `uptime`.
    public func emit(_ event: KioskEvent, at uptime: Seconds) {
        switch format {
        case .json:
            write(event.jsonLine(at: uptime) + "\n", to: stream ?? stdout)
        case .text:
            write("splashboard: " + event.textLine() + "\n", to: stream ?? stderr)
        }
    }

    private func write(_ line: String, to stream: UnsafeMutablePointer<FILE>) {
        fputs(line, stream)
        fflush(stream)
    }
}
