@testable import LiftboardCore

extension Array where Element == ServerEvent {
    /// The reference for `events: "inline"` (the engine inlines them itself, `flushStep`): the
    /// messages of one step with every `lift`, `moved` and `drop` moved into the `events`
    /// of the next frame of the step. One with no frame after it in the step stays a message
    /// of its own, where it was. Nothing else moves, so the contract's order holds: those
    /// events, then the frame, then a commit, then an announce.
    func inliningEvents() -> [ServerEvent] {
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
