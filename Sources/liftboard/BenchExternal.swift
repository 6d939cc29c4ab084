import Foundation
import LiftboardCore

/// `liftboard bench engine`'s external rows (issue 28): what a session with a drag in flight
/// spends taking another session's commit (`.external`, its change only, as the page asks with
/// `commitOrder: "none"`), applied where the change is and, in the same run, by the whole
/// rebuild it replaced.
extension BenchEngine {
    struct ExternalRow: Codable {
        var layout = "external"
        var cells: Int
        /// Ten sections, rows moved three places; or one section (the fan-out rows' board),
        /// rows moved thirty places, as a `reorder` drag ends.
        var sections = 10
        /// Applied in place: p50 and p99 ns per commit.
        var externalP50Ns: Double
        var externalP99Ns: Double
        /// The same commits by the whole rebuild.
        var wholeRebuildP50Ns: Double
        var wholeRebuildP99Ns: Double
    }

    /// `commits` changes from elsewhere on a list of `cells` rows in ten sections while this
    /// session drags a row of the first: each moves a row three places down, alternately in
    /// the dragged row's section and in the sixth.
    static func measureExternal(cells: Int, commits: Int, whole: Bool, oneSection: Bool = false) -> (p50: Double, p99: Double) {
        var hub = oneSection
            ? Board(id: "bench", layout: .list, sections: [Section(id: "s0", items: (0..<cells).map { Item(id: "i0-\($0)", label: "Item \($0)") })])
            : board(kind: .list, cells: cells)
        var config = SessionConfig()
        config.commitOrder = .none
        var session = Session(id: "bench")
        let b0 = hub
        _ = session.handle(.hello(Hello(board: b0.id, viewport: Viewport(w: 400, h: 800), config: config)), at: 0) { _ in b0 }
        // Lift a row of the first section and drag it two rows down: a drag in flight.
        _ = session.handle(.down(pointer: 1, at: Point(x: 60, y: 92), kind: .touch), at: 0)
        _ = session.fire(at: 600)
        _ = session.handle(.move(pointer: 1, at: Point(x: 60, y: 200)), at: 616)
        let perSection = cells / 10
        var ns: [UInt64] = []
        var t = 616.0
        for k in 0..<commits {
            let s = k % 2 == 0 || oneSection ? 0 : 5
            // Rows well below the dragged one, moved three (thirty) places down, each another.
            let d = oneSection ? 30 : 3
            let i = oneSection ? 40 + (k * 37) % (cells - 80) : 20 + (k / 2) % max(1, perSection - 40)
            let change = Change.insert(id: "i\(s)-\(i)", section: "s\(s)", after: "i\(s)-\(i + d)", index: i + d)
            guard hub.apply(change) != nil else { continue }
            t += 16
            let c = Commit(board: hub.id, version: hub.version, by: "other", moves: [], order: [], change: change)
            let s0 = nowNs()
            _ = session.applyExternal(c, at: t, wholeRebuild: whole)
            ns.append(nowNs() - s0)
        }
        precondition(session.isDragging, "the drag stays in flight")
        return (percentile(ns, 0.5), percentile(ns, 0.99))
    }

    static func externalRows(sizes: [Int], commits: Int) -> [ExternalRow] {
        sizes.map { n in
            let fast = measureExternal(cells: n, commits: commits, whole: false)
            let slow = measureExternal(cells: n, commits: max(50, commits / 10), whole: true)
            return ExternalRow(cells: n, externalP50Ns: fast.p50, externalP99Ns: fast.p99, wholeRebuildP50Ns: slow.p50, wholeRebuildP99Ns: slow.p99)
        }
    }

    /// The fan-out rows' board (`scripts/bench`): one section of 2,248 rows (what `liftboard
    /// load --write-boards` writes for 100 sessions), each commit a row moved thirty places.
    static func oneSectionRow(commits: Int) -> ExternalRow {
        let n = 2_248
        let fast = measureExternal(cells: n, commits: commits, whole: false, oneSection: true)
        let slow = measureExternal(cells: n, commits: max(50, commits / 10), whole: true, oneSection: true)
        return ExternalRow(cells: n, sections: 1, externalP50Ns: fast.p50, externalP99Ns: fast.p99,
                           wholeRebuildP50Ns: slow.p50, wholeRebuildP99Ns: slow.p99)
    }
}
