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
    public static let board: Board = {
        do throws(BoardError) {
            let board = try Wire.decodeBoard(PackageResources.kanban_json)
            try BoardLimits.check(board)
            return board
        } catch {
            fatalError("Examples/boards/kanban.json, built in: \(error)")
        }
    }()
}
