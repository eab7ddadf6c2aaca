import Foundation
import Testing
@testable import SplashCore

/// The wall-clock time `uptime` seconds after a `ManualClock` started.
func date(after uptime: Seconds) -> Date {
    ManualClock().now.date.addingTimeInterval(uptime)
}

extension KioskEffect {
    /// The placeholder poem said at start, before any poem was loaded.
    static let placeholderPoem = KioskEffect.emit(.poetry(source: .placeholder, origin: PoetryEntry.placeholder.origin))
}

/// What a start says and asks for with campaign `id` on the screen, once its show is
/// recorded: the placeholder poem, the screen on, the show, its splash and countdown, and
/// the picture a start would show next (`next`; nil: the same campaign's).
func splashStarted(_ id: Campaign.ID = "a", at date: Date, remaining: Int, countdown: Int = 3,
                   media: MediaKind = .picture, next: String? = nil) -> [KioskEffect] {
    [
        .placeholderPoem, .emit(.screen(on: true, reason: .start, until: nil)),
        .recordShow(campaignID: id, at: date, media: media, picture: "/img/\(id).jpg"),
        .notePictureUsed(path: "/img/\(id).jpg"),
        .emit(.splash(campaign: id, remaining: remaining, image: "/img/\(id).jpg", media: media)),
        .emit(.countdown(value: countdown)),
        .expectFirstPicture(next ?? "/img/\(id).jpg"),
    ]
}

/// The first splash frame on the screen: said, and the background work it lets begin.
let firstFrame: [KioskEffect] = [
    .emit(.frame(scene: .splash)), .emit(.firstFrame(ms: 100)), .serviceReady, .fetchFeed, .reloadPoetry,
]

/// Reduces `action` once (nothing answers its effects) and expects exactly `effects`, in
/// order: an effect the test does not name fails it, as a missing one does.
func reduce(_ state: inout KioskState, _ action: KioskAction, expecting effects: [KioskEffect],
            sourceLocation: SourceLocation = #_sourceLocation) {
    let got = Kiosk.reduce(&state, action)
    check(got, effects, action, sourceLocation)
}

/// Sends `action` as `send(_:_:presenting:)` does (the shell's answers included) and expects
/// exactly `effects`, in order.
func send(_ state: inout KioskState, _ action: KioskAction, presenting: Scene.Kind? = nil,
          expecting effects: [KioskEffect], sourceLocation: SourceLocation = #_sourceLocation) {
    let got = send(&state, action, presenting: presenting)
    check(got, effects, action, sourceLocation)
}

private func check(_ got: [KioskEffect], _ expected: [KioskEffect], _ action: KioskAction, _ at: SourceLocation) {
    guard got != expected else { return }
    let missing = expected.filter { !got.contains($0) }
    let unaccounted = got.filter { !expected.contains($0) }
    let message = "\(action) gave effects the test did not expect.\n unaccounted: \(unaccounted)\n missing: \(missing)\n"
        + " all, in order: \(EffectSource.list(got))"
    Issue.record(Comment(rawValue: message), sourceLocation: at)
}

/// Effects written as the Swift a test would write them: a failure shows what to expect.
enum EffectSource {
    static func list(_ effects: [KioskEffect]) -> String {
        "[" + effects.map { source($0) }.joined(separator: ", ") + "]"
    }

    static func source(_ value: Any) -> String {
        switch value {
        case let s as String: return String(reflecting: s)
        case let d as Date:
            let since = d.timeIntervalSince(ManualClock().now.date)
            return abs(since) < 1e7 ? "date(after: \(number(since)))" : "Date(timeIntervalSince1970: \(number(d.timeIntervalSince1970)))"
        case let i as Instant: return "Instant(uptime: \(number(i.uptime)), date: \(source(i.date)))"
        case let u as URL: return "URL(string: \(String(reflecting: u.absoluteString)))!"
        case let d as Double: return number(d)
        case let n as Int: return "\(n)"
        case let b as Bool: return "\(b)"
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { source($0.value) } ?? "nil"
        case .enum:
            guard let payload = mirror.children.first else { return ".\(value)" }
            let inner = Mirror(reflecting: payload.value)
            let args: String
            if inner.displayStyle == .tuple {
                args = inner.children.map { child in
                    let label = child.label ?? ""
                    return (label.hasPrefix(".") ? "" : label + ": ") + source(child.value)
                }.joined(separator: ", ")
            } else {
                args = source(payload.value)
            }
            return ".\(payload.label ?? "?")(\(args))"
        case .collection:
            return "[" + mirror.children.map { source($0.value) }.joined(separator: ", ") + "]"
        case .struct:
            return "\(type(of: value))(" + mirror.children.map { "\($0.label ?? "?"): \(source($0.value))" }
                .joined(separator: ", ") + ")"
        default:
            return "\(value)"
        }
    }

    private static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }
}

/// The expectation itself: an effect the test does not name, or one that does not come, fails.
@Suite struct ExpectedEffectsTests {
    @Test func anEffectNotNamedOrNotComingFailsTheTest() {
        var state = makeState()
        withKnownIssue("an effect the test did not name") {
            reduce(&state, .started(ManualClock().now), expecting: [.placeholderPoem])
        }
        withKnownIssue("an effect that did not come") {
            reduce(&state, .showRecorded(campaignID: "a"), expecting: [
                .notePictureUsed(path: "/img/a.jpg"),
                .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .picture)),
                .emit(.countdown(value: 3)), .fetchFeed,
            ])
        }
    }
}
