import Foundation

/// Clips made by Debian's `ffmpeg` from its test pattern (`testsrc2`, a moving picture
/// with a frame counter), for the tests of video campaigns.
public enum Clips {
    /// Writes a clip of `seconds` at `size` and `rate` with `codec` (`libx264`,
    /// `libvpx-vp9`) to `path` (its extension picks the container); `extra` goes before
    /// the output name.
    public static func make(_ path: String, codec: String = "libx264", size: String = "320x240", rate: Int = 30,
                            seconds: Double = 2, extra: [String] = []) throws {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", String(seconds),
                         "-c:v", codec, "-pix_fmt", "yuv420p"]
        if codec == "libx264" { arguments += ["-preset", "ultrafast"] }
        if codec == "libvpx-vp9" { arguments += ["-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"] }
        try run("ffmpeg", arguments + extra + [path])
    }

    /// Runs `program` with `arguments`; throws with what it printed when it fails.
    public static func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ClipError(what: "\(program) \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
        }
    }

    /// The frames `ffprobe` counts in a clip's video stream.
    public static func frames(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=nb_read_frames", "-of", "csv=p=0", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// A clip could not be made.
public struct ClipError: Error, CustomStringConvertible {
    public var what: String
    public var description: String { what }
}
