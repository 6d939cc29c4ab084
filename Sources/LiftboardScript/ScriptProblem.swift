/// A read error at its line (0 when it belongs to no line: an unreadable file).
public struct ScriptProblem: Error, Hashable, Sendable {
    public var line: Int
    public var error: ScriptReadError
    public init(line: Int, error: ScriptReadError) { self.line = line; self.error = error }
}
