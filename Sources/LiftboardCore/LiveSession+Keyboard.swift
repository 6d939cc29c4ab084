/// Keyboard reordering (pointer -1): focus, lift, move one place at a time, drop, cancel, with
/// words for a screen reader at every step.
extension LiveSession {
    static let keyboardPointer = -1

    func describe(_ h: Int) -> String {
        if arr.tree != nil { return treeDescribe(h) }
        let s = arr.sectionOf[h]
        return "position \(arr.indexOf[h] + 1) of \(arr.members[s].count) in \(arr.titles[s])"
    }

    mutating func announce(_ text: String) { step.announces.append(.announce(text)) }

    /// The items in reading order.
    func flatNeighbour(of h: Int, by delta: Int) -> Int? {
        var s = arr.sectionOf[h], i = arr.indexOf[h] + delta
        while true {
            if i >= 0 && i < arr.members[s].count { return arr.members[s][i] }
            s += delta > 0 ? 1 : -1
            guard s >= 0 && s < arr.sectionCount else { return nil }
            i = delta > 0 ? 0 : arr.members[s].count - 1
        }
    }

    mutating func handleKey(_ key: String, mods: Modifiers = [], now: Double) {
        guard keyboardStarted, var f = focus else {
            keyboardStarted = true
            focus = arr.members.first { !$0.isEmpty }?.first
            guard let f = focus else { return announce("The board is empty.") }
            scrollIntoView(f)
            announce("\(arr.labels[f]), \(describe(f))\(arr.movable[f] ? "" : ", pinned"). Press Space to lift, arrow keys to move the focus.")
            return
        }
        if let d = dragIndex(Self.keyboardPointer) { return keyboardDragKey(key, drag: d, now: now) }
        // The focused row was hidden since (a collapse above it, a drop under a collapsed
        // item): the focus goes to the nearest row shown above it in the tree, as a tree
        // view's does, and the key acts there.
        if arr.isParked(f) {
            var a = arr.tree?.parent[f] ?? -1
            while a >= 0, arr.isParked(a) { a = arr.tree!.parent[a] }
            guard let shown = a >= 0 ? a : arr.members.first(where: { !$0.isEmpty })?.first else { return }
            f = shown
            focus = shown
        }
        switch key {
        case "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight":
            if arr.tree != nil, toggleByKey(f, key: key, now: now) { return }
            guard let next = arr.layout.focusTarget(from: f, key: key, in: self) else { return }
            focus = next
            scrollIntoView(next)
            announce("\(arr.labels[next]), \(describe(next))\(arr.movable[next] ? "" : ", pinned").")
        case " " where mods.contains(.shift), "Spacebar" where mods.contains(.shift):
            guard arr.movable[f] else { return announce("\(arr.labels[f]) is pinned and cannot be selected.") }
            setSelected(f, !selection.marked[f])
            selection.anchor = f
            announce("\(arr.labels[f]) \(selection.marked[f] ? "selected" : "deselected"), \(selection.count) selected.")
        case " ", "Spacebar", "Enter":
            guard roleLifts(f) else {
                let copy = role.includes(.move)  // only a palette's item stops a move session here
                forbid(copy ? "a copy out of a palette" : "a key reorder", needs: copy ? .edit : .move)
                return announce("\(arr.labels[f]) cannot be \(copy ? "copied" : "moved"): your role is \(role.rawValue).")
            }
            guard arr.movable[f] else { return announce("\(arr.labels[f]) is pinned and cannot be moved.") }
            guard liftedBy[f] == nil else { return announce("\(arr.labels[f]) is being moved by another pointer.") }
            if refuseHeld(f, by: "keyboard lift") { return }
            // Across processes the lift waits for its claim (`ClaimWait`).
            if awaitClaim(f, .keyLift(item: arr.ids[f])) { return }
            keyboardLift(f, now: now)
        default:
            break
        }
    }

    /// Lifts `f` with the keyboard, and says so.
    mutating func keyboardLift(_ f: Int, now: Double) {
        scrollIntoView(f)
        lift(f, pointer: Self.keyboardPointer, at: viewportCenter(of: f), now: now)
        let n = drags.last?.group.count ?? 1
        let (what, them) = n > 1 ? ("\(n) items lifted with", "them") : ("Lifted", "it")
        announce("\(what) \(arr.labels[f]), \(describe(f)). Arrow keys move \(them), Space drops \(them), Escape cancels.")
    }

    mutating func keyboardDragKey(_ key: String, drag d: Int, now: Double) {
        let h = drags[d].item
        let group = drags[d].group
        let n = group.count
        switch key {
        case " ", "Spacebar", "Enter", "Escape":
            let cancelled = key == "Escape"  // a cancel always ends the drag (`true`)
            guard endDrag(d, cancelled: cancelled, now: now) else { return }  // a trash took it, and said so
            focus = h
            announce(n > 1 ? groupWords(group, at: h, cancelled: cancelled) : cancelled
                     ? "Cancelled. \(arr.labels[h]) is back at \(describe(h))."
                     : "Dropped \(arr.labels[h]), \(describe(h)).")
        case "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight":
            let before = arr.place(of: h)
            let layout = arr.layout  // a copy: `self` goes in `inout`
            layout.keyboardStep(h, key: key, in: &self)
            let after = arr.place(of: h)
            guard after != before else { return announce("\(arr.labels[h]) cannot move further.") }
            step.gestures.append(.moved(p: Self.keyboardPointer, id: arr.ids[h], from: before, to: after))
            step.cellsDirty = true
            step.shiftDur = dur(config.shiftMs)
            scrollIntoView(h)
            let c = viewportCenter(of: h)
            drags[d].center = c
            step.snapshots.append(SnapshotUpdate(p: Self.keyboardPointer, id: arr.ids[h], center: c,
                                                 moveDur: dur(config.shiftMs), ease: .easeInOut))
            announce("\(arr.labels[h]) moved to \(describe(h)).")
        default:
            break
        }
    }

    /// One place in reading order, forward (`step` 1) or back (-1) (insert semantics, hopping
    /// over pinned items, across sections). Sections that refuse the drag are passed over (and
    /// a palette it is copied out of keeps its order).
    mutating func stepInReadingOrder(_ h: Int, by step: Int) {
        let s = arr.sectionOf[h], i = arr.indexOf[h]
        if !arr.hasRules || allows(s, for: h), let j = movableRow(section: s, from: i, by: step) {
            arr.exchange(section: s, i, j)
        } else if let t = allowedSection(from: s, by: step, for: h) {
            arr.move(h, toSection: t, index: step > 0 ? 0 : arr.members[t].count, pinnedHome: pinnedHome)
        }
    }

    /// Scrolls just enough to show item `h`'s cell, animated.
    mutating func scrollIntoView(_ h: Int) {
        if scrollsSections { columnScrollIntoView(h); return }
        let f = arr.frame(of: h)
        var y = scrolling.y
        if f.minY < y { y = f.minY } else if f.maxY > y + viewport.h { y = f.maxY - viewport.h }
        y = clampScroll(y)
        if y != scrolling.y {
            scrolling.y = y
            step.scrollDur = dur(config.shiftMs)
            step.cellsDirty = true
        }
    }
}
