/// When the heap's free pages go back to the kernel (issue 28; Server+Heap.swift performs it):
/// every `seconds`, when the heap holds `step` more free bytes than after the last trim.
struct HeapTrims {
    static let seconds = 2.0
    static let step = 4 << 20

    /// The heap's free bytes after the last trim.
    private(set) var freeAfterTrim = 0
    /// The timer, armed when the server starts.
    var timer: LoopTimer?

    /// The heap has `free` free bytes: whether to trim now.
    mutating func shouldTrim(free: Int) -> Bool {
        if free >= freeAfterTrim + Self.step {
            freeAfterTrim = free
            return true
        }
        // The free memory was taken again: the next growth by a step trims.
        if free < freeAfterTrim { freeAfterTrim = free }
        return false
    }
}
