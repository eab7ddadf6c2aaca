import CFFmpeg
import FoundationEssentials
import Glibc

/// A clip opened for reading by FFmpeg from a descriptor (the cached file the display or
/// the network process passed) or from bytes in memory (the fuzzer): through an I/O
/// context of its own, so FFmpeg opens no file and no protocol. Only the MP4/MOV,
/// Matroska/WebM and GIF demuxers are allowed.
final class MediaInput {
    /// Where the bytes come from.
    private final class Source {
        let fd: Int32
        let memory: [UInt8]?
        var offset: Int64 = 0

        init(fd: Int32) { self.fd = fd; memory = nil }
        init(bytes: [UInt8]) { fd = -1; memory = bytes }

        var size: Int64 {
            if let memory { return Int64(memory.count) }
            var st = stat()
            return fstat(fd, &st) == 0 ? Int64(st.st_size) : -1
        }

        func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int32) -> Int32 {
            if let memory {
                let left = max(0, Int64(memory.count) - offset)
                let n = Int(min(Int64(count), left))
                guard n > 0 else { return splash_av_eof() }
                memory.withUnsafeBufferPointer { all in
                    buffer.update(from: all.baseAddress! + Int(offset), count: n)
                }
                offset += Int64(n)
                return Int32(n)
            }
            let n = pread(fd, buffer, Int(count), off_t(offset))
            if n < 0 { return -Int32(errno) }
            if n == 0 { return splash_av_eof() }
            offset += Int64(n)
            return Int32(n)
        }

        func seek(_ to: Int64, _ whence: Int32) -> Int64 {
            if whence & splash_avseek_size() != 0 { return size }
            switch whence & 3 {
            case SEEK_SET: offset = to
            case SEEK_CUR: offset += to
            case SEEK_END: offset = size + to
            default: return -1
            }
            offset = max(0, offset)
            return offset
        }
    }

    let context: UnsafeMutablePointer<AVFormatContext>
    private let io: UnsafeMutablePointer<AVIOContext>
    private let source: Unmanaged<Source>

    /// The demuxers allowed, by FFmpeg's names.
    static let demuxers = "mov,matroska,webm,gif"

    /// Opens the clip on `fd` (read with pread: the descriptor's offset is left alone).
    convenience init(fd: Int32) throws { try self.init(source: Source(fd: fd)) }

    /// Opens a clip held in memory.
    convenience init(bytes: [UInt8]) throws { try self.init(source: Source(bytes: bytes)) }

    private init(source: Source) throws {
        av_log_set_level(AV_LOG_QUIET)
        let retained = Unmanaged.passRetained(source)
        let size: Int32 = 64 << 10
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self),
              let io = avio_alloc_context(buffer, size, 0, retained.toOpaque(), { opaque, buffer, count in
                  Unmanaged<Source>.fromOpaque(opaque!).takeUnretainedValue().read(buffer!, count)
              }, nil, { opaque, offset, whence in
                  Unmanaged<Source>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
              })
        else {
            retained.release()
            throw MediaError.setup("out of memory for the clip's reader")
        }
        guard var context = avformat_alloc_context() else {
            var io: UnsafeMutablePointer<AVIOContext>? = io
            av_free(io?.pointee.buffer)
            avio_context_free(&io)
            retained.release()
            throw MediaError.setup("out of memory for the clip's reader")
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.format_whitelist = av_strdup(Self.demuxers)
        var maybe: UnsafeMutablePointer<AVFormatContext>? = context
        let opened = avformat_open_input(&maybe, nil, nil, nil)
        guard opened >= 0, let ready = maybe else {
            // avformat_open_input frees the context when it fails; the I/O context is ours.
            var io: UnsafeMutablePointer<AVIOContext>? = io
            av_free(io?.pointee.buffer)
            avio_context_free(&io)
            retained.release()
            throw MediaError.unreadable(MediaError.text(opened))
        }
        context = ready
        self.context = context
        self.io = io
        self.source = retained
        let found = avformat_find_stream_info(context, nil)
        guard found >= 0 else { throw MediaError.unreadable(MediaError.text(found)) }
    }

    deinit {
        var maybe: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&maybe)
        var io: UnsafeMutablePointer<AVIOContext>? = self.io
        av_free(io?.pointee.buffer)
        avio_context_free(&io)
        source.release()
    }

    /// The demuxer's name: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `gif`.
    var container: String { context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown" }

    /// Back to the first frame.
    func rewind(stream: Int32) -> Bool {
        avformat_seek_file(context, stream, Int64.min, 0, 0, AVSEEK_FLAG_BACKWARD) >= 0
            || av_seek_frame(context, stream, 0, AVSEEK_FLAG_BACKWARD) >= 0
    }
}
