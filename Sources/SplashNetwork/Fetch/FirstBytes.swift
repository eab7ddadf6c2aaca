import FoundationEssentials

/// A body's first bytes, held back until there are enough to tell what the body is (at
/// least `needed`, or all of it when it is shorter), then shown to `inspect` once and
/// handed to `sink` with everything after them — however the body was cut into pieces on
/// its way (a first chunk of one byte is read as the start of the same picture).
struct FirstBytes {
    /// Bytes gathered before `inspect` sees them (the longest signature read is 32 bytes).
    static let needed = 32
    /// What `inspect` is shown at the most.
    static let shown = 1024

    private let inspect: (([UInt8]) throws -> Void)?
    private let sink: (Data) throws -> Void
    private var held: [UInt8] = []
    private var inspected: Bool

    init(inspect: (([UInt8]) throws -> Void)?, sink: @escaping (Data) throws -> Void) {
        self.inspect = inspect
        self.sink = sink
        inspected = inspect == nil
    }

    /// The next piece of the body.
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !inspected else { return try sink(Data(bytes)) }
        held.append(contentsOf: bytes)
        if held.count >= Self.needed { try release() }
    }

    /// The body ended: what is still held (a body shorter than `needed`) is inspected and passed on.
    mutating func finish() throws {
        if !inspected, !held.isEmpty { try release() }
    }

    private mutating func release() throws {
        inspected = true
        try inspect?(Array(held.prefix(Self.shown)))
        let data = Data(held)
        held = []
        try sink(data)
    }
}
