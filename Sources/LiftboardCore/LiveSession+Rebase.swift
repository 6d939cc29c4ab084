/// A rebase told as commits: when another process's commit came first and this process's
/// drops landed after it, the session's committed order goes back to the store's order before
/// both, silently, and the commits then come as `external`s in version order (its own drop
/// among them, with its `by`). The frame of the first commit after it animates the cells from
/// what the client has to the merged order.
extension LiveSession {
    /// Makes `order` at `version` the committed order with nothing sent (drags in flight keep
    /// their live places; what moved shows in the next step's frame). A `bad_message` error,
    /// changing nothing, when `order` does not name every section and item once, or when it is
    /// not older than what the session has.
    mutating func rebase(to order: [SectionOrder], version: Int) -> [ServerEvent] {
        guard version <= self.version else {
            return [.error(code: .badMessage, message: "rebase: version \(version) is newer than \(self.version)")]
        }
        guard resync(to: order, version: version) else {
            return [.error(code: .badMessage, message: "rebase: order must name every section and item of the board exactly once")]
        }
        return []
    }
}
