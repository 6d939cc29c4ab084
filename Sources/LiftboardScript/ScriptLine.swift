/// A step with the line it came from, so that every report can name `FILE:LINE`.
public struct ScriptLine: Hashable, Sendable {
    /// 1-based, as in the file.
    public var number: Int
    /// The line as written, trimmed: reports quote it.
    public var text: String
    public var step: Step
    public init(number: Int, text: String, step: Step) {
        self.number = number; self.text = text; self.step = step
    }
}
