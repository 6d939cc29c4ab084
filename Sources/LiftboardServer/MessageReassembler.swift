/// A client's messages as lws hands them over: in fragments (a WebSocket message in several
/// frames, RFC 6455 §5.4, or one frame read in several chunks), put back together up to a
/// bound; and what the client's side of the stream owes an answer to (a message begun, a close
/// frame), which a write from outside a writeable callback must not overtake.
///
/// The usual message comes whole in one fragment and is read where lws has it, not copied
/// (`.whole`); only a message in parts is gathered here.
///
///     var reader = MessageReassembler()
///     reader.receive(first, final: false, limit: 65_536, inPlace: true)  // .partial
///     reader.receive(last, final: true, limit: 65_536, inPlace: true)    // .assembled(bytes)
struct MessageReassembler: Sendable {
    /// What a fragment made.
    enum Piece: Equatable, Sendable {
        /// Not the message's last fragment: more is to come.
        case partial
        /// The whole message, in this one fragment: read it where it is.
        case whole
        /// The message's last fragment came: here is the message, gathered. Hand the array
        /// back (`recycle`) once read, so the next message in parts reuses its memory.
        case assembled([UInt8])
        /// The message's last fragment came, and the message is over the bound (what came past
        /// it was not kept).
        case tooLarge
    }

    /// The largest gathering buffer kept for the next message in parts.
    static let keptCapacity = 1 << 16

    /// The parts of the message begun.
    private var parts: [UInt8] = []
    /// The message begun is over the bound: its further parts are dropped.
    private var overLimit = false
    /// A message's first fragments came, not its last.
    private(set) var isMidMessage = false
    /// The client sent a close frame (lws answers it).
    private(set) var peerClosed = false

    /// Whether a write made now, outside a writeable callback, can overtake nothing lws owes
    /// the client: lws answers pings (which may come between a message's fragments) and a
    /// close from its writeable callback.
    var mayWriteDirectly: Bool { !isMidMessage && !peerClosed }

    /// One fragment arrived. `limit`: the most bytes a message may have. `inPlace`: a message
    /// whole in one fragment may be read where it is (`.whole`); else it is gathered too.
    mutating func receive(_ fragment: UnsafeRawBufferPointer, final: Bool, limit: Int, inPlace: Bool) -> Piece {
        isMidMessage = !final
        if final && inPlace && parts.isEmpty && !overLimit && fragment.count <= limit { return .whole }
        if parts.count + fragment.count > limit {
            overLimit = true
        } else if !overLimit {
            parts.append(contentsOf: fragment)
        }
        guard final else { return .partial }
        guard !overLimit else {
            overLimit = false
            parts.removeAll(keepingCapacity: parts.capacity <= Self.keptCapacity)
            return .tooLarge
        }
        var message: [UInt8] = []
        swap(&message, &parts)
        return .assembled(message)
    }

    /// A fragment that came once nothing the client says is read any more: only where the
    /// stream stands is kept.
    mutating func skip(final: Bool) { isMidMessage = !final }

    /// Gives back an assembled message's array, read: emptied, its memory kept for the next
    /// message in parts (up to `keptCapacity`).
    mutating func recycle(_ message: consuming [UInt8]) {
        var message = message
        message.removeAll(keepingCapacity: message.capacity <= Self.keptCapacity)
        if parts.isEmpty { parts = message }
    }

    /// The client sent a close frame.
    mutating func peerSentClose() { peerClosed = true }
}
