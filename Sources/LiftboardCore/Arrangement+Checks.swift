/// Comparing orders eight handles at a time, and the arrangement's invariants.
extension Arrangement {
    /// How many of the first `n` handles `a` and `b` share. A commit on a long section changes
    /// a few of its thousands: compared eight at a time, with one branch each (about a fifth of
    /// the element-by-element loop's instructions).
    /// - Complexity: O(n).
    static func sharedPrefix(_ a: [Int], _ b: [Int], upTo n: Int) -> Int {
        precondition(n <= a.count && n <= b.count)
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var i = 0
                while i + 8 <= n {
                    let d = (pa[i] ^ pb[i]) | (pa[i + 1] ^ pb[i + 1]) | (pa[i + 2] ^ pb[i + 2]) | (pa[i + 3] ^ pb[i + 3])
                        | (pa[i + 4] ^ pb[i + 4]) | (pa[i + 5] ^ pb[i + 5]) | (pa[i + 6] ^ pb[i + 6]) | (pa[i + 7] ^ pb[i + 7])
                    if d != 0 { break }
                    i += 8
                }
                while i < n && pa[i] == pb[i] { i += 1 }
                return i
            }
        }
    }

    /// For `a` and `b` of one length: the last index above `i` where they differ, or `i`.
    /// - Complexity: O(count - i).
    static func lastDifference(_ a: [Int], _ b: [Int], above i: Int) -> Int {
        precondition(a.count == b.count && i >= 0)
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var end = a.count - 1
                while end - 7 > i {
                    let d = (pa[end] ^ pb[end]) | (pa[end - 1] ^ pb[end - 1]) | (pa[end - 2] ^ pb[end - 2]) | (pa[end - 3] ^ pb[end - 3])
                        | (pa[end - 4] ^ pb[end - 4]) | (pa[end - 5] ^ pb[end - 5]) | (pa[end - 6] ^ pb[end - 6]) | (pa[end - 7] ^ pb[end - 7])
                    if d != 0 { break }
                    end -= 8
                }
                while end > i && pa[end] == pb[end] { end -= 1 }
                return max(end, i)
            }
        }
    }

    // MARK: Invariants

    /// Every item is in exactly one place, the inverse maps agree, geometry is consistent.
    func invariantViolations() -> [String] {
        var v: [String] = []
        var seen = Array(repeating: false, count: itemCount)
        for s in 0..<sectionCount {
            for (i, h) in members[s].enumerated() {
                if seen[h] { v.append("item \(ids[h]) appears twice") }
                seen[h] = true
                if sectionOf[h] != s || indexOf[h] != i { v.append("item \(ids[h]) inverse map is stale") }
                if stacksRows {
                    let expected = i == 0 ? 0 : tops[s][i - 1] + heights[members[s][i - 1]] + rowSpacing
                    if tops[s][i] != expected { v.append("tops[\(s)][\(i)] is \(tops[s][i]), expected \(expected)") }
                }
            }
            if stacksRows, tops[s].count != members[s].count { v.append("tops[\(s)] has the wrong length") }
            let expectedTop = s == 0 || scrollsSections ? 0 : sectionTop[s - 1] + sectionHeight[s - 1]
            if sectionTop[s] != expectedTop { v.append("section \(sectionIDs[s]) top is stale") }
        }
        if let missing = seen.indices.first(where: { !seen[$0] && sectionOf[$0] >= 0 }) { v.append("item \(ids[missing]) is nowhere") }
        for h in seen.indices where seen[h] && sectionOf[h] < 0 { v.append("item \(ids[h]) is parked and placed") }
        return v
    }
}
