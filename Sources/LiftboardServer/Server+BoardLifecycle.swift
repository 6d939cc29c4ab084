import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore

/// Boards that other processes create and delete (a shared PostgreSQL store), and hellos that
/// wait for a board this process has not heard of yet.
extension Server {
    /// Close code for sessions on a board deleted through the API.
    static let boardDeletedCloseCode: Int32 = 4404

    /// The board goes: its sessions are closed with 4404, its event streams end.
    func closeBoard(_ hub: Hub, how: String) {
        let id = hub.board.id
        hubs[id] = nil
        for c in hub.connections { c.close(Self.boardDeletedCloseCode, "board deleted") }
        closeEvents(board: id)
        log(.info, "board", session: nil, "\(id) deleted \(how); \(hub.connections.count) sessions closed")
    }

    /// What the listener found: boards created (by any process, or asked about) get a hub,
    /// deleted ones go, and hellos waiting for any of them go on.
    func apply(_ news: BoardNews) {
        for id in news.gone { if let hub = hubs[id] { closeBoard(hub, how: "by another process") } }
        for b in news.appeared where hubs[b.id] == nil {
            hubs[b.id] = Hub(board: b, server: self)
            log(.info, "board", session: nil, "\(b.id) v\(b.version) found in the shared store")
        }
        for c in boards.lookups.answered(news.appeared.map(\.id) + news.missing) { c.boardLookupAnswered() }
    }

    /// A hello names a board this process does not have: with a shared store, asks the
    /// listener whether it exists (another process may have created it a moment ago) and
    /// keeps `c` waiting for the answer. False (answer now: `no_board`) without a shared
    /// store, while the store is down, or past `Limits.boardLookupsPerSecond`.
    func lookUpBoard(_ id: String, for c: Connection) -> Bool {
        let shared = store.listener != nil && store.reports.storeUp
        switch boards.lookups.lookUp(id, for: c, shared: shared, now: now) {
        case .answerNow: return false
        case .wait: return true
        case .ask:
            store.listener?.lookUp(board: id)
            return true
        }
    }

    /// `c` closed while its hello waited.
    func forgetWaitingHello(_ c: Connection) { boards.lookups.forget(c) }
}
