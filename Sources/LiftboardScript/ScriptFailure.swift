/// A failing step with what happened around it, for the report.
public struct ScriptFailure: Hashable, Sendable {
    public var line: ScriptLine
    public var kind: FailureKind
    /// The last gesture before the failing line (the failing line itself for a drag).
    public var gesture: ScriptLine?
    /// That gesture's commits, as `version N: X after Y in S`.
    public var commits: [String]
}
