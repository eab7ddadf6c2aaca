import CSystem
import FoundationEssentials
import Glibc

/// The kernel's V4L2 memory-to-memory decoders for the codecs FFmpeg decodes that way (a
/// Raspberry Pi 4's /dev/video10), opened by the media process before its filter and before
/// a byte of the clip is read, to be handed out under the filter (`MediaSandbox.Handout`):
/// FFmpeg lists the folder, opens a decoder once to probe it and once to use it, so the
/// folder is handed out each time and each decoder twice, and any other `openat` is refused.
public struct DecoderDevices {
    /// What the filter's broker may hand out; empty where the kernel has no such decoder.
    public private(set) var handouts: [MediaSandbox.Handout] = []

    /// Opens the decoders among `folder`'s `video*` nodes (asked only VIDIOC_QUERYCAP and
    /// VIDIOC_ENUM_FMT; what is not a decoder is closed at once).
    public init(in folder: String = "/dev") {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("video") }.sorted()
        for name in names {
            let path = folder + "/" + name
            // As FFmpeg opens it (read and write, not blocking), and never a program's.
            let first = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard first >= 0 else { continue }
            guard splash_v4l2_is_decoder(first) != 0 else {
                close(first)
                continue
            }
            let second = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            handouts.append(MediaSandbox.Handout(path: path, fd: first))
            if second >= 0 { handouts.append(MediaSandbox.Handout(path: path, fd: second)) }
        }
        guard !handouts.isEmpty else { return }
        // First: of a table that cannot hold every decoder, the folder is never the one left out.
        let listing = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if listing >= 0 { handouts.insert(MediaSandbox.Handout(path: folder, fd: listing, reusable: true), at: 0) }
    }
}
