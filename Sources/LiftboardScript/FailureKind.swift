/// Why a script that could be read did not pass (exit status 1).
public enum FailureKind: Hashable, Sendable {
    /// An `expect` line: what it wanted and what the session had, in the same words.
    case expectation(expected: String, got: String)
    /// A drag whose place the pilot did not reach within `DragPilot.maxSteps` steps.
    case notReached(String)
    /// A drag whose long press lifted another item, or nothing.
    case notLifted(item: String, got: String?)
    /// The session refused a message the script made (a bug, not a script).
    case sessionError(String)
}
