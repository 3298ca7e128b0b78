/// A recognizer's state during one run. Created the first time the recognizer is collected for
/// a touch; reset (GS8) at the end of a sequence once it reached a final state.
struct RecognizerRuntime {
    /// Index into `SceneIndex.recognizers`.
    let info: Int
    var state: RecognizerState = .possible
    /// Every state it was in, in order (result `recognizers[].states`).
    var history: [RecognizerState] = [.possible]
    /// Touches it receives (G2), in collection order; kept until reset.
    var touches: [Int] = []
    /// Presses it receives (PG2), in collection order; kept until reset.
    var presses: [Int] = []
    /// It wants to leave `possible` (begin or recognize); resolution decides (§5.2 placement).
    var wantsToRecognize = false
    /// A `pending` marker was written for the current wait (GS10).
    var pendingMarked = false
    /// GM7: runtime indices this one requires to fail, from delegate answers.
    var dynamicRequirements: [Int] = []
    /// State changes made inside touch methods whose actions are still to be sent (GS4).
    var pendingActionStates: [RecognizerState] = []

    // Gesture data (GP rules), in screen coordinates.
    var down: [Int] = []
    var starts = TouchPoints()
    var startTime = 0.0
    var tapsCompleted = 0
    var maxTouchesInTap = 0
    var firstTapLocation: Point?
    var startSpan: Double?
    var startAngle: Double?

    init(info: Int) {
        self.info = info
        // Room for a sequence's states (possible, then one or two more, then possible after
        // the reset): grown from the literal, the history was reallocated twice per recognizer.
        history.reserveCapacity(4)
    }

    mutating func clearGestureData() {
        down = []; starts = TouchPoints(); tapsCompleted = 0; maxTouchesInTap = 0; firstTapLocation = nil
        startSpan = nil; startAngle = nil; wantsToRecognize = false
        pendingMarked = false; dynamicRequirements = []; pendingActionStates = []
    }
}
