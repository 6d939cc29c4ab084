extension Array {
    /// The element at `k` moved out, `placeholder` (a case without payload) left in its place:
    /// not copied, as reading `self[k]` would (a retain of each of its references, released
    /// again when the array's own is destroyed). For loops that hand each element on once.
    @inline(__always) mutating func take(_ k: Int, leaving placeholder: Element) -> Element {
        var e = placeholder
        swap(&e, &self[k])
        return e
    }
}
