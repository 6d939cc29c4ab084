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
}
