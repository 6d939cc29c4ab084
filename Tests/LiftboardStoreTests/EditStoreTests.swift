import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

func edit(_ change: Change, version: Int, ifVersion: Int? = nil, token: Int = 0) -> CommitRecord {
    CommitRecord(commit: Commit(board: "demo", version: version, by: "api", moves: [], order: [], change: change),
                 at: 1_700_000_000_000, origin: "test", token: token, ifVersion: ifVersion)
}

@Suite struct EditStoreTests {
    @Test func editsChangeItemsAndSectionsAndSurviveReopeningWithTheirChanges() throws {
        let path = tempPath()
        let edits: [Change] = [
            .addSection(id: "later", title: "Later", after: "todo"),
            .addItem(Item(id: "n", label: "New", color: "#444", height: 70), section: "todo", after: nil),
            .updateItem(ItemUpdate(id: "b", label: "Bee", movable: false)),
            .removeItem("a"),
            .renameSection(id: "later", title: "Some day"),
            .removeSection("done"),
        ]
        var expected = demo
        do {
            let store = try SQLiteStore(path: path)
            try store.seed(demo)
            for (k, e) in edits.enumerated() {
                #expect(expected.apply(e) != nil)
                let out = try store.apply([edit(e, version: k + 1, ifVersion: k)])
                guard case .landed(let d)? = out.first else { Issue.record("not landed: \(out)"); return }
                #expect(d.version == k + 1 && d.change == e)
            }
        }
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.board(id: "demo") == expected)
        #expect(try reopened.commits(board: "demo", after: 0).map(\.change) == edits)
    }

    @Test func anEditWhoseIfVersionIsNotTheStoredOneIsUnchangedAndNotWritten() throws {
        let store = try SQLiteStore(path: tempPath())
        try store.seed(demo)
        let out = try store.apply([edit(.removeItem("a"), version: 1, ifVersion: 0, token: 1),
                                   edit(.removeItem("b"), version: 2, ifVersion: 0, token: 2)])
        #expect(out.count == 2)
        if case .landed(let d) = out[0] { #expect(d.version == 1) } else { Issue.record("first not landed") }
        #expect(out[1] == .unchanged(board: "demo", token: 2))
        let b = try #require(try store.board(id: "demo"))
        #expect(b.version == 1 && b.sections[0].items.map(\.id) == ["b", "c"])
    }
}
