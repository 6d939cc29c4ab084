import LiftboardWire

/// Where `drag X ...` takes X. A target names items, never indexes, as a commit's change does,
/// so the same step means the same thing whatever the geometry.
public enum DragTarget: Hashable, Sendable {
    /// X follows the item, with only pinned items between (the drop's change names it).
    case after(String)
    /// X is first in the section (only pinned items before it).
    case first(section: String)
    /// Swap mode: X takes the item's place and the item takes X's.
    case onto(String)
}

/// The finger's direction of a `pan`.
public enum PanDirection: String, Hashable, Sendable {
    case up, down
}

/// One line of a gesture script, parsed (docs/testing.md lists them).
public enum Step: Hashable, Sendable {
    // Setup, before the first gesture.
    case board(String)
    case viewport(w: Double, h: Double)
    case config(JSONValue)
    // Gestures.
    case drag(item: String, to: DragTarget, cancel: Bool)
    case press(String)
    case tap(String)
    case pan(PanDirection, Double)
    case wheel(dx: Double, dy: Double)
    case key([String])
    case wait(Double)
    case send(JSONValue)
    // Expectations.
    case expectOrder(section: String, items: [String])
    case expectCommits(Int)
    case expectLifted(String)
    case expectAnnounce(String)

    /// Whether the step must come before the first gesture (it shapes the `hello`).
    public var isSetup: Bool {
        switch self {
        case .board, .viewport, .config: true
        default: false
        }
    }

    /// Whether the step is an expectation (it sends nothing).
    public var isExpectation: Bool {
        switch self {
        case .expectOrder, .expectCommits, .expectLifted, .expectAnnounce: true
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
