import Foundation
import Testing
import LiftboardCore
import LiftboardWire

/// The worked examples of docs/protocol.md's gesture rules (ContractExamples/README.md; each
/// folder a board, a stream and the commits the rules give): replaying the stream must
/// give exactly those commits: board, version, moves and order (`by` is the replay's fixed
/// session id, and `change` is ours to add).
@Suite struct ContractExampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ContractExamples")

    static var examples: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.contains(".") }.sorted()
    }

    @Test func everyWorkedExampleIsHere() {
        #expect(Self.examples == [
            "autoscroll-two", "commit-one-change", "grid-blank-end", "grid-cell-slides-under",
            "grid-cell-slides-under-swap", "grid-first-header", "grid-held-entered", "grid-own-header-from-above",
            "grid-pinned-entered", "presence-delta",
            "swap-back-by-header", "swap-cancel", "swap-target", "swap-target-held",
            "tree-across-sections", "tree-cancel", "tree-clamps", "tree-collapsed-stays", "tree-depth-sideways",
            "tree-maxdepth-leaf", "tree-two-fingers", "tree-undo",
        ])
    }

    /// The members of a commit line the contract fixes, as canonical JSON.
    static func essentials(_ line: Substring) throws -> String {
        var obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        obj.removeValue(forKey: "by")
        obj.removeValue(forKey: "change")
        return String(decoding: try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: examples.filter { $0 != "presence-delta" })
    func replayingTheExampleGivesTheContractsCommits(example: String) throws {
        let dir = Self.folder.appendingPathComponent(example)
        let board = try Wire.decodeBoard([UInt8](try Data(contentsOf: dir.appendingPathComponent("board.json"))))
        let stream = [UInt8](try Data(contentsOf: dir.appendingPathComponent("stream.jsonl")))
        var out: [UInt8] = []
        #expect(Replay.run(board: board, stream: stream, output: &out) == .finished)
        let got = try String(decoding: out, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("{\"t\":\"commit\"") }.map(Self.essentials)
        let want = try String(decoding: try Data(contentsOf: dir.appendingPathComponent("expected.jsonl")), as: UTF8.self)
            .split(separator: "\n").filter { !$0.isEmpty }.map(Self.essentials)
        #expect(got == want)
    }

    /// Issue 44's worked example (`presence-delta/`): the `presence` lines are the point, byte
    /// for byte (each is what a client that asked for differences is sent, `v` included).
    @Test func presenceAsDifferencesIsSentAsTheExampleShows() throws {
        let dir = Self.folder.appendingPathComponent("presence-delta")
        let board = try Wire.decodeBoard([UInt8](try Data(contentsOf: dir.appendingPathComponent("board.json"))))
        let stream = [UInt8](try Data(contentsOf: dir.appendingPathComponent("stream.jsonl")))
        var out: [UInt8] = []
        #expect(Replay.run(board: board, stream: stream, output: &out) == .finished)
        let got = String(decoding: out, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("{\"t\":\"presence\"") }
        let want = String(decoding: try Data(contentsOf: dir.appendingPathComponent("expected.jsonl")), as: UTF8.self)
            .split(separator: "\n").filter { !$0.isEmpty }
        #expect(got == want)
    }
}
