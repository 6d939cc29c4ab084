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

extension Array where Element == ServerEvent {
    /// The messages of one step with every `lift`, `moved` and `drop` moved into the `events`
    /// of the next frame of the step. One with no frame after it in the step stays a message
    /// of its own, where it was. Nothing else moves, so the contract's order holds: those
    /// events, then the frame, then a commit, then an announce.
    public func inliningEvents() -> [ServerEvent] {
        // Most steps (a move that only moves the snapshot) have none: nothing to copy.
        guard contains(where: \.isGestureEvent) else { return self }
        var out: [ServerEvent] = []
        out.reserveCapacity(count)
        var waiting: [ServerEvent] = []
        for e in self {
            switch e {
            case .lift, .moved, .drop:
                waiting.append(e)
            case .frame(var f) where !waiting.isEmpty:
                f.events = waiting + f.events
                waiting.removeAll()
                out.append(.frame(f))
            default:
                // A message between an event and its frame (none in today's engine) keeps
                // the order: the waiting events go out first, on their own.
                if !waiting.isEmpty { out += waiting; waiting.removeAll() }
                out.append(e)
            }
        }
        out += waiting
        return out
    }
}
