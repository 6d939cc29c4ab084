/// UIKit's `UILongPressGestureRecognizer` for one pointer, as a pure state machine.
///
/// `began` fires from a timer (`fire(at:)` at `deadline`), never from an event: a pointer held
/// perfectly still still begins. Moving farther than `allowableMovement` from the down point
/// first makes the press fail (the session then pans with that pointer).
public struct LongPressRecognizer: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case possible, began, changed, ended, cancelled, failed
    }

    public private(set) var state: State = .possible
    public let origin: Point
    public let downTime: Double
    public let pressMs: Double
    public let allowableMovement: Double

    public init(at origin: Point, time: Double, pressMs: Double, allowableMovement: Double) {
        self.origin = origin
        self.downTime = time
        self.pressMs = pressMs
        self.allowableMovement = allowableMovement
    }

    /// When the press begins if nothing else happens first; `nil` once it is decided.
    public var deadline: Double? { state == .possible ? downTime + pressMs : nil }

    /// The timer fired at `now`. Returns whether the press began.
    @discardableResult
    public mutating func fire(at now: Double) -> Bool {
        guard state == .possible, now >= downTime + pressMs else { return false }
        state = .began
        return true
    }

    /// The pointer moved. Returns the new state.
    @discardableResult
    public mutating func move(to p: Point) -> State {
        switch state {
        case .possible:
            let dx = p.x - origin.x, dy = p.y - origin.y
            if (dx * dx + dy * dy) > allowableMovement * allowableMovement { state = .failed }
        case .began, .changed:
            state = .changed
        case .ended, .cancelled, .failed:
            break
        }
        return state
    }

    /// The pointer went up. A press that had not begun fails (a tap).
    @discardableResult
    public mutating func up() -> State { end(.ended) }

    /// The platform cancelled the pointer.
    @discardableResult
    public mutating func cancel() -> State { end(.cancelled) }

    /// The pointer's end: a press that began becomes `ended` or `cancelled`, one that had not
    /// begun fails; a decided one stays as it is.
    private mutating func end(_ begun: State) -> State {
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = begun
        case .ended, .cancelled, .failed: break
        }
        return state
    }
}
