/// One script's run: its outcome and the stream it compiled to (up to where it stopped).
public struct ScriptResult: Hashable, Sendable {
    public var path: String
    public var outcome: ScriptOutcome
    public var stream: [[UInt8]]
    public init(path: String, outcome: ScriptOutcome, stream: [[UInt8]]) {
        self.path = path; self.outcome = outcome; self.stream = stream
    }
}
