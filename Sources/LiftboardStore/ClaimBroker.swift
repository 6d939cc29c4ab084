import Foundation
import LiftboardCore

/// Issue 44, holds across processes: a thread with its own PostgreSQL connection that makes
/// this process's claims and releases (`ClaimSQL`, in the order asked), renews their lease
/// every `leaseMs / 4`, and reads the other processes' live claims at once when one of them
/// claims or releases (`NOTIFY` on `channel`) and at least every `readMs` (an expired lease, a
/// killed process's, is seen so). A process killed stops renewing: its claims are free within
/// `leaseMs` of its last renewal, and other processes see it within `readMs` more.
public final class ClaimBroker: @unchecked Sendable {
    // @unchecked: the requests are kept by `life` under its lock; everything else belongs to
    // the thread.
    public static let channel = "liftboard_claims"
    /// The lease a process's claims get, renewed every quarter of it: a process killed has
    /// its claims back within 8 s (the contract says 10 s: 2 s for the others to see it).
    public static let defaultLeaseMs = 8_000
    /// How often the other processes' claims are read when no notification came.
    public static let readMs = 200.0

    public enum Request: Hashable, Sendable {
        /// Claims `item` of `board` for `holder` (a session of this process).
        case claim(board: String, item: String, holder: Presence.Entry)
        case release(board: String, item: String, session: String)
        /// Where `session`'s latest drag would drop now (its `moved`): the other processes list
        /// it as the holder's `target`. Only the last of a session's in one batch is written.
        case target(board: String, session: String, target: Place?)
        /// A block of session numbers (`sessionBlockSize`), told by `onBlock`.
        case sessionBlock
    }

    /// How many session numbers a process takes from the store at a time.
    public static let sessionBlockSize = 1000

    /// The first number of a block of session numbers, asked for at once on a connection of
    /// its own (a process's first, before it serves anyone).
    public static func takeSessionBlock(url: String) throws(StoreError) -> Int {
        try ClaimSQL.sessionBlock(on: try PostgresConnection(url: url), size: sessionBlockSize)
    }

    /// The store's answer to one `.claim`, in the order asked.
    public struct Answer: Hashable, Sendable {
        public var board: String
        public var item: String
        public var session: String
        /// nil: won; else the holder's name.
        public var holder: String?
        /// The claim could not be made (the store is down).
        public var failed: Bool
    }

    private let life = StoreThread<[Request]>([])
    private let url: String
    private let process: String
    public let leaseMs: Int
    private let onAnswers: @Sendable ([Answer]) -> Void
    private let onOthers: @Sendable ([String: [Presence.Entry]]) -> Void
    private let onBlock: @Sendable (Int) -> Void

    /// `process`: this process among those sharing the store; `onAnswers`: the claims'
    /// answers; `onOthers`: the other processes' live holds by board, whenever they changed;
    /// `onBlock`: a block of session numbers asked for (`Request.sessionBlock`), its first.
    public init(url: String, process: String, leaseMs: Int = ClaimBroker.defaultLeaseMs,
                onAnswers: @escaping @Sendable ([Answer]) -> Void, onOthers: @escaping @Sendable ([String: [Presence.Entry]]) -> Void,
                onBlock: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.url = url
        self.process = process
        self.leaseMs = leaseMs
        self.onAnswers = onAnswers
        self.onOthers = onOthers
        self.onBlock = onBlock
        life.start(name: "liftboard-claims") { [unowned self] in self.loop() }
    }

    public func ask(_ r: [Request]) {
        guard !r.isEmpty else { return }
        life.withAsked(wake: true) { $0 += r }
    }

    /// Gives up this process's claims and stops the thread.
    public func close() { life.stop() }

    private func take() -> [Request] { life.take(\.self, leaving: []) }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    private func loop() {
        var db: PostgresConnection?
        var others: [String: [Presence.Entry]] = [:]
        var nextRenew = 0.0, nextRead = 0.0
        var backoff = 0.1
        while !life.isStopping {
            do throws(StoreError) {
                if db == nil || !db!.isConnected {
                    db = nil
                    let c = try PostgresConnection(url: url)
                    try c.exec("LISTEN \(Self.channel)")
                    // A claim lives for its lease: one lost in a crash of the database costs
                    // nothing, so it is not waited for on disk (0.07 ms a claim instead of 5.5,
                    // measured with psql here).
                    try c.exec("SET synchronous_commit = off")
                    db = c
                    nextRenew = 0; nextRead = 0
                    backoff = 0.1
                }
                let c = db!
                try perform(take(), on: c)
                var now = Self.now()
                if now >= nextRenew {
                    try ClaimSQL.renew(on: c, process: process, leaseMs: leaseMs)
                    nextRenew = now + Double(leaseMs) / 4
                }
                if now >= nextRead {
                    let read = try ClaimSQL.others(on: c, process: process)
                    if read != others { others = read; onOthers(read) }
                    nextRead = now + Self.readMs
                }
                now = Self.now()
                // Another process claimed or released: read at once.
                if life.poll(c.socket, ms: Int32((min(nextRenew, nextRead) - now).rounded(.up))), try !c.notifications().isEmpty {
                    nextRead = 0
                }
            } catch {
                db = nil
                waitWhileDown(seconds: backoff)
                backoff = min(backoff * 2, 2)
            }
        }
        if let db { try? ClaimSQL.releaseAll(on: db, process: process) }
    }

    /// The store is down: until it is tried again, `seconds` from now, every claim asked fails
    /// at once (its press lifts as on one process) and releases wait to be made once it is
    /// back (renewed meanwhile, a claim would outlive its hold).
    private func waitWhileDown(seconds: Double) {
        let until = Self.now() + seconds * 1000
        repeat {
            var failed: [Answer] = [], releases: [Request] = []
            for r in take() {
                switch r {
                case .claim(let board, let item, let holder):
                    failed.append(Answer(board: board, item: item, session: holder.session, holder: nil, failed: true))
                case .release, .sessionBlock:
                    releases.append(r)
                case .target:
                    // A failed claim has no row to carry it: other processes do not see such a hold.
                    break
                }
            }
            if !releases.isEmpty { life.withAsked { $0 = releases + $0 } }
            if !failed.isEmpty { onAnswers(failed) }
            _ = life.poll(nil, ms: Int32((until - Self.now()).rounded(.up)))
        } while Self.now() < until && !life.isStopping
    }

    /// Makes the claims and releases, in order; tells the answers, and the other processes
    /// that a claim of one of `boards` changed.
    private func perform(_ requests: [Request], on db: PostgresConnection) throws(StoreError) {
        guard !requests.isEmpty else { return }
        var answers: [Answer] = []
        var changed: [String] = []
        var k = 0
        do throws(StoreError) {
            for (n, r) in requests.enumerated() {
                switch r {
                case .claim(let board, let item, let holder):
                    let o = try ClaimSQL.claim(on: db, board: board, item: item, holder: holder, process: process, leaseMs: leaseMs)
                    var holderName: String?
                    if case .lost(let e) = o { holderName = e.name } else if !changed.contains(board) { changed.append(board) }
                    answers.append(Answer(board: board, item: item, session: holder.session, holder: holderName, failed: false))
                case .release(let board, let item, let session):
                    try ClaimSQL.release(on: db, board: board, item: item, session: session, process: process)
                    if !changed.contains(board) { changed.append(board) }
                case .target(let board, let session, let target):
                    // A later target of the session in this batch replaces this one.
                    if requests[(n + 1)...].contains(where: { if case .target(board, session, _) = $0 { true } else { false } }) { break }
                    try ClaimSQL.target(on: db, board: board, session: session, process: process, target: target)
                    if !changed.contains(board) { changed.append(board) }
                case .sessionBlock:
                    onBlock(try ClaimSQL.sessionBlock(on: db, size: Self.sessionBlockSize))
                }
                k += 1
            }
            for b in changed { try db.exec("SELECT pg_notify($1, $2)", [Self.channel, b]) }
        } catch {
            // What was not done fails (claims) or is asked again (releases: a lease would end
            // them anyway).
            for r in requests[k...] {
                switch r {
                case .claim(let board, let item, let holder):
                    answers.append(Answer(board: board, item: item, session: holder.session, holder: nil, failed: true))
                case .release, .sessionBlock:
                    life.withAsked { $0.append(r) }
                case .target:
                    break
                }
            }
            if !answers.isEmpty { onAnswers(answers) }
            throw error
        }
        if !answers.isEmpty { onAnswers(answers) }
    }
}
