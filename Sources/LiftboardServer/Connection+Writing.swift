import CLibWebSockets
import LiftboardWire

/// Writing what the machine has ready.
///
/// A message answering the client's own input is written from the receive callback that
/// produced it (`.writeNow`), while the socket takes it without blocking: waiting for a
/// writeable callback instead costs a second trip through the service loop (a wake-up, and in
/// lws's poll loop a walk over every descriptor) for each message. Anything else (timers, other
/// sessions' commits, what the socket would not take, the close) waits for `SERVER_WRITEABLE`.
/// `lws_partial_buffered` reports a partial write lws still holds, so no write ever lands
/// behind one. (Not `lws_send_pipe_choked`: it adds a `poll` system call per write to ask the
/// kernel what the next `send` finds out anyway; a message the socket does not take whole is
/// kept by lws and finished when the socket drains, like any partial write.)
extension Connection {
    /// SERVER_WRITEABLE: writes what is ready and asks again for the rest; closes once
    /// everything before the close is out. Returns -1 to close.
    func writeable() -> Int32 {
        machine.socketDrained()
        if writeReady(first: true) < 0 { return -1 }
        switch machine.afterWriting() {
        case .nothing:
            break
        case .askAgain:
            lws_callback_on_writable(wsi)
        case .sendClose(let code, let reason):
            // The close frame must not overtake a partial write lws still holds.
            if lws_send_pipe_choked(wsi) != 0 {
                lws_callback_on_writable(wsi)
                return 0
            }
            var reason = Array(reason.utf8.prefix(120))
            reason.withUnsafeMutableBufferPointer { lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), $0.baseAddress, $0.count) }
            // lws is told to close from a timer, outside this callback: it sends the close
            // frame and waits for the client's. Returning -1 here does the same in lws's poll
            // loop, but with the libuv plugin Debian's build (compiled with _DEBUG) closes a
            // second time at once ("uv repeat test") and kills the socket before the frame.
            closeSoon()
        }
        return 0
    }

    /// `.writeNow`, at the end of the receive callback: writes what the input queued if the
    /// socket takes it, else leaves it (and any close) to the writeable callback. Returns -1
    /// to close.
    func writeNow() -> Int32 {
        if writeReady(first: false) < 0 { return -1 }
        machine.compactQueue()
        if machine.needsWritable() { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Writes ready messages while the socket takes them (up to 16); in a writeable callback
    /// the first write needs no check. Several ready at once (a watcher's commits that became
    /// durable together, a hello's answers) leave as whole frames in one write
    /// (`ConnectionMachine.nextBatch`): a system call each costs a watcher more than the bytes.
    /// Returns -1 when a write failed.
    private func writeReady(first unchecked: Bool) -> Int32 {
        // The server's one send buffer (`Server.sendBuffer`; a connection keeps none), held in a
        // local while writing so that it is plainly unique.
        var buffer: [UInt8] = []
        swap(&buffer, &server.sendBuffer)
        // (Empty only if a write ever led to another connection's write inside it.)
        if buffer.count < CLWS_PRE { buffer = [UInt8](repeating: 0, count: CLWS_PRE) }
        defer {
            // One buffer for all: it may keep a big layout's size (a few, at most a megabyte).
            if buffer.capacity > 1 << 20 { buffer = [UInt8](repeating: 0, count: CLWS_PRE) }
            swap(&buffer, &server.sendBuffer)
        }
        var written = 0
        while written < 16 {
            if (written > 0 || !unchecked) && lws_partial_buffered(wsi) != 0 { break }
            let rc: Int32, n: Int
            switch machine.nextBatch(into: &buffer, headroom: CLWS_PRE, maxMessages: 16 - written) {
            case .none:
                return 0
            case .single(let binary, let end):
                n = end - CLWS_PRE
                rc = buffer.withUnsafeMutableBufferPointer { clws_write_opcode(wsi, $0.baseAddress! + CLWS_PRE, n, binary ? 1 : 0) }
                written += 1
            case .framed(let bytes):
                // Every watcher's same frame, written from the one copy (lws reads it; a raw
                // write needs no room before it and writes nothing into it).
                n = bytes.count
                rc = bytes.withUnsafeBufferPointer { clws_write_frames(wsi, UnsafeMutablePointer(mutating: $0.baseAddress!), n) }
                written += 1
            case .frames(let start, let count):
                n = buffer.count - start
                rc = buffer.withUnsafeMutableBufferPointer { clws_write_frames(wsi, $0.baseAddress! + start, n) }
                written += count
            }
            if rc < n { return -1 }
            // The socket took only part: lws holds the rest and nothing more goes out before it.
            if lws_partial_buffered(wsi) != 0 {
                machine.socketStalled(now: server.now)
                return 0
            }
            // Nothing more ready (a watcher's one message of a commit): no second look at lws's
            // buffer and the queue.
            if !machine.hasReadyMessages() { return 0 }
        }
        return 0
    }

    /// Has lws close the connection (with the reason already given) on the next loop turn.
    func closeSoon() {
        guard closeTimer == nil, let t = clws_timer_new(Unmanaged.passUnretained(self).toOpaque()) else { return }
        closeTimer = t
        lws_sul_schedule(server.context, 0, &t.pointee.sul, connectionCloseDue, 1)
    }
}

/// The close timer: lws closes the connection, sending the close frame its reason set. The
/// connection may be gone when this returns (lws calls CLOSED at once when it cannot wait).
func connectionCloseDue(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    clws_kill_sync(Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue().wsi)
}
