/// Where `drag X ...` takes X. A target names items, never indexes, as a commit's change does,
/// so the same step means the same thing whatever the geometry.
public enum DragTarget: Hashable, Sendable {
    /// X follows the item, with only pinned items between (the drop's change names it).
    case after(String)
    /// X is first in the section (only pinned items before it).
    case first(section: String)
    /// Swap mode: X takes the item's place and the item takes X's.
    case onto(String)
    /// Trees: X becomes the item's last child.
    case into(String)
    /// Trees: X's row right after the item's row, at that depth (the finger's sideways travel
    /// sets it: docs/protocol.md, Trees).
    case afterAt(String, depth: Int)
}
