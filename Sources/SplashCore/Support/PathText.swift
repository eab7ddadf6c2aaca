public extension String {
    /// The folder part of a path, as Foundation's `NSString.deletingLastPathComponent` gave
    /// it: `/a/b` → `/a`, `/a` → `/`, `a` → ``.
    var deletingLastPathComponent: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var folder = path[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }
}
