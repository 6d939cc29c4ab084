import Testing
@testable import LiftboardServer

/// `MessageReassembler` alone: fragments in, whole messages out, up to the bound.
@Suite struct MessageReassemblerTests {
    static func receive(_ r: inout MessageReassembler, _ text: String, final: Bool = true, limit: Int = 16,
                        inPlace: Bool = true) -> MessageReassembler.Piece {
        Array(text.utf8).withUnsafeBytes { r.receive($0, final: final, limit: limit, inPlace: inPlace) }
    }

    static func assembled(_ s: String) -> MessageReassembler.Piece { .assembled(Array(s.utf8)) }

    @Test func aMessageWholeInOneFragmentIsReadInPlaceUnlessCopyingIsAskedFor() {
        var r = MessageReassembler()
        #expect(Self.receive(&r, "ping") == .whole)
        #expect(Self.receive(&r, "echo me", inPlace: false) == Self.assembled("echo me"))
        #expect(!r.isMidMessage)
    }

    @Test func fragmentsAreGatheredInOrderIntoOneMessage() {
        var r = MessageReassembler()
        #expect(Self.receive(&r, "ab", final: false) == .partial)
        #expect(r.isMidMessage && !r.mayWriteDirectly)
        #expect(Self.receive(&r, "cd", final: false) == .partial)
        #expect(Self.receive(&r, "ef") == Self.assembled("abcdef"))
        #expect(!r.isMidMessage && r.mayWriteDirectly)
        // The next message, whole, is read in place again.
        #expect(Self.receive(&r, "g") == .whole)
    }

    @Test func aMessageAtTheBoundIsTakenAndOnePastItIsTooLargeWhicheverFragmentCrossesIt() {
        var r = MessageReassembler()
        let full = String(repeating: "x", count: 16)
        #expect(Self.receive(&r, full) == .whole)
        #expect(Self.receive(&r, full + "x") == .tooLarge, "one fragment past the bound")
        #expect(Self.receive(&r, String(full.prefix(10)), final: false) == .partial)
        #expect(Self.receive(&r, String(full.dropFirst(10))) == Self.assembled(full), "in parts, up to the bound")
        #expect(Self.receive(&r, full, final: false) == .partial)
        #expect(Self.receive(&r, "y", final: false) == .partial, "past the bound: dropped, not yet refused")
        #expect(Self.receive(&r, "z") == .tooLarge)
        // What came before does not stick to the next message.
        #expect(Self.receive(&r, "ok") == .whole)
        #expect(Self.receive(&r, "o", final: false) == .partial)
        #expect(Self.receive(&r, "k") == Self.assembled("ok"))
    }

    @Test func aRecycledMessageLeavesNothingBehindForTheNext() {
        var r = MessageReassembler()
        _ = Self.receive(&r, "abc", final: false)
        guard case .assembled(let first) = Self.receive(&r, "def") else {
            Issue.record("the message is assembled")
            return
        }
        r.recycle(first)
        #expect(Self.receive(&r, "12", final: false) == .partial)
        #expect(Self.receive(&r, "3") == Self.assembled("123"))
    }

    @Test func aSkippedFragmentKeepsTrackOfWhereTheStreamStands() {
        var r = MessageReassembler()
        r.skip(final: false)
        #expect(r.isMidMessage && !r.mayWriteDirectly)
        r.skip(final: true)
        #expect(r.mayWriteDirectly)
    }

    @Test func afterTheClientsCloseFrameNoWriteGoesDirectly() {
        var r = MessageReassembler()
        r.peerSentClose()
        #expect(r.peerClosed && !r.mayWriteDirectly)
        #expect(Self.receive(&r, "late") == .whole, "what it still sends is read")
        #expect(!r.mayWriteDirectly)
    }
}
