import Foundation

/// What `splashboard status` and `splashboard screenshot` ask the running kiosk, one JSON
/// line on its control socket (`{"command": "status"}`); the answer is a JSON line, and
/// for a screenshot the PNG's bytes after it.
public enum ControlRequest: String, Equatable, Sendable {
    case status
    case screenshot

    /// The longest request line accepted.
    public static let limit = 4096
    /// The name of the socket in the runtime folder.
    public static let socketName = "control.sock"

    /// The request a line asks for; throws with the reason for anything else.
    public static func parse(_ line: Data) throws -> ControlRequest {
        guard line.count <= limit else { throw ControlError.malformed("a request longer than \(limit) bytes") }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let command = object["command"] as? String
        else { throw ControlError.malformed("not a request: expected {\"command\": \"status\"} or \"screenshot\"") }
        guard let request = ControlRequest(rawValue: command) else {
            throw ControlError.malformed("unknown command \"\(TerminalText.printable(String(command.prefix(40))))\"")
        }
        return request
    }

    /// The line that asks for it.
    public var line: Data { Data("{\"command\":\"\(rawValue)\"}\n".utf8) }
}
