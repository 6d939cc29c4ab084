import LiftboardCore
import LiftboardWire

/// One line of a gesture script, parsed (docs/testing.md lists them).
public enum Step: Hashable, Sendable {
    // Setup, before the first gesture.
    case board(String)
    case viewport(w: Double, h: Double)
    case config(JSONValue)
    /// Who the session acts for (issue 42): `person ROLE [USER [NAME]]`; `edit`, no user, without.
    case person(Person)
    // Gestures.
    case drag(item: String, to: DragTarget, cancel: Bool)
    case press(String)
    case tap(String)
    /// A mouse click on the item's cell with modifier keys held (`click X with ctrl`): what
    /// selects it (Ctrl/Meta toggles, Shift selects a range) or, with none, clears the selection.
    case click(String, mods: Modifiers)
    case pan(PanDirection, Double)
    case wheel(dx: Double, dy: Double, at: Point? = nil)
    case key([String])
    case wait(Double)
    case send(JSONValue)
    // Expectations.
    case expectOrder(section: String, items: [String])
    case expectCommits(Int)
    case expectLifted(String)
    case expectAnnounce(String)
    /// The session's selection now, as the frames marked it (any order).
    case expectSelected([String])

    /// Whether the step must come before the first gesture (it shapes the `hello`).
    public var isSetup: Bool {
        switch self {
        case .board, .viewport, .config, .person: true
        default: false
        }
    }

    /// Whether the step is an expectation (it sends nothing).
    public var isExpectation: Bool {
        switch self {
        case .expectOrder, .expectCommits, .expectLifted, .expectAnnounce, .expectSelected: true
        default: false
        }
    }
}

extension Step {
    /// A `send` message as sent: with `ms` last at the script's clock when it has none.
    static func timed(_ message: JSONValue, at clock: Double) -> JSONValue {
        guard case .object(let members) = message, message["ms"] == nil else { return message }
        return .object(members + [("ms", .number(clock))])
    }
}

extension Step {
    /// The step's first word, as reports name it.
    var keyword: String {
        switch self {
        case .board: "board"
        case .viewport: "viewport"
        case .config: "config"
        case .person: "person"
        case .drag: "drag"
        case .press: "press"
        case .tap: "tap"
        case .click: "click"
        case .pan: "pan"
        case .wheel: "wheel"
        case .key: "key"
        case .wait: "wait"
        case .send: "send"
        case .expectOrder: "expect order"
        case .expectCommits: "expect commits"
        case .expectLifted: "expect lifted"
        case .expectAnnounce: "expect announce"
        case .expectSelected: "expect selected"
        }
    }
}
