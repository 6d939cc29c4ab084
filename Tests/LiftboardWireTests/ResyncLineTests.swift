import Testing
import LiftboardCore
@testable import LiftboardWire

@Suite struct ResyncLineTests {
    @Test func aResyncLineDecodesToTheOrderAndVersionItWasWrittenWith() throws {
        let order = [SectionOrder(section: "todo", items: ["b", "a"]), SectionOrder(section: "done", items: [])]
        let line = Wire.encodeOrderLine("resync", version: 7, order: order, ms: 1234.5)
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"t":"resync","version":7,"order":[{"section":"todo","items":["b","a"]},{"section":"done","items":[]}],"ms":1234.5}"#)
        let m = try Wire.decodeClient(line).get()
        #expect(m.event == .resync(version: 7, order: order))
        #expect(m.ms == 1234.5)
    }

    @Test func aResyncLineWithoutItsOrderOrWithABadVersionIsRefusedByName() {
        #expect(message(#"{"t":"resync","version":1,"ms":0}"#)?.contains("order") == true)
        #expect(message(#"{"t":"resync","version":-1,"order":[],"ms":0}"#)?.contains("version") == true)
        #expect(message(#"{"t":"resync","version":1,"order":[{"section":"s","items":[3]}],"ms":0}"#)?.contains("items[0]") == true)
    }
}

@Suite struct RebaseLineTests {
    @Test func aRebaseLineDecodesToTheOrderAndVersionItWasWrittenWith() throws {
        let order = [SectionOrder(section: "todo", items: ["b", "a"]), SectionOrder(section: "done", items: [])]
        let line = Wire.encodeOrderLine("rebase", version: 4, order: order, ms: 88)
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"t":"rebase","version":4,"order":[{"section":"todo","items":["b","a"]},{"section":"done","items":[]}],"ms":88}"#)
        let m = try Wire.decodeClient(line).get()
        #expect(m.event == .rebase(version: 4, order: order))
        #expect(m.ms == 88)
    }
}
