import Foundation
import Testing
import LiftboardCore
@testable import LiftboardStore

/// Issue 44, holds across processes: the `claims` table's statements (`ClaimSQL`) against the
/// private PostgreSQL (`LIFTBOARD_TEST_POSTGRES`, as `StoreConformanceTests`).
@Suite(.enabled(if: StoreKind.postgresServer != nil || CI.on, "\(ConformanceSkip.noPostgres)"))
struct ClaimStoreTests {
    /// A fresh database at the newest schema, and a connection to it.
    static func database() throws -> (url: String, db: PostgresConnection) {
        let url = try StoreKind.freshPostgresDatabase()
        _ = try PostgresStore(url: url, edits: .wire)
        return (url, try PostgresConnection(url: url))
    }

    static func person(_ session: String, _ name: String) -> Presence.Entry {
        Presence.Entry(session: session, user: name.lowercased(), name: name, color: Presence.color(for: name.lowercased()), role: .edit)
    }

    @Test func aClaimIsWonOnceThenLostToOthersUntilReleased() throws {
        let (_, db) = try Self.database()
        let ana = Self.person("s1-a", "Ana"), bo = Self.person("s1-b", "Bo")
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: ana, process: "p1", leaseMs: 60_000) == .won)
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: ana, process: "p1", leaseMs: 60_000) == .won,
                "the holder's own claim again")
        guard case .lost(let holder) = try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: bo, process: "p2", leaseMs: 60_000) else {
            Issue.record("Bo won a claim Ana holds"); return
        }
        #expect(holder.name == "Ana" && holder.session == "s1-a" && holder.user == "ana")
        // Only the holder releases it.
        try ClaimSQL.release(on: db, board: "demo", item: "milk", session: "s1-b", process: "p2")
        guard case .lost = try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: bo, process: "p2", leaseMs: 60_000) else {
            Issue.record("Bo's release freed Ana's claim"); return
        }
        try ClaimSQL.release(on: db, board: "demo", item: "milk", session: "s1-a", process: "p1")
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: bo, process: "p2", leaseMs: 60_000) == .won)
    }

    @Test func anExpiredLeaseIsTakenOverAndARenewedOneIsNot() throws {
        let (_, db) = try Self.database()
        let ana = Self.person("s1-a", "Ana"), bo = Self.person("s1-b", "Bo")
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: ana, process: "p1", leaseMs: 60_000) == .won)
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "eggs", holder: ana, process: "p1", leaseMs: 60_000) == .won)
        // p1 stops renewing (killed): its leases run out, as the database's clock says.
        try db.exec("UPDATE claims SET expires = clock_timestamp() - interval '1 second' WHERE item = 'milk'")
        #expect(try ClaimSQL.others(on: db, process: "p2")["demo"]?.map(\.holds) == [["eggs"]], "an expired claim is no hold")
        #expect(try ClaimSQL.claim(on: db, board: "demo", item: "milk", holder: bo, process: "p2", leaseMs: 60_000) == .won)
        // A renewal moves every lease of the process on.
        try db.exec("UPDATE claims SET expires = clock_timestamp() - interval '1 second' WHERE process = 'p1'")
        try ClaimSQL.renew(on: db, process: "p1", leaseMs: 60_000)
        guard case .lost = try ClaimSQL.claim(on: db, board: "demo", item: "eggs", holder: bo, process: "p2", leaseMs: 60_000) else {
            Issue.record("a renewed claim was taken over"); return
        }
    }

    @Test func othersListsEachOtherProcesssHoldersWithTheirItemsInOrder() throws {
        let (_, db) = try Self.database()
        let ana = Self.person("s1-a", "Ana"), bo = Self.person("s2-b", "Bo"), cy = Self.person("s1-c", "Cy")
        for (item, who, process) in [("milk", ana, "p1"), ("eggs", bo, "p2"), ("tea", ana, "p1"), ("jam", cy, "p3")] {
            #expect(try ClaimSQL.claim(on: db, board: item == "jam" ? "kanban" : "demo", item: item, holder: who, process: process,
                                       leaseMs: 60_000) == .won)
        }
        let seen = try ClaimSQL.others(on: db, process: "p2")
        #expect(seen["demo"]?.map(\.session) == ["s1-a"] && seen["demo"]?.first?.holds == ["milk", "tea"])
        #expect(seen["kanban"]?.map(\.holds) == [["jam"]])
        try ClaimSQL.releaseAll(on: db, process: "p1")
        #expect(try ClaimSQL.others(on: db, process: "p2")["demo"] == nil)
    }

    @Test func aHoldersTargetIsListedWithItsHoldsAndGoesWithThem() throws {
        let (_, db) = try Self.database()
        let ana = Self.person("s1-a", "Ana")
        for item in ["garden", "seeds"] {
            #expect(try ClaimSQL.claim(on: db, board: "outline", item: item, holder: ana, process: "p1", leaseMs: 60_000) == .won)
        }
        #expect(try ClaimSQL.others(on: db, process: "p2")["outline"]?.first?.target == nil, "no target before the lift")
        var t = Place(section: "main", index: 3)
        t.depth = 2
        try ClaimSQL.target(on: db, board: "outline", session: "s1-a", process: "p1", target: t)
        // Another process's session of the same id sets nothing of Ana's.
        try ClaimSQL.target(on: db, board: "outline", session: "s1-a", process: "p2", target: Place(section: "main", index: 0))
        let seen = try ClaimSQL.others(on: db, process: "p2")["outline"]
        #expect(seen?.count == 1 && seen?.first?.holds == ["garden", "seeds"])
        #expect(seen?.first?.target == t)
        // A list's target has no depth.
        try ClaimSQL.target(on: db, board: "outline", session: "s1-a", process: "p1", target: Place(section: "main", index: 1))
        #expect(try ClaimSQL.others(on: db, process: "p2")["outline"]?.first?.target == Place(section: "main", index: 1))
        for item in ["garden", "seeds"] { try ClaimSQL.release(on: db, board: "outline", item: item, session: "s1-a", process: "p1") }
        #expect(try ClaimSQL.others(on: db, process: "p2")["outline"] == nil)
    }

    @Test func claimsRacedByTwoProcessesAreEachWonByExactlyOne() throws {
        let (url, _) = try Self.database()
        let items = (0..<40).map { "item\($0)" }
        let results = RaceResults()
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for (process, name) in [("p1", "Ana"), ("p2", "Bo")] {
            DispatchQueue.global().async(group: group) {
                // Each process its own connection, made before the start.
                guard let db = try? PostgresConnection(url: url) else { return results.add("connect", won: false) }
                start.wait()
                for item in items {
                    let won = (try? ClaimSQL.claim(on: db, board: "demo", item: item, holder: Self.person("s-\(process)", name),
                                                   process: process, leaseMs: 60_000)) == .won
                    results.add(item, won: won)
                }
            }
        }
        start.signal(); start.signal()
        #expect(group.wait(timeout: .now() + 30) == .success, "the racing claims did not finish within 30 s")
        #expect(results.wins("connect") == 0 && !results.has("connect"), "a racer could not connect")
        for item in items { #expect(results.wins(item) == 1, "\(item) won \(results.wins(item)) times") }
    }
}

private final class RaceResults: @unchecked Sendable {
    private let lock = NSLock()
    private var won: [String: Int] = [:]
    func add(_ item: String, won w: Bool) { lock.lock(); won[item, default: 0] += w ? 1 : 0; lock.unlock() }
    func wins(_ item: String) -> Int { lock.lock(); defer { lock.unlock() }; return won[item] ?? 0 }
    func has(_ item: String) -> Bool { lock.lock(); defer { lock.unlock() }; return won[item] != nil }
}
