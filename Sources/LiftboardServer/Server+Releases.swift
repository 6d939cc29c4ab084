import Foundation

/// Release passes written a chunk a turn (`Hub+Release.swift`): the hubs whose pass waits, and
/// the loop's part in it (`run` turns without waiting while one does, then goes on with them).
extension Server {
    /// Sessions a release pass writes before the loop turns once: 128 by default, about 0.6 ms
    /// of a thousand watchers' writes, so that a drop that comes during a pass is read within
    /// that (`LIFTBOARD_RELEASE_CHUNK=N` sets it: the tests make passes of a few sessions
    /// pause). With lws's own poll loop, which cannot turn without waiting, a pass is written
    /// whole.
    static let defaultReleaseChunk = 128

    static func releaseChunk(for kind: ServiceLoop.Kind,
                             _ environment: [String: String] = ProcessInfo.processInfo.environment) throws(ServerError) -> Int {
        guard kind == .epoll else { return .max }
        guard let value = environment["LIFTBOARD_RELEASE_CHUNK"], !value.isEmpty else { return defaultReleaseChunk }
        guard let n = Int(value), n > 0 else { throw .listen("LIFTBOARD_RELEASE_CHUNK=\(value): expected a whole number above 0") }
        return n
    }

    var releaseChunk: Int { boards.releaseChunk }

    /// `hub`'s pass has sessions left for the next chunk.
    func releaseWaits(_ hub: Hub) {
        if !boards.releasing.contains(where: { $0 === hub }) { boards.releasing.append(hub) }
    }

    /// The next chunk of every pass that waits; those with sessions left wait again.
    func continueReleases(chunk: Int? = nil) {
        let waiting = boards.releasing
        boards.releasing.removeAll(keepingCapacity: true)
        for hub in waiting where hub.continueRelease(chunk: chunk ?? releaseChunk) { releaseWaits(hub) }
    }

    /// Every pass written to its end (a shutdown: the sessions get what was made durable before
    /// their close).
    func finishReleases() {
        while !boards.releasing.isEmpty { continueReleases(chunk: .max) }
    }
}
