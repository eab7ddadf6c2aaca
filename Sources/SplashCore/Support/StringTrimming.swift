/// Blanks and chosen characters taken off both ends of a text: what Foundation's
/// `trimmingCharacters(in:)` did, for the few sets the product trims.
public extension StringProtocol {
    /// Without spaces, tabs and line breaks at either end.
    var trimmed: String { trimming { $0.isWhitespace } }

    /// Without spaces and tabs at either end (line breaks kept).
    var trimmedSpaces: String { trimming { $0.isWhitespace && !$0.isNewline } }

    /// Without any of `characters` at either end.
    func trimming(_ characters: String) -> String { trimming { characters.contains($0) } }

    /// Without the characters `drop` accepts at either end.
    func trimming(where drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The range of the last occurrence of `other`, or nil.
    func lastRange(of other: some StringProtocol) -> Range<Index>? {
        guard !other.isEmpty else { return nil }
        var index = endIndex
        while index > startIndex {
            index = self.index(before: index)
            if self[index...].hasPrefix(other) {
                return index..<self.index(index, offsetBy: other.count)
            }
        }
        return nil
    }
}
