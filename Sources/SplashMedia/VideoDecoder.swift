import CFFmpeg
import FoundationEssentials
import Glibc

/// The video stream of a clip decoded frame by frame: where the kernel offers a V4L2
/// memory-to-memory decoder for its codec (`h264_v4l2m2m` on a Raspberry Pi), that one
/// first, else FFmpeg's software decoder. Looped clips start again from their first frame.
final class VideoDecoder {
    let input: MediaInput
    let stream: Int32
    private let codec: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>
    private var draining = false
    /// The stream's time base, in seconds a tick.
    let timeBase: Double
    /// The presentation time of the first frame, in ticks.
    private var firstPTS: Int64?

    /// Codecs a hardware decoder is looked for (by the codec id's raw value: Swift 6.0 does
    /// not import C enums as `Hashable`), with the name of FFmpeg's V4L2 one.
    static let hardware: [UInt32: String] = [
        AV_CODEC_ID_H264.rawValue: "h264_v4l2m2m", AV_CODEC_ID_HEVC.rawValue: "hevc_v4l2m2m",
        AV_CODEC_ID_VP9.rawValue: "vp9_v4l2m2m",
    ]

    /// Opens the best video stream of `input`. `hardware`: try the V4L2 decoder first (its
    /// device handed out under the filter, `DecoderDevices`).
    init(_ input: MediaInput, hardware: Bool = false, threads: Int32 = 0) throws {
        self.input = input
        let index = av_find_best_stream(input.context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let st = input.context.pointee.streams[Int(index)], let par = st.pointee.codecpar else {
            throw MediaError.noVideo
        }
        stream = index
        timeBase = av_q2d(st.pointee.time_base)
        var candidates: [UnsafePointer<AVCodec>] = []
        if hardware, let name = Self.hardware[par.pointee.codec_id.rawValue],
           let hw = avcodec_find_decoder_by_name(name) {
            candidates.append(hw)
        }
        if let software = avcodec_find_decoder(par.pointee.codec_id) { candidates.append(software) }
        guard !candidates.isEmpty else { throw MediaError.noDecoder(String(cString: avcodec_get_name(par.pointee.codec_id))) }
        var opened: UnsafeMutablePointer<AVCodecContext>?
        var lastError: Int32 = 0
        for candidate in candidates {
            guard let context = avcodec_alloc_context3(candidate) else { continue }
            var ok = avcodec_parameters_to_context(context, par) >= 0
            if ok {
                context.pointee.thread_count = threads
                context.pointee.pkt_timebase = st.pointee.time_base
                lastError = avcodec_open2(context, candidate, nil)
                ok = lastError >= 0
            }
            if ok { opened = context; break }
            var failed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&failed)
        }
        let name = String(cString: avcodec_get_name(par.pointee.codec_id))
        guard let opened else {
            // A decoder is there, but not for what the stream holds (a container that lies).
            throw MediaError.decode("the \(name) decoder cannot read its stream (\(MediaError.text(lastError)))")
        }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else { throw MediaError.setup("out of memory") }
        codec = opened
        self.packet = packet
        self.frame = frame
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }

    /// Whether the frames may have transparency: a pixel format with alpha, or one not
    /// known before decoding (a GIF's).
    var hasAlpha: Bool {
        splash_av_format_has_alpha(codec.pointee.pix_fmt.rawValue) != 0
    }

    /// The decoder's name (`h264`, `libdav1d`, `h264_v4l2m2m`).
    var decoderName: String { String(cString: codec.pointee.codec.pointee.name) }

    /// The stream's facts as the container gives them, `framesDecoded` 0.
    var facts: (codec: String, width: Int, height: Int, fps: Double, duration: Double) {
        let st = input.context.pointee.streams[Int(stream)]!
        let par = st.pointee.codecpar!
        var rate = av_q2d(st.pointee.avg_frame_rate)
        if !rate.isFinite || rate <= 0 { rate = av_q2d(st.pointee.r_frame_rate) }
        var duration = st.pointee.duration > 0 ? Double(st.pointee.duration) * timeBase : 0
        if duration <= 0, input.context.pointee.duration > 0 {
            duration = Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return (String(cString: avcodec_get_name(par.pointee.codec_id)), Int(par.pointee.width), Int(par.pointee.height),
                rate.isFinite ? rate : 0, duration)
    }

    /// Decodes the next frame into `frame`; false at the end of the stream. The frame's
    /// time, in seconds after the first, is `seconds`.
    func next() throws -> Bool {
        while true {
            let got = avcodec_receive_frame(codec, frame)
            if got >= 0 { return true }
            if got == splash_av_eof() { return false }
            guard got == splash_av_eagain() else { throw MediaError.decode(MediaError.text(got)) }
            if draining { return false }
            let read = av_read_frame(input.context, packet)
            if read < 0 {
                draining = true
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0, sent != splash_av_eagain() { throw MediaError.decode(MediaError.text(sent)) }
        }
    }

    /// The decoded frame's time in seconds after the clip's first frame.
    var seconds: Double {
        let best = frame.pointee.best_effort_timestamp
        let pts = best != splash_av_nopts() ? best : frame.pointee.pts
        guard pts != splash_av_nopts() else { return 0 }
        if firstPTS == nil { firstPTS = pts }
        return max(0, Double(pts - (firstPTS ?? 0)) * timeBase)
    }

    /// How long the decoded frame is shown, in seconds, when the stream says (a GIF's
    /// frames each say their own delay); nil otherwise.
    var frameSeconds: Double? {
        let ticks = splash_av_frame_duration(frame)
        return ticks > 0 ? Double(ticks) * timeBase : nil
    }

    /// The frames of the stream still to come, counted by their packets (none decoded), up
    /// to `most`.
    func countRemainingFrames(upTo most: Int) -> Int {
        var counted = 0
        while counted < most, av_read_frame(input.context, packet) >= 0 {
            if packet.pointee.stream_index == stream { counted += 1 }
            av_packet_unref(packet)
        }
        return counted
    }

    /// Back to the first frame, for a looped clip; false when the clip cannot be rewound.
    func restart() -> Bool {
        guard input.rewind(stream: stream) else { return false }
        avcodec_flush_buffers(codec)
        draining = false
        return true
    }
}
