/// Where an absolute pointer (a touch screen, a tablet, QEMU's virtio tablet) points,
/// from its raw axis values: each axis scaled by its own range to 0…1 across the screen,
/// then through libinput's calibration matrix (the `LIBINPUT_CALIBRATION_MATRIX` udev
/// property: `a b c d e f`, so x' = a·x + b·y + c and y' = d·x + e·y + f).
public struct AbsolutePointer: Equatable, Sendable {
    /// The raw values of the horizontal axis, from the left edge of the screen to the right.
    public var rangeX: ClosedRange<Int32>
    /// The raw values of the vertical axis, from the top edge of the screen to the bottom.
    public var rangeY: ClosedRange<Int32>
    /// libinput's calibration matrix, the six numbers `a b c d e f`.
    public var calibration: [Double]

    /// The matrix that leaves positions as they are.
    public static let identity: [Double] = [1, 0, 0, 0, 1, 0]

    /// A pointer with these axis ranges; a matrix that is not six numbers is taken as
    /// `identity`.
    public init(rangeX: ClosedRange<Int32>, rangeY: ClosedRange<Int32>, calibration: [Double] = identity) {
        self.rangeX = rangeX
        self.rangeY = rangeY
        self.calibration = calibration.count == 6 ? calibration : Self.identity
    }

    /// The matrix in a udev property value (six numbers separated by spaces); nil when it
    /// is not one.
    public static func calibration(from text: String) -> [Double]? {
        let values = text.split(separator: " ").compactMap { Double($0) }
        return values.count == 6 && text.split(separator: " ").count == 6 ? values : nil
    }

    /// Raw axis values to 0…1 across the screen, calibrated and clamped.
    public func normalized(x: Int32, y: Int32) -> (x: Double, y: Double) {
        let nx = Double(x - rangeX.lowerBound) / Double(max(rangeX.upperBound - rangeX.lowerBound, 1))
        let ny = Double(y - rangeY.lowerBound) / Double(max(rangeY.upperBound - rangeY.lowerBound, 1))
        let m = calibration
        let cx = m[0] * nx + m[1] * ny + m[2]
        let cy = m[3] * nx + m[4] * ny + m[5]
        return (min(max(cx, 0), 1), min(max(cy, 0), 1))
    }
}
