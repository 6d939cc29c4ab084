import ArgumentParser
import Foundation
import LiftboardCore
import LiftboardWire

/// What one drop costs on the server and on the wire, by board size: the dropping session,
/// the hub applying the change, another session taking it, and the `commit` bytes with and
/// without the whole order (`commitOrder`).
struct BenchDrop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Drop-to-commit cost and commit bytes on boards of 1,000 to 1,000,000 items.")

    @Flag(help: "Print one JSON object instead of a table.") var json = false
    @Flag(help: "Small boards only: a smoke run for CI (its numbers mean little).") var quick = false
    @Option(help: "Drops measured per board size (the median is reported).") var drops = 5

    struct Row: Codable {
        var items: Int
        /// The dropping session's `up` until its `.persist` (ms).
        var dropMs: Double
        /// The hub's board taking the commit's change (ms).
        var hubMs: Double
        /// Another session on the board taking the commit (`.external`) (ms).
        var otherSessionMs: Double
        /// Encoding the `commit` for a client, whole order / change only (ms).
        var encodeFullMs: Double
        var encodeNoneMs: Double
        /// The sum: server-side time from the drop to the commit on the other client's wire.
        var dropToCommitMs: Double
        var commitBytesFull: Int
        var commitBytesNone: Int
    }

    func run() throws {
        let sizes = quick ? [1_000, 10_000] : [1_000, 100_000, 1_000_000]
        var rows: [Row] = []
        for n in sizes { rows.append(Self.measure(items: n, drops: max(1, drops))) }
        if json { return try BenchCommand.printJSON(rows: rows) }
        print("items      drop     hub  other session  encode full  encode none  drop-to-commit  commit bytes full  commit bytes none")
        for r in rows {
            print(String(format: "%9d %6.2fms %6.2fms %12.2fms %10.2fms %10.3fms %13.2fms %18d %18d",
                         r.items, r.dropMs, r.hubMs, r.otherSessionMs, r.encodeFullMs, r.encodeNoneMs,
                         r.dropToCommitMs, r.commitBytesFull, r.commitBytesNone))
        }
    }

    /// One list section of `items` rows: the worst case, where every change is in one section.
    static func board(items: Int) -> Board {
        Board(id: "big", layout: .list, sections: [
            Section(id: "all", items: (0..<items).map { Item(id: "i\($0)", label: "Item \($0)") }),
            Section(id: "done", items: []),
        ])
    }

    static func ms(_ f: () -> Void) -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        f()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

    static func measure(items: Int, drops: Int) -> Row {
        var hub = board(items: items)
        var noneConfig = SessionConfig()
        noneConfig.commitOrder = .none
        var dropper = Session(id: "dropper"), other = Session(id: "other")
        let b0 = hub
        _ = dropper.handle(.hello(Hello(board: "big", viewport: Viewport(w: 400, h: 800), config: noneConfig)), at: 0) { _ in b0 }
        _ = other.handle(.hello(Hello(board: "big", viewport: Viewport(w: 400, h: 800), config: noneConfig)), at: 0) { _ in b0 }
        var dropT: [Double] = [], hubT: [Double] = [], otherT: [Double] = [], fullT: [Double] = [], noneT: [Double] = []
        var fullBytes = 0, noneBytes = 0
        var t = 0.0
        for _ in 0..<drops {
            // Lift the first row and drop it two rows down: a change near the top of the section.
            t += 1000
            _ = dropper.handle(.down(pointer: 1, at: Point(x: 100, y: 60), kind: .touch), at: t)
            t += 600
            _ = dropper.handle(.move(pointer: 1, at: Point(x: 100, y: 180)), at: t)
            t += 16
            var out: [ServerEvent] = []
            dropT.append(ms { out = dropper.handle(.up(pointer: 1, at: Point(x: 100, y: 180)), at: t) })
            guard let c = out.compactMap({ if case .persist(let c) = $0 { c } else { nil } }).first else { continue }
            hubT.append(ms { _ = hub.apply(c) })
            otherT.append(ms { _ = other.handle(.external(c), at: t) })
            var bytes: [UInt8] = []
            // The dropper asked for no order: a client that wants it gets the board's (`withOrder`).
            var full = c
            full.order = hub.order
            fullT.append(ms { bytes = Wire.encode(.commit(full), commitOrder: .full) })
            fullBytes = bytes.count
            noneT.append(ms { bytes = Wire.encode(.commit(c), commitOrder: .none) })
            noneBytes = bytes.count
        }
        let row = Row(items: items, dropMs: median(dropT), hubMs: median(hubT), otherSessionMs: median(otherT),
                      encodeFullMs: median(fullT), encodeNoneMs: median(noneT), dropToCommitMs: 0,
                      commitBytesFull: fullBytes, commitBytesNone: noneBytes)
        var r = row
        r.dropToCommitMs = r.dropMs + r.hubMs + r.otherSessionMs + r.encodeNoneMs
        return r
    }
}
