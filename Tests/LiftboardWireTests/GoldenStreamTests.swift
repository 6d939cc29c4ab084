import Foundation
import Testing
import LiftboardCore
import LiftboardWire

/// Replays every `Golden/*.jsonl` stream and compares the output with its
/// `.expected.jsonl`, byte for byte. A golden file changes only on purpose:
/// `LIFTBOARD_UPDATE_GOLDEN=1 swift test` rewrites them, and the diff is reviewed.
@Suite struct GoldenStreamTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let updating = ProcessInfo.processInfo.environment["LIFTBOARD_UPDATE_GOLDEN"] == "1"

    static var streams: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted()
    }

    @Test func thereAreGoldenStreamsForEveryGesture() {
        #expect(Self.streams.count >= 15)
    }

    @Test(arguments: streams)
    func replayingTheStreamGivesTheExpectedBytes(stream: String) throws {
        let url = Self.folder.appendingPathComponent(stream)
        let bytes = [UInt8](try Data(contentsOf: url))
        let firstLine = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        guard firstLine.hasPrefix("# board: ") else {
            Issue.record("\(stream): the first line must be `# board: FILE`"); return
        }
        let boardFile = Self.folder.appendingPathComponent("boards").appendingPathComponent(String(firstLine.dropFirst(9)))
        let board = try Wire.decodeBoard([UInt8](try Data(contentsOf: boardFile)))
        var out: [UInt8] = []
        #expect(Replay.run(board: board, stream: bytes, output: &out) == .finished)
        var again: [UInt8] = []
        _ = Replay.run(board: board, stream: bytes, output: &again)
        #expect(out == again, "\(stream): two replays differ")
        let expectedURL = Self.folder.appendingPathComponent(stream.replacingOccurrences(of: ".jsonl", with: ".expected.jsonl"))
        if Self.updating {
            try Data(out).write(to: expectedURL)
            return
        }
        guard let expected = FileManager.default.contents(atPath: expectedURL.path) else {
            Issue.record("\(stream): no expected output; run LIFTBOARD_UPDATE_GOLDEN=1 swift test and review it"); return
        }
        if [UInt8](expected) != out {
            let e = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let o = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let k = zip(e, o).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, o.count)
            Issue.record("\(stream): output differs at line \(k + 1)\nexpected: \(k < e.count ? e[k] : "(end)")\nactual:   \(k < o.count ? o[k] : "(end)")")
        }
    }
}
