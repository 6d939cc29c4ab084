import LiftboardCore

/// The token's inputs (issue 42): its expiry timer, an `auth` message renewing it in place,
/// and the verifier's answer. The performer verifies (`.verify`) and maps a token's `exp` onto
/// the server's clock; the machine decides what the session does, on `now` alone.
extension ConnectionMachine {
    /// The session started: arms the expiry timer for its token, if it has one that expires.
    mutating func startAuth(now: Double, into out: inout [Action]) {
        scheduleExpiry(now: now, into: &out)
    }

    /// The expiry timer fired at `now`: `token_expiring` when the warning is due, the close
    /// (4401 `token_expired`) when the token has expired. A drag in flight ends with the
    /// session, dropped nowhere: nothing the client says after the close is decided is acted on.
    mutating func expiryFired(now: Double, into out: inout [Action]) {
        auth.timer.fired()
        guard !isClosing else { return }
        switch auth.due(now: now) {
        case .warn(let msLeft)?:
            let message = AuthMessages.expiring(msLeft: msLeft)
            queue(.raw(message, binary: false), barrier: 0, size: message.count, now: now, into: &out)
        case .expire?:
            out.append(.log(.info, event: "token", detail: session.isDragging ? "expired mid-drag: nothing committed, closing" : "expired, closing"))
            close(4401, "token_expired")
        case nil:
            break
        }
        if !isClosing { scheduleExpiry(now: now, into: &out) }
        finish(direct: false, into: &out)
    }

    /// `{"t":"auth","token":T}`: verified by the performer (`renewed` follows); nil: the
    /// message has no token.
    mutating func authRequested(token: String?, now: Double, into out: inout [Action]) {
        guard let token, !token.isEmpty else {
            let message = AuthMessages.error(code: "bad_message", message: "auth needs a token")
            return queue(.raw(message, binary: false), barrier: 0, size: message.count, now: now, into: &out)
        }
        out.append(.verify(token: token))
    }

    /// What the verifier said of an `auth` message's token: accepted, the session goes on as
    /// its person until its expiry (server ms); refused, the session keeps its old token (and
    /// ends at its expiry) and the client is told why.
    mutating func renewed(_ outcome: Result<(person: Person, expiresAt: Double?), AuthRefusal>, now: Double, into out: inout [Action]) {
        guard !isClosing else { return }
        let message: [UInt8]
        switch outcome {
        case .success(let admitted) where auth.person.user != nil && admitted.person.user != auth.person.user:
            // A session stays its user's: another user's token opens a session of its own.
            message = AuthMessages.error(code: HTTPErrorCode.claimInvalid.rawValue, message: "the token names another user than the session's")
            out.append(.log(.warn, event: "refusal", detail: "auth: claim_invalid (another user)"))
        case .success(let admitted):
            auth.renew(person: admitted.person, expiresAt: admitted.expiresAt)
            if admitted.person != session.person {
                // The engine acts for the new person (its role) from the next input on; a drag
                // the new role could not have made ends as a cancel, sent now.
                let ms = clock.serverEvent(serverNow: now)
                if recording { out.append(.record(.person(admitted.person, ms: ms))) }
                deliver(session.renew(person: admitted.person, at: ms), now: now, into: &out)
            }
            message = AuthMessages.renewed(role: admitted.person.role, msLeft: admitted.expiresAt.map { $0 - now })
            out.append(.log(.info, event: "token", detail: "renewed: role \(admitted.person.role.rawValue)"))
            scheduleExpiry(now: now, into: &out)
        case .failure(let refusal):
            message = AuthMessages.error(code: refusal.code.rawValue, message: refusal.message)
            out.append(.log(.warn, event: "refusal", detail: "auth: \(refusal.code)"))
        }
        queue(.raw(message, binary: false), barrier: 0, size: message.count, now: now, into: &out)
        finish(direct: false, into: &out)
    }

    private mutating func scheduleExpiry(now: Double, into out: inout [Action]) {
        switch auth.schedule(now: now) {
        case .arm(let afterMs)?: out.append(.armExpiry(afterMs: afterMs))
        case .cancel?: out.append(.cancelExpiry)
        case nil: break
        }
    }
}
