/// Why a script cannot be run (exit status 2): the script is wrong, not the engine.
public enum ScriptReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownStep(String)
    /// The step's words do not fit its grammar; `usage` is how it is written.
    case syntax(step: String, usage: String)
    case badNumber(step: String, text: String)
    case badJSON(step: String, reason: String)
    /// A `send` line that is JSON but not a client message the protocol accepts.
    case badMessage(String)
    case unterminatedString
    case setupAfterGesture(String)
    case noItem(step: String, id: String)
    case noSection(step: String, id: String)
    /// `drag X after P` with P pinned: no drop can name it.
    case pinnedAnchor(step: String, id: String)
    case noBoardStep
    case cannotReadBoard(String)
    case invalidBoard(path: String, reason: String)
    case cannotReadScript(String)
    case noHello(String)

    public var description: String {
        switch self {
        case .unknownStep(let w): "unknown step \"\(w)\""
        case .syntax(let step, let usage): "\(step): expected `\(usage)`"
        case .badNumber(let step, let text): "\(step): \"\(text)\" is not a number"
        case .badJSON(let step, let reason): "\(step): \(reason)"
        case .badMessage(let m): "send: \(m)"
        case .unterminatedString: "a quoted token has no closing quote"
        case .setupAfterGesture(let step): "\(step): setup steps come before the first gesture"
        case .noItem(let step, let id): "\(step): no item \"\(id)\" on the board"
        case .noSection(let step, let id): "\(step): no section \"\(id)\" on the board"
        case .pinnedAnchor(let step, let id): "\(step): \"\(id)\" is pinned, and a drop is never after a pinned item: name the movable item before it (or `first in` its section)"
        case .noBoardStep: "no `board PATH` step (and no --board)"
        case .cannotReadBoard(let path): "board: cannot read \(path)"
        case .invalidBoard(let path, let reason): "board: invalid board \(path): \(reason)"
        case .cannotReadScript(let path): "cannot read the script \(path)"
        case .noHello(let why): "the session did not start: \(why)"
        }
    }
}
