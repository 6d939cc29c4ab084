import Foundation
import Testing
import LiftboardCore
@testable import LiftboardServer

/// The server's log lines: the commit's line (built piece by piece into the server's kept
/// bytes) is written at its level, exactly as the String line writes it, and both share the
/// per-kind limit.
@Suite struct ServerLogTests {
    final class Written { var lines: [String] = [] }

    static func server(level: LogLevel) -> (Server, Written) {
        var config = ServerConfig(publicDir: FileManager.default.temporaryDirectory.path, boards: [])
        config.logLevel = level
        let server = Server(config: config)
        let written = Written()
        server.logger.write = { written.lines.append(String(decoding: $0, as: UTF8.self)) }
        return (server, written)
    }

    static let commit = Commit(board: "team-board", version: 1_234, by: "s1",
                               moves: [Move(id: "a", from: Place(section: "todo", index: 0), to: Place(section: "done", index: 3)),
                                       Move(id: "card-ü 2", from: Place(section: "in progress", index: 12), to: Place(section: "todo", index: 0))],
                               order: [])

    @Test func theCommitsLineIsWrittenAtItsLevelAsTheStringLineWritesIt() {
        let (server, written) = Self.server(level: .info)
        server.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
        server.log(.info, "commit", session: "s1", Hub.logDetail(of: Self.commit))
        server.log(.info, "listen", session: nil, "http://127.0.0.1:8080/")
        let expected = "liftboard info commit session=s1 board team-board v1234: a todo[0]->done[3], card-ü 2 in progress[12]->todo[0]\n"
        #expect(written.lines == [expected, expected, "liftboard info listen http://127.0.0.1:8080/\n"])
        // A long line grows the kept bytes; the next line is still only its own.
        let long = Commit(board: "b", version: 1, by: "s1",
                          moves: (0..<400).map { Move(id: "i\($0)", from: Place(section: "s", index: $0), to: Place(section: "s", index: $0 + 1)) },
                          order: [])
        server.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: long, into: $0) }
        server.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
        #expect(written.lines.count == 5 && written.lines[3] == "liftboard info commit session=s1 \(Hub.logDetail(of: long))\n")
        #expect(written.lines.last == expected)
    }

    @Test func belowItsLevelNothingIsWrittenAndAboveItEverything() {
        let (quiet, none) = Self.server(level: .warn)
        quiet.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
        quiet.log(.info, "commit", session: "s1", Hub.logDetail(of: Self.commit))
        quiet.log(.warn, "board", session: nil, "b breaks the board limits")
        #expect(none.lines == ["liftboard warn board b breaks the board limits\n"])
        let (loud, all) = Self.server(level: .debug)
        loud.log(.debug, "durable", session: "s2", "board b v3 durable 4 ms after the drop")
        loud.log(.info, "commit", session: "s2", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
        #expect(all.lines.count == 2 && all.lines[0] == "liftboard debug durable session=s2 board b v3 durable 4 ms after the drop\n")
    }

    /// Both forms of the commit's line count against one limit of 20 a second, and the next
    /// line written says how many were left out. The second passes at once: the server's clock
    /// is moved on (its origin moved back), not waited for.
    @Test func commitLinesPastTwentyASecondAreLeftOutAndCountedOnTheNext() throws {
        let (server, written) = Self.server(level: .info)
        let start = server.now
        for k in 0..<25 {
            if k.isMultiple(of: 2) {
                server.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
            } else {
                server.log(.info, "commit", session: "s1", Hub.logDetail(of: Self.commit))
            }
        }
        #expect(written.lines.count == 20)
        // Within the same second (25 lines take microseconds; a slower run would fail, not pass).
        #expect(server.now - start < 1_000, "the 25 lines took \(server.now - start) ms")
        server.started -= 1_100_000_000
        server.log(.info, "commit", session: "s1", kind: Hub.commitLogKind) { Hub.logDetail(of: Self.commit, into: $0) }
        let last = try #require(written.lines.last)
        #expect(written.lines.count == 21 && last.hasSuffix("todo[0] (5 similar lines left out)\n"))
    }

    /// A line's numbers are written as `String(n)` writes them, at any size and sign, and after
    /// text that filled the line's first memory.
    @Test func aLinesNumbersAreTheirStringForms() {
        let line = LogLine()
        let values = [0, 7, -7, 9, 10, -10, 99, 100, 12_345, -987_654_321, Int.max, Int.min]
        for n in values {
            line.removeAll()
            line.appendDecimal(n)
            #expect(line.text == String(n))
        }
        line.removeAll()
        line.append(String(repeating: "x", count: 250))
        for n in values { line.append(byte: 32); line.appendDecimal(n) }
        #expect(line.text == String(repeating: "x", count: 250) + values.map { " \(String($0))" }.joined())
    }
}
