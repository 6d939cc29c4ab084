/// The rules a section states about what may be placed in it (issue 23), as one policy that
/// the engine asks while a drag looks for its place, that a session asks before it commits, and
/// that the hub, the stores and the HTTP API ask before they apply a change: every client,
/// replay and fuzz run sees the same rule.
///
/// - `accepts`: an item whose kind is not listed (or that has no kind) is refused.
/// - `max`: a placement that would leave the section holding more than `max` items with items
///   from other sections is refused; moves inside it are free.
/// - `copy` (a palette): nothing from another section is placed in it.
/// - `drop: "remove"` (a trash) refuses nothing while a drag looks for its place; its drop
///   removes what it carries. No change ever leaves an item in it.
public enum PlacementRules {
    /// The rule, if any, that section `rules` (id `section`, holding `count` items in the
    /// committed order) breaks when a drag carrying items of `kinds` lands in it, `entering`
    /// of them from other sections. Checked in this order: `copy`, `accepts`, `max`.
    /// - Complexity: O(kinds).
    public static func refusal(_ rules: SectionRules, section: String, holding count: Int,
                               kinds: [String?], entering: Int) -> Refusal? {
        if rules.copy && entering > 0 { return .palette(section: section) }
        if let accepts = rules.accepts, let bad = kinds.first(where: { k in !(k.map(accepts.contains) ?? false) }) {
            return .kind(section: section, kind: bad)
        }
        if let max = rules.max, entering > 0, count + entering > max { return .full(section: section, max: max) }
        return nil
    }

    /// The first rule that `after` breaks which `before` kept, section by section: an item that
    /// entered a palette or a trash, an item of a kind a section does not accept, a section
    /// grown past its `max` by items that entered it. `nil` when every placement is allowed.
    /// - Complexity: O(items of the sections that state rules).
    public static func violation<T: Hashable>(before: [[T]], after: [[T]], rules: [SectionRules], sections: [String],
                                              kind: (T) -> String?) -> Refusal? {
        for t in rules.indices where rules[t].hasRules && t < after.count {
            let had = t < before.count ? Set(before[t]) : []
            let entering = after[t].filter { !had.contains($0) }
            guard !entering.isEmpty else { continue }
            if rules[t].drop == .remove { return .trash(section: sections[t]) }
            let count = after[t].count - entering.count
            if let r = refusal(rules[t], section: sections[t], holding: count, kinds: entering.map(kind), entering: entering.count) {
                return r
            }
        }
        return nil
    }
}

/// A section's placement rules (see `PlacementRules`).
public struct SectionRules: Hashable, Sendable {
    public var accepts: Set<String>? = nil
    public var max: Int? = nil
    public var copy = false
    public var drop: SectionDrop? = nil
    public var hasRules: Bool { accepts != nil || max != nil || copy || drop != nil }
}

/// A rule that refused a placement: the `rule_refused` error and the `announce` name it.
public enum Refusal: Hashable, Sendable, CustomStringConvertible {
    /// `accepts` does not list `kind` (`nil`: an item without a kind).
    case kind(section: String, kind: String?)
    /// `max`: the section would hold more than `max` items.
    case full(section: String, max: Int)
    /// `copy`: a palette takes nothing from other sections.
    case palette(section: String)
    /// `drop: "remove"`: a trash holds no items.
    case trash(section: String)

    /// `rule_refused`'s message: the rule first, then the section and why.
    public var description: String {
        switch self {
        case .kind(let s, let k):
            "accepts: section \"\(s)\" does not accept \(k.map { "items of kind \"\($0)\"" } ?? "items without a kind")"
        case .full(let s, let m): "max: section \"\(s)\" holds at most \(m) item\(m == 1 ? "" : "s")"
        case .palette(let s): "copy: section \"\(s)\" is a palette and takes no items"
        case .trash(let s): "drop: section \"\(s)\" is a trash and holds no items"
        }
    }
}

extension Board {
    /// The first placement rule that this board's order breaks which `before`'s kept (sections
    /// matched by id): `nil` when the change from `before` to this board places every item
    /// where its section allows it.
    /// - Complexity: O(items of the sections that state rules).
    public func ruleViolation(since before: Board) -> Refusal? {
        guard hasRules else { return nil }
        var kinds: [String: String] = [:]
        for s in sections { for i in s.items { if let k = i.kind { kinds[i.id] = k } } }
        let old = Dictionary(before.sections.map { ($0.id, $0.items.map(\.id)) }, uniquingKeysWith: { $1 })
        return PlacementRules.violation(before: sections.map { old[$0.id] ?? [] }, after: sections.map { $0.items.map(\.id) },
                                        rules: sections.map(\.rules), sections: sections.map(\.id), kind: { kinds[$0] })
    }

    /// Whether a section of the board states a placement rule.
    public var hasRules: Bool { sections.contains(where: \.hasRules) }

    /// `change` as a store applies it to this board: a `copyItem` whose new id the board has
    /// already (another process copied at the same version) gets `X~V`, V the version it lands
    /// at, then `X~V~2`, `X~V~3`... The commit carries the id it got.
    public func storing(_ change: Change) -> Change {
        guard case .copyItem(let id, let new, let section, let after, let index, let parent) = change, locate(item: new) != nil else { return change }
        let base = "\(id)~\(version + 1)"
        var fresh = base, k = 2
        while locate(item: fresh) != nil { fresh = "\(base)~\(k)"; k += 1 }
        return .copyItem(id: id, as: fresh, section: section, after: after, index: index, parent: parent)
    }
}

extension Section {
    /// The section's placement rules.
    public var rules: SectionRules { SectionRules(accepts: accepts.map(Set.init), max: max, copy: copy, drop: drop) }

    /// The section's rules as one text, for stores (which stand on Core alone): `max=N;`,
    /// `copy;`, `drop=remove;`, then `accepts=` and each kind as its UTF-8 byte count, `:`,
    /// the kind (`accepts=3:bug7:feature`); `nil` when it states none.
    public var rulesText: String? {
        guard hasRules else { return nil }
        var out = ""
        if let m = max { out += "max=\(m);" }
        if copy { out += "copy;" }
        if let d = drop { out += "drop=\(d.rawValue);" }
        if let a = accepts { out += "accepts=" + a.map { "\($0.utf8.count):\($0)" }.joined() }
        return out
    }

    /// Sets the rules `rulesText` wrote (what it cannot read is left as it is).
    public mutating func readRules(_ text: String) {
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("accepts=") {
                var bytes = Array(rest.dropFirst(8).utf8)[...]
                var kinds: [String] = []
                while let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
                      let n = Int(String(decoding: bytes[bytes.startIndex..<colon], as: UTF8.self)),
                      colon + 1 + n <= bytes.endIndex {
                    kinds.append(String(decoding: bytes[(colon + 1)..<(colon + 1 + n)], as: UTF8.self))
                    bytes = bytes[(colon + 1 + n)...]
                }
                accepts = kinds
                return
            }
            guard let semi = rest.firstIndex(of: ";") else { return }
            let field = rest[rest.startIndex..<semi]
            if field.hasPrefix("max="), let m = Int(field.dropFirst(4)) { max = m }
            if field == "copy" { copy = true }
            if field.hasPrefix("drop="), let d = SectionDrop(rawValue: String(field.dropFirst(5))) { drop = d }
            rest = rest[rest.index(after: semi)...]
        }
    }
}
