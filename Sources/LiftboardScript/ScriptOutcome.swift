/// How one script ended.
public enum ScriptOutcome: Hashable, Sendable {
    case passed
    case failed(ScriptFailure)
    /// It could not be read or run (exit status 2).
    case broken(ScriptProblem)
}
