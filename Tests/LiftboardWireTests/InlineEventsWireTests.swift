import Testing
@testable import LiftboardCore
@testable import LiftboardWire

/// `hello.config.events`: read, validated, echoed in `welcome`, and frames carry `events`.
struct InlineEventsWireTests {
    func hello(_ config: String) -> Result<ClientMessage, WireError> {
        Wire.decodeClient(Array(#"{"t":"hello","v":1,"board":"demo","viewport":{"w":390,"h":844,"dpr":1},"config":\#(config)}"#.utf8))
    }

    @Test func helloAsksForInlineEventsAndAnythingElseIsABadMessage() throws {
        guard case .hello(let h) = try hello(#"{"events":"inline"}"#).get().event else { Issue.record("not a hello"); return }
        #expect(h.config.events == .inline)
        guard case .hello(let d) = try hello("{}").get().event else { Issue.record("not a hello"); return }
        #expect(d.config.events == .separate)
        guard case .failure(let e) = hello(#"{"events":"batched"}"#) else { Issue.record("accepted"); return }
        #expect(e.code == .badMessage && e.message.contains("events"))
    }

    @Test func aFrameCarriesItsEventsAfterAckInOrderAndWelcomeSaysInline() {
        var f = FrameMessage(seq: 7, ms: 12.5, ack: 3)
        f.events = [.lift(p: 1, id: "a", from: Place(section: "todo", index: 0)),
                    .moved(p: 1, id: "a", from: Place(section: "todo", index: 0), to: Place(section: "todo", index: 1))]
        let text = String(decoding: Wire.encode(.frame(f)), as: UTF8.self)
        #expect(text == #"{"t":"frame","seq":7,"ms":12.5,"ack":3,"events":[{"t":"lift","p":1,"id":"a","from":{"section":"todo","index":0}},"#
                + #"{"t":"moved","p":1,"id":"a","from":{"section":"todo","index":0},"to":{"section":"todo","index":1}}]}"#)
        var config = SessionConfig()
        let plain = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(!plain.contains("events"))
        config.events = .inline
        let inline = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(inline.contains(#""commitOrder":"full","events":"inline"}"#))
    }
}
