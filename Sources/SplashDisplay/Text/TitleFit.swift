import SplashCore

/// Whether a campaign's title is cut on its detail screen at a given size: what `feed check`
/// warns of before the screens show it. The title is laid out as the detail screen lays it
/// out (`DetailPlacement`) beside a square picture — which, like any picture, gives up its
/// room before a title is cut — and beside a four-line poem.
public enum TitleFit {
    /// A screen on which the title is cut, and the lines it shows there.
    public struct Cut: Equatable, Sendable {
        public var screen: Size
        public var shown: [String]
    }

    /// The screens of `sizes` on which the detail screen cuts `title`, largest first.
    public static func cuts(title: String, detail: String?, link: String?, label: String?, sizes: [Size],
                            fonts: FontBook) -> [Cut] {
        let poem = PoetryEntry(origin: "静夜思", author: "李白", lines: ["床前明月光，", "疑是地上霜。", "举头望明月，", "低头思故乡。"],
                               source: .bundled)
        let scene = DetailScene(campaignID: "check", title: title, text: detail ?? "", imagePath: "/square.png", poetry: poem,
                                spinnerPhase: nil, linkURL: link, linkLabel: label)
        return sizes.sorted { $0.width * $0.height > $1.width * $1.height }.compactMap { size in
            let placed = DetailPlacement(scene, screen: size, pictureSize: Size(width: 1000, height: 1000), fonts: fonts)
            guard let shown = placed.title, shown.cut else { return nil }
            return Cut(screen: size, shown: shown.lines)
        }
    }
}
