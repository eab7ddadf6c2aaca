import Testing
@testable import SplashCore

/// What the buffer written next lacks, for screens shown from two buffers in turn or one.
@Suite struct BufferDamageTests {
    let whole = Rect(x: 0, y: 0, width: 1920, height: 1080)
    let pill = Rect(x: 1700, y: 30, width: 160, height: 64)
    let other = Rect(x: 100, y: 900, width: 50, height: 20)

    @Test func twoBuffersGetWholeFramesFirstThenTheirOwnAndTheLastChanges() {
        var d = BufferDamage(buffers: 2)
        // Neither buffer has had a frame: whole frames, even for a tick.
        #expect(d.toCopy(damage: nil, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        // Both have: this tick's rectangle and the one before it (the buffer missed that one).
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
        #expect(d.toCopy(damage: other, whole: whole) == pill.union(other))
        #expect(d.toCopy(damage: other, whole: whole) == other)
        // A whole frame, then a tick: the buffer written next missed the whole frame.
        #expect(d.toCopy(damage: nil, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
        // Damage past the frame is cut to it.
        #expect(d.toCopy(damage: Rect(x: 1900, y: 1000, width: 100, height: 100), whole: whole)
                == pill.union(Rect(x: 1900, y: 1000, width: 20, height: 80)))
    }

    @Test func oneBufferWrittenInPlaceGetsOnlyWhatChanged() {
        var d = BufferDamage(buffers: 1)
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
        #expect(d.toCopy(damage: other, whole: whole) == other)
    }

    @Test func afterAResetEveryBufferLacksAllOfIt() {
        var d = BufferDamage(buffers: 2)
        _ = d.toCopy(damage: nil, whole: whole)
        _ = d.toCopy(damage: nil, whole: whole)
        _ = d.toCopy(damage: pill, whole: whole)
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
        d.reset()
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
        d.reset(buffers: 1)
        #expect(d.buffers == 1)
        #expect(d.toCopy(damage: pill, whole: whole) == whole)
        #expect(d.toCopy(damage: pill, whole: whole) == pill)
    }
}
