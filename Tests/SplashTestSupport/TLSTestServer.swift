import Foundation

/// An https server on 127.0.0.1 with a freshly made self-signed certificate, to show that
/// certificates are verified.
public final class TLSTestServer {
    public let port: Int
    private let process: Process

    public init(folder: String) throws {
        let cert = folder + "/cert.pem"
        let key = folder + "/key.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-keyout", key, "-out", cert]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let script = """
        import http.server, ssl, sys
        s = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(sys.argv[1], sys.argv[2])
        s.socket = c.wrap_socket(s.socket, server_side=True)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """
        (process, port) = try startPythonServer(["-c", script, cert, key], in: folder)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
