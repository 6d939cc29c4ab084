import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// Placement rules in the SQLite store (issue 23): kinds, handles and section rules kept; a
/// change that breaks a rule on the stored order refused; a colliding copy renamed; an edit
/// batch written in one version.
@Suite struct RulesStoreTests {
    @Test func theStoreRefusesAChangeThatBreaksARuleOnItsOrderAndRenamesACollidingCopy() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        let board = Board(id: "race", sections: [
            Section(id: "todo", items: [Item(id: "a", label: "A", color: "#1"), Item(id: "b", label: "B", color: "#2")]),
            Section(id: "doing", items: [], max: 1),
            Section(id: "palette", items: [Item(id: "p", label: "P", color: "#3")], copy: true),
        ])
        try store.seed(board)
        func record(_ version: Int, _ change: Change, token: Int) -> CommitRecord {
            CommitRecord(commit: Commit(board: "race", version: version, by: "s\(token)", moves: [], order: [], change: change),
                         at: 1_700_000_000_000, origin: "p1", token: token)
        }
        // Two sessions each saw doing empty: the first lands, the second is refused by name.
        let out = try store.apply([record(1, .insert(id: "a", section: "doing", after: nil, index: 0), token: 1),
                                   record(1, .insert(id: "b", section: "doing", after: nil, index: 0), token: 2)])
        #expect(out.count == 2)
        if case .landed(let d) = out[0] { #expect(d.version == 1) } else { Issue.record("first not landed: \(out[0])") }
        #expect(out[1] == .refused(board: "race", token: 2, reason: "max: section \"doing\" holds at most 1 item"))
        #expect(try store.board(id: "race")?.sections[1].items.map(\.id) == ["a"])
        // Two copies both named p~2: the second gets p~3.
        let copies = try store.apply([record(2, .copyItem(id: "p", as: "p~2", section: "todo", after: nil, index: 0), token: 3),
                                      record(2, .copyItem(id: "p", as: "p~2", section: "todo", after: nil, index: 0), token: 4)])
        if case .landed(let d) = copies[1] {
            #expect(d.change == .copyItem(id: "p", as: "p~3", section: "todo", after: nil, index: 0))
        } else { Issue.record("second copy not landed: \(copies[1])") }
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "race")?.sections[0].items.map(\.id) == ["p~3", "p~2", "b"])
    }

    @Test func anEditBatchRemovesAndRestoresItemsInOneVersion() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        // No pinned item: one would keep the index the removal gave it (as after any change).
        var demo = demo
        demo.sections[0].items[2].movable = true
        try store.seed(demo)
        let remove = Change.batch([.removeItem("a"), .removeItem("b")])
        let removed = demo.applying(remove)!.board
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 1, by: "s1", moves: [], order: removed.order, change: remove),
                                      at: 1_700_000_000_000)])
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == removed)
        let restore = demo.revert(of: remove)!
        try store.apply([CommitRecord(commit: Commit(board: "demo", version: 2, by: "s1", moves: [], order: demo.order, change: restore),
                                      at: 1_700_000_000_001)])
        var back = demo
        back.version = 2
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "demo") == back)
    }

    @Test func rulesKindsAndHandlesReadBackTheSame() throws {
        let path = tempPath()
        let store = try SQLiteStore(path: path, edits: .wire)
        let ruled = Board(id: "ruled", sections: [
            Section(id: "todo", items: [Item(id: "a", label: "A", color: "#111", kind: "bug", handle: .leading),
                                        Item(id: "b", label: "B", color: "#222", handle: .trailing)]),
            Section(id: "bugs", items: [], accepts: ["bug"], max: 2),
            Section(id: "palette", items: [Item(id: "p", label: "P", color: "#333", kind: "chore")], copy: true),
            Section(id: "trash", items: [], drop: .remove),
        ])
        try store.seed(ruled)
        #expect(try store.board(id: "ruled") == ruled)
        // An added item keeps its kind and handle.
        let add = Change.addItem(Item(id: "n", label: "N", color: "#444", kind: "bug", handle: .trailing), section: "bugs", after: nil)
        let next = ruled.applying(add)!.board
        try store.apply([CommitRecord(commit: Commit(board: "ruled", version: 1, by: "api", moves: [], order: next.order, change: add),
                                      at: 1_700_000_000_000)])
        #expect(try SQLiteStore(path: path, edits: .wire).board(id: "ruled")?.sections[1].items == next.sections[1].items)
    }
}
