import LiftboardCore
import LiftboardWire
import Testing

@Suite struct BoardLimitsTests {
    func board(id: String = "kitchen", sections: [Section]? = nil) -> Board {
        Board(id: id, layout: .list, list: ListMetrics(), grid: GridMetrics(),
              sections: sections ?? [Section(id: "todo", title: "To do", items: [Item(id: "milk", label: "Milk", color: "#fff", height: nil, movable: true)])],
              version: 0)
    }

    func item(_ id: String = "milk", label: String = "Milk", color: String = "#fff") -> Item {
        Item(id: id, label: label, color: color, height: nil, movable: true)
    }

    @Test("board ids are 1 to 256 of URL's unreserved characters, never . or ..")
    func boardIDs() {
        for ok in ["demo", "a", "Kitchen-2_b.c~d", String(repeating: "k", count: 256), "...", ".a"] {
            #expect(BoardLimits.isValidBoardID(ok), "\(ok)")
        }
        for bad in ["", ".", "..", String(repeating: "k", count: 257), "a/b", "a b", "a%20b", "é", "a\u{0}", "a?b", "a#b"] {
            #expect(!BoardLimits.isValidBoardID(bad), "\(bad)")
        }
    }

    @Test("each limit names its field; a board within them passes")
    func fields() throws {
        try BoardLimits.check(board())
        let cases: [(Board, String)] = [
            (board(id: ".."), "id"),
            (board(sections: (0...1000).map { Section(id: "s\($0)", title: "", items: []) }), "sections"),
            (board(sections: [Section(id: String(repeating: "s", count: 257), title: "", items: [])]), "sections[0].id"),
            (board(sections: [Section(id: "s", title: String(repeating: "t", count: 1025), items: [])]), "sections[0].title"),
            (board(sections: [Section(id: "s", title: "", items: [item(), item(String(repeating: "i", count: 257))])]), "sections[0].items[1].id"),
            (board(sections: [Section(id: "s", title: "", items: [item(label: String(repeating: "l", count: 1025))])]), "sections[0].items[0].label"),
            (board(sections: [Section(id: "s", title: "", items: [item(color: String(repeating: "c", count: 65))])]), "sections[0].items[0].color"),
        ]
        for (b, field) in cases {
            #expect(throws: BoardError.self) { try BoardLimits.check(b) }
            do { try BoardLimits.check(b) } catch { #expect(error.field == field) }
        }
    }

    @Test("the limits are of text, not of size: 1,000 sections and 100,000 items pass")
    func sizeIsNoLimit() throws {
        let items = (0..<100_000).map { item("i\($0)") }
        try BoardLimits.check(board(sections: [Section(id: "all", title: "", items: items)]
                                    + (1..<1000).map { Section(id: "s\($0)", title: "", items: []) }))
    }

    @Test("text at the limit passes: 256-byte ids, 1,024-byte labels (bytes, not characters)")
    func atTheLimit() throws {
        try BoardLimits.check(board(sections: [Section(id: String(repeating: "s", count: 256), title: String(repeating: "é", count: 512),
                                                       items: [item(String(repeating: "i", count: 256), label: String(repeating: "l", count: 1024))])]))
        #expect(throws: BoardError.self) {
            try BoardLimits.check(board(sections: [Section(id: "s", title: String(repeating: "é", count: 513), items: [])]))
        }
    }
}
