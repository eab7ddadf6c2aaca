import Foundation
import Glibc
import Testing
@testable import SplashServices

/// A connected pair of stream sockets, closed at the end.
private final class SocketPair {
    let a: Int32
    let b: Int32
    init() {
        var fds: [Int32] = [0, 0]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        (a, b) = (fds[0], fds[1])
    }
    func write(_ text: String) { _ = LineChannel.sendAll(Array(text.utf8), on: b) }
    deinit {
        close(a)
        close(b)
    }
}

@Suite struct LineChannelTests {
    @Test func linesComeWholeHoweverTheyAreSplit() {
        var buffer = LineBuffer(limit: 16)
        buffer.append(Array("one\ntw".utf8))
        #expect(buffer.next() == Data("one".utf8))
        #expect(buffer.next() == nil)
        buffer.append(Array("o\nthree\n".utf8))
        #expect(buffer.next() == Data("two".utf8))
        #expect(buffer.next() == Data("three".utf8))
        // An HTTP head ends at its blank line; what follows is the body's start.
        var head = LineBuffer(terminator: Array("\r\n\r\n".utf8), limit: 64)
        head.append(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nbody".utf8))
        #expect(head.next() == Data("GET / HTTP/1.1\r\nHost: a".utf8))
        #expect(head.takeRest() == Data("body".utf8))

        let pair = SocketPair()
        let channel = LineChannel(fd: pair.a, limit: 64)
        pair.write("{\"a\":1}\n{\"b\"")
        #expect(channel.next() == .line(Data("{\"a\":1}".utf8)))
        pair.write(":2}\n")
        #expect(channel.next() == .line(Data("{\"b\":2}".utf8)))
        shutdown(pair.b, Int32(SHUT_WR))
        #expect(channel.next() == .closed(partial: false))
    }

    @Test func aFloodIsCutAtTheLimitAndAClosedHalfLineIsKept() {
        let pair = SocketPair()
        let channel = LineChannel(fd: pair.a, limit: 100)
        pair.write(String(repeating: "x", count: 101))
        #expect(channel.next() == .tooLong)
        let other = SocketPair()
        let half = LineChannel(fd: other.a, limit: 100)
        other.write("status")
        shutdown(other.b, Int32(SHUT_WR))
        #expect(half.next() == .closed(partial: true))
        #expect(half.takeRest() == Data("status".utf8))
    }

    @Test func theDeadlineIsForTheWholeLineOnTheChannelsClock() {
        // A peer that sends a byte now and then: the line is not whole by the deadline.
        // The channel's clock runs 20 ms a look from just before it, so no real wait is long.
        let pair = SocketPair()
        var now = 9.9
        let channel = LineChannel(fd: pair.a, limit: 100) {
            now += 0.02
            return now
        }
        pair.write("a")
        #expect(channel.next(by: 10) == .timedOut(partial: true))
        // With no deadline it waits for the rest.
        pair.write("b\n")
        #expect(channel.next() == .line(Data("ab".utf8)))
        // A wall clock set forward does not move the channel's: the default is monotonic.
        let monotonic = LineChannel(fd: pair.a, limit: 100)
        pair.write("c\n")
        #expect(monotonic.next(by: MonotonicClock.seconds() + 60) == .line(Data("c".utf8)))
    }

    @Test func everyByteIsWrittenHoweverTheKernelSplitsIt() throws {
        // A send buffer far smaller than the message: the writer must go on after short writes.
        let pair = SocketPair()
        var small: Int32 = 4096
        setsockopt(pair.b, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let message = Data(repeating: 0x41, count: 1 << 20) + Data("\n".utf8)
        let writer = Thread { _ = LineChannel.sendAll(message, on: pair.b) }
        writer.start()
        let channel = LineChannel(fd: pair.a, limit: 2 << 20)
        #expect(channel.next(by: MonotonicClock.seconds() + 60) == .line(message.dropLast()))
    }
}
