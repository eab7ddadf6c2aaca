import Testing
@testable import SplashCore

/// Absolute pointers on the console (QEMU's virtio tablet, single-touch USB panels): a
/// touch lands where it was made, through rotation and calibration.
@Suite struct AbsolutePointerTests {
    /// QEMU's tablet reports 0…32767 on both axes; a tap on the pill's label of a 1280×800
    /// console is a tap on the pill, not a click-through beside it.
    @Test func aTabletTapOnThePillLabelHitsThePill() {
        let tablet = AbsolutePointer(rangeX: 0...32767, rangeY: 0...32767)
        let screen = Size(width: 1280, height: 800)
        let pill = SkipButton(screen: screen)
        let label = pill.frame.center
        let raw = (x: Int32((Double(label.x) * 32767 / 1279).rounded()), y: Int32((Double(label.y) * 32767 / 799).rounded()))
        let n = tablet.normalized(x: raw.x, y: raw.y)
        let p = Rotation.none.logicalPoint(normalizedX: n.x, normalizedY: n.y, output: screen)
        #expect(abs(p.x - label.x) <= 1 && abs(p.y - label.y) <= 1, "\(p) vs \(label)")
        #expect(pill.hitArea.contains(p))
    }

    @Test func aTurnedScreenTurnsTheTouch() {
        // Turned 90° clockwise: the layout's top-right corner is the output's bottom-right.
        let output = Size(width: 1280, height: 800)
        let p = Rotation.quarter.logicalPoint(normalizedX: 1, normalizedY: 1, output: output)
        #expect(p == Point(x: 799, y: 0))
    }

    @Test func axesWithAnOffsetRangeAreScaledByTheirOwnRange() {
        let panel = AbsolutePointer(rangeX: 100...4095, rangeY: 200...4095)
        #expect(panel.normalized(x: 100, y: 200) == (0, 0))
        #expect(panel.normalized(x: 4095, y: 4095) == (1, 1))
        let mid = panel.normalized(x: 2097, y: 2147)
        #expect(abs(mid.x - 0.5) < 0.001 && abs(mid.y - 0.5) < 0.001)
    }

    @Test func theCalibrationMatrixIsAppliedAsLibinputDoes() throws {
        // A panel mounted upside down: x' = 1 - x, y' = 1 - y.
        let matrix = try #require(AbsolutePointer.calibration(from: "-1 0 1 0 -1 1"))
        let panel = AbsolutePointer(rangeX: 0...1000, rangeY: 0...1000, calibration: matrix)
        let p = panel.normalized(x: 250, y: 100)
        #expect(abs(p.x - 0.75) < 1e-9 && abs(p.y - 0.9) < 1e-9)
        #expect(AbsolutePointer.calibration(from: "1 0 0 0 1") == nil)
        #expect(AbsolutePointer.calibration(from: "1 0 0 0 1 x") == nil)
    }
}
