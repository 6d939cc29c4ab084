/// Whether the server answers a move that only moves a pointer drag's snapshot
/// (extension, `hello.config.follow`; docs/protocol.md, "Quiet follow").
public enum FollowMode: String, Sendable, Hashable, CaseIterable {
    /// Every input that changes anything is answered by a frame (contract §5, the default).
    case every
    /// A step whose only news is the `center` of pointer drags' snapshots sends no frame: the
    /// client draws the snapshot itself from the lift's `grab` and `axis`. Every other frame
    /// carries the center of each pointer drag that moved since the last one sent, and its
    /// `ack`, so the client reconciles on what does come.
    case quiet
}

extension LiveSession {
    /// Whether this step's snapshot updates are all a pointer drag's follow (its `center`,
    /// `moveDur` 0, nothing else) and nothing else would go out but them: no gesture event,
    /// no focus change, no forced frame. (The caller has checked scroll, cells, sections.)
    /// Always inlined: read on most steps, from mutating code (see `nextTimer`).
    @inline(__always) var quietStepOnlyFollows: Bool {
        guard step.follow.map({ $0.p >= 0 }) ?? !step.snapshots.isEmpty, step.gestures.isEmpty, !step.forceFrame else { return false }
        if focus != nil, focus != sent.focus { return false }
        for u in step.snapshots {
            guard u.p >= 0, u.center != nil, u.moveDur == 0, u.size == nil, u.scale == nil, u.rotation == nil,
                  u.alpha == nil, u.dur == nil, u.ease == nil, !u.done, u.count == nil, u.forbidden == nil else { return false }
        }
        return true
    }

    /// The step's pending follow (`Step.follow`) made its update, the step's first (appended when alone: an insert is 290 Ir).
    /// Always inlined: asked on every step and drop, mostly with none (called, 18 Ir: move59).
    @inline(__always) mutating func placeFollow() {
        guard let (p, h, c) = step.follow else { return }
        let u = SnapshotUpdate(p: p, id: arr.ids[h], center: c, moveDur: 0)
        if step.snapshots.isEmpty { step.snapshots.append(u) } else { step.snapshots.insert(u, at: 0) }
        step.follow = nil
    }

    /// A frame is going out to a `quiet` client: it carries the center of every pointer drag
    /// whose center differs from the last one sent, and every drag's center is then sent.
    mutating func addUnsentCenters(to f: inout FrameMessage) {
        for d in drags.indices where drags[d].pointer >= 0 {
            let p = drags[d].pointer, id = arr.ids[drags[d].item], c = drags[d].center
            if let k = f.snapshots.firstIndex(where: { $0.p == p && $0.id == id }) {
                if let sent = f.snapshots[k].center {
                    drags[d].sentCenter = sent
                    continue
                }
                if c != drags[d].sentCenter { f.snapshots[k].center = c; f.snapshots[k].moveDur = 0 }
            } else if c != drags[d].sentCenter {
                f.snapshots.append(SnapshotUpdate(p: p, id: id, center: c, moveDur: 0))
            }
            drags[d].sentCenter = c
        }
    }
}

/// How a commit made elsewhere reaches the client (extension, `hello.config.commits`;
/// docs/protocol.md, "Commits inside frames").
public enum CommitsMode: String, Sendable, Hashable, CaseIterable {
    /// A `commit` message after the frame that animates it (contract §5, the default).
    case separate
    /// Inside that frame, as its `commit` member: one message instead of two.
    case inline
}

extension LiveSession {
    /// `commits: "inline"`: the step's one commit from elsewhere rides in its frame. (A step's
    /// own commit is a `persist`: the server sends it once durable, never inside a frame.)
    mutating func inlineCommit(into f: inout FrameMessage) {
        guard step.commits.count == 1, case .commit(let c) = step.commits[0] else { return }
        f.commit = c
        step.commits.removeAll(keepingCapacity: true)
    }
}
