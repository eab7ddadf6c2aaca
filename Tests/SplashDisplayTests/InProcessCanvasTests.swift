import Testing

/// Every suite that opens a `Canvas` in the test process, nested here so that their tests
/// run one at a time: each starts and stops SDL's video subsystem, which is global and not
/// safe from two threads at once (two suites doing so side by side crashed in SDL).
@Suite(.serialized) struct InProcessCanvasTests {}
