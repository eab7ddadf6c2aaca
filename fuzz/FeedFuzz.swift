import Foundation

/// libFuzzer entry: the campaign feed decoder and the poem decoder on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    if let document = try? FeedDocument.decode(bytes, from: URL(string: "https://cdn.example.test/kiosk/feed.json")!, deviceZone: .gmt) {
        for campaign in document.campaigns {
            precondition(campaign.showTime >= 0, "negative showTime accepted")
            let scheme = campaign.picURL.scheme?.lowercased() ?? ""
            precondition(scheme == "http" || scheme == "https", "a network feed named a local file")
        }
    }
    _ = try? Poem.decode(bytes)
    return 0
}
