import Foundation

/// libFuzzer entry: the config file and script parsers, and option parsing of what the
/// config file says, on arbitrary text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ConfigFile.parse(text, path: "fuzz.conf")
    _ = try? ScriptStep.parse(text, path: "fuzz.script")
    if let parsed = try? OptionParser.parse(["--config", "/fuzz.conf"], environment: ["HOME": "/home/k"],
                                             currentDirectory: "/", readFile: { _ in text }) {
        let o = parsed.options
        precondition((1...30).contains(o.countdown), "countdown out of range")
        precondition(o.attractAfter >= 0 && o.syncInterval >= 10 && o.poetryRefresh >= 10, "interval out of range")
    }
    return 0
}
