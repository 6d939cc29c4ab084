import LiftboardCore

/// The kanban board `liftboard serve` offers beside the demo board (`/?board=kanban`): four
/// columns side by side, each scrolling on its own (docs/protocol.md, "Columns"), of cards with
/// tags, points and a few details. In progress takes at most five cards. The same board as
/// `Examples/boards/kanban.json` (a test keeps them one).
public enum KanbanBoard {
    static func card(_ badge: String, _ tags: [(String, String)], accent: String, detail: String? = nil) -> Card {
        Card(detail: detail, badge: badge, tags: tags.map { Tag(text: $0.0, color: $0.1) }, accent: accent)
    }

    public static let board = Board(id: "kanban", layout: .columns, columns: ColumnMetrics(rowHeight: 64), sections: [
        Section(id: "backlog", title: "Backlog", items: [
            Item(id: "backlog-1", label: "Dark mode for the settings page", color: "#4285f4", height: 96,
                 card: card("1", [("feature", "#4285f4")], accent: "#4285f4", detail: "Follow the system setting; keep the accent colors")),
            Item(id: "backlog-2", label: "Export boards as CSV", color: "#db4437",
                 card: card("2", [("feature", "#4285f4"), ("web", "#00acc1")], accent: "#db4437")),
            Item(id: "backlog-3", label: "Offline drafts", color: "#f4b400", height: 96,
                 card: card("3", [("feature", "#4285f4")], accent: "#f4b400", detail: "Keep edits while offline and sync them on reconnect")),
            Item(id: "backlog-4", label: "Keyboard shortcuts sheet", color: "#0f9d58",
                 card: card("5", [("docs", "#0f9d58")], accent: "#0f9d58")),
            Item(id: "backlog-5", label: "Audit log retention", color: "#ab47bc",
                 card: card("8", [("infra", "#607d8b")], accent: "#ab47bc")),
            Item(id: "backlog-6", label: "SAML single sign-on", color: "#00acc1", height: 96,
                 card: card("2", [("feature", "#4285f4"), ("web", "#00acc1")], accent: "#00acc1", detail: "Okta and Azure AD first")),
            Item(id: "backlog-7", label: "Bulk move from search", color: "#ff7043",
                 card: card("3", [("feature", "#4285f4")], accent: "#ff7043")),
            Item(id: "backlog-8", label: "Card templates", color: "#5c6bc0",
                 card: card("1", [("feature", "#4285f4")], accent: "#5c6bc0")),
            Item(id: "backlog-9", label: "Per-column WIP limits", color: "#f06292", height: 96,
                 card: card("5", [("feature", "#4285f4")], accent: "#f06292", detail: "Refuse a drop past the limit and say why")),
            Item(id: "backlog-10", label: "Slack notifications", color: "#9e9d24",
                 card: card("3", [("feature", "#4285f4"), ("web", "#00acc1")], accent: "#9e9d24")),
            Item(id: "backlog-11", label: "Archive old cards", color: "#8d6e63",
                 card: card("2", [("feature", "#4285f4")], accent: "#8d6e63")),
            Item(id: "backlog-12", label: "Public read-only links", color: "#26a69a",
                 card: card("8", [("feature", "#4285f4")], accent: "#26a69a")),
            Item(id: "backlog-13", label: "Import from Trello", color: "#4285f4", height: 96,
                 card: card("1", [("feature", "#4285f4")], accent: "#4285f4", detail: "Lists, cards and labels; attachments later")),
            Item(id: "backlog-14", label: "Due-date reminders", color: "#db4437",
                 card: card("3", [("feature", "#4285f4"), ("web", "#00acc1")], accent: "#db4437")),
        ]),
        Section(id: "todo", title: "To do", items: [
            Item(id: "todo-1", label: "Fix flaky login test", color: "#f4b400", height: 96,
                 card: card("1", [("bug", "#db4437")], accent: "#f4b400", detail: "Fails one run in twenty on CI")),
            Item(id: "todo-2", label: "Rate-limit the public API", color: "#0f9d58",
                 card: card("2", [("infra", "#607d8b")], accent: "#0f9d58")),
            Item(id: "todo-3", label: "Onboarding checklist", color: "#ab47bc",
                 card: card("3", [("design", "#ab47bc")], accent: "#ab47bc")),
            Item(id: "todo-4", label: "Password reset e-mail copy", color: "#00acc1", height: 96,
                 card: card("5", [("design", "#ab47bc"), ("web", "#00acc1")], accent: "#00acc1", detail: "Shorter, with a single clear button")),
            Item(id: "todo-5", label: "Upgrade the database", color: "#ff7043", height: 96,
                 card: card("8", [("infra", "#607d8b")], accent: "#ff7043", detail: "PostgreSQL 15 to 16, with a rehearsal on staging")),
            Item(id: "todo-6", label: "Accessibility review", color: "#5c6bc0",
                 card: card("2", [("design", "#ab47bc")], accent: "#5c6bc0")),
            Item(id: "todo-7", label: "Invoice PDF footer", color: "#f06292", height: 96,
                 card: card("3", [("bug", "#db4437")], accent: "#f06292", detail: "Company number and VAT id")),
            Item(id: "todo-8", label: "Mobile nav drawer", color: "#9e9d24",
                 card: card("1", [("design", "#ab47bc"), ("web", "#00acc1")], accent: "#9e9d24")),
            Item(id: "todo-9", label: "Empty-state illustrations", color: "#8d6e63",
                 card: card("5", [("design", "#ab47bc")], accent: "#8d6e63")),
        ]),
        Section(id: "doing", title: "In progress", items: [
            Item(id: "doing-1", label: "Search results ranking", color: "#26a69a", height: 96,
                 card: card("3", [("feature", "#4285f4")], accent: "#26a69a", detail: "Exact title matches first, then recent cards")),
            Item(id: "doing-2", label: "Billing page redesign", color: "#4285f4", height: 96,
                 card: card("2", [("design", "#ab47bc")], accent: "#4285f4", detail: "New plan picker and receipts")),
            Item(id: "doing-3", label: "Crash on empty workspace", color: "#db4437", height: 96,
                 card: card("8", [("bug", "#db4437"), ("web", "#00acc1")], accent: "#db4437", detail: "Reported by three customers this week")),
        ], max: 5),
        Section(id: "done", title: "Done", items: [
            Item(id: "done-1", label: "Release 2.3 notes", color: "#f4b400",
                 card: card("1", [("docs", "#0f9d58")], accent: "#f4b400")),
            Item(id: "done-2", label: "Avatar upload", color: "#0f9d58", height: 96,
                 card: card("3", [("feature", "#4285f4")], accent: "#0f9d58", detail: "Square crop, at most 2 MB")),
            Item(id: "done-3", label: "Two-factor login", color: "#ab47bc",
                 card: card("1", [("feature", "#4285f4")], accent: "#ab47bc")),
            Item(id: "done-4", label: "Faster board load", color: "#00acc1",
                 card: card("2", [("infra", "#607d8b"), ("web", "#00acc1")], accent: "#00acc1")),
            Item(id: "done-5", label: "Drag cards between columns", color: "#ff7043", height: 96,
                 card: card("3", [("feature", "#4285f4")], accent: "#ff7043", detail: "Long-press, drag, drop: it just works")),
            Item(id: "done-6", label: "Weekly digest e-mail", color: "#5c6bc0",
                 card: card("5", [("feature", "#4285f4")], accent: "#5c6bc0")),
            Item(id: "done-7", label: "Fix the timezone bug", color: "#f06292",
                 card: card("8", [("bug", "#db4437")], accent: "#f06292")),
            Item(id: "done-8", label: "Team invitations", color: "#9e9d24",
                 card: card("2", [("feature", "#4285f4"), ("web", "#00acc1")], accent: "#9e9d24")),
        ]),
    ])
}
