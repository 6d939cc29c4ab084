/// The finger's direction of a `pan` (left and right: a columns board's sideways pan).
public enum PanDirection: String, Hashable, Sendable {
    case up, down, left, right
}
