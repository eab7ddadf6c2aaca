import CHarfBuzz
import SplashCore

/// One face of a font file, opened once by FreeType, with what each size needs: FreeType's
/// size object, HarfBuzz's font for shaping, the line metrics and the glyphs drawn so far.
/// Every size shares the face's outlines and tables (one face per file and index, however
/// many sizes the screens use).
final class TypeFace {
    let face: FT_Face
    private var sizes: [Int: Sized] = [:]

    init(_ face: FT_Face) {
        self.face = face
    }

    deinit {
        sizes.removeAll()
        FT_Done_Face(face)
    }

    /// Whether the face has a glyph for the character `scalar`.
    func hasGlyph(_ scalar: UInt32) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar)) != 0
    }

    /// The face at `pixels` size, made active for FreeType (its glyphs are loaded at that
    /// size until another is asked for); nil when FreeType cannot set it.
    func sized(_ pixels: Int) -> Sized? {
        if let known = sizes[pixels] {
            FT_Activate_Size(known.size)
            return known
        }
        var size: FT_Size?
        guard FT_New_Size(face, &size) == 0, let size else { return nil }
        FT_Activate_Size(size)
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels)) == 0, let font = hb_ft_font_create_referenced(face) else {
            FT_Done_Size(size)
            return nil
        }
        hb_ft_font_set_load_flags(font, splash_ft_load_light())
        let made = Sized(face: face, size: size, font: font)
        sizes[pixels] = made
        return made
    }

    /// A glyph's coverage, as FreeType draws it, and where it goes from the pen.
    struct Glyph {
        /// From the pen to the bitmap's left edge, and from the baseline up to its top.
        var left: Int
        var top: Int
        var width: Int
        var rows: Int
        /// 8-bit coverage, `width` bytes a row.
        var coverage: [UInt8]
    }

    /// A glyph placed on a line by the shaper.
    struct Placed {
        var glyph: Glyph
        /// Pixels from the run's left edge to the pen, and up from the baseline.
        var x: Int
        var y: Int
    }

    /// The face at one size.
    final class Sized {
        let face: FT_Face
        let size: FT_Size
        let font: OpaquePointer
        /// Pixels from the top of a line to the baseline, from the baseline down to the
        /// bottom (positive), the line's height (the two together) and the distance from
        /// one baseline to the next, as SDL_ttf measured them.
        let ascent: Int
        let descent: Int
        let height: Int
        let lineSkip: Int
        private var glyphs: [UInt32: Glyph] = [:]

        init(face: FT_Face, size: FT_Size, font: OpaquePointer) {
            self.face = face
            self.size = size
            self.font = font
            let scale = size.pointee.metrics.y_scale
            func ceil(_ units: FT_Short) -> Int {
                let scaled = Int(FT_MulFix(FT_Long(units), scale))
                return (scaled + 63) >> 6
            }
            ascent = ceil(face.pointee.ascender)
            descent = -ceil(face.pointee.descender)
            height = ceil(face.pointee.ascender - face.pointee.descender)
            lineSkip = ceil(face.pointee.height)
        }

        deinit {
            // The size first, while the face is surely there (HarfBuzz's font holds a
            // reference to it, let go of next).
            FT_Done_Size(size)
            hb_font_destroy(font)
        }

        /// `text` shaped: its glyphs in the order they are drawn (left to right, whatever the
        /// script's direction), the pen's advance over them, in pixels, and the blank the last
        /// glyph leaves after its ink when it is a closing Chinese mark (`PunctuationSqueeze`).
        /// Chinese marks side by side are squeezed: the first gives up the blank between the
        /// two inks, down to an eighth of an em and by half its advance at most.
        func shape(_ text: String, script: String?) -> (glyphs: [Placed], advance: Int, trailingBlank: Int) {
            FT_Activate_Size(size)
            guard let buffer = hb_buffer_create() else { return ([], 0, 0) }
            defer { hb_buffer_destroy(buffer) }
            hb_buffer_add_utf8(buffer, text, -1, 0, -1)
            hb_buffer_guess_segment_properties(buffer)
            if let script {
                hb_buffer_set_script(buffer, hb_script_from_string(script, -1))
                hb_buffer_set_direction(buffer, HB_DIRECTION_RTL)
            }
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return ([], 0, 0) }
            let n = Int(count)
            // Text with no Chinese mark (most of it) costs one pass over its scalars.
            let marks = script == nil ? PunctuationSqueeze.marks(in: text) : [:]
            func kind(_ i: Int) -> PunctuationSqueeze.Kind? { marks.isEmpty ? nil : marks[Int(infos[i].cluster)] }
            // In 26.6 fixed point, as HarfBuzz gives advances: the blank after glyph i's ink and before it.
            func blankAfter(_ i: Int) -> Int {
                glyph(infos[i].codepoint).map { Int(positions[i].x_advance) - (($0.left + $0.width) << 6) } ?? 0
            }
            func blankBefore(_ i: Int) -> Int { glyph(infos[i].codepoint).map { $0.left << 6 } ?? 0 }
            var placed: [Placed] = []
            placed.reserveCapacity(n)
            var pen = 0
            for i in 0..<n {
                let p = positions[i]
                if let glyph = glyph(infos[i].codepoint) {
                    placed.append(Placed(glyph: glyph, x: (pen + Int(p.x_offset) + 32) >> 6, y: (Int(p.y_offset) + 32) >> 6))
                }
                var advance = Int(p.x_advance)
                if i + 1 < n, PunctuationSqueeze.squeezes(kind(i), before: kind(i + 1)) {
                    let gap = blankAfter(i) + blankBefore(i + 1)
                    advance -= max(0, min(advance / 2, gap - (Int(size.pointee.metrics.x_ppem) << 6) / 8))
                }
                pen += advance
            }
            let trailing = n > 0 && kind(n - 1) == .closing ? max(0, blankAfter(n - 1) >> 6) : 0
            return (placed, (pen + 63) >> 6, trailing)
        }

        /// The glyph `index` drawn at this size (cached); nil when FreeType cannot draw it.
        private func glyph(_ index: UInt32) -> Glyph? {
            if let known = glyphs[index] { return known }
            guard FT_Load_Glyph(face, index, splash_ft_load_light() | Int32(FT_LOAD_RENDER)) == 0,
                  let slot = face.pointee.glyph else { return nil }
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width)
            let rows = Int(bitmap.rows)
            var coverage = [UInt8](repeating: 0, count: width * rows)
            if let buffer = bitmap.buffer, width > 0, rows > 0 {
                let pitch = Int(bitmap.pitch)
                for row in 0..<rows {
                    let line = buffer + row * pitch
                    for column in 0..<width {
                        switch Int32(bitmap.pixel_mode) {
                        case Int32(FT_PIXEL_MODE_GRAY.rawValue):
                            coverage[row * width + column] = line[column]
                        case Int32(FT_PIXEL_MODE_MONO.rawValue):
                            coverage[row * width + column] = (line[column >> 3] & (0x80 >> UInt8(column & 7))) != 0 ? 255 : 0
                        default:
                            break
                        }
                    }
                }
            }
            let drawn = Glyph(left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: width,
                              rows: rows, coverage: coverage)
            glyphs[index] = drawn
            return drawn
        }
    }
}
