import ArgumentParser
import Foundation
import LiftboardCore
import LiftboardWire

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmarks that print numbers (build with -c release).",
        subcommands: [BenchEngine.self, BenchDrop.self, BenchTokens.self])

    /// `{"rows": [...]}` on one line, keys sorted: what `scripts/bench` reads.
    static func printJSON<Row: Encodable>(rows: [Row]) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        FileHandle.standardOutput.write(try enc.encode(["rows": rows]) + Data("\n".utf8))
    }
}

/// Drives synthetic drags through `Session` on list and grid boards of growing size, and on
/// columns boards of three columns of growing length (issue 24).
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Cost of a pointer move through Session, of its JSON, and bytes per frame, by board size.")

    @Flag(help: "Print one JSON object instead of a table.") var json = false
    @Flag(help: "Small boards and few moves: a smoke run for CI (its numbers mean little).") var quick = false
    @Flag(help: "Only the tree rows (issue 43) and the list rows they are compared with.") var treesOnly = false
    @Flag(help: "Only how a tree's toggle grows with the board and with the rows it shows or hides (issue 43).") var togglesOnly = false

    struct Row: Codable {
        var layout: String
        var cells: Int
        var sessionP50Ns: Double
        var sessionP99Ns: Double
        var sessionReorderP50Ns: Double
        var sessionReorderP99Ns: Double
        var decodeP50Ns: Double
        var encodeP50Ns: Double
        var foundationDecodeP50Ns: Double
        var bytesPerFrameStill: Double
        var bytesPerFrameReorder: Double
        var reordersPerMove: Double
        /// Columns only: a wheel scrolling the column under the pointer mid-drag (retargeting it).
        var scrollP50Ns: Double? = nil
        var scrollP99Ns: Double? = nil
    }

    func run() throws {
        if togglesOnly { return Self.printToggles(Self.toggleRows(quick: quick)) }
        if treesOnly { return Self.printTree(Self.treeRows(sizes: quick ? [100, 1_000] : [100, 10_000, 100_000], moves: quick ? 2_000 : 20_000)) }
        let sizes = quick ? [1_000, 5_000] : [1_000, 10_000, 100_000]
        let moves = quick ? 2_000 : 20_000
        var rows: [Row] = []
        for kind in [LayoutKind.list, .grid] {
            for n in sizes { rows.append(Self.measure(kind: kind, cells: n, moves: moves)) }
        }
        // Columns: `cells` is the cards of each of the three columns.
        let columnSizes = quick ? [100, 1_000] : [100, 1_000, 10_000, 100_000]
        for n in columnSizes { rows.append(Self.measureColumns(cardsPerColumn: n, moves: moves)) }
        let externalSizes = quick ? [1_000, 5_000] : [1_000, 100_000]
        let external = Self.externalRows(sizes: externalSizes, commits: quick ? 200 : 2_000)
        let oneSection = Self.oneSectionRow(commits: quick ? 200 : 2_000)
        let trees = Self.treeRows(sizes: quick ? [100, 1_000] : [100, 10_000, 100_000], moves: moves)
        if json {
            return try BenchCommand.printJSON(rows: rows.map(EngineRow.move) + external.map(EngineRow.external) + [.external(oneSection)]
                                              + trees.map(EngineRow.tree))
        }
        Self.printTree(trees)
        print("layout  cells    move p50  move p99  reorder p50  reorder p99  decode p50  encode p50  Foundation decode  bytes/frame still  bytes/frame reorder")
        for r in rows {
            print(String(format: "%-6@ %7d %8.0fns %8.0fns %10.0fns %10.0fns %9.0fns %9.0fns %16.0fns %18.0f %20.0f",
                         r.layout as NSString, r.cells, r.sessionP50Ns, r.sessionP99Ns, r.sessionReorderP50Ns, r.sessionReorderP99Ns,
                         r.decodeP50Ns, r.encodeP50Ns, r.foundationDecodeP50Ns, r.bytesPerFrameStill, r.bytesPerFrameReorder))
        }
        let small = rows.filter { $0.cells == sizes.first! && $0.layout != "columns" }
        let large = rows.filter { $0.cells == sizes.last! && $0.layout != "columns" }
        for (s, l) in zip(small, large) {
            print(String(format: "%@: move p50 at %d cells / at %d cells = %.2fx", s.layout, l.cells, s.cells, l.sessionP50Ns / s.sessionP50Ns))
        }
        let columns = rows.filter { $0.layout == "columns" }
        for r in columns {
            print(String(format: "columns: %d cards a column: wheel scroll mid-drag p50 %.0fns p99 %.0fns",
                         r.cells, r.scrollP50Ns ?? 0, r.scrollP99Ns ?? 0))
        }
        for r in external {
            print(String(format: "external commit mid-drag, list of %d rows: in place p50 %.0fns p99 %.0fns; whole rebuild p50 %.0fns p99 %.0fns",
                         r.cells, r.externalP50Ns, r.externalP99Ns, r.wholeRebuildP50Ns, r.wholeRebuildP99Ns))
        }
        print(String(format: "external commit mid-drag, one section of %d rows, rows moved 30 places: in place p50 %.0fns p99 %.0fns; whole rebuild p50 %.0fns p99 %.0fns",
                     oneSection.cells, oneSection.externalP50Ns, oneSection.externalP99Ns, oneSection.wholeRebuildP50Ns, oneSection.wholeRebuildP99Ns))
        if let s = external.first, let l = external.last {
            print(String(format: "external commit mid-drag: p50 at %d rows / at %d rows = %.2fx in place, %.2fx by the whole rebuild",
                         l.cells, s.cells, l.externalP50Ns / s.externalP50Ns, l.wholeRebuildP50Ns / s.wholeRebuildP50Ns))
        }
        if let s = columns.first, let l = columns.last {
            print(String(format: "columns: move p50 at %d cards a column / at %d = %.2fx; reorder p50 %.2fx; wheel scroll p50 %.2fx",
                         l.cells, s.cells, l.sessionP50Ns / s.sessionP50Ns, l.sessionReorderP50Ns / s.sessionReorderP50Ns,
                         (l.scrollP50Ns ?? 0) / max(1, s.scrollP50Ns ?? 1)))
        }
    }

    /// A row of `--json`: a move row, or an external row (`layout: "external"`).
    enum EngineRow: Encodable {
        case move(Row)
        case external(ExternalRow)
        case tree(TreeRow)
        func encode(to encoder: Encoder) throws {
            switch self {
            case .move(let r): try r.encode(to: encoder)
            case .external(let r): try r.encode(to: encoder)
            case .tree(let r): try r.encode(to: encoder)
            }
        }
    }

    static func board(kind: LayoutKind, cells: Int) -> Board {
        let perSection = cells / 10
        return Board(id: "bench", layout: kind, sections: (0..<10).map { s in
            Section(id: "s\(s)", items: (0..<perSection).map { i in
                Item(id: "i\(s)-\(i)", label: "Item \(s)-\(i)", height: kind == .list && i % 3 == 0 ? 80 : nil)
            })
        })
    }

    static func nowNs() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Timed moves: each input's time in the session, its frames' encoded bytes, its reorders.
    struct MoveTally {
        var ns: [UInt64] = [], bytes = 0, frames = 0, reorders = 0
        var bytesPerFrame: Double { Double(bytes) / Double(max(1, frames)) }

        mutating func time(_ session: inout Session, _ event: ClientEvent, at t: Double, buffer: inout [UInt8]) {
            let s0 = nowNs()
            let out = session.handle(event, at: t)
            ns.append(nowNs() - s0)
            for e in out {
                if case .moved = e { reorders += 1 }
                guard case .frame = e else { continue }
                buffer.removeAll(keepingCapacity: true)
                Wire.encode(e, into: &buffer)
                bytes += buffer.count
                frames += 1
            }
        }
    }

    /// Three columns of `n` cards each (every third card 80 tall).
    static func columnsBoard(cardsPerColumn n: Int) -> Board {
        Board(id: "bench", layout: .columns, columns: ColumnMetrics(), sections: (0..<3).map { s in
            Section(id: "c\(s)", items: (0..<n).map { i in
                Item(id: "i\(s)-\(i)", label: "Card \(s)-\(i)", height: i % 3 == 0 ? 80 : nil)
            })
        })
    }

    /// A card of column 0 lifted and moved: trembling in place (still), then sweeping up and
    /// down, going to column 1 and back every 40 moves (reorder: passing cards and entering
    /// columns), then wheel scrolls of the column under the pointer (each retargets the drag).
    static func measureColumns(cardsPerColumn n: Int, moves: Int) -> Row {
        let b = columnsBoard(cardsPerColumn: n)
        var session = Session(id: "bench")
        _ = session.handle(.hello(Hello(board: b.id, viewport: Viewport(w: 900, h: 800))), at: 0) { _ in b }
        let start = Point(x: 140, y: 80)
        _ = session.handle(.down(pointer: 1, at: start, kind: .touch), at: 0)
        _ = session.fire(at: 600)
        var t = 600.0
        var buffer: [UInt8] = []
        var still = MoveTally()
        for k in 0..<moves {
            t += 1
            let p = Point(x: start.x + Double(k % 7) - 3, y: start.y + Double(k % 11) - 5)
            still.time(&session, .move(pointer: 1, at: p), at: t, buffer: &buffer)
        }
        var sweep = MoveTally()
        var y = start.y, dy = 7.0
        for k in 0..<moves {
            t += 1
            y += dy
            if y > 700 || y < 60 { dy = -dy }
            let x = (k / 40) % 2 == 0 ? 140.0 : 430.0
            sweep.time(&session, .move(pointer: 1, at: Point(x: x, y: y)), at: t, buffer: &buffer)
        }
        // Park the pointer mid-column (no edge band), then scroll that column under it.
        t += 1
        _ = session.handle(.move(pointer: 1, at: Point(x: 430, y: 400)), at: t)
        var scroll: [UInt64] = []
        for k in 0..<moves {
            t += 1
            let d = (k / 50) % 2 == 0 ? 37.0 : -37.0
            let s0 = nowNs()
            _ = session.handle(.wheel(dx: 0, dy: d, at: Point(x: 430, y: 400)), at: t)
            scroll.append(nowNs() - s0)
        }
        return Row(layout: "columns", cells: n,
                   sessionP50Ns: percentile(still.ns, 0.5), sessionP99Ns: percentile(still.ns, 0.99),
                   sessionReorderP50Ns: percentile(sweep.ns, 0.5), sessionReorderP99Ns: percentile(sweep.ns, 0.99),
                   decodeP50Ns: 0, encodeP50Ns: 0, foundationDecodeP50Ns: 0,
                   bytesPerFrameStill: still.bytesPerFrame,
                   bytesPerFrameReorder: sweep.bytesPerFrame,
                   reordersPerMove: Double(sweep.reorders) / Double(moves),
                   scrollP50Ns: percentile(scroll, 0.5), scrollP99Ns: percentile(scroll, 0.99))
    }

    static func percentile(_ xs: [UInt64], _ p: Double) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? 0 : Double(s[min(s.count - 1, Int(Double(s.count) * p))])
    }

    static func measure(kind: LayoutKind, cells: Int, moves: Int, board given: Board? = nil) -> Row {
        let b = given ?? board(kind: kind, cells: cells)
        var session = Session(id: "bench")
        _ = session.handle(.hello(Hello(board: b.id, viewport: Viewport(w: 400, h: 800))), at: 0) { _ in b }
        let start = Point(x: 60, y: 92)
        _ = session.handle(.down(pointer: 1, at: start, kind: .touch), at: 0)
        _ = session.fire(at: 600)
        var t = 600.0
        // Still: the finger trembles within its own cell: no reorder.
        var still: [UInt64] = [], stillBytes = 0, stillFrames = 0
        var decode: [UInt64] = [], encode: [UInt64] = [], foundation: [UInt64] = []
        var buffer: [UInt8] = []
        for k in 0..<moves {
            t += 1
            let p = Point(x: start.x + Double(k % 7) - 3, y: start.y + Double(k % 11) - 5)
            let line = Array(#"{"t":"move","p":1,"x":\#(p.x),"y":\#(p.y),"ms":\#(t),"seq":\#(k)}"#.utf8)
            let d0 = nowNs()
            let decoded = Wire.decodeClient(line)
            let d1 = nowNs()
            decode.append(d1 - d0)
            if k % 4 == 0 {
                let f0 = nowNs()
                _ = try? JSONSerialization.jsonObject(with: Data(line))
                foundation.append(nowNs() - f0)
            }
            guard case .success(let m) = decoded else { continue }
            let s0 = nowNs()
            let out = session.handle(m.event, seq: m.seq, at: t)
            still.append(nowNs() - s0)
            for e in out {
                buffer.removeAll(keepingCapacity: true)
                let e0 = nowNs()
                Wire.encode(e, into: &buffer)
                encode.append(nowNs() - e0)
                if case .frame = e { stillBytes += buffer.count; stillFrames += 1 }
            }
        }
        // Reorder: the finger sweeps up and down across the viewport, passing cells.
        var sweep = MoveTally()
        var y = start.y, dy = 7.0
        for k in 0..<moves {
            t += 1
            y += dy
            if y > 700 || y < 60 { dy = -dy }
            let x = kind == .grid ? 60 + Double((k / 40) % 3) * 128 : start.x
            sweep.time(&session, .move(pointer: 1, at: Point(x: x, y: y)), at: t, buffer: &buffer)
        }
        return Row(layout: kind.rawValue, cells: cells,
                   sessionP50Ns: percentile(still, 0.5), sessionP99Ns: percentile(still, 0.99),
                   sessionReorderP50Ns: percentile(sweep.ns, 0.5), sessionReorderP99Ns: percentile(sweep.ns, 0.99),
                   decodeP50Ns: percentile(decode, 0.5), encodeP50Ns: percentile(encode, 0.5),
                   foundationDecodeP50Ns: percentile(foundation, 0.5),
                   bytesPerFrameStill: Double(stillBytes) / Double(max(1, stillFrames)),
                   bytesPerFrameReorder: sweep.bytesPerFrame,
                   reordersPerMove: Double(sweep.reorders) / Double(moves))
    }
}
