import FoundationEssentials

/// What `splashboard status`, `splashboard screenshot` and `splashboard screen` ask the
/// running kiosk, one JSON line on its control socket (`{"command": "status"}`,
/// `{"command": "screen", "state": "off"}`); the answer is a JSON line, and for a
/// screenshot the PNG's bytes after it.
public enum ControlRequest: Equatable, Sendable {
    case status
    case screenshot
    /// The screen on or off until the schedule's next change, or back to the schedule.
    case screen(ScreenCommand)

    /// The longest request line accepted.
    public static let limit = 4096
    /// The name of the socket in the runtime folder.
    public static let socketName = "control.sock"

    /// The request a line asks for; throws with the reason for anything else.
    public static func parse(_ line: Data) throws -> ControlRequest {
        guard line.count <= limit else { throw ControlError.malformed("a request longer than \(limit) bytes") }
        guard let object = try? JSONReader.value(line) as? [String: Any],
              let command = object["command"] as? String
        else { throw ControlError.malformed("not a request: expected {\"command\": \"status\"}, \"screenshot\" or \"screen\"") }
        switch command {
        case "status": return .status
        case "screenshot": return .screenshot
        case "screen":
            guard let state = (object["state"] as? String).flatMap(ScreenCommand.init(rawValue:)) else {
                throw ControlError.malformed("screen needs a \"state\" of on, off or auto")
            }
            return .screen(state)
        default:
            throw ControlError.malformed("unknown command \"\(TerminalText.printable(String(command.prefix(40))))\"")
        }
    }

    /// The line that asks for it.
    public var line: Data {
        switch self {
        case .status: return Data("{\"command\":\"status\"}\n".utf8)
        case .screenshot: return Data("{\"command\":\"screenshot\"}\n".utf8)
        case .screen(let state): return Data("{\"command\":\"screen\",\"state\":\"\(state.rawValue)\"}\n".utf8)
        }
    }
}
