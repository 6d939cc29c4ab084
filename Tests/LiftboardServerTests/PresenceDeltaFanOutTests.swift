import Testing
@testable import LiftboardCore
@testable import LiftboardServer
import LiftboardWire

/// Issue 44, presence as differences (`hello.config.presence: "delta"`) through the hub's
/// hand-out: watchers in one state still step once and share one encoding, and each writes what
/// it would have written alone; a difference queued is never replaced by a newer one.
@Suite struct PresenceDeltaFanOutTests {
    static let hello = #"{"t":"hello","v":1,"board":"b","viewport":{"w":400,"h":600,"dpr":1},"config":{"presence":"delta"},"ms":0}"#

    static func watcher() -> MachineDriver {
        var d = MachineDriver()
        _ = d.receive(hello)
        d.machine.joined(durable: 0, recording: false)
        _ = FanOutTests.bytes(&d)
        return d
    }

    /// Watchers asking for differences that took one leader's state from a commit.
    static func sharingWatchers(_ n: Int) -> [MachineDriver] {
        let c = FanOutTests.commit()
        var all = (0...n).map { _ in watcher() }
        let shared = SharedEncoding()
        var answer: ConnectionMachine.SharedAnswer?
        _ = all[0].input { m, out in answer = m.external(c, delivery: .leading(shared), now: 10, into: &out) }
        for k in all.indices.dropFirst() {
            _ = all[k].input { m, out in m.external(c, delivery: .following(answer!, shared: shared), now: 10, into: &out) }
        }
        for k in all.indices {
            _ = all[k].input { m, out in m.durableAdvanced(to: 1, into: &out) }
            _ = FanOutTests.bytes(&all[k])
        }
        return all
    }

    @Test func watchersInOneStateStepOnceAPresenceAndWriteWhatTheyWouldAlone() {
        var sessions = Self.sharingWatchers(4)
        var alone = Self.sharingWatchers(0)[0]
        for (k, holds) in [["b"], ["b", "c"], []].enumerated() {
            let p = PresenceFanOutTests.presence(holding: holds)
            let now = Double(20 + 10 * k)
            var h = PresenceHandOut<Int, PresenceRound>(chunk: 2)
            h.start(PresenceRound(PresenceHandOutTests.message(p)), bytes: 1, to: Array(sessions.indices))
            var stepped = 0
            while h.isPending { stepped += PresenceHandOutTests.handOutChunk(&h, to: &sessions, now: now) }
            #expect(stepped == 1, "presence \(k + 1): one step for the five, over three chunks")
            _ = alone.input { m, out in m.presence(p, shared: PresenceHandOutTests.message(p), now: now, into: &out) }
            let expected = FanOutTests.bytes(&alone)
            let text = String(decoding: expected.last ?? [], as: UTF8.self)
            #expect(text.hasPrefix(#"{"t":"presence","v":"#) && text.contains(#""base":"#) == (k > 0), "\(text)")
            for s in sessions.indices {
                #expect(FanOutTests.bytes(&sessions[s]) == expected)
                #expect(sessions[s].machine.session.sharedState === sessions[0].machine.session.sharedState)
            }
        }
    }

    @Test func aQueuedDifferenceIsNotReplacedByANewerOne() {
        var d = Self.watcher()
        var whole = FanOutTests.watcher()
        for holds in [["b"], ["c"]] {
            let p = PresenceFanOutTests.presence(holding: holds)
            _ = d.input { m, out in m.presence(p, shared: PresenceHandOutTests.message(p), now: 20, into: &out) }
            _ = whole.input { m, out in m.presence(p, shared: PresenceHandOutTests.message(p), now: 20, into: &out) }
        }
        let sent = FanOutTests.bytes(&d).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix(#"{"t":"presence""#) }
        #expect(sent.count == 2 && !sent[0].contains(#""base""#) && sent[1].contains(#""base""#), "\(sent)")
        let wholeSent = FanOutTests.bytes(&whole).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix(#"{"t":"presence""#) }
        #expect(wholeSent.count == 1, "a whole presence queued is still replaced: \(wholeSent)")
    }
}
