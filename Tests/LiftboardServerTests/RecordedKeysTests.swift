import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// What a recording keeps of a client message: the protocol's keys.
@Suite struct RecordedKeysTests {
    @Test func aRecordedWheelKeepsThePointersPlaceForColumns() throws {
        guard case .object(let members) = try JSONParser.parse(Array(#"{"t":"wheel","dx":3,"dy":-40,"x":120,"y":300,"ms":5,"junk":1}"#.utf8)) else {
            Issue.record("not an object"); return
        }
        #expect(RecordedKeys.known(members).map(\.0) == ["t", "dx", "dy", "x", "y", "ms"])
    }

    /// A Ctrl-click (a selection), a secondary button (no press) and Shift+Space behave
    /// otherwise without their keys: a recording keeps them, so it replays the same.
    @Test func aRecordedDownKeepsItsModifiersAndButtonAndAKeyItsModifiers() throws {
        guard case .object(let down) = try JSONParser.parse(Array(#"{"t":"down","p":1,"x":1,"y":2,"kind":"mouse","mods":["ctrl"],"button":2,"ms":5}"#.utf8)),
              case .object(let key) = try JSONParser.parse(Array(#"{"t":"key","key":" ","mods":["shift"],"ms":5}"#.utf8)) else {
            Issue.record("not objects"); return
        }
        #expect(RecordedKeys.known(down).map(\.0) == ["t", "p", "x", "y", "kind", "mods", "button", "ms"])
        #expect(RecordedKeys.known(key).map(\.0) == ["t", "key", "mods", "ms"])
    }

    /// The page's hello asks for quiet follow, inline events and commits, change-only commits
    /// and named layouts: a recording keeps them, so its replay prints what the page was sent.
    @Test func aRecordedHelloKeepsTheConfigThatShapesTheOutput() throws {
        let text = #"{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":2,"x":1},"#
            + #""config":{"pressMs":300,"commitOrder":"none","events":"inline","follow":"quiet","commits":"inline","layouts":"named","nope":1},"ms":0}"#
        guard case .object(let hello) = try JSONParser.parse(Array(text.utf8)) else { Issue.record("not an object"); return }
        let kept = RecordedKeys.known(hello)
        guard case .object(let config)? = kept.first(where: { $0.0 == "config" })?.1 else { Issue.record("no config"); return }
        #expect(config.map(\.0) == ["pressMs", "commitOrder", "events", "follow", "commits", "layouts"])
    }

    /// Every key of a hello's `config` that the decoder reads is one a recording keeps: a
    /// hello with each set apart from its default reads back, after the recorder's filter, as
    /// the same config (a tree's `springMs` was left out, and a replay sprang open at 500 ms).
    @Test func aRecordedHelloKeepsEveryConfigKeyTheDecoderReads() throws {
        let text = #"{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":2},"config":{"#
            + #""pressMs":300,"springMs":700,"allowableMovement":12,"mode":"swap","edgeScrollRange":50,"edgeScrollSpeed":900,"#
            + #""liftScale":1.1,"liftRotation":0.05,"liftAlpha":0.8,"liftMs":120,"shiftMs":200,"dropMs":250,"idleResetMs":60000,"#
            + #""reducedMotion":true,"commitOrder":"none","events":"inline","follow":"quiet","commits":"inline","layouts":"named","#
            + #""presence":"delta"},"ms":0}"#
        let value = try JSONParser.parse(Array(text.utf8))
        guard case .object(let hello) = value else { Issue.record("not an object"); return }
        guard case .hello(let sent) = try Wire.decodeClient(value).event,
              case .hello(let recorded) = try Wire.decodeClient(.object(RecordedKeys.known(hello))).event else {
            Issue.record("not a hello"); return
        }
        #expect(sent.config != SessionConfig(), "the hello sets its config")
        #expect(recorded.config == sent.config)
    }
}
