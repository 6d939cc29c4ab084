import CLibWebSockets

/// Memory a burst used goes back to the kernel once it is free (issue 28: an idle watcher's
/// resident memory after 100 commits as before the first).
///
/// A burst (a wave of upgrades, each holding lws's 8 KiB header table; a fan-out whose queues
/// fill while the sockets drain) frees its memory into the heap, but glibc returns only the
/// top of the heap to the kernel: the free pages between the connections' long-lived blocks
/// stay resident. Every `heapTrimSeconds`, when the heap holds `heapTrimStep` more free bytes
/// than after the last trim, `malloc_trim(0)` gives those pages back (a walk of the free
/// chunks and an madvise per free run of pages, on the service thread, at most that often).
extension Server {
    static let heapTrimSeconds = 2.0
    static let heapTrimStep = 4 << 20

    func startHeapTrims() {
        guard heapTimer == nil, let context else { return }
        heapTimer = LoopTimer(loop: serviceLoop.uvLoop, context: context) { [unowned self] in heapTrimFired() }
        heapTimer?.arm(afterMs: Self.heapTrimSeconds * 1000)
    }

    func heapTrimFired() {
        let free = clws_heap_free_bytes()
        if free >= heapFreeAfterTrim + Self.heapTrimStep {
            _ = clws_heap_trim()
            heapFreeAfterTrim = free
        } else if free < heapFreeAfterTrim {
            // The free memory was taken again: the next growth by a step trims.
            heapFreeAfterTrim = free
        }
        heapTimer?.arm(afterMs: Self.heapTrimSeconds * 1000)
    }
}
