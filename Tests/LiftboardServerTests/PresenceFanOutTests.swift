import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardServer

/// A `presence` handed to many watchers (`Hub.sendPresence`): the watchers in the live state
/// the first was in before take its answer instead of each stepping its engine; each writes
/// the bytes it would have written stepping alone.
@Suite struct PresenceFanOutTests {
    static func presence(holding holds: [String]) -> Presence {
        let ana = Presence.Entry(session: "s9", user: "ana", name: "Ana", color: Presence.color(for: "ana"), role: .move, holds: holds)
        return Presence(board: "b", people: [ana], watching: 0)
    }

    /// Watchers that took one leader's state from a commit (as the hub's fan-out leaves them).
    static func sharingWatchers(_ n: Int) -> (leader: MachineDriver, followers: [MachineDriver]) {
        let c = FanOutTests.commit()
        var leader = FanOutTests.watcher()
        var followers = (0..<n).map { _ in FanOutTests.watcher() }
        let shared = SharedEncoding()
        var answer: ConnectionMachine.SharedAnswer?
        _ = leader.input { m, out in answer = m.external(c, delivery: .leading(shared), now: 10, into: &out) }
        for k in followers.indices {
            _ = followers[k].input { m, out in m.external(c, delivery: .following(answer!, shared: shared), now: 10, into: &out) }
        }
        _ = leader.input { m, out in m.durableAdvanced(to: 1, into: &out) }
        _ = FanOutTests.bytes(&leader)
        for k in followers.indices {
            _ = followers[k].input { m, out in m.durableAdvanced(to: 1, into: &out) }
            _ = FanOutTests.bytes(&followers[k])
        }
        return (leader, followers)
    }

    @Test func watchersInTheLeadersStateTakeItsAnswerAndWriteWhatTheyWouldHaveWrittenAlone() {
        var (leader, followers) = Self.sharingWatchers(5)
        var alone = Self.sharingWatchers(0).leader
        // A hold of a cell in the window (a frame with its heldBy), its end, then news with no
        // cell changed (the `presence` alone).
        for (k, holds) in [["b"], [], []].enumerated() {
            let p = Self.presence(holding: holds)
            let now = 20.0 + Double(k) * 100
            let message = SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
            let encoding = SharedEncoding()
            var answer: ConnectionMachine.PresenceAnswer?
            _ = leader.input { m, out in answer = m.presence(p, shared: message, encoding: encoding, now: now, into: &out) }
            #expect(answer != nil, "an idle watcher leads")
            for j in followers.indices {
                var made: ConnectionMachine.PresenceAnswer?
                _ = followers[j].input { m, out in made = m.presence(p, shared: message, encoding: encoding, following: answer, now: now, into: &out) }
                #expect(made == nil, "a follower takes the answer: it steps nothing")
            }
            _ = alone.input { m, out in m.presence(p, shared: message, now: now, into: &out) }
            let expected = FanOutTests.bytes(&alone)
            #expect(expected.count == (k < 2 ? 2 : 1), "a frame (heldBy changed) and the presence, or the presence")
            #expect(FanOutTests.bytes(&leader) == expected)
            for j in followers.indices {
                #expect(FanOutTests.bytes(&followers[j]) == expected)
                #expect(followers[j].machine.session.sharedState === leader.machine.session.sharedState, "still sharing the leader's state")
            }
        }
    }

    @Test func aWatcherInAnotherStateStepsItself() {
        var (leader, _) = Self.sharingWatchers(0)
        var other = Self.sharingWatchers(0).leader
        var alone = Self.sharingWatchers(0).leader
        let p = Self.presence(holding: ["b"])
        let message = SharedMessage(event: .presence(p), mode: .full, bytes: Wire.encode(.presence(p)), isFrameBody: false)
        let encoding = SharedEncoding()
        var answer: ConnectionMachine.PresenceAnswer?
        _ = leader.input { m, out in answer = m.presence(p, shared: message, encoding: encoding, now: 20, into: &out) }
        var made: ConnectionMachine.PresenceAnswer?
        _ = other.input { m, out in made = m.presence(p, shared: message, encoding: encoding, following: answer, now: 20, into: &out) }
        #expect(made != nil, "not in the leader's state: it stepped, and its answer leads the next")
        #expect(other.machine.session.sharedState !== leader.machine.session.sharedState)
        _ = alone.input { m, out in m.presence(p, shared: message, now: 20, into: &out) }
        #expect(FanOutTests.bytes(&other) == FanOutTests.bytes(&alone))
    }
}
