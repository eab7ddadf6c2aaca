import Foundation

/// The OTLP/HTTP logs receiver (otlp_receiver.py) on 127.0.0.1: parses every POST with
/// the official schema (opentelemetry-proto, installed by `make test` into .build/pydeps)
/// and keeps the log records. Stopped when released.
public final class OTLPReceiver {
    public let port: Int
    private let process: Process

    public init() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = root.appendingPathComponent(".build/pydeps").path
        (process, port) = try startPythonServer([here.appendingPathComponent("otlp_receiver.py").path],
                                                environment: environment)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Where the kiosk's `--report-url` points.
    public var url: String { "http://127.0.0.1:\(port)/v1/logs" }

    /// Makes POSTs fail with 503 (`down`) or succeed again.
    public func set(down: Bool) throws {
        _ = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/\(down ? "down" : "up")")!)
    }

    /// What it has received: POSTs taken, POSTs refused while down, bodies that did not
    /// parse, and every log record (attributes by key, plus `timeUnixNano` and `resource`).
    public func received() throws -> (posts: Int, refused: Int, invalid: [String], records: [[String: Any]]) {
        let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/records")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object["posts"] as? Int ?? 0, object["refused"] as? Int ?? 0, object["invalid"] as? [String] ?? [],
                object["records"] as? [[String: Any]] ?? [])
    }
}
