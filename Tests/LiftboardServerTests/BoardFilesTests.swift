import Foundation
import LiftboardCore
import Testing
@testable import LiftboardServer

@Suite struct BoardFilesTests {
    func folder(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boardfiles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return dir
    }

    func board(_ id: String, label: String = "Milk") -> String {
        #"{"id":"\#(id)","sections":[{"id":"s","items":[{"id":"milk","label":"\#(label)"}]}]}"#
    }

    @Test("boards load in file name order; other files are not boards")
    func load() throws {
        let dir = try folder(["b.json": board("bee"), "a.json": board("ant"), "notes.txt": "not a board"])
        #expect(try BoardFiles.load(folder: dir).map(\.id) == ["ant", "bee"])
    }

    @Test("a file past a limit is refused with its path and field")
    func limit() throws {
        let dir = try folder(["a.json": board("ant", label: String(repeating: "x", count: 2000))])
        #expect(throws: BoardFiles.LoadError.invalid(file: dir + "/a.json", .invalid(field: "sections[0].items[0].label",
                                                                                          reason: "2000 bytes, longer than 1024"))) {
            try BoardFiles.load(folder: dir)
        }
    }

    @Test("two files with one board id are refused, both named")
    func duplicate() throws {
        let dir = try folder(["a.json": board("ant"), "b.json": board("ant", label: "Other")])
        #expect(throws: BoardFiles.LoadError.duplicateID("ant", first: dir + "/a.json", second: dir + "/b.json")) {
            try BoardFiles.load(folder: dir)
        }
    }

    @Test("a folder without boards, or without a folder, is refused")
    func empty() throws {
        let dir = try folder(["notes.txt": "x"])
        #expect(throws: BoardFiles.LoadError.empty(dir)) { try BoardFiles.load(folder: dir) }
        #expect(throws: BoardFiles.LoadError.unreadableFolder(dir + "/nope")) { try BoardFiles.load(folder: dir + "/nope") }
    }
}

@Suite struct BuiltInBoardsTests {
    /// The repository's root, from this file's path (Tests/LiftboardServerTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the built-in kanban board is Examples/boards/kanban.json, and within the limits")
    func kanbanIsTheExample() throws {
        let boards = try BoardFiles.load(folder: Self.root.appendingPathComponent("Examples/boards").path)
        let example = try #require(boards.first { $0.id == "kanban" })
        #expect(example == KanbanBoard.board)
        // The one copy: the bytes compiled in are the file's, not a copy kept in step with it.
        let file = try Data(contentsOf: Self.root.appendingPathComponent("Examples/boards/kanban.json"))
        #expect(PackageResources.kanban_json == [UInt8](file))
        #expect(KanbanBoard.board.layout == .columns)
        #expect(KanbanBoard.board.sections.count == 4)
        #expect(KanbanBoard.board.sections.reduce(0) { $0 + $1.items.count } >= 30)
    }

    @Test("the built-in outline board is Examples/boards/outline.json: a tree, within the limits")
    func outlineIsTheExample() throws {
        let boards = try BoardFiles.load(folder: Self.root.appendingPathComponent("Examples/boards").path)
        let example = try #require(boards.first { $0.id == "outline" })
        #expect(example == OutlineBoard.board)
        let file = try Data(contentsOf: Self.root.appendingPathComponent("Examples/boards/outline.json"))
        #expect(PackageResources.outline_json == [UInt8](file))
        #expect(OutlineBoard.board.layout == .tree)
        #expect(OutlineBoard.board.sections.map(\.id) == ["home", "work"])
    }
}
