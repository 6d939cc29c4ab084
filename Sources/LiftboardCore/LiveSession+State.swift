/// The live session's state grouped by what it is for: its offsets and what scrolls them on
/// its own, its selection, and what its client has been sent.
extension LiveSession {
    /// The content's offsets (lists and grids: `y`; columns: the board's `x` and each column's
    /// own), and what moves them between inputs.
    struct Scrolling: Sendable {
        var y: Double = 0
        /// Columns: the board's sideways offset and each column's own vertical offset.
        var x: Double = 0
        var columns: [Double] = []
        /// Columns: the flings of released pans (the board's, columns'), each on its own.
        var flings: [Fling] = []
        /// Lists and grids: a released pan's fling.
        var deceleration: Deceleration? = nil
        /// When the next edge auto-scroll tick is due: one clock for every dragging pointer in
        /// a band, whose speeds add up.
        var autoScrollAt: Double? = nil
    }

    /// The selection (Ctrl/Meta and Shift clicks, Shift+Space), by handle, and where a Shift
    /// click's range starts (the last cell a Ctrl/Meta click or Shift+Space toggled).
    struct Selection: Sendable {
        var marked: [Bool]
        var count = 0
        var anchor: Int? = nil
    }

    /// What the client has been sent, and the buffers the next frame reuses.
    struct SentState: Sendable {
        var scroll: Double = 0
        var scrollX: Double = 0
        var content = Size.zero
        var sections: [SectionInfo] = []
        /// The cells the client has, in window order, and where each handle's entry is (-1:
        /// none). Arrays, not a dictionary: this is diffed on every reorder and scroll.
        var cells: [SentCell] = []
        var order: [Int] = []
        var slot: [Int32]
        var focus: Int? = nil
        /// The names of the holders the cells' `heldBy` numbers stand for.
        var holders = HolderNames()
        /// The last `presence` sent, when the session asked for them as differences (issue 44).
        var presence: PresenceSent? = nil
        /// The other halves of `order` and `cells`: `diffCells` builds the new window in these
        /// and swaps, so a frame allocates neither.
        var spareOrder: [Int] = []
        var spareCells: [SentCell] = []
        /// The arrays of the last frame sent, still shared with it: once the driver has written
        /// that frame and let it go, the next frame takes them back, unique, and empties them
        /// in place (`recycle`) instead of allocating new ones and freeing the old. (Only while
        /// the connection holds no other reference: a frame a hub shares with watchers, or one
        /// still queued, makes the next frame allocate, as before. Cells at most
        /// `recycledCellsMax`.)
        var lastFrameCells: [CellUpdate] = []
        var lastFrameSnapshots: [SnapshotUpdate] = []
        var lastFrameEvents: [ServerEvent] = []
    }
}
