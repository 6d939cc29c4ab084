import CLibWebSockets
import LiftboardWire

/// Writing what is queued for the client.
///
/// A message answering the client's own input is written from the receive callback that
/// produced it, while the socket takes it without blocking: waiting for a writeable callback
/// instead costs a second trip through the service loop (a wake-up, and in lws's poll loop a
/// walk over every descriptor) for each message. Anything else (timers, other sessions'
/// commits, what the socket would not take, the close) waits for `SERVER_WRITEABLE`.
/// `lws_partial_buffered` reports a partial write lws still holds, so no write ever lands
/// behind one. (Not `lws_send_pipe_choked`: it adds a `poll` system call per write to ask the
/// kernel what the next `send` finds out anyway; a message the socket does not take whole is
/// kept by lws and finished when the socket drains, like any partial write.)
extension Connection {
    /// SERVER_WRITEABLE: writes what is ready and asks again for the rest; closes once
    /// everything before the close is out. Returns -1 to close.
    func writeable() -> Int32 {
        if writeReady(first: true) < 0 { return -1 }
        if hasReadyOutgoing {
            lws_callback_on_writable(wsi)
            return 0
        }
        if let closing, outgoingHead >= outgoing.count {
            // The close frame must not overtake a partial write lws still holds.
            if lws_send_pipe_choked(wsi) != 0 {
                lws_callback_on_writable(wsi)
                return 0
            }
            var reason = Array(closing.reason.utf8.prefix(120))
            reason.withUnsafeMutableBufferPointer { lws_close_reason(wsi, lws_close_status(rawValue: UInt32(closing.code)), $0.baseAddress, $0.count) }
            // lws is told to close from a timer, outside this callback: it sends the close
            // frame and waits for the client's. Returning -1 here does the same in lws's poll
            // loop, but with the libuv plugin Debian's build (compiled with _DEBUG) closes a
            // second time at once ("uv repeat test") and kills the socket before the frame.
            closeSoon()
            return 0
        }
        if closing != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// At the end of the receive callback: writes what the input queued if the socket takes it,
    /// else leaves it (and any close) to the writeable callback. Returns -1 to close.
    /// Only for a message that came in one frame from a client that has not sent a close: lws
    /// answers pings (which may come between fragments) and a close from its own writeable
    /// handling, and those answers must not be overtaken.
    func writeQueued() -> Int32 {
        if closing == nil, hasReadyOutgoing, lws_partial_buffered(wsi) == 0, writeReady(first: false) < 0 { return -1 }
        if hasReadyOutgoing || closing != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Whether the next queued message may go out (its commit is durable).
    var hasReadyOutgoing: Bool {
        outgoingHead < outgoing.count && outgoing[outgoingHead].barrier <= (hub?.durableVersion ?? Int.max)
    }

    /// Writes ready messages while the socket takes them (up to 16); in a writeable callback
    /// the first write needs no check. Returns -1 when a write failed.
    private func writeReady(first unchecked: Bool) -> Int32 {
        let durable = hub?.durableVersion ?? Int.max
        var written = 0
        while outgoingHead < outgoing.count, outgoing[outgoingHead].barrier <= durable {
            if (written > 0 || !unchecked) && (written >= 16 || lws_partial_buffered(wsi) != 0) { break }
            let i = outgoingHead
            outgoingHead += 1
            pendingBytes -= outgoing[i].size
            let binary = outgoing[i].binary
            sendBuffer.removeSubrange(CLWS_PRE...)
            // Moved out of the queue, not copied: the slot is only waiting to be removed.
            if let raw = outgoing[i].raw.take() {
                sendBuffer.append(contentsOf: raw)
            } else if let event = outgoing[i].event.take() {
                Wire.encode(event, commitOrder: commitOrder, into: &sendBuffer)
            }
            let n = sendBuffer.count - CLWS_PRE
            let rc = sendBuffer.withUnsafeMutableBufferPointer { clws_write_opcode(wsi, $0.baseAddress! + CLWS_PRE, n, binary ? 1 : 0) }
            if rc < n { return -1 }
            written += 1
        }
        if outgoingHead > 64, outgoingHead * 2 > outgoing.count {
            outgoing.removeFirst(outgoingHead)
            outgoingHead = 0
        }
        return 0
    }
}

extension Connection {
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
