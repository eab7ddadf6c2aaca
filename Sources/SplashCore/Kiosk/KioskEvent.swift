import FoundationEssentials

/// Something that happened, announced on the log (the product's event table).
public enum KioskEvent: Equatable, Sendable {
    /// `outputs`: on the console, every screen drawn on (device, connector, mode), the
    /// first of them also as `output`.
    case started(version: String, driver: String, renderer: String, size: Size, outputs: [String] = [])
    case firstFrame(ms: Int)
    /// A frame was presented (for latency measurements): which screen.
    case frame(scene: Scene.Kind)
    /// `campaign` nil is the fallback image; `remaining` is after this show; `media`: a
    /// picture, or a clip under the pill (its picture the poster).
    case splash(campaign: Campaign.ID?, remaining: Int?, image: String, media: MediaKind = .picture)
    /// A video splash's first frame is on the screen, `ms` after its show started (the
    /// poster until then); `decoder` did it.
    case videoStarted(ms: Int, decoder: String?)
    /// A video splash ended: the frames shown and those dropped because they came late.
    case videoEnded(presented: Int, dropped: Int)
    case countdown(value: Int)
    case skip(by: SkipReason)
    case detail(campaign: Campaign.ID?)
    case poetry(source: PoetrySource, origin: String)
    case sync(status: SyncStatus, campaigns: Int, error: String?, ms: Double? = nil, reason: SyncFailure? = nil)
    /// On the console, the screens drawn on changed: each one now drawn on (device,
    /// connector, mode), the first also as `output`; none (`output` null) when no screen is
    /// connected any more.
    case output([String])
    /// On the console, the kiosk's virtual terminal was switched away from (`shown`
    /// false: its screens given up, the other terminal's console shown) or back to.
    case terminal(shown: Bool)
    /// The operator view opened or closed.
    case operatorView(open: Bool)
    /// The operator view shows page `page` of `of` (from 1), with these campaigns' cards.
    case operatorPage(Int, of: Int, campaigns: [Campaign.ID])
    /// A campaign's page opened in the operator view, with its last shows (when, how ended).
    case operatorCampaign(Campaign.ID, shows: [ShowRecord])
    /// The wall clock can be trusted now (NTP has set it): campaigns bound to dates and
    /// hours may be shown.
    case clockTrusted
    /// The screen was lit or darkened (`on`), why, and until when as far as is known.
    case screen(on: Bool, reason: ScreenReason, until: Date?)
    /// A campaign's detail screen on a screen of `size` had to give up something to fit (a
    /// cut title or text, a smaller picture, a shorter poem), a phrase each: said once per
    /// campaign and screen size, so that a feed's author sees it (`preview` prints it).
    case layout(campaign: Campaign.ID?, size: Size, gaveUp: [String])
    case warning(message: String)
    case error(message: String)

    /// The event's name, the `event` field of its JSON line.
    public var name: String {
        switch self {
        case .started: return "started"
        case .firstFrame: return "first_frame"
        case .frame: return "frame"
        case .splash: return "splash"
        case .videoStarted: return "video"
        case .videoEnded: return "video_ended"
        case .countdown: return "countdown"
        case .skip: return "skip"
        case .detail: return "detail"
        case .poetry: return "poetry"
        case .sync: return "sync"
        case .output: return "output"
        case .terminal: return "terminal"
        case .operatorView: return "operator"
        case .clockTrusted: return "clock_trusted"
        case .screen: return "screen"
        case .operatorPage: return "operator_page"
        case .operatorCampaign: return "operator_campaign"
        case .layout: return "layout"
        case .warning: return "warning"
        case .error: return "error"
        }
    }

    /// The event's fields, in the order they are written.
    public var fields: [(String, JSONValue)] {
        switch self {
        case let .started(version, driver, renderer, size, outputs):
            return [("version", .string(version)), ("driver", .string(driver)),
                    ("renderer", .string(renderer)), ("size", .string(size.description))]
                + (outputs.first.map { [("output", JSONValue.string($0)),
                                        ("outputs", JSONValue.array(outputs.map(JSONValue.string)))] } ?? [])
        case .firstFrame(let ms):
            return [("ms", .int(ms))]
        case let .splash(campaign, remaining, image, media):
            return [("campaign", campaign.map { .string($0.rawValue) } ?? .null),
                    ("remaining", remaining.map(JSONValue.int) ?? .null), ("image", .string(image)),
                    ("media", .string(media.rawValue))]
        case let .videoStarted(ms, decoder):
            return [("ms", .int(ms)), ("decoder", decoder.map(JSONValue.string) ?? .null)]
        case let .videoEnded(presented, dropped):
            return [("presented", .int(presented)), ("dropped", .int(dropped))]
        case .frame(let scene):
            return [("scene", .string(scene.rawValue))]
        case .countdown(let value):
            return [("value", .int(value))]
        case .skip(let by):
            return [("by", .string(by.rawValue))]
        case .detail(let campaign):
            return [("campaign", campaign.map { .string($0.rawValue) } ?? .null)]
        case let .poetry(source, origin):
            return [("source", .string(source.rawValue)), ("origin", .string(origin))]
        case let .sync(status, campaigns, error, ms, reason):
            return [("status", .string(status.rawValue)), ("campaigns", .int(campaigns)),
                    ("error", error.map(JSONValue.string) ?? .null)]
                + (reason.map { [("reason", JSONValue.string($0.rawValue))] } ?? [])
                + (ms.map { [("ms", JSONValue.double(($0 * 10).rounded() / 10))] } ?? [])
        case .output(let outputs):
            return [("output", outputs.first.map(JSONValue.string) ?? .null),
                    ("outputs", .array(outputs.map(JSONValue.string)))]
        case .terminal(let shown):
            return [("shown", .bool(shown))]
        case .operatorView(let open):
            return [("open", .bool(open))]
        case .clockTrusted:
            return []
        case let .screen(on, reason, until):
            return [("state", .string(on ? "on" : "off")), ("reason", .string(reason.rawValue)),
                    ("until", until.map { .string(ISO8601.string(from: $0)) } ?? .null)]
        case let .operatorPage(page, of, campaigns):
            return [("page", .int(page)), ("of", .int(of)), ("campaigns", .array(campaigns.map { .string($0.rawValue) }))]
        case let .operatorCampaign(id, shows):
            return [("campaign", .string(id.rawValue)),
                    ("shows", .array(shows.map { .object([("at", .string(ISO8601.string(from: $0.shownAt))),
                                                          ("ended_by", .string($0.endedBy.rawValue))]) }))]
        case let .layout(campaign, size, gaveUp):
            return [("campaign", campaign.map { .string($0.rawValue) } ?? .null), ("size", .string(size.description)),
                    ("gave_up", .array(gaveUp.map(JSONValue.string)))]
        case .warning(let message), .error(let message):
            return [("message", .string(message))]
        }
    }

    /// One JSON object on one line: `{"event":"skip","t":1.234,"by":"tap"}`.
    /// `t` is the run clock's seconds since start.
    public func jsonLine(at uptime: Seconds) -> String {
        let t = (uptime * 1000).rounded() / 1000
        return JSONValue.object([("event", .string(name)), ("t", .double(t))] + fields).encoded()
    }

    /// A readable line for the text log; what came from a feed is shown escaped.
    public func textLine() -> String {
        TerminalText.printable(name + " " + fields.map { "\($0.0)=\($0.1.encoded())" }.joined(separator: " "))
    }
}
