import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// What the store thread did with a board created or deleted through the API.
struct BoardJobResult: Sendable {
    enum Outcome: Sendable {
        case created(Board)
        case exists
        case deleted
        case failed(String)
        /// A read's answer, made on the store thread.
        case answer(APIResponse)
    }
    var job: Int
    var outcome: Outcome
}

/// Results handed from the store thread to the service thread.
final class BoardJobResults: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var results: [BoardJobResult] = []
    func add(_ r: BoardJobResult) { lock.lock(); results.append(r); lock.unlock() }
    func take() -> [BoardJobResult] {
        lock.lock(); defer { lock.unlock() }
        let out = results
        results.removeAll()
        return out
    }
}

/// POST /api/boards (create), DELETE /api/boards/{id}, PUT /api/boards/{id} (replace: the
/// difference as edits and moves, each a version, as sessions get them).
extension Server {
    /// Close code for sessions on a board deleted through the API.
    static let boardDeletedCloseCode: Int32 = 4404

    func createBoard(_ wsi: OpaquePointer, body: [UInt8]) -> APIAnswer {
        let board: Board
        do {
            board = try Wire.decodeBoard(body)
            try BoardLimits.check(board)
        } catch {
            return .error(400, .badRequest, "\(error)")
        }
        guard hubs[board.id] == nil else {
            return .error(409, .boardExists, "there is a board \(board.id) already", version: hubs[board.id]!.board.version)
        }
        var created = board
        created.version = 0
        let fresh = created
        let job = scheduleBoardJob(wsi, status: 201) { store throws(StoreError) -> BoardJobResult.Outcome in
            if try store.board(id: fresh.id) != nil { return .exists }
            return .created(try store.seed(fresh))
        }
        return job
    }

    func deleteBoard(_ wsi: OpaquePointer, hub: Hub) -> APIAnswer {
        let id = hub.board.id
        closeBoard(hub, how: "through the API")
        return scheduleBoardJob(wsi, status: 200) { store throws(StoreError) -> BoardJobResult.Outcome in
            _ = try store.deleteBoard(id: id)
            return .deleted
        }
    }

    func replaceBoard(_ wsi: OpaquePointer, hub: Hub, body: [UInt8]) -> APIAnswer {
        var target: Board
        do {
            target = try Wire.decodeBoard(body)
            try BoardLimits.check(target)
        } catch {
            return .error(400, .badRequest, "\(error)")
        }
        let board = hub.board
        guard target.id == board.id else {
            return .error(400, .badRequest, "id: the body's id (\(target.id)) is not the board's (\(board.id))")
        }
        target.version = board.version
        // An item given without a color keeps the one it has (a board file would colour it by
        // its position, which a replace should not change).
        if case .array(let raw)? = (try? JSONParser.parse(body))?["sections"] {
            let uncoloured = Set(raw.flatMap { s -> [String] in
                guard case .array(let items)? = s["items"] else { return [] }
                return items.compactMap { i in
                    guard i["color"] == nil, case .string(let id)? = i["id"] else { return nil }
                    return id
                }
            })
            for s in target.sections.indices {
                for k in target.sections[s].items.indices where uncoloured.contains(target.sections[s].items[k].id) {
                    if let (cs, ci) = board.locate(item: target.sections[s].items[k].id) {
                        target.sections[s].items[k].color = board.sections[cs].items[ci].color
                    }
                }
            }
        }
        guard let changes = board.changes(to: target) else {
            return .error(409, .cannotReplace, "the board cannot become this one by edits and moves (layout, metrics, section order, "
                          + "a pinned item's place or a removed height differ): delete it and create it again", version: board.version)
        }
        var last: (commit: Commit, token: Int)?
        for (k, change) in changes.enumerated() {
            guard let made = hub.edit(change, by: "api", ifVersion: board.version + k) else { break }
            last = made
        }
        guard let last else { return .now(.done(version: board.version, changed: false)) }
        return .afterCommit(board: board.id, token: last.token, status: 200)
    }

    /// GET /api/boards/{id}/history?since=V&limit=N: the versions after V, oldest first, with
    /// author, time and change, read on the store thread (a job: answered when it is done).
    func history(_ wsi: OpaquePointer, hub: Hub) -> APIAnswer {
        let since = queryValue(wsi, "since").map { Int($0) } ?? 0
        let limit = queryValue(wsi, "limit").map { Int($0) } ?? 100
        guard let since, since >= 0, let limit, (1...1000).contains(limit) else {
            return .error(400, .badRequest, "since must be a version (0 or more) and limit 1 to 1000")
        }
        let id = hub.board.id
        return scheduleBoardJob(wsi, status: 200) { store throws(StoreError) -> BoardJobResult.Outcome in
            let all = try store.commits(board: id, after: since)
            let page = all.prefix(limit)
            var w = JSONWriter()
            w.beginObject()
            w.key("board"); w.string(id)
            w.key("versions"); w.beginArray()
            for d in page {
                w.beginObject()
                w.key("version"); w.int(d.version); w.key("by"); w.string(d.by); w.key("at"); w.number(d.at)
                if let change = d.change { w.key("change"); Wire.writeChange(change, into: &w) } else { w.key("change"); w.null() }
                w.endObject()
            }
            w.endArray()
            w.key("more"); w.bool(all.count > limit)
            w.endObject()
            return .answer(APIResponse(status: 200, body: w.bytes))
        }
    }

    private func scheduleBoardJob(_ wsi: OpaquePointer, status: UInt32,
                                  _ work: @escaping @Sendable (any Store) throws(StoreError) -> BoardJobResult.Outcome) -> APIAnswer {
        guard let writer else { return .error(503, .storeUnavailable, "no store") }
        nextBoardJob += 1
        let job = nextBoardJob
        let results = boardJobs
        let box = ContextBox()
        if let context { box.set(context) }
        writer.perform { store in
            let outcome: BoardJobResult.Outcome
            do { outcome = try work(store) } catch { outcome = .failed("\(error)") }
            results.add(BoardJobResult(job: job, outcome: outcome))
            box.wake()
        }
        return .afterJob(job, status: status)
    }

    /// The store thread finished board jobs: hubs appear and the requests get their answers.
    func drainBoardJobs() {
        for r in boardJobs.take() {
            if case .created(let board) = r.outcome, hubs[board.id] == nil {
                hubs[board.id] = Hub(board: board, server: self)
                log(.info, "board", session: nil, "\(board.id) created through the API")
            }
            let resolved = pendingAnswers.resolveJob(r.job) { status in
                switch r.outcome {
                case .created(let board): .done(status, version: board.version)
                case .exists: .error(409, .boardExists, "there is a board with this id already")
                case .deleted: .done(status, version: 0)
                case .failed(let reason): .error(503, .storeUnavailable, "the store could not do it: \(reason)")
                case .answer(let response): response
                }
            }
            if let (wsi, _) = resolved { lws_callback_on_writable(wsi) }
        }
    }
}

/// Boards that other processes create and delete (a shared PostgreSQL store), and hellos that
/// wait for a board this process has not heard of yet.
extension Server {
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
        for id in news.appeared.map(\.id) + news.missing {
            for c in waitingHellos.removeValue(forKey: id) ?? [] { c.boardLookupAnswered() }
        }
    }

    /// A hello names a board this process does not have: with a shared store, asks the
    /// listener whether it exists (another process may have created it a moment ago) and
    /// keeps `c` waiting for the answer. False (answer now: `no_board`) without a shared
    /// store, while the store is down, or past `Limits.boardLookupsPerSecond`.
    func lookUpBoard(_ id: String, for c: Connection) -> Bool {
        guard let listener, storeReports.storeUp else { return false }
        if waitingHellos[id] == nil {
            guard boardLookups.admit(now: now).admitted else { return false }
            listener.lookUp(board: id)
        }
        waitingHellos[id, default: []].append(c)
        return true
    }

    /// `c` closed while its hello waited.
    func forgetWaitingHello(_ c: Connection) {
        for id in waitingHellos.keys { waitingHellos[id]?.removeAll { $0 === c } }
        waitingHellos = waitingHellos.filter { !$0.value.isEmpty }
    }
}
