import Foundation
import SplashCore

/// Writes events: JSON lines on stdout, or readable lines on stderr. Each line is flushed
/// as it is written, so a crash loses no event already announced.
public final class EventLog {
    /// JSON lines on stdout, or readable lines on stderr.
    public let format: LogFormat

    /// A log that writes every event in `format`.
    public init(format: LogFormat) {
        self.format = format
    }

    /// Announces `event` at clock time `uptime`.
    public func emit(_ event: KioskEvent, at uptime: Seconds) {
        switch format {
        case .json:
            write(event.jsonLine(at: uptime) + "\n", to: stdout)
        case .text:
            write("splashboard: " + event.textLine() + "\n", to: stderr)
        }
    }

    private func write(_ line: String, to stream: UnsafeMutablePointer<FILE>) {
        fputs(line, stream)
        fflush(stream)
    }
}
