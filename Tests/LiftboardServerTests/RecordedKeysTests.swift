import Testing
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
}
