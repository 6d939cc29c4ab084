import ArgumentParser
import Foundation
import LiftboardCore
import LiftboardWire

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a stream of client messages through a session, headless, and print every server message.",
        discussion: """
            Runs the same session code as the server on the stream's own clock, with no sockets and \
            no files written. Prints one JSON line per server message; a bad line prints an `error` \
            with its `line` and the replay goes on. The session acts for the person a `# person` line \
            before the hello names (a recording of a session with a token has one: user, name, role), \
            else with role edit and no user. Exit status: 0 when the stream was read to its \
            end, 2 when the board or the stream cannot be read or the board is invalid.
            """)

    @Option(name: .long, help: "The board file (JSON).")
    var board: String

    @Argument(help: "The stream: one JSON client message a line, hello first.")
    var stream: String

    func run() throws {
        let boardBytes = try readOrExit(board, what: "board")
        let parsed: Board
        do { parsed = try Wire.decodeBoard(boardBytes) } catch {
            FileHandle.standardError.write(Data("liftboard replay: invalid board \(board): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let streamBytes = try readOrExit(stream, what: "stream")
        var out: [UInt8] = []
        out.reserveCapacity(streamBytes.count * 4)
        let outcome = Replay.run(board: parsed, stream: streamBytes, output: &out)
        FileHandle.standardOutput.write(Data(out))
        if outcome == .neverSettled {
            FileHandle.standardError.write(Data("liftboard replay: timers still pending after \(Replay.maxSettleSteps) steps\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The file's bytes, or a message on stderr and exit status 2.
func readOrExit(_ path: String, what: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("liftboard: cannot read \(what) file \(path)\n".utf8))
        throw ExitCode(2)
    }
    return [UInt8](data)
}
