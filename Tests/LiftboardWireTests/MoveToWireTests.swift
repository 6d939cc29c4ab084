import Testing
import LiftboardCore
@testable import LiftboardWire

@Suite struct MoveToWireTests {
    @Test func moveToDecodesWithEveryPlace() throws {
        for place in ["first", "last", "up", "down"] {
            let m = try decode(#"{"t":"moveTo","id":"a","section":"done","place":"\#(place)","ms":5}"#).get()
            #expect(m.event == .moveTo(id: "a", section: "done", place: MovePlace(rawValue: place)!))
        }
    }

    @Test(arguments: [
        #"{"t":"moveTo","id":"a","section":"done","place":"middle","ms":5}"#,
        #"{"t":"moveTo","id":"a","place":"first","ms":5}"#,
        #"{"t":"moveTo","section":"done","place":"first","ms":5}"#,
        #"{"t":"moveTo","id":"","section":"done","place":"first","ms":5}"#,
    ])
    func aWrongOrMissingFieldIsABadMessage(text: String) {
        #expect(code(text) == .badMessage)
    }
}
