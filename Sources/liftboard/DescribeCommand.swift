import ArgumentParser
import Foundation
import LiftboardCore
import LiftboardScript
import LiftboardWire

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Turn a recorded stream (serve --record) into a gesture script for `liftboard test`.",
        discussion: """
            Each drop becomes the step its commit's change names (drag a after c), followed by \
            the orders the recording committed as `expect order` lines; presses, taps, pans, \
            wheels and keys become their steps with waits between; what has no step (other \
            sessions' commits, resyncs) becomes `send` lines. The script goes to stdout.
            """)

    @Option(name: .long, help: "The board file (default: STREAM's .board.json beside it, as --record writes).")
    var board: String?

    @Option(name: .long, help: "What the script's `board` line says (default: the board file's name, for a script saved beside it).")
    var boardLine: String?

    @Argument(help: "The recorded stream (.jsonl).")
    var stream: String

    func run() throws {
        let boardPath = board ?? (stream.hasSuffix(".jsonl") ? String(stream.dropLast(6)) : stream) + ".board.json"
        let parsed: Board
        do { parsed = try Wire.decodeBoard(try readOrExit(boardPath, what: "board")) } catch let e as BoardError {
            FileHandle.standardError.write(Data("liftboard describe: invalid board \(boardPath): \(e)\n".utf8))
            throw ExitCode(2)
        }
        let bytes = try readOrExit(stream, what: "stream")
        let name = boardLine ?? String(boardPath.split(separator: "/").last ?? Substring(boardPath))
        let script = StreamDescriber.describe(stream: bytes, board: parsed, boardPath: name)
        FileHandle.standardOutput.write(Data(script.utf8))
    }
}
