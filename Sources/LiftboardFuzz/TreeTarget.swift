import LiftboardCore
import LiftboardWire

/// The `tree` target (issue 43): the session target's inputs on tree boards, with a tree's
/// invariants besides the engine's (`Session.invariantViolations` checks the session's forest
/// and its visible rows after every event): no commit loses, doubles or nests an item under
/// itself; every depth stays within its section's bounds and no leaf gets children; the tree a
/// commit carries (`order[].parents`) is the one its change makes; and a drop's commit puts
/// the item where its live row was at the drop (its parent and depth), its subtree unchanged.
func fuzzTree(_ bytes: UnsafeRawBufferPointer) { fuzzSession(bytes, on: treeBoards) }

/// The tree boards: the golden outline boards (their streams are the seed corpus), and one
/// with rules, a pinned row, a deep forest and two sections.
let treeBoards: [Board] = [
    try! Wire.decodeBoard(Array("""
    {"id":"outline","layout":"tree","tree":{"indent":24},"list":{"rowHeight":44,"headerHeight":32,"spacing":0},\
    "sections":[{"id":"home","title":"Home","maxDepth":2,"items":[{"id":"groceries","label":"Groceries","children":[\
    {"id":"milk","label":"Milk"},{"id":"eggs","label":"Eggs","leaf":true}]},\
    {"id":"garden","label":"Garden","collapsed":true,"children":[{"id":"seeds","label":"Seeds"}]},\
    {"id":"bills","label":"Bills"}]},{"id":"work","title":"Work","items":[]}]}
    """.utf8)),
    try! Wire.decodeBoard(Array("""
    {"id":"shallow","layout":"tree","tree":{"indent":24},"list":{"rowHeight":44,"headerHeight":32,"spacing":0},\
    "sections":[{"id":"plan","title":"Plan","maxDepth":1,"items":[{"id":"x","label":"X","children":[{"id":"y","label":"Y"}]},\
    {"id":"z","label":"Z","children":[{"id":"w","label":"W"}]},{"id":"q","label":"Q"}]}]}
    """.utf8)),
    try! Wire.decodeBoard(Array("""
    {"id":"deep","layout":"tree","tree":{"indent":16},"list":{"rowHeight":30,"headerHeight":20,"spacing":2},\
    "sections":[{"id":"palette","copy":true,"items":[{"id":"t1","kind":"bug","children":[{"id":"t2","kind":"bug"}]}]},\
    {"id":"main","items":[{"id":"a","children":[{"id":"b","height":60,"children":[{"id":"c","children":[{"id":"d"}]}]},\
    {"id":"e","leaf":true}]},{"id":"p","movable":false,"children":[{"id":"f"}]},{"id":"g","collapsed":true,"children":[\
    {"id":"h","children":[{"id":"i"}]}]},{"id":"j"}]},\
    {"id":"bugs","accepts":["bug"],"max":3,"maxDepth":1,"items":[{"id":"x","kind":"bug"}]},\
    {"id":"bin","drop":"remove","items":[]}]}
    """.utf8)),
]

extension SessionUnderTest {
    /// A tree's checks of commit `c` of this session, which took `board` to `next`;
    /// `atDrop`, the live rows at the drop that made it (nil: no drop made it).
    func checkTreeCommit(_ c: Commit, from board: Board, to next: Board, atDrop: [[(id: String, depth: Int)]]?) {
        guard next.layout == .tree else { return }
        for s in next.sections {
            let depths = s.items.map(\.depth)
            if !zip([-1] + depths, depths).allSatisfy({ $1 >= 0 && $1 <= $0 + 1 }) { fatalError("commit v\(c.version): section \(s.id)'s depths \(depths) are no forest") }
            let deepest = min(s.maxDepth ?? 32, 32)
            for (k, item) in s.items.enumerated() {
                if item.depth > deepest { fatalError("commit v\(c.version): \(item.id) at depth \(item.depth) in \(s.id), past \(deepest)") }
                if item.leaf && k + 1 < s.items.count && s.items[k + 1].depth > item.depth {
                    fatalError("commit v\(c.version): leaf \(item.id) got children")
                }
            }
        }
        if c.order != next.order && !c.order.isEmpty { fatalError("commit v\(c.version): its order \(c.order) is not its change's \(next.order)") }
        guard case .move(let x, let sid, let parent, _, _)? = c.change else { return }
        // The subtree went whole, its shape kept.
        func subtree(_ b: Board) -> [(String, Int)] {
            guard let (s, i) = b.locate(item: x) else { return [] }
            let items = b.sections[s].items
            let end = items[(i + 1)...].firstIndex { $0.depth <= items[i].depth } ?? items.count
            return items[i..<end].map { ($0.id, $0.depth - items[i].depth) }
        }
        if !subtree(board).elementsEqual(subtree(next), by: ==) { fatalError("commit v\(c.version): \(x)'s subtree changed shape") }
        // Where the live row was at the drop: its section, its parent (the nearest row above
        // less deep that no other drag holds: those travel with their fingers) and its depth
        // (one under that parent's: less than the row's own only below another drag's row).
        guard let rows = atDrop, let s = rows.firstIndex(where: { $0.contains { $0.id == x } }),
              let i = rows[s].firstIndex(where: { $0.id == x }) else { return }
        let row = rows[s][..<i].last { $0.depth < rows[s][i].depth && !heldAtDrop.contains($0.id) }
        let liveParent = row?.id, depth = row.map { $0.depth + 1 } ?? 0
        guard let (ns, ni) = next.locate(item: x) else { fatalError("commit v\(c.version) lost \(x)") }
        if next.sections[s].id != sid || ns != s || liveParent != parent || next.sections[ns].items[ni].depth != depth {
            fatalError("commit v\(c.version): \(x) under \(parent ?? "-") in \(sid) at depth \(next.sections[ns].items[ni].depth); " +
                       "its row was under \(liveParent ?? "-") in \(next.sections[s].id) at depth \(depth): \(rows[s])")
        }
    }
}

extension Board {
    /// A tree board after a move another process might have made: a random item under a random
    /// parent (or none) after a random sibling, as `TreeOrder.plan` places it; nil when moot.
    func withAnotherProcessesTreeMove(_ reader: inout ByteReader) -> Board? {
        let items = sections.flatMap(\.items)
        guard !items.isEmpty else { return nil }
        let pick = { (r: inout ByteReader) -> String? in r.byte() % 3 == 0 ? nil : items[Int(r.byte()) % items.count].id }
        let id = items[Int(reader.byte()) % items.count].id
        let section = sections[Int(reader.byte()) % sections.count].id
        var next = self
        let change = Change.move(id, section: section, parent: pick(&reader), after: pick(&reader), index: Int(reader.byte() % 4))
        guard next.apply(change) != nil else { return nil }
        return next
    }
}
