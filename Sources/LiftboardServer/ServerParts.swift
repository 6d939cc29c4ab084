import CLibWebSockets
import Dispatch
import Foundation
import LiftboardCore
import LiftboardStore

// The parts `Server` holds (issue 39: a server of a few parts, not of 38 properties). Each
// keeps one concern's state; the deciding parts (`BoardsAPI`, `EventFeeds`, `FanOutPlan`,
// `HeapTrims`, `Hubs`) have files and tests of their own.

/// The boards this process serves, by id, and the hellos waiting for the shared store to say
/// whether a board exists (Server+BoardLifecycle.swift performs what they say).
struct Hubs {
    var byID: [String: Hub] = [:]
    var lookups = BoardLookups<Connection>()
    /// The hubs whose release pass waits for its next chunk (`Server+Releases.swift`).
    var releasing: [Hub] = []
    /// How many sessions a release pass writes before the loop turns (`Server.releaseChunk(for:)`).
    var releaseChunk = Int.max
}

/// Hellos naming a board this process does not have, waiting for the shared store's listener
/// to say whether it exists (another process may have created it a moment ago), and the rate
/// of those lookups, server-wide (`Limits.boardLookupsPerSecond`).
struct BoardLookups<Waiter: AnyObject> {
    private(set) var waiting: [String: [Waiter]] = [:]
    private var rate = RateLimiter(limit: Limits.boardLookupsPerSecond)

    /// What such a hello gets.
    enum Outcome: Equatable {
        /// `no_board` now: no shared store, the store is down, or past the lookups' rate.
        case answerNow
        /// It waits for a lookup already asked for.
        case wait
        /// It waits; the listener is asked whether the board exists.
        case ask
    }

    /// `w`'s hello names board `id`: `shared` whether there is a shared store to ask, and it is up.
    mutating func lookUp(_ id: String, for w: Waiter, shared: Bool, now: Double) -> Outcome {
        guard shared else { return .answerNow }
        var asked = false
        if waiting[id] == nil {
            guard rate.admit(now: now).admitted else { return .answerNow }
            asked = true
        }
        waiting[id, default: []].append(w)
        return asked ? .ask : .wait
    }

    /// The listener answered about `ids`: the hellos waiting for them, to go on, in order.
    mutating func answered(_ ids: [String]) -> [Waiter] {
        ids.flatMap { waiting.removeValue(forKey: $0) ?? [] }
    }

    /// `w` closed while its hello waited.
    mutating func forget(_ w: Waiter) {
        for id in waiting.keys { waiting[id]?.removeAll { $0 === w } }
        waiting = waiting.filter { !$0.value.isEmpty }
    }
}

/// The sessions' side of the server: every live connection, what lws holds, and what sessions
/// are named and recorded with.
struct Sessions {
    var connections: [ObjectIdentifier: Connection] = [:]
    /// Connections lws holds (HTTP, upgrading, sessions): its WSI_CREATE minus WSI_DESTROY.
    var openConnections = 0
    private var lastNumber = 0
    /// A short random tag of this process for session ids.
    private let processTag = String(UInt16.random(in: 0...UInt16.max), radix: 16)
    /// Every session's recorder draws on this.
    let recordingRate: RecordingRate

    init(recordBytesPerSecond: Int) {
        recordingRate = RecordingRate(bytesPerSecond: recordBytesPerSecond)
    }

    /// Issue 44, a shared store: the block of session numbers in use (its last number) and
    /// the next one, taken from the store ahead (`SessionNumbers`).
    var numbers = SessionNumbers()

    /// `s1`, `s2`, ...; with a shared store (`tagged`), followed by this process's tag
    /// (`s1-9f3a`), so that a commit's `by` names one session among every process's, and
    /// numbered from the blocks the processes take in turn from the store (no two guests of
    /// the deployment are "Guest 1").
    mutating func makeID(tagged: Bool) -> String {
        lastNumber = numbers.next(after: lastNumber)
        return tagged ? "s\(lastNumber)-\(processTag)" : "s\(lastNumber)"
    }

    /// A block of session numbers starting at `first` came from the store.
    mutating func takeBlock(first: Int) { numbers.add(first: first, into: &lastNumber) }

    /// Whether to ask the store for the next block of numbers now.
    mutating func wantsBlock() -> Bool { numbers.wantsBlock(last: lastNumber) }
}

/// Issue 44: with a shared store, session numbers come in blocks of `ClaimBroker.sessionBlockSize`
/// that the processes take in turn from the store, so a guest's "Guest N" names one session of
/// the deployment. The next block is asked for when a tenth of the current one is left; a
/// process that runs out before it comes (the store down) counts on past its block.
struct SessionNumbers {
    /// The last number of the block in use (nil: no blocks, one process).
    private(set) var end: Int?
    /// The first number of the block taken ahead.
    private var ahead: Int?
    /// The next block was asked for and not told yet.
    private(set) var asked = false
    let size = ClaimBroker.sessionBlockSize

    /// The block that starts at `first` came: used now when none is, else next.
    mutating func add(first: Int, into last: inout Int) {
        asked = false
        guard end != nil else {
            // Sessions numbered before any block came keep their numbers (ids stay unique).
            last = max(last, first - 1)
            end = first + size - 1
            return
        }
        ahead = first
    }

    /// The number after `last`: the next block's first once this one is used up.
    mutating func next(after last: Int) -> Int {
        guard let e = end else { return last + 1 }
        if last >= e, let a = ahead {
            ahead = nil
            end = a + size - 1
            return a
        }
        return last + 1
    }

    /// Whether to ask the store for the next block now (once, a tenth before the end).
    mutating func wantsBlock(last: Int) -> Bool {
        guard let e = end, ahead == nil, !asked, last >= e - size / 10 else { return false }
        asked = true
        return true
    }
}

/// The store as the service thread sees it: the thread that makes commits durable, the
/// listener of other processes' commits (PostgreSQL), what both report, and this process's
/// name among the processes sharing the store.
struct StoreLink {
    var writer: CommitWriter?
    var listener: CommitListener?
    /// Issue 44: holds claimed in a shared store (PostgreSQL), and what its thread reports.
    var claims: ClaimBroker?
    let claimReports = ClaimReports()
    /// What the store thread and the listener say, drained on the service thread.
    let reports = StoreReports()
    /// This process among the processes sharing a store: tells its own commits apart.
    let origin = "\(ProcessInfo.processInfo.hostName)/\(getpid())/\(UInt32.random(in: 0...UInt32.max))"
}

/// Where the server listens and what it answers from: the service loop and its heap trims,
/// the C strings and arrays lws keeps, the address bound, the file descriptor budget, the Host
/// names it answers to, and the files it serves.
struct Endpoint {
    /// What the service thread waits with (epoll through libuv, or lws's poll).
    var serviceLoop = ServiceLoop(kind: .poll)
    /// When the heap's free pages go back (Server+Heap.swift).
    var heap = HeapTrims()
    var allocations = CAllocations()
    /// The address and port the operating system says the server listens on (`127.0.0.1:8080`,
    /// `[::1]:8080`), for the log and `/healthz`.
    var boundAddress = ""
    /// What the file descriptor limit leaves for sessions and other connections.
    var budget = try! FileDescriptorBudget(limit: 1 << 20, requestedSessions: nil, recording: false)
    /// Host header names this server answers to (see `checkHost`).
    var allowedHosts: Set<String> = []
    /// The files under Public/ (every static path must stay under it).
    let staticFiles: StaticFiles
    /// `--media DIR`, served at `/media/` (issue 25: the cards' images).
    let mediaFiles: StaticFiles?
}

/// Running and stopping: the flag a signal sets, the signals' sources, whether a shutdown
/// began, and who is told when it does.
struct RunState {
    let stopFlag = StopFlag()
    var signalSources: [DispatchSourceSignal] = []
    /// Set once a shutdown began: `/healthz` answers 503 `draining`, new sessions are refused.
    var draining = false
    /// Called on the service thread when a shutdown begins.
    var onStopping: (() -> Void)?
    /// SIGHUP came: `--auth-keys` is read again on the service thread.
    let reloadFlag = StopFlag()
    /// Where `now` counts from (uptime ns); a test moves it back to let time pass at once.
    var started = Server.uptimeNanoseconds()
}

/// The log's kept state: the per-kind limiter, the bytes of the line being written (kept from
/// one line to the next), and where lines go (stderr; a test's sink).
struct ServerLog {
    var limiter = LogLimiter()
    let line = LogLine()
    var write: (UnsafeRawBufferPointer) -> Void = Server.writeStandardError
}
