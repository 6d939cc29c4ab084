/// How a session's `lift`, `moved` and `drop` reach the client (extension, `hello.config.events`).
public enum EventsMode: String, Sendable, Hashable, CaseIterable {
    /// Each is a message of its own, before the frame (contract §5, the default).
    case separate
    /// Each rides in the `events` of the frame that follows it, in the contract's order: one
    /// message per input instead of two or three, the same information.
    case inline
}

extension ServerEvent {
    /// A `lift`, `moved` or `drop`: what `events: "inline"` puts inside frames.
    var isGestureEvent: Bool {
        switch self {
        case .lift, .moved, .drop: true
        default: false
        }
    }
}
