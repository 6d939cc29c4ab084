import LiftboardCore

/// The board `liftboard serve` offers when given no board files. Its rules (issue 23): Doing
/// takes at most five cards, Templates is a palette (its cards are copied out), Trash removes
/// what is dropped on it, and "Fix the bike's brakes" lifts at once from its grip.
public enum DemoBoard {
    public static let board = Board(id: "demo", layout: .list, sections: [
        Section(id: "todo", title: "To do", items: [
            Item(id: "milk", label: "Buy milk", color: "#f4b400"),
            Item(id: "mum", label: "Call mum", color: "#4285f4", height: 96),
            Item(id: "pinned", label: "Pinned: read me first", color: "#9e9e9e", movable: false),
            Item(id: "plants", label: "Water the plants", color: "#0f9d58"),
            Item(id: "tax", label: "File the tax return", color: "#db4437", height: 76),
            Item(id: "bike", label: "Fix the bike's brakes", color: "#ab47bc", handle: .leading),
            Item(id: "book", label: "Return the library book", color: "#00acc1"),
            Item(id: "dentist", label: "Book the dentist", color: "#ff7043", height: 96),
        ]),
        Section(id: "doing", title: "Doing", items: [
            Item(id: "report", label: "Write the quarterly report", color: "#5c6bc0"),
            Item(id: "slides", label: "Slides for Thursday", color: "#f06292", height: 76),
            Item(id: "garden", label: "Plan the garden", color: "#9e9d24"),
        ], max: 5),
        Section(id: "done", title: "Done", items: []),
        Section(id: "templates", title: "Templates (drag out a copy)", items: [
            Item(id: "errand", label: "New errand", color: "#78909c"),
            Item(id: "call", label: "New call", color: "#8d6e63"),
        ], copy: true),
        Section(id: "trash", title: "Trash (drop to delete)", items: [], drop: .remove),
    ])
}
