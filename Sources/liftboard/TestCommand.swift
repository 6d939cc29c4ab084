import ArgumentParser
import Foundation
import LiftboardScript

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run gesture scripts (drag a after c, expect order todo: ...) headless, through the server's own session.",
        discussion: """
            Each script is compiled into a replay stream by driving the very session the server \
            runs, and each `expect` line is checked where it stands. A failure prints FILE:LINE:, \
            the step, and what was expected and what happened; the last line is `N passed, M \
            failed`. Exit status: 0 when every script passed, 1 when one failed, 2 when one could \
            not be read. docs/testing.md describes the steps.
            """)

    @Option(name: .long, help: "The board file, instead of each script's `board` line.")
    var board: String?

    @Option(name: .long, help: "Also write the results as JUnit XML to this file.")
    var junit: String?

    @Flag(name: .long, help: "Print the stream one script compiles to (the JSON lines `liftboard replay` takes) instead of a report.")
    var emitStream = false

    @Argument(help: "The scripts (.lbtest).")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one script") }
        if emitStream, files.count != 1 { throw ValidationError("--emit-stream takes one script") }
    }

    func run() throws {
        let read: (String) -> [UInt8]? = { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        if emitStream {
            let r = ScriptFile.run(path: files[0], board: board, keepGoing: true, read: read)
            var out: [UInt8] = []
            for line in r.stream { out += line; out.append(0x0A) }
            FileHandle.standardOutput.write(Data(out))
            if r.outcome != .passed {
                FileHandle.standardError.write(Data(TestReport.text(r).utf8))
            }
            let status = TestReport.exitStatus([r])
            if status != 0 { throw ExitCode(status) }
            return
        }
        var results: [ScriptResult] = []
        for f in files {
            let r = ScriptFile.run(path: f, board: board, read: read)
            FileHandle.standardOutput.write(Data(TestReport.text(r).utf8))
            results.append(r)
        }
        FileHandle.standardOutput.write(Data(TestReport.summary(results).utf8))
        if let junit {
            guard FileManager.default.createFile(atPath: junit, contents: Data(JUnitWriter.xml(results).utf8)) else {
                FileHandle.standardError.write(Data("liftboard test: cannot write \(junit)\n".utf8))
                throw ExitCode(2)
            }
        }
        let status = TestReport.exitStatus(results)
        if status != 0 { throw ExitCode(status) }
    }
}
