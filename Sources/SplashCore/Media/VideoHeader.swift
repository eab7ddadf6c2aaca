/// A clip told by its first bytes, before it is downloaded whole: an ISO media file
/// (MP4/MOV: a box whose type is `ftyp`, `moov`, `mdat`, `free`, `skip` or `wide`) or an
/// EBML file (Matroska, WebM). Anything else is stopped at once with what it looks like.
public enum VideoHeader {
    /// Whether the first bytes `head` look like a clip (an ISO media or EBML file).
    public static func looksLikeClip(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x1A, 0x45, 0xDF, 0xA3])
            || (head.count >= 8 && ["ftyp", "moov", "mdat", "wide"].contains(String(decoding: head[4..<8], as: UTF8.self)))
    }

    /// Why the first bytes `head` are not a clip this kiosk plays, or nil when they may be.
    public static func problem(_ head: [UInt8]) -> String? {
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return nil }
        if head.count >= 8, ["ftyp", "moov", "mdat", "free", "skip", "wide"].contains(String(decoding: head[4..<8], as: UTF8.self)) {
            return nil
        }
        if head.isEmpty { return "the clip is empty (0 bytes)" }
        if let container = otherContainer(head) {
            return "\(container), a kind of clip this kiosk does not play; MP4/MOV, WebM and Matroska clips are played "
                + "(`ffmpeg -i CLIP -c:v libx264 -an CLIP.mp4` makes an MP4 of it)"
        }
        let looks: String
        if ImageHeader.kind(of: head) != nil {
            looks = "a picture (a picture goes in picUrl)"
        } else if head.starts(with: Array("GIF8".utf8)) {
            looks = "a GIF picture"
        } else if head.starts(with: Array("ID3".utf8)) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0)
                    || head.starts(with: Array("OggS".utf8)) || head.starts(with: Array("fLaC".utf8)) {
            looks = "sound (an MP3, Ogg or FLAC file; no sound is played)"
        } else if case .notAnImage(let what) = ImageHeader.refusal(for: head) {
            looks = what
        } else {
            looks = "unknown data"
        }
        return "not a video: the data looks like \(looks); MP4/MOV, WebM and Matroska clips are played"
    }

    /// The name of a video container other than those played, told by its first bytes.
    static func otherContainer(_ head: [UInt8]) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            head.count >= offset + text.utf8.count && Array(head[offset..<offset + text.utf8.count]) == Array(text.utf8)
        }
        if at(0, "RIFF") && at(8, "AVI ") { return "an AVI file" }
        if head.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return "an MPEG program stream (.mpg, .vob)" }
        if head.starts(with: [0x00, 0x00, 0x01, 0xB3]) { return "an MPEG video stream (.mpg, .m1v, .m2v)" }
        // A transport stream: a sync byte at the start of each of its first 188-byte packets.
        if head.count >= 189, head[0] == 0x47, head[188] == 0x47 { return "an MPEG transport stream (.ts)" }
        if at(0, "FLV") { return "a Flash video (.flv)" }
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return "a Windows Media file (.wmv, .asf)" }
        if at(0, ".RMF") { return "a RealMedia file (.rm)" }
        return nil
    }
}
