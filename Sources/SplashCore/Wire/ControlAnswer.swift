import FoundationEssentials

/// The running kiosk's answer on its control socket, the same type at both ends: one JSON
/// line — `{"ok": true, "answer": {…}}`, with `"bytes": N` when a screenshot's PNG follows
/// it, or `{"ok": false, "error": "…"}` — read back into the case the request asked for.
public enum ControlAnswer: Equatable, Sendable {
    /// `splashboard status`.
    case status(KioskStatus)
    /// `splashboard screen on|off|auto`: the screen now, why, and in words.
    case screen(on: Bool, reason: ScreenReason, summary: String)
    /// `splashboard screenshot`: the frame's size; its PNG follows the line.
    case screenshot(Size)

    /// The answer's own object.
    var object: JSONValue {
        switch self {
        case .status(let status): return status.json
        case let .screen(on, reason, summary):
            return .object([("state", .string(on ? "on" : "off")), ("reason", .string(reason.rawValue)), ("summary", .string(summary))])
        case .screenshot(let size): return .object([("width", .int(size.width)), ("height", .int(size.height))])
        }
    }

    /// The line that says it, announcing `bytes` that follow (a screenshot's PNG).
    public func line(bytes: Int?) -> Data {
        var fields: [(String, JSONValue)] = [("ok", .bool(true)), ("answer", object)]
        if let bytes { fields.append(("bytes", .int(bytes))) }
        return Data((JSONValue.object(fields).encoded() + "\n").utf8)
    }

    /// The line that says a request could not be answered, and why.
    public static func failureLine(_ error: ControlError) -> Data {
        Data((JSONValue.object([("ok", .bool(false)), ("error", .string(error.explained))]).encoded() + "\n").utf8)
    }

    /// The answer to `request` a line says, and how many bytes follow it; throws
    /// `ControlError.failed` with the kiosk's words for a refusal, and for a line that is
    /// not the answer to that request.
    public static func parse(_ line: Data, answering request: ControlRequest) throws -> (answer: ControlAnswer, bytes: Int) {
        guard let header = try? JSONReader.value(line) as? [String: Any] else {
            throw ControlError.failed("the kiosk's answer is not one")
        }
        guard header["ok"] as? Bool == true else {
            throw ControlError.failed("the kiosk says: \(header["error"] as? String ?? "no")")
        }
        let bytes = JSONReader.number(header["bytes"]).map { Int($0) } ?? 0
        guard let object = header["answer"] as? [String: Any] else { throw ControlError.failed("the kiosk's answer is empty") }
        func whole(_ key: String) -> Int? { JSONReader.number(object[key]).map { Int($0) } }
        switch request {
        case .status:
            return (.status(try KioskStatus(answer: object)), bytes)
        case .screen:
            guard let state = object["state"] as? String, let reason = (object["reason"] as? String).flatMap(ScreenReason.init(rawValue:)),
                  let summary = object["summary"] as? String else { throw ControlError.failed("the kiosk's answer names no screen state") }
            return (.screen(on: state == "on", reason: reason, summary: summary), bytes)
        case .screenshot:
            guard let width = whole("width"), let height = whole("height"), bytes > 0 else {
                throw ControlError.failed("the kiosk's answer is not a screenshot")
            }
            return (.screenshot(Size(width: width, height: height)), bytes)
        }
    }
}

extension KioskStatus {
    /// A status read back from the object `json` makes; throws for one missing what every
    /// status has.
    public init(answer o: [String: Any]) throws {
        func text(_ key: String) -> String? { o[key] as? String }
        func list(_ key: String) -> [String] { (o[key] as? [Any])?.compactMap { $0 as? String } ?? [] }
        func date(_ key: String) -> Date? { text(key).flatMap(ISO8601.date(from:)) }
        guard let version = text("version"), let scene = text("scene"), let feed = text("feed"), let screen = text("screen"),
              let unsent = JSONReader.number(o["report_unsent"]), let uptime = JSONReader.number(o["uptime_seconds"]) else {
            throw ControlError.failed("the kiosk's status is missing what every status has (version, scene, feed, screen)")
        }
        self.init(version: version, device: text("device"), scene: scene, campaign: text("campaign"),
                  countdown: JSONReader.number(o["countdown"]).map { Int($0) }, feed: feed, lastSync: date("last_sync"),
                  lastChange: date("last_change"), lastError: text("last_error"), warnings: list("feed_warnings"),
                  reportUnsent: Int(unsent), uptimeSeconds: uptime, screen: screen)
        problems = list("problems")
        pictureProblems = list("picture_problems")
        groups = list("groups")
        otherScreens = list("other_screens")
        nextSync = date("next_sync")
        screenOn = o["screen_on"] as? Bool ?? true
        screenReason = text("screen_reason").flatMap(ScreenReason.init(rawValue:)) ?? .start
        screenUntil = date("screen_until")
        screenSchedule = text("screen_schedule").flatMap(ScreenPower.Source.init(rawValue:)) ?? .none
        screenSummary = text("screen_power") ?? "screen on"
        screenScheduleGroup = text("screen_schedule_group")
        screenScheduleInForce = text("screen_schedule_in_force") ?? ""
        runOut = list("runs_out")
        dataDir = text("data_dir")
    }
}
