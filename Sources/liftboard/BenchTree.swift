import Foundation
import LiftboardCore

/// Tree rows of `liftboard bench engine` (issue 43): a pointer move through a tree of 100 and
/// 100,000 nodes, mostly collapsed or mostly expanded, beside the list of the same size; and a
/// toggle of a group of rows.
extension BenchEngine {
    /// Ten sections of groups of `group`: a top-level item and its `group - 1` children (every
    /// third row 80 tall, as the list's), each group collapsed or expanded.
    static func treeBoard(cells: Int, collapsed: Bool, group: Int = 10) -> Board {
        let perSection = max(group, cells / 10)
        var b = Board(id: "bench", layout: .tree, sections: (0..<10).map { s in
            Section(id: "s\(s)", items: (0..<perSection).map { i in
                var item = Item(id: "i\(s)-\(i)", label: "Item \(s)-\(i)", height: i % 3 == 0 ? 80 : nil)
                item.depth = i % group == 0 ? 0 : 1
                item.collapsed = collapsed && i % group == 0
                return item
            })
        })
        b.tree = TreeMetrics(indent: 24)
        return b
    }

    struct TreeRow: Codable {
        var layout: String
        var cells: Int
        var sessionP50Ns: Double
        var sessionReorderP50Ns: Double
        var listP50Ns: Double
        var listReorderP50Ns: Double
        /// A `toggle` of a group's top item (nine rows leaving or entering).
        var toggleP50Ns: Double
        /// The same toggle with a drag in flight in the toggled section, its row after the group's.
        var toggleDragP50Ns: Double
    }

    static func treeRows(sizes: [Int], moves: Int) -> [TreeRow] {
        var rows: [TreeRow] = []
        for n in sizes {
            let list = measure(kind: .list, cells: n, moves: moves)
            for collapsed in [true, false] {
                let b = treeBoard(cells: n, collapsed: collapsed)
                let r = measure(kind: .tree, cells: n, moves: moves, board: b)
                rows.append(TreeRow(layout: collapsed ? "tree-collapsed" : "tree-expanded", cells: n,
                                    sessionP50Ns: r.sessionP50Ns, sessionReorderP50Ns: r.sessionReorderP50Ns,
                                    listP50Ns: list.sessionP50Ns, listReorderP50Ns: list.sessionReorderP50Ns,
                                    toggleP50Ns: toggleP50(b, toggles: min(moves, 2_000)),
                                    toggleDragP50Ns: toggleP50(b, toggles: min(moves, 2_000), dragging: true)))
            }
        }
        return rows
    }

    /// The time of a `toggle` of the first group of the board's middle section, over and over;
    /// `dragging`: of the first section's first group, with its second group's top lifted by
    /// the keyboard (a drag's row among the rows after the toggled ones).
    static func toggleP50(_ b: Board, toggles: Int, dragging: Bool = false) -> Double {
        var session = Session(id: "bench")
        _ = session.handle(.hello(Hello(board: b.id, viewport: Viewport(w: 400, h: 800))), at: 0) { _ in b }
        let id = b.sections[dragging ? 0 : 5].items[0].id
        var t = 1.0
        if dragging {
            // The first key focuses the first row; the second group's top is the next row
            // when the first group is collapsed, the tenth after it when expanded.
            let down = b.sections[0].items[0].collapsed ? 1 : b.sections[0].items.dropFirst().firstIndex { $0.depth == 0 } ?? 1
            for key in ["Tab"] + Array(repeating: "ArrowDown", count: down) + [" "] {
                _ = session.handle(.key(key), at: t)
                t += 1
            }
        }
        var ns: [UInt64] = []
        for _ in 0..<toggles {
            t += 1
            let s0 = nowNs()
            _ = session.handle(.toggle(id: id), at: t)
            ns.append(nowNs() - s0)
        }
        return percentile(ns, 0.5)
    }

    /// How a toggle grows (issue 43, "Big trees stay flat"): toggles of k = `group - 1` rows on
    /// boards of growing size (10 sections, so a section is a tenth of the nodes), and of
    /// growing k at 100,000 nodes.
    struct ToggleRow: Codable {
        var layout: String
        var cells: Int
        var rows: Int
        var toggleP50Ns: Double
        var toggleDragP50Ns: Double
    }

    static func toggleRows(quick: Bool) -> [ToggleRow] {
        let cases = quick ? [(1_000, 10), (10_000, 10), (10_000, 100)]
            : [(10_000, 10), (100_000, 10), (1_000_000, 10), (100_000, 100), (100_000, 1_000)]
        var rows: [ToggleRow] = []
        for (n, group) in cases {
            for collapsed in [true, false] {
                let b = treeBoard(cells: n, collapsed: collapsed, group: group)
                let toggles = n >= 1_000_000 ? 500 : 2_000
                rows.append(ToggleRow(layout: collapsed ? "tree-collapsed" : "tree-expanded", cells: n, rows: group - 1,
                                      toggleP50Ns: toggleP50(b, toggles: toggles),
                                      toggleDragP50Ns: toggleP50(b, toggles: toggles, dragging: true)))
            }
        }
        return rows
    }

    static func printToggles(_ rows: [ToggleRow]) {
        print("toggle          cells   rows k  section rows  toggle p50  in a drag")
        for r in rows {
            let sectionRows = r.layout == "tree-collapsed" ? r.cells / 10 / (r.rows + 1) : r.cells / 10
            print(String(format: "%-15@ %7d %8d %13d %10.1fµs %9.1fµs", r.layout as NSString, r.cells, r.rows, sectionRows,
                         r.toggleP50Ns / 1_000, r.toggleDragP50Ns / 1_000))
        }
    }

    static func printTree(_ rows: [TreeRow]) {
        print("tree            cells   move p50  (list)   reorder p50  (list)   toggle p50  in a drag  move/list")
        for r in rows {
            print(String(format: "%-15@ %7d %8.0fns %8.0fns %10.0fns %8.0fns %10.0fns %9.0fns %8.2fx",
                         r.layout as NSString, r.cells, r.sessionP50Ns, r.listP50Ns, r.sessionReorderP50Ns, r.listReorderP50Ns,
                         r.toggleP50Ns, r.toggleDragP50Ns, r.sessionP50Ns / max(1, r.listP50Ns)))
        }
    }
}
