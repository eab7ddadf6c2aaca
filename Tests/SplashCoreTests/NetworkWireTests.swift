import Foundation
import Testing
@testable import SplashCore

/// The lines between the display and the network process: each request and answer one
/// case, with exactly what its kind carries, and the wire as it has always been.
@Suite struct NetworkWireTests {
    /// The line's object (its keys come in no set order).
    func object<T: Encodable>(_ value: T) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: NetworkWire.line(value)) as? NSDictionary)
    }

    @Test func requestsCarryWhatTheirKindNeedsAndNothingElse() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        for ask: NetworkRequest.Ask in [.sync(now: now), .sync(now: nil), .poem, .poemPicture(url: "https://p.test/a.png"),
                                        .poemPicture(url: nil), .report] {
            let request = NetworkRequest(id: 7, ask: ask)
            #expect(try NetworkWire.decode(NetworkRequest.self, from: NetworkWire.line(request).dropLast()) == request)
        }
        #expect(try object(NetworkRequest(id: 1, ask: .sync(now: now))) == ["id": 1, "kind": "sync", "now": 1_790_000_000_000])
        #expect(try object(NetworkRequest(id: 2, ask: .poem)) == ["id": 2, "kind": "poem"])
        #expect(try object(NetworkRequest(id: 3, ask: .poemPicture(url: "https://p.test/a.png")))
                == ["id": 3, "kind": "poem_picture", "url": "https://p.test/a.png"])
        // A picture request without its picture is still one (answered that only the
        // configured picture is fetched), as it always was.
        #expect(try NetworkWire.decode(NetworkRequest.self, from: Data(#"{"id": 3, "kind": "poem_picture"}"#.utf8)).ask
                == .poemPicture(url: nil))
        #expect(try NetworkWire.decode(NetworkRequest.self, from: Data(#"{"id": 4, "kind": "sync"}"#.utf8)).ask == .sync(now: nil))
    }

    @Test func anAnswerIsOneOutcomeReadFromTheOneFieldItCarries() throws {
        let report = SyncReport(status: .ok, campaigns: 2)
        let outcomes: [NetworkAnswer.Outcome] = [
            .synced(report), .poem(Poem(content: "春眠不觉晓", origin: "春晓", author: "孟浩然")), .picture(path: "/cache/p"), .taken,
            .failed("no poetry-url is set"), .abandoned,
        ]
        for outcome in outcomes {
            let answer = NetworkAnswer(id: 9, outcome)
            #expect(try NetworkWire.decode(NetworkAnswer.self, from: NetworkWire.line(answer).dropLast()) == answer)
        }
        #expect(try object(NetworkAnswer(id: 5, .failed("busy"))) == ["id": 5, "error": "busy"])
        #expect(try object(NetworkAnswer(id: 6, .picture(path: "/cache/p"))) == ["id": 6, "path": "/cache/p"])
        // Lines as they have always been written.
        #expect(try object(NetworkAnswer(id: 7, .abandoned)) == ["id": 7, "error": "abandoned"])
        #expect(try NetworkWire.decode(NetworkAnswer.self, from: Data(#"{"id": 7, "error": "abandoned"}"#.utf8)).outcome
                == .abandoned)
        #expect(NetworkAnswer.Outcome.abandoned.failure == "abandoned" && NetworkAnswer.Outcome.taken.failure == nil)
        // Taken is said, not inferred: an answer that names nothing, or a field of a newer kind, is refused.
        #expect(try object(NetworkAnswer(id: 6, .taken)) == ["id": 6, "taken": true])
        #expect(try NetworkWire.decode(NetworkAnswer.self, from: Data(#"{"id": 6, "taken": true}"#.utf8)).outcome == .taken)
        #expect(throws: (any Error).self) { try NetworkWire.decode(NetworkAnswer.self, from: Data(#"{"id": 6}"#.utf8)) }
        #expect(throws: (any Error).self) { try NetworkWire.decode(NetworkAnswer.self, from: Data(#"{"id": 6, "queued": 1}"#.utf8)) }
        #expect(try NetworkWire.decode(NetworkAnswer.self, from: Data(#"{"id": 0, "error": "not a request"}"#.utf8))
                == NetworkAnswer(id: 0, .failed("not a request")))
    }
}
