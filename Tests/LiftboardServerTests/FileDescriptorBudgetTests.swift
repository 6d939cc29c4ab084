import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LiftboardServer

/// The server holds the descriptors its budget needs, not the hard limit: libwebsockets walks a
/// table the size of the soft limit on every close (see `FileDescriptorBudget.wantedLimit`).
@Suite(.serialized) struct FileDescriptorBudgetTests {
    @Test func theWantedLimitHoldsTheSessionsAsManyOtherConnectionsAndTheReserve() throws {
        let wanted = FileDescriptorBudget.wantedLimit(requestedSessions: nil, recording: false)
        #expect(wanted == FileDescriptorBudget.reserve + 4096 + 2 * 4096)
        // At that limit the budget gives the default sessions and as many other connections.
        let b = try FileDescriptorBudget(limit: wanted, requestedSessions: nil, recording: false)
        #expect(b.maxSessions == FileDescriptorBudget.defaultMaxSessions)
        #expect(b.maxOtherConnections == b.maxSessions)
        // Recording: two descriptors a session; asked sessions fit, with as many others.
        for (sessions, recording) in [(1, false), (10, true), (11_110, false), (500, true)] {
            let limit = FileDescriptorBudget.wantedLimit(requestedSessions: sessions, recording: recording)
            let budget = try FileDescriptorBudget(limit: limit, requestedSessions: sessions, recording: recording)
            #expect(budget.maxSessions == sessions)
            #expect(budget.maxOtherConnections >= max(sessions, FileDescriptorBudget.minimumHTTPConnections))
        }
    }

    @Test func theSoftLimitIsSetToTheWantedOneWithinTheHardLimitRaisedOrLowered() {
        var r = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &r) == 0)
        defer { var back = r; _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &back) }
        let hard = Int(min(r.rlim_max, 1 << 20))
        // Lowered below what this process had (a test process holds few descriptors).
        let low = min(hard, 2000)
        #expect(FileDescriptorBudget.setLimit(low) == low)
        var now = rlimit()
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &now)
        #expect(Int(now.rlim_cur) == low)
        // Raised again, never past the hard limit.
        #expect(FileDescriptorBudget.setLimit(low + 1000) == min(hard, low + 1000))
        #expect(FileDescriptorBudget.setLimit(Int.max / 4) == hard)
    }

    @Test func theSoftLimitAskedForStaysWithinTheHardLimitAndAboveTheReserve() {
        #expect(FileDescriptorBudget.softLimit(for: 12_352, hard: 20_000) == 12_352)
        #expect(FileDescriptorBudget.softLimit(for: 30_394, hard: 20_000) == 20_000)
        #expect(FileDescriptorBudget.softLimit(for: 12_352, hard: rlim_t.max) == 12_352)
        #expect(FileDescriptorBudget.softLimit(for: 5_000_000, hard: rlim_t.max) == 1 << 20)
        #expect(FileDescriptorBudget.softLimit(for: 1, hard: 20_000) == rlim_t(FileDescriptorBudget.reserve + 2 * FileDescriptorBudget.minimumHTTPConnections + 1))
    }
}
