/// Text that reads as a web address written without its scheme ("cdn.example.com/feed.json",
/// "127.0.0.1:8080/feed.json"), told apart from a relative path ("clips/a.mp4",
/// "v1.2/a.png", "photos.2026/a.jpg", "a.jpg").
public enum SchemelessAddress {
    /// Endings of files, which a server's name does not end in.
    static let fileEndings: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "svg", "bmp", "avif", "heic", "mp4", "m4v",
                                           "mov", "webm", "mkv", "json", "html", "htm", "txt", "zip", "conf"]

    /// Whether `text` starts with a server's name or IPv4 address (a port may follow), then
    /// a slash, and has no scheme.
    public static func startsWithHost(_ text: String) -> Bool {
        guard !text.contains("://"), !text.hasPrefix("."), !text.hasPrefix("/"), !text.hasPrefix("~"),
              let slash = text.firstIndex(of: "/") else { return false }
        var host = text[..<slash]
        var port = false
        if let colon = host.firstIndex(of: ":") {
            let digits = host[host.index(after: colon)...]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            host = host[..<colon]
            port = true
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ label in
            !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }) else { return false }
        // "localhost:8080/feed.json": a name with a port is a server's.
        if port { return true }
        guard labels.count >= 2 else { return false }
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) { return true }
        // The last label of a name is letters ("com", "de"), and not a file's ending.
        let last = labels[labels.count - 1].lowercased()
        return last.count >= 2 && last.allSatisfy(\.isLetter) && !fileEndings.contains(last)
    }

    /// The part of `text` before its first slash: the server's name, if it is one.
    public static func host(of text: String) -> Substring {
        text.prefix { $0 != "/" }
    }
}
