/// How big a campaign's link is as a QR code (error correction level M, 8-bit mode, as the
/// detail screen makes it) and whether a screen can draw it. The layout gives the code its
/// size (`share` of the screen's shorter side, less where its place is narrower); the link's
/// length only chooses the size of the modules within it, and a code whose modules would be
/// under 2 pixels there is left out. The feed warns of a link too long for small screens by
/// the same rule the screen draws by.
public enum LinkCodeSize {
    /// Bytes a QR code of each version (1…40) holds at level M in 8-bit mode (ISO/IEC 18004).
    static let capacity = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
                           711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989,
                           2099, 2213, 2331]
    /// Modules of white around the code, each side.
    public static let quietZone = 4
    /// The shorter side of the smallest screen the kiosk is made for (800x480).
    public static let smallScreen = 480

    /// Modules per side, quiet zone included, of the code for `link`; nil when no QR code holds it.
    public static func modules(for link: String) -> Int? {
        let bytes = link.utf8.count
        guard let version = capacity.firstIndex(where: { $0 >= bytes }).map({ $0 + 1 }) else { return nil }
        return 17 + 4 * version + 2 * quietZone
    }

    /// The share of the shorter side, in percent, a QR code is given.
    public static let share = 30

    /// Pixels per module of a code `modules` wide within `side` pixels, or nil when it is too
    /// dense to draw there (under 2 pixels a module).
    public static func modulePixels(modules: Int, side: Int) -> Int? {
        let module = side / max(1, modules)
        return module >= 2 ? module : nil
    }

    /// Pixels per module of a code `modules` wide on a screen whose shorter side is `short`,
    /// at its full share, or nil when it is too dense to draw there.
    public static func modulePixels(modules: Int, short: Int) -> Int? {
        modulePixels(modules: modules, side: short * share / 100)
    }
}
