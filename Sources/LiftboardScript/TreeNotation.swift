import LiftboardCore
import LiftboardWire

/// One item of a tree as a script writes it: its id and its children, in order.
public struct TreeNode: Hashable, Sendable {
    public var id: String
    public var children: [TreeNode]
    public init(_ id: String, _ children: [TreeNode] = []) { self.id = id; self.children = children }
}

/// The notation `expect tree` reads and failure reports write: a section's forest, each item's
/// children in parentheses right after it. `a (b c (d)) e`: `a` holds `b` and `c`, `c` holds
/// `d`, `e` is top level after `a`. An id with a space, a quote or a parenthesis is written as
/// a JSON string (`"my card" ("(draft)")`).
public enum TreeNotation {
    /// Reads a forest. Throws for an unbalanced parenthesis, parentheses with nothing before
    /// them or nothing inside, and an unterminated string.
    public static func parse(_ text: Substring) throws(ScriptReadError) -> [TreeNode] {
        let usage = "expect tree S: ID (ID ...) ID ..."
        let tokens = try tokens(text)
        var k = 0
        func forest(depth: Int) throws(ScriptReadError) -> [TreeNode] {
            var out: [TreeNode] = []
            while k < tokens.count {
                switch tokens[k] {
                case .close:
                    guard depth > 0 else { throw .syntax(step: "expect tree", usage: usage) }
                    return out
                case .open:
                    // Children need an item before them, and at least one child.
                    guard !out.isEmpty, out[out.count - 1].children.isEmpty else { throw .syntax(step: "expect tree", usage: usage) }
                    k += 1
                    let children = try forest(depth: depth + 1)
                    guard k < tokens.count, case .close = tokens[k], !children.isEmpty else {
                        throw .syntax(step: "expect tree", usage: usage)
                    }
                    k += 1
                    out[out.count - 1].children = children
                case .id(let id):
                    out.append(TreeNode(id))
                    k += 1
                }
            }
            guard depth == 0 else { throw .syntax(step: "expect tree", usage: usage) }
            return out
        }
        return try forest(depth: 0)
    }

    /// `forest` in the notation (the inverse of `parse`).
    public static func write(_ forest: [TreeNode]) -> String {
        forest.map { n in
            let id = written(n.id)
            return n.children.isEmpty ? id : "\(id) (\(write(n.children)))"
        }.joined(separator: " ")
    }

    /// A section's forest from its pre-order and each item's parent (`parents` nil, or an item
    /// whose parent is not before it: top level), as commits' `order` gives them.
    public static func forest(items: [String], parents: [String?]?) -> [TreeNode] {
        // Children's positions per parent position, in pre-order: built bottom-up after.
        var position: [String: Int] = [:]
        var childrenOf = Array(repeating: [Int](), count: items.count)
        var roots: [Int] = []
        for (k, id) in items.enumerated() {
            if let parents, k < parents.count, let p = parents[k], let at = position[p] { childrenOf[at].append(k) } else { roots.append(k) }
            position[id] = k
        }
        func node(_ k: Int) -> TreeNode { TreeNode(items[k], childrenOf[k].map(node)) }
        return roots.map(node)
    }

    /// `section: forest`, as a failed `expect tree` shows each side.
    static func sectionText(_ section: String, _ forest: [TreeNode]) -> String {
        ([ScriptToken.written(section) + ":"] + (forest.isEmpty ? [] : [write(forest)])).joined(separator: " ")
    }

    private enum Token { case open, close, id(String) }

    private static func tokens(_ text: Substring) throws(ScriptReadError) -> [Token] {
        var out: [Token] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 { i += 1; continue }
            if c == UInt8(ascii: "(") { out.append(.open); i += 1; continue }
            if c == UInt8(ascii: ")") { out.append(.close); i += 1; continue }
            if c == UInt8(ascii: "\"") {
                let (text, next) = try ScriptToken.quoted(bytes, at: i)
                out.append(.id(text))
                i = next
                continue
            }
            var j = i
            while j < bytes.count, ![0x20, 0x09, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\"")].contains(bytes[j]) { j += 1 }
            out.append(.id(String(decoding: bytes[i..<j], as: UTF8.self)))
            i = j
        }
        return out
    }

    /// An id as the notation writes it: bare when it reads back the same.
    private static func written(_ id: String) -> String {
        if id.contains(where: { $0 == "(" || $0 == ")" }) {
            var w = JSONWriter()
            w.string(id)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        return ScriptToken.written(id)
    }
}
