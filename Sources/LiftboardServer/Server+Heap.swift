import CLibWebSockets

/// Memory a burst used goes back to the kernel once it is free (issue 28: an idle watcher's
/// resident memory after 100 commits as before the first).
///
/// A burst (a wave of upgrades, each holding lws's 8 KiB header table; a fan-out whose queues
/// fill while the sockets drain) frees its memory into the heap, but glibc returns only the
/// top of the heap to the kernel: the free pages between the connections' long-lived blocks
/// stay resident. Every `HeapTrims.seconds`, when the heap holds `HeapTrims.step` more free bytes
/// than after the last trim, `malloc_trim(0)` gives those pages back (a walk of the free
/// chunks and an madvise per free run of pages, on the service thread, at most that often).
extension Server {
    func startHeapTrims() {
        guard endpoint.heap.timer == nil, let context else { return }
        endpoint.heap.timer = LoopTimer(loop: serviceLoop.uvLoop, context: context) { [unowned self] in heapTrimFired() }
        endpoint.heap.timer?.arm(afterMs: HeapTrims.seconds * 1000)
    }

    func heapTrimFired() {
        if endpoint.heap.shouldTrim(free: clws_heap_free_bytes()) { _ = clws_heap_trim() }
        endpoint.heap.timer?.arm(afterMs: HeapTrims.seconds * 1000)
    }
}
