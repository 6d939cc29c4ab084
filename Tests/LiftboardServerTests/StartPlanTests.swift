import CLibWebSockets
import Foundation
import Testing
@testable import LiftboardServer

/// Start-up decided without opening anything: the store, the vhost's port and options, the
/// budget and the exposure warning, from the configuration.
@Suite struct StartPlanTests {
    func config(_ change: (inout ServerConfig) -> Void = { _ in }) -> ServerConfig {
        var c = ServerConfig(publicDir: "/nowhere", boards: [])
        c.host = "127.0.0.1"
        c.port = 8080
        c.dataDir = "/data"
        change(&c)
        return c
    }

    @Test func byDefaultSQLiteInTheDataFolderOnTheConfiguredPortIPv4OnlyAndNotExposed() throws {
        let plan = try StartPlan(config: config(), setLimit: { $0 })
        #expect(plan.store == .sqlite(directory: "/data", path: "/data/liftboard.sqlite"))
        #expect(plan.vhostPort == 8080)
        #expect(plan.vhostOptions == CLWS_VHOST_FAIL_UNLESS_BOUND | CLWS_VHOST_IPV4_ONLY)
        #expect(!plan.exposed && plan.allowedHosts.contains("localhost"))
    }

    @Test func aSharedStoreASharedPortTLSAndIPv6AreEachSaidInThePlan() throws {
        let plan = try StartPlan(config: config {
            $0.storeURL = "postgresql://u@h/db"
            $0.sharePort = true
            $0.host = "::1"
            $0.tlsCert = "c.pem"
            $0.tlsKey = "k.pem"
        }, setLimit: { $0 })
        #expect(plan.store == .postgres(url: "postgresql://u@h/db"))
        #expect(plan.vhostPort == CONTEXT_PORT_NO_LISTEN_SERVER)
        #expect(plan.vhostOptions == CLWS_VHOST_FAIL_UNLESS_BOUND | CLWS_VHOST_TLS_OPTIONS)
        #expect(plan.address.isIPv6)
    }

    @Test func everyInterfaceWithoutATokenIsExposedAndWithOneIsNot() throws {
        #expect(try StartPlan(config: config { $0.host = "0.0.0.0" }, setLimit: { $0 }).exposed)
        #expect(try !StartPlan(config: config { $0.host = "0.0.0.0"; $0.token = "t" }, setLimit: { $0 }).exposed)
    }

    @Test func theBudgetIsMadeFromTheLimitTheProcessGotAndABadHostOrBudgetIsAnError() throws {
        var asked: [Int] = []
        let plan = try StartPlan(config: config { $0.maxSessions = 10 }, setLimit: { asked.append($0); return 4096 })
        #expect(asked == [FileDescriptorBudget.wantedLimit(requestedSessions: 10, recording: false)])
        #expect(plan.budget.limit == 4096 && plan.budget.maxSessions == 10)
        #expect(throws: ServerError.self) { try StartPlan(config: config { $0.host = "lo" }, setLimit: { $0 }) }
        #expect(throws: ServerError.self) { try StartPlan(config: config { $0.maxSessions = 1_000_000 }, setLimit: { _ in 64 }) }
    }
}
