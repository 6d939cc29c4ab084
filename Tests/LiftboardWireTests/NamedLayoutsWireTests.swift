import Testing
@testable import LiftboardCore
import LiftboardWire

/// `hello.config.layouts` (docs/protocol.md, "A session"): a `layout` names its layout for
/// every kind when asked, and only for columns otherwise, so that no earlier output changes.
struct NamedLayoutsWireTests {
    func hello(_ config: String) -> Result<ClientMessage, WireError> {
        Wire.decodeClient(Array(#"{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":2},"config":\#(config)}"#.utf8))
    }

    @Test func helloAsksForNamedLayoutsTheDefaultIsImplicitAndAnythingElseIsABadMessage() throws {
        guard case .hello(let n) = try hello(#"{"layouts":"named"}"#).get().event else { Issue.record("not a hello"); return }
        #expect(n.config.layouts == .named)
        guard case .hello(let d) = try hello("{}").get().event else { Issue.record("not a hello"); return }
        #expect(d.config.layouts == .implicit)
        guard case .failure(let err) = hello(#"{"layouts":"all"}"#) else { Issue.record("accepted"); return }
        #expect(err.code == .badMessage && err.message.contains("layouts"))
    }

    @Test func aLayoutSaysTheKindItIsGivenAndNothingWithoutOne() {
        var l = LayoutMessage(version: 0, content: Size(w: 400, h: 100), scroll: Point(x: 0, y: 0), sections: [], cells: [])
        let plain = String(decoding: Wire.encode(.layout(l)), as: UTF8.self)
        #expect(plain.hasPrefix(#"{"t":"layout","version":0,"#))
        for kind in [LayoutKind.list, .grid, .columns] {
            l.layout = kind
            let named = String(decoding: Wire.encode(.layout(l)), as: UTF8.self)
            #expect(named.hasPrefix(#"{"t":"layout","layout":"\#(kind.rawValue)","version":0,"#))
        }
    }

    @Test func welcomeSaysNamedOnlyWhenAskedSoTheDefaultWelcomeIsUnchanged() {
        var config = SessionConfig()
        let plain = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(!plain.contains("layouts"))
        config.layouts = .named
        let named = String(decoding: Wire.encode(.welcome(Welcome(v: 1, session: "s", board: "b", config: config))), as: UTF8.self)
        #expect(named.hasSuffix(#""commitOrder":"full","layouts":"named"}}"#))
    }
}
