import LiftboardCore

/// The board `liftboard serve` offers when given no board files. Its rules (issue 23): Doing
/// takes at most five cards, Templates is a palette (its cards are copied out), Trash removes
/// what is dropped on it, and "Fix the bike's brakes" lifts at once from its grip. Its cards
/// (issue 25) carry details, thumbnails (Public/media/, made by scripts/make-media), badges,
/// tags and accents; their heights are the same as before cards had them.
public enum DemoBoard {
    static func card(_ detail: String, image: String? = nil, badge: String? = nil, tags: [(String, String)] = [],
                     accent: String) -> Card {
        Card(detail: detail, image: image.map { "/media/\($0).svg" }, badge: badge,
             tags: tags.map { Tag(text: $0.0, color: $0.1) }, accent: accent)
    }

    static let home = ("home", "#0f9d58"), errand = ("errand", "#f4b400"), work = ("work", "#5c6bc0"),
               urgent = ("urgent", "#db4437"), family = ("family", "#4285f4")

    public static let board = Board(id: "demo", layout: .list, sections: [
        Section(id: "todo", title: "To do", items: [
            Item(id: "milk", label: "Buy milk", color: "#f4b400",
                 card: card("Semi-skimmed, two litres", image: "milk", tags: [errand], accent: "#f4b400")),
            Item(id: "mum", label: "Call mum", color: "#4285f4", height: 96,
                 card: card("Ask about the weekend and wish her luck with the new garden shed",
                            image: "mum", badge: "2", tags: [family], accent: "#4285f4")),
            Item(id: "pinned", label: "Pinned: read me first", color: "#9e9e9e", movable: false,
                 card: card("Long-press a card to lift it, or right-click for Move to…", accent: "#9e9e9e")),
            Item(id: "plants", label: "Water the plants", color: "#0f9d58",
                 card: card("The fern likes it damp", image: "plants", tags: [home], accent: "#0f9d58")),
            Item(id: "tax", label: "File the tax return", color: "#db4437", height: 76,
                 card: card("Due on the 31st: receipts are in the blue folder", image: "tax", badge: "!",
                            tags: [urgent, home], accent: "#db4437")),
            Item(id: "bike", label: "Fix the bike's brakes", color: "#ab47bc", handle: .leading,
                 card: card("Drag it by its grip", image: "bike", accent: "#ab47bc")),
            Item(id: "book", label: "Return the library book", color: "#00acc1",
                 card: card("Two weeks overdue", image: "book", badge: "3", accent: "#00acc1")),
            Item(id: "dentist", label: "Book the dentist", color: "#ff7043", height: 96,
                 card: card("Check-up and clean; mornings are best, any day but Wednesday",
                            image: "dentist", tags: [("health", "#ff7043"), family], accent: "#ff7043")),
        ]),
        Section(id: "doing", title: "Doing", items: [
            Item(id: "report", label: "Write the quarterly report", color: "#5c6bc0",
                 card: card("Numbers from finance by Friday", image: "report", badge: "12", tags: [work], accent: "#5c6bc0")),
            Item(id: "slides", label: "Slides for Thursday", color: "#f06292", height: 76,
                 card: card("Twelve slides, one chart each", image: "slides", tags: [work, ("talk", "#f06292")],
                            accent: "#f06292")),
            Item(id: "garden", label: "Plan the garden", color: "#9e9d24",
                 card: card("Tomatoes by the south wall", image: "garden", tags: [home], accent: "#9e9d24")),
        ], max: 5, subtitle: "at most five"),
        Section(id: "done", title: "Done", items: [], subtitle: "nothing yet"),
        Section(id: "templates", title: "Templates", items: [
            Item(id: "errand", label: "New errand", color: "#78909c", card: card("Drag out a copy", accent: "#78909c")),
            Item(id: "call", label: "New call", color: "#8d6e63", card: card("Drag out a copy", accent: "#8d6e63")),
        ], copy: true, subtitle: "drag out a copy"),
        Section(id: "trash", title: "Trash", items: [], drop: .remove, subtitle: "drop to delete"),
    ])
}
