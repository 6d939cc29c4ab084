import Testing
@testable import LiftboardCore
import LiftboardWire

/// `hello.config.follow` (docs/protocol.md, "Quiet follow") on the wire.
struct QuietFollowWireTests {
    func hello(_ config: String) -> Result<ClientMessage, WireError> {
        Wire.decodeClient(Array(#"{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":2},"config":\#(config)}"#.utf8))
    }

    @Test func helloAsksForQuietFollowTheDefaultIsEveryAndAnythingElseIsABadMessage() throws {
        guard case .hello(let q) = try hello(#"{"follow":"quiet"}"#).get().event else { Issue.record("not a hello"); return }
        #expect(q.config.follow == .quiet)
        guard case .hello(let e) = try hello(#"{"follow":"every"}"#).get().event else { Issue.record("not a hello"); return }
        #expect(e.config.follow == .every)
        guard case .hello(let d) = try hello("{}").get().event else { Issue.record("not a hello"); return }
        #expect(d.config.follow == .every)
        guard case .failure(let err) = hello(#"{"follow":"silent"}"#) else { Issue.record("accepted"); return }
        #expect(err.code == .badMessage && err.message.contains("follow"))
        guard case .failure(let num) = hello(#"{"follow":1}"#) else { Issue.record("accepted"); return }
        #expect(num.code == .badMessage && num.message.contains("follow"))
    }

    @Test func welcomeSaysQuietOnlyWhenAskedSoTheDefaultWelcomeIsUnchanged() {
        var config = SessionConfig()
        let plain = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(!plain.contains("follow"))
        config.events = .inline
        config.follow = .quiet
        let quiet = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(quiet.hasSuffix(#""commitOrder":"full","events":"inline","follow":"quiet"}}"#))
    }
}
