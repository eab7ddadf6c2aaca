/// A line of text as coverage: 8 bits a pixel, `stride` bytes a row (a multiple of 4, as
/// pixman reads it), drawn in any colour.
struct TextMask {
    var width: Int
    var height: Int
    var stride: Int
    var coverage: [UInt8]
    /// The blank a closing Chinese mark leaves at the line's end, inside `width`: the line is
    /// set (measured, placed) that much narrower than it is drawn.
    var trailingBlank = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = (width + 3) & ~3
        coverage = [UInt8](repeating: 0, count: stride * height)
    }

    /// The coverage at (`x`, `y`).
    func at(_ x: Int, _ y: Int) -> UInt8 { coverage[y * stride + x] }

    /// Adds `glyph` with its pen at `x` and the baseline at `baseline`, clipped to the mask.
    mutating func add(_ glyph: TypeFace.Glyph, x: Int, baseline: Int) {
        let left = x + glyph.left
        let top = baseline - glyph.top
        for row in 0..<glyph.rows {
            let y = top + row
            guard y >= 0, y < height else { continue }
            for column in 0..<glyph.width {
                let dx = left + column
                guard dx >= 0, dx < width else { continue }
                let value = glyph.coverage[row * glyph.width + column]
                if value > coverage[y * stride + dx] { coverage[y * stride + dx] = value }
            }
        }
    }
}
