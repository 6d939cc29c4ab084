import LiftboardCore
import LiftboardWire

/// The kanban board `liftboard serve` offers beside the demo board (`/?board=kanban`): four
/// columns side by side, each scrolling on its own (docs/protocol.md, "Columns"), of cards with
/// tags, points and a few details. In progress takes at most five cards.
///
/// It is `Examples/boards/kanban.json`, the one copy: SwiftPM compiles the file's bytes into the
/// binary (Package.swift, `.embedInCode`), and they are read here as `serve --boards` reads a
/// board file (the format, then `BoardLimits`).
public enum KanbanBoard {
    public static let board = builtInBoard(PackageResources.kanban_json, file: "kanban.json")
}

/// The tree board `liftboard serve` offers beside the demo and kanban boards
/// (`/?board=outline`): an outline of two sections whose items nest (docs/protocol.md,
/// "Trees"), Garden collapsed, Home at most three levels below the top, Eggs a leaf. It is
/// `Examples/boards/outline.json`, compiled in as the kanban board is.
public enum OutlineBoard {
    public static let board = builtInBoard(PackageResources.outline_json, file: "outline.json")
}

/// A board file compiled into the binary, read as `serve --boards` reads one (the format, then
/// `BoardLimits`); a built-in board that does not read is a build that must not ship.
func builtInBoard(_ bytes: [UInt8], file: String) -> Board {
    do throws(BoardError) {
        let board = try Wire.decodeBoard(bytes)
        try BoardLimits.check(board)
        return board
    } catch {
        fatalError("Examples/boards/\(file), built in: \(error)")
    }
}
