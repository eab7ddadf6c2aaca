import Foundation
// The tests read answers with Foundation's Data(contentsOf:), which fetches http URLs only
// when FoundationNetworking is linked (the programs themselves link no Foundation).
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc

/// The fault-injecting HTTP server (fault_server.py) on 127.0.0.1, serving `root`.
/// Started per test, stopped when released.
public final class TestServer {
    public let port: Int
    public let root: String
    private let process: Process

    public init(root: String) throws {
        self.root = root
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fault_server.py").path
        (process, port) = try startPythonServer([script, root])
    }

    deinit {
        // SIGKILL: a child can inherit a mask that blocks SIGTERM from the test's thread.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests each path has had.
    public func requestCounts() throws -> [String: Int] {
        let data = try Data(contentsOf: url("/requests"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }
}

public enum TestServerError: Error { case didNotStart }

/// Starts `python3 ARGUMENTS`, a server that prints its port on its first line, and
/// returns the process and that port.
func startPythonServer(_ arguments: [String], in folder: String? = nil,
                       environment: [String: String]? = nil) throws -> (Process, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    if let environment { process.environment = environment }
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while true {
        let byte = out.fileHandleForReading.readData(ofLength: 1)
        if byte.isEmpty || byte == Data("\n".utf8) { break }
        line.append(byte)
    }
    guard let port = Int(String(decoding: line, as: UTF8.self)) else {
        kill(process.processIdentifier, SIGKILL)
        throw TestServerError.didNotStart
    }
    return (process, port)
}

/// A port on 127.0.0.1 that nothing listens on (the kernel's pick, let go at once).
public func unusedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The hostile server of raw_server.py on 127.0.0.1 and ::1, serving `root`: answers written
/// byte by byte (a bare CR in an ETag, something that is not HTTP, a one-byte first chunk),
/// and the request heads it was sent.
public final class RawTestServer {
    public let port: Int
    private let process: Process

    public init(root: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("raw_server.py").path
        (process, port) = try startPythonServer([script, root])
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Every request head the server was sent, oldest first.
    public func heads() throws -> [String] {
        let data = try Data(contentsOf: url("/heads"))
        return (try JSONSerialization.jsonObject(with: data) as? [String]) ?? []
    }
}
