/// Watchers that see the same thing answer a commit from elsewhere alike: the server steps one
/// of them and hands the others its result (issue 28: a commit fanned out to thousands of idle
/// viewers costs one engine step and one encoding per distinct view, not one per viewer).
///
/// Two sessions with equal `sharedViewKey`s are idle (no pointer, drag, deceleration,
/// auto-scroll, selection, keyboard focus, timer or undo history of their own), have the same
/// config, viewport, scroll and committed version on the same board, and were sent the same
/// picture (a frame brings what the client has up to date with every cell in the window, so an
/// idle session's sent state is a function of those). Handed the same `external`, they produce
/// the same messages but for each frame's `seq`, `ack` and `ms`, and end in the same state but
/// for their own id, frame count, last `seq` and the time of their last input.
public struct SharedViewKey: Hashable, Sendable {
    let board: String
    let version: Int
    let config: SessionConfig
    let viewport: Viewport
    let scrollY: Double
    /// Columns: the board's sideways offset and each column's own.
    let scrollX: Double
    let colScroll: [Double]
    let sentScroll: Double
    let sentScrollX: Double
    let sentContent: Size
    /// The last `presence` sent, with `config.presence: "delta"` (the next is a difference from it).
    let sentPresence: PresenceSent?
    /// Only when an idle reset is configured: it counts from the last input.
    public let lastInput: Double?

    /// What tells views apart in practice (`==` compares every member): the last presence by
    /// its number `v` alone, not its entries (hashed whole, every watcher's key of every commit
    /// hashed all its strings), and not the config (equal among a board's watchers).
    public func hash(into h: inout Hasher) {
        h.combine(board)
        h.combine(version)
        h.combine(viewport)
        h.combine(scrollY)
        h.combine(scrollX)
        h.combine(sentScroll)
        h.combine(sentPresence?.v)
        h.combine(lastInput)
    }
}

extension Session {
    /// The key of what this session would answer a commit from elsewhere, or nil when it is not
    /// idle (see `SharedViewKey`).
    public var sharedViewKey: SharedViewKey? {
        guard isIdleForSharing, let b = liveBox else { return nil }
        return SharedViewKey(board: b.session.boardID, version: b.session.version, config: b.session.config,
                             viewport: b.session.viewport, scrollY: b.session.scrolling.y, scrollX: b.session.scrolling.x,
                             colScroll: b.session.scrolling.columns, sentScroll: b.session.sent.scroll, sentScrollX: b.session.sent.scrollX,
                             sentContent: b.session.sent.content, sentPresence: b.session.sent.presence,
                             lastInput: b.session.config.idleResetMs > 0 ? ownIdentity()?.lastInput : nil)
    }

    /// Whether this session's `sharedViewKey` is `key`, compared field by field in place: not
    /// built (a copy of its config, strings and offsets, retained and released) for each
    /// watcher of each commit that is compared with the last view's.
    public func hasSharedView(_ key: SharedViewKey) -> Bool {
        guard isIdleForSharing, let b = liveBox else { return false }
        return b.session.version == key.version && b.session.scrolling.y == key.scrollY && b.session.scrolling.x == key.scrollX
            && b.session.sent.scroll == key.sentScroll && b.session.sent.scrollX == key.sentScrollX
            && b.session.viewport == key.viewport && b.session.sent.content == key.sentContent
            && b.session.sent.presence?.v == key.sentPresence?.v && b.session.sent.presence == key.sentPresence
            && b.session.boardID == key.board && b.session.scrolling.columns == key.colScroll && b.session.config == key.config
            && (b.session.config.idleResetMs > 0 ? ownIdentity()?.lastInput : nil) == key.lastInput
    }

    /// The live state this session is in (its box), to tell sessions that share it (a watcher
    /// that took a leader's view and has not changed since) without comparing their views.
    public var sharedState: AnyObject? { liveBox }

    /// `hasSharedView(key)`, for a key made from a session whose live state was `state`
    /// (`sharedState`): a session that shares that very state has the same key but for the
    /// time of its last input (its own, counted only with an idle reset), so nothing else is
    /// compared. Watchers of one view share their leader's state from one commit to the next.
    public func hasSharedView(_ key: SharedViewKey, madeFrom state: AnyObject?) -> Bool {
        guard let state, let b = liveBox, b === state else { return hasSharedView(key) }
        return b.session.config.idleResetMs <= 0 || ownIdentity()?.lastInput == key.lastInput || hasSharedView(key)
    }

    /// Whether this session is idle as `SharedViewKey` means it (it has a key).
    public var isIdleForSharing: Bool { liveBox.map(Self.isIdleForSharing) ?? false }

    private static func isIdleForSharing(_ b: LiveBox) -> Bool {
        // Read property by property through the box (the deadline in place): a copy of the whole
        // session would retain and release each of its arrays, for every watcher of every commit.
        b.session.pointers.isEmpty && b.session.drags.isEmpty && b.session.scrolling.deceleration == nil
            && b.session.scrolling.autoScrollAt == nil && b.session.focus == nil && b.session.sent.focus == nil
            && !b.session.keyboardStarted && b.session.selection.count == 0 && b.session.undoStack.isEmpty
            && b.session.scrolling.flings.isEmpty && b.session.claims.outstanding.isEmpty && b.session.nextDeadlineInPlace() == nil
    }

    /// This session, whose `sharedViewKey` equaled `leader`'s before the leader handled
    /// `external` at `leaderNow`, takes the leader's state after it (copy-on-write: the
    /// arrays are shared until one of them changes), keeping its own id, frame count and last
    /// `seq`; `leaderOut` is what the leader answered. Returns this session's own answer: the
    /// same messages, its frames numbered from its own count, acking its own last `seq`, at `now`.
    /// Nil (nothing taken) when the leader did not stay idle: the caller steps this one itself.
    /// `leaderIsIdle`: the leader's `isIdleForSharing`, when the caller read it once for all
    /// the sessions of the view (nil: read here).
    public mutating func adoptView(of leader: Session, answering leaderOut: [ServerEvent], at now: Double,
                                   leaderIsIdle: Bool? = nil) -> [ServerEvent]? {
        let frames = leaderOut.reduce(0) { n, e in if case .frame = e { n + 1 } else { n } }
        guard let state = leader.liveBox,
              let own = adoptView(ofState: state, frames: frames, leaderIsIdle: leaderIsIdle) else { return nil }
        var seq = own.firstSeq
        var out = leaderOut
        for k in out.indices {
            guard case .frame(var f) = out[k] else { continue }
            f.seq = seq
            f.ack = own.ack
            f.ms = now
            seq += 1
            out[k] = .frame(f)
        }
        return out
    }

    /// `adoptView(of:answering:at:leaderIsIdle:)` for a driver that writes the leader's
    /// messages itself, each frame with its own head: takes the leader's live state after its
    /// answer (its `sharedState`, a reference passed to each watcher, not a copy of a session),
    /// counting `frames` frames as sent to this session, and returns what those frames' heads
    /// carry (the first one's number, the next ones following it; the `ack`). Nothing about the
    /// leader's answer is copied. Nil (nothing taken) when the leader did not stay idle.
    public mutating func adoptView(ofState state: AnyObject, frames: Int, leaderIsIdle: Bool? = nil) -> (firstSeq: Int, ack: Int?)? {
        guard let leaderBox = state as? LiveBox, leaderIsIdle ?? Self.isIdleForSharing(leaderBox) else { return nil }
        // The leader's box itself, shared until either session changes (copy on write): a
        // reference taken per watcher, not a copy of the session and its arrays' references.
        return shareLive(leaderBox, advancingFrames: frames)
    }
}

extension Session {
    /// This idle session takes `other`'s state when both have the same `sharedViewKey` (two
    /// kiosks that said the same hello): the same picture was sent to both, so what either
    /// answers next is the same; the arrays are then shared, copy-on-write, instead of each
    /// holding its own copy of the board's arrangement. Returns whether it did.
    /// Sessions on one board that see it differently (another viewport, config or scroll)
    /// still share the board's item attributes (`Arrangement.shareAttributes`).
    @discardableResult
    public mutating func shareView(with other: Session) -> Bool {
        guard let key = sharedViewKey, key == other.sharedViewKey, let mine = liveBox, let box = other.liveBox else {
            shareAttributes(with: other)
            return false
        }
        guard let own = ownIdentity() else { return false }
        if mine !== box { shareLive(box, keeping: own) }
        return true
    }

    /// Takes `other`'s item attributes when both are live on the same board version and their
    /// attributes are equal (see `Arrangement.shareAttributes`). Returns whether it did.
    @discardableResult
    mutating func shareAttributes(with other: Session) -> Bool {
        guard let mine = liveBox, let theirs = other.liveBox, mine !== theirs, mine.session.boardID == theirs.session.boardID,
              mine.session.version == theirs.session.version else { return false }
        var s = mine.session
        guard s.arr.shareAttributes(with: theirs.session.arr) else { return false }
        s.committedLayout?.shareAttributes(with: theirs.session.arr)
        replaceLive(with: s)
        return true
    }
}

extension LiveSession {
    /// What is a session's own in a state it shares with others of its view.
    struct Identity: Sendable, Equatable {
        var sessionID: String
        var frameSeq: Int
        var lastSeq: Int?
        var lastInput: Double
        /// Who the session acts for (issue 42): its role is enforced in its gestures, its
        /// commits are signed with its user. A watcher sharing another's view keeps its own.
        var person: Person = .open
    }
}
