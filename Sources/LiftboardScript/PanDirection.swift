/// The finger's direction of a `pan`.
public enum PanDirection: String, Hashable, Sendable {
    case up, down
}
