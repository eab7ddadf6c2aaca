import CFontconfig
import Foundation
import SplashServices

/// A font file and the face inside it (for .ttc collections).
public struct FontFace: Equatable {
    public var path: String
    public var index: Int

    public init(path: String, index: Int = 0) {
        self.path = path
        self.index = index
    }
}
