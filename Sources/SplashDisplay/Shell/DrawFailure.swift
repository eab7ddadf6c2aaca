/// A picture that could not be drawn on a frame: its path and why. The loop hands it to
/// the core as `imageFailed`, which decides what follows and says it once.
struct DrawFailure: Equatable {
    var path: String
    var reason: String
}
