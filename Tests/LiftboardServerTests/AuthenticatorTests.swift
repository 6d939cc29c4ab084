import Testing
import LiftboardAuth
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// `Authenticator.admit` decided without a socket: a request's token, the board it asks for,
/// the role it needs and the time, to a person or a refusal.
@Suite struct AuthenticatorTests {
    static let now = 1_800_000_000.0
    static let keys: KeySet = {
        let jwks = #"{"keys":[{"kty":"oct","kid":"k","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"}]}"#
        return try! KeySet.parse(Array(jwks.utf8))
    }()

    static func token(_ claims: TokenClaims) -> String { try! TokenMinter.mint(claims, key: keys.key("k")!) }

    static func claims(role: Role = .move, boards: [String] = ["demo"], exp: Double = now + 600) -> TokenClaims {
        TokenClaims(subject: "ada", name: "Ada", expiresAt: exp, issuedAt: now, boards: boards, role: role)
    }

    static func gate(sharedToken: String? = nil, adminToken: String? = nil) -> Authenticator {
        Authenticator(keys: keys, keysPath: nil, audience: nil, sharedToken: sharedToken, adminToken: adminToken)
    }

    @Test func aSignedTokenAdmitsItsPersonForItsBoardsUntilItsExp() throws {
        let t = Self.token(Self.claims(role: .view, boards: ["team-*"]))
        let a = try Self.gate().admit(token: t, board: "team-1", now: Self.now).get()
        #expect(a.person == Person(user: "ada", name: "Ada", role: .view))
        #expect(a.expiresAt == Self.now + 600 && a.grants("team-2") && !a.grants("demo"))
    }

    @Test func refusalsNameTheirCodeAndStatusAndNeverTheToken() {
        let gate = Self.gate()
        let t = Self.token(Self.claims())
        let cases: [(Result<Admission, AuthRefusal>, AuthRefusal, UInt32, String)] = [
            (gate.admit(token: nil, board: "demo", now: Self.now), .missing, 401, "token_required"),
            (gate.admit(token: t, board: "other", now: Self.now), .token(.boardForbidden), 403, "board_forbidden"),
            (gate.admit(token: t, board: "demo", now: Self.now + 700), .token(.expired), 401, "token_expired"),
            (gate.admit(token: t + "x", board: "demo", now: Self.now), .token(.badSignature), 401, "signature_invalid"),
            (gate.admit(token: t, board: "demo", needed: .edit, now: Self.now), .role(needed: .edit), 403, "role_forbids"),
            (gate.admit(query: nil, authorization: "Bearer \(t) x", board: "demo", now: Self.now), .malformedHeader, 401, "token_invalid"),
            (gate.admit(query: nil, authorization: "Basic \(t)", board: "demo", now: Self.now), .malformedHeader, 401, "token_invalid"),
        ]
        for (got, refusal, status, code) in cases {
            #expect(got == .failure(refusal))
            #expect(refusal.status == status && refusal.code.rawValue == code)
            #expect(!refusal.message.contains(t) && !String(decoding: refusal.httpError.body, as: UTF8.self).contains(t))
        }
    }

    @Test func theHeaderIsReadBeforeTheQueryAndAnEmptyQueryIsNoToken() {
        #expect(Authenticator.presented(query: "q", authorization: "Bearer h") == .success("h"))
        #expect(Authenticator.presented(query: "q", authorization: "bearer h") == .success("h"))
        #expect(Authenticator.presented(query: "q", authorization: nil) == .success("q"))
        #expect(Authenticator.presented(query: "", authorization: nil) == .success(nil))
        #expect(Authenticator.presented(query: "q", authorization: "Bearer ") == .failure(.malformedHeader))
    }

    @Test func theSharedTokensKeepTheirMeaningBesideTheKeys() throws {
        let gate = Self.gate(sharedToken: "shared", adminToken: "root")
        let shared = try gate.admit(token: "shared", board: "any", needed: .edit, now: Self.now).get()
        #expect(shared.person == .open && shared.expiresAt == nil && shared.grants("any"))
        #expect(gate.admit(token: "shared", board: "any", needed: .admin, now: Self.now) == .failure(.role(needed: .admin)))
        let admin = try gate.admit(token: "root", board: nil, needed: .admin, now: Self.now).get()
        #expect(admin.person.role == .admin)
        #expect(gate.admit(token: "sharedx", board: "any", now: Self.now) == .failure(.token(.malformed(.segments))))
    }

    @Test func withoutKeysEveryoneIsOpenUnlessTheSharedTokenGates() throws {
        let open = Authenticator(keys: nil, keysPath: nil, audience: nil, sharedToken: nil, adminToken: nil)
        #expect(try open.admit(token: nil, board: "demo", now: 0).get() == .open)
        #expect(open.admit(token: nil, board: "demo", needed: .admin, now: 0) == .failure(.missing))
        let gated = Authenticator(keys: nil, keysPath: nil, audience: nil, sharedToken: "s", adminToken: nil)
        #expect(gated.admit(token: nil, board: "demo", now: 0) == .failure(.missing))
        #expect(gated.admit(token: "t", board: "demo", now: 0) == .failure(.wrongToken))
        #expect(try gated.admit(token: "s", board: "demo", now: 0).get() == .open)
    }

    @Test func aReloadReplacesTheKeysInPlace() throws {
        var gate = Self.gate()
        let t = Self.token(Self.claims())
        #expect((try? gate.admit(token: t, board: "demo", now: Self.now).get()) != nil)
        let other = try KeySet.parse(Array(#"{"keys":[{"kty":"oct","kid":"k2","k":"b3RoZXItb3RoZXItb3RoZXItb3RoZXItb3RoZXItb3RoZXI"}]}"#.utf8))
        gate.reload(other)
        #expect(gate.admit(token: t, board: "demo", now: Self.now) == .failure(.token(.unknownKey)))
    }
}

/// `SessionAuth` and the machine's token inputs: the warning, the expiry, renewal, on `now` alone.
@Suite struct SessionAuthTests {
    @Test func theWarningComesWarningMsBeforeExpThenTheExpiry() {
        var a = SessionAuth(person: .open, board: "b", expiresAt: 90_000, warningMs: 60_000)
        #expect(a.nextDeadline == 30_000)
        #expect(a.schedule(now: 0) == .arm(afterMs: 30_000))
        #expect(a.due(now: 29_999) == nil, "a timer that fired early does nothing")
        #expect(a.due(now: 30_000) == .warn(msLeft: 60_000))
        #expect(a.nextDeadline == 90_000)
        #expect(a.due(now: 60_000) == nil, "warned once")
        #expect(a.due(now: 90_000) == .expire)
    }

    @Test func aTokenInsideItsWarningWindowIsWarnedAtOnceAndOneWithoutExpNever() {
        var a = SessionAuth(person: .open, expiresAt: 10_000, warningMs: 60_000)
        #expect(a.schedule(now: 5_000) == .arm(afterMs: 0))
        #expect(a.due(now: 5_000) == .warn(msLeft: 5_000))
        var never = SessionAuth()
        #expect(never.nextDeadline == nil && never.schedule(now: 0) == nil && never.due(now: 1e12) == nil)
    }

    @Test func aRenewalMovesTheExpiryAndWarnsAgain() {
        var a = SessionAuth(person: .open, expiresAt: 10_000, warningMs: 2_000)
        #expect(a.due(now: 8_000) == .warn(msLeft: 2_000))
        a.renew(person: Person(user: "ada", role: .view), expiresAt: 70_000)
        #expect(a.person.role == .view && a.nextDeadline == 68_000)
        #expect(a.due(now: 10_000) == nil, "the old exp passes")
        #expect(a.due(now: 68_000) == .warn(msLeft: 2_000))
    }

    static func driver(expiresAt: Double?) -> MachineDriver {
        var d = MachineDriver()
        d.machine = ConnectionMachine(id: "s1", mode: .liftboard,
                                      auth: SessionAuth(person: Person(user: "ada", role: .move), board: "b", expiresAt: expiresAt, warningMs: 2_000))
        return d
    }

    @Test func theMachineWarnsThenClosesWith4401AtExp() {
        var d = Self.driver(expiresAt: 10_000)
        #expect(d.input { m, out in m.startAuth(now: 0, into: &out) } == [.armExpiry(afterMs: 8_000)])
        d.start()
        d.now = 8_000
        #expect(d.input { m, out in m.expiryFired(now: 8_000, into: &out) } == [.armExpiry(afterMs: 2_000), .requestWritable])
        #expect(d.writtenMessages() == [.object([("t", .string("token_expiring")), ("ms", .number(2_000))])])
        let closing = d.input { m, out in m.expiryFired(now: 10_000, into: &out) }
        #expect(closing.contains(.requestWritable) && d.machine.isClosing)
        #expect(d.machine.afterWriting() == .sendClose(code: 4401, reason: "token_expired"))
        #expect(d.receive(#"{"t":"up","p":1,"x":1,"y":1,"ms":10}"#) == [], "nothing said after the close is acted on")
    }

    @Test func anAuthMessageIsVerifiedByThePerformerAndItsAnswerRenewsOrRefuses() {
        var d = Self.driver(expiresAt: 10_000)
        d.start()
        #expect(d.receive(#"{"t":"auth","token":"T"}"#) == [.verify(token: "T")])
        _ = d.input { m, out in m.renewed(.failure(.token(.boardForbidden)), now: 0, into: &out) }
        #expect(d.written() == ["error"])
        #expect(d.machine.auth.nextDeadline == 8_000, "the old token stands")
        let renewed = d.input { m, out in m.renewed(.success((Person(user: "ada", role: .edit), 70_000)), now: 1_000, into: &out) }
        #expect(renewed.contains(.armExpiry(afterMs: 67_000)))
        #expect(d.writtenMessages() == [.object([("t", .string("token_renewed")), ("role", .string("edit")), ("ms", .number(69_000))])])
        #expect(d.machine.auth.person.role == .edit)
        _ = d.input { m, out in m.renewed(.success((Person(user: "bob", role: .admin), 90_000)), now: 2_000, into: &out) }
        #expect(d.written() == ["error"], "another user's token does not take over the session")
        #expect(d.machine.auth.person == Person(user: "ada", role: .edit) && d.machine.auth.nextDeadline == 68_000)
    }

    @Test func aHelloForAnotherBoardThanTheURLsIsRefusedWith4403() {
        var d = Self.driver(expiresAt: nil)
        d.boards["other"] = Board(id: "other", sections: [Section(id: "s", items: [])])
        _ = d.receive(#"{"t":"hello","v":1,"board":"other","viewport":{"w":400,"h":600,"dpr":1},"ms":0}"#)
        #expect(d.machine.isClosing)
        #expect(d.written() == ["error"])
        #expect(d.machine.afterWriting() == .sendClose(code: 4403, reason: "board_forbidden"))
    }
}
