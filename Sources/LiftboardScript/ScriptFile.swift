import LiftboardCore
import LiftboardWire

/// Runs one script file from its text to its result: setup lines, the board, then every line.
public enum ScriptFile {
    /// `read` gives a file's bytes (nil: cannot be read); `board` overrides the script's
    /// `board` line (a path as given, not relative to the script). With `keepGoing`, a failing
    /// line does not stop the run (`--emit-stream` writes the whole stream).
    public static func run(path: String, board boardOverride: String? = nil, keepGoing: Bool = false,
                           read: (String) -> [UInt8]?) -> ScriptResult {
        func broken(_ line: Int, _ e: ScriptReadError, _ stream: [[UInt8]] = []) -> ScriptResult {
            ScriptResult(path: path, outcome: .broken(ScriptProblem(line: line, error: e)), stream: stream)
        }
        guard let bytes = read(path) else { return broken(0, .cannotReadScript(path)) }
        let lines: [ScriptLine]
        do { lines = try ScriptParser.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            return ScriptResult(path: path, outcome: .broken(error), stream: [])
        }
        var boardPath = boardOverride
        var boardLine = 0
        var viewport = Size(w: 400, h: 800)
        var config: [(String, JSONValue)] = []
        var configLine = 0
        var person = Person.open
        for l in lines where l.step.isSetup {
            switch l.step {
            case .board(let p) where boardOverride == nil:
                boardPath = resolve(p, against: path)
                boardLine = l.number
            case .viewport(let w, let h): viewport = Size(w: w, h: h)
            case .person(let p): person = p
            case .config(.object(let members)):
                config += members
                configLine = l.number
            default: break
            }
        }
        guard let boardPath else { return broken(0, .noBoardStep) }
        guard let boardBytes = read(boardPath) else { return broken(boardLine, .cannotReadBoard(boardPath)) }
        let board: Board
        do { board = try Wire.decodeBoard(boardBytes) } catch {
            return broken(boardLine, .invalidBoard(path: boardPath, reason: error.description))
        }
        var runner: ScriptRunner
        do { runner = try ScriptRunner(board: board, viewport: viewport, config: config,
                                           header: "board: \(boardPath) (liftboard replay --board \(boardPath))", person: person) } catch {
            // The hello is refused for its config (a wrong value), else for the board.
            return broken(configLine > 0 ? configLine : boardLine, error)
        }
        var firstFailure: ScriptFailure?
        for l in lines where !l.step.isSetup {
            if l.step.isExpectation { runner.comment("line \(l.number): \(l.text)") }
            do {
                if let f = try runner.run(l) {
                    if firstFailure == nil { firstFailure = f }
                    if !keepGoing { break }
                }
            } catch {
                return ScriptResult(path: path, outcome: .broken(error), stream: runner.stream)
            }
        }
        return ScriptResult(path: path, outcome: firstFailure.map { .failed($0) } ?? .passed, stream: runner.stream)
    }

    /// `p` relative to the folder of `script` (as written, when `p` is absolute).
    static func resolve(_ p: String, against script: String) -> String {
        if p.hasPrefix("/") { return p }
        guard let slash = script.lastIndex(of: "/") else { return p }
        return String(script[...slash]) + p
    }
}
