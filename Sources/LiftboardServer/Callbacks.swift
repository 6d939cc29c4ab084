import CLibWebSockets
import Foundation
import LiftboardCore

/// The server that owns the context a connection belongs to.
func serverOf(_ wsi: OpaquePointer) -> Server {
    Unmanaged<Server>.fromOpaque(lws_context_user(lws_get_context(wsi))).takeUnretainedValue()
}

/// A request header, if present.
func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let n = lws_hdr_total_length(wsi, token)
    guard n > 0, n < 8192 else { return nil }
    var buf = [CChar](repeating: 0, count: Int(n) + 1)
    guard lws_hdr_copy(wsi, &buf, Int32(n) + 1, token) >= 0 else { return nil }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A header lws has no token for (`name` lowercased, with its colon).
func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
    let n = lws_hdr_custom_length(wsi, name, Int32(name.utf8.count))
    guard n > 0, n < 1024 else { return nil }
    var buf = [CChar](repeating: 0, count: Int(n) + 1)
    guard lws_hdr_custom_copy(wsi, &buf, Int32(n) + 1, name, Int32(name.utf8.count)) >= 0 else { return nil }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A query parameter's value (`?name=value`), if present.
func queryValue(_ wsi: OpaquePointer, _ name: String) -> String? {
    var buf = [CChar](repeating: 0, count: 8192)
    guard let p = lws_get_urlarg_by_name(wsi, name + "=", &buf, Int32(buf.count)) else { return nil }
    return String(cString: p)
}

/// protocols[0]: plain HTTP (static files, the API), the upgrade's origin check, and the
/// store thread's wake-ups.
func httpCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                  _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi else { return 0 }
    switch reason {
    case LWS_CALLBACK_HTTP:
        let path = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: len), as: UTF8.self) } ?? "/"
        return serverOf(wsi).handleHTTP(wsi, path: path)
    case LWS_CALLBACK_HTTP_BODY:
        guard let input else { return 0 }
        return serverOf(wsi).receiveBody(wsi, UnsafeRawBufferPointer(start: input, count: len))
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return serverOf(wsi).bodyComplete(wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if let r = serverOf(wsi).api.pending.takeReady(wsi) { return serverOf(wsi).send(wsi, r) }
        if let rc = serverOf(wsi).writeEvents(wsi) { return rc }
    case LWS_CALLBACK_CLOSED_HTTP:
        serverOf(wsi).api.forget(wsi)
        serverOf(wsi).events.forget(wsi)
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        let server = serverOf(wsi)
        let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        if let refusal = server.checkUpgrade(wsi, upgrade: upgrade) {
            server.log(.warn, "refusal", session: nil, "upgrade \(refusal.status) \(refusal.code): \(refusal.message)")
            return server.writeRefusal(wsi, refusal) ? 1 : -1
        }
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        // Refused before lws adopts it, so the socket is closed at once and lws never gets
        // near the descriptor limit (see FileDescriptorBudget).
        let server = serverOf(wsi)
        if !server.endpoint.budget.admits(open: server.sessions.openConnections, sessions: server.sessions.connections.count) {
            RawRefusal.serviceUnavailable(clws_filter_accept_fd(input))
            server.log(.warn, "refusal", session: nil, "connections: \(server.sessions.openConnections) open, at the limit of \(server.endpoint.budget.limit) file descriptors: 503")
            return 1
        }
    case LWS_CALLBACK_WSI_CREATE:
        serverOf(wsi).sessions.openConnections += 1
    case LWS_CALLBACK_WSI_DESTROY:
        let server = serverOf(wsi)
        server.api.forget(wsi)
        server.events.forget(wsi)
        server.forgetUpgradeAdmission(wsi)
        server.sessions.openConnections = max(0, server.sessions.openConnections - 1)
    case LWS_CALLBACK_RAW_ADOPT:
        // lws turns a CONNECT request into a raw socket that nothing would ever time out:
        // answer 405 and close.
        RawRefusal.methodNotAllowed(lws_get_socket_fd(wsi))
        serverOf(wsi).log(.warn, "refusal", session: nil, "CONNECT: 405")
        return -1
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if lws_context_user(lws_get_context(wsi)) != nil {
            serverOf(wsi).drainDurableReports()
            serverOf(wsi).reloadAuthKeysIfAsked()
        }
    default:
        break
    }
    return lws_callback_http_dummy(wsi, reason, user, input, len)
}

/// protocols[1] (`liftboard.v1`) and [2] (`liftboard.echo`).
func wsCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi else { return 0 }
    func connection() -> Connection? {
        guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<Connection>.fromOpaque(raw).takeUnretainedValue()
    }
    switch reason {
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE, LWS_CALLBACK_HTTP, LWS_CALLBACK_HTTP_BODY, LWS_CALLBACK_HTTP_BODY_COMPLETION,
         LWS_CALLBACK_HTTP_WRITEABLE, LWS_CALLBACK_CLOSED_HTTP:
        // The vhost's default protocol is this one, so the HTTP phase of an upgrade lands here,
        // and so do API requests and their bodies.
        return httpCallback(wsi, reason, user, input, len)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        let server = serverOf(wsi)
        if server.draining {
            server.log(.info, "refusal", session: nil, "shutting down: no new sessions")
            return 1
        }
        if server.sessions.connections.count >= server.endpoint.budget.maxSessions {
            server.log(.warn, "refusal", session: nil, "max sessions (\(server.endpoint.budget.maxSessions)) reached")
            return 1
        }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? "/"
        let isEcho = lws_get_protocol(wsi)?.pointee.id == 2 || (server.config.echo && path == "/echo")
        let expected = isEcho ? "/echo" : "/ws"
        if path != expected {
            server.log(.warn, "refusal", session: nil, "WebSocket on \(path): expected \(expected)")
            return 1
        }
    case LWS_CALLBACK_ESTABLISHED:
        let server = serverOf(wsi)
        let echoPath = server.config.echo && header(wsi, WSI_TOKEN_GET_URI) == "/echo"
        let mode: Connection.Mode = lws_get_protocol(wsi)?.pointee.id == 2 || echoPath ? .echo : .liftboard
        var authorized = true
        var admission: Admission?
        if mode == .liftboard, server.auth.usesKeys {
            // Decided before the 101 (Server+Auth.swift): the token is not verified twice.
            admission = server.takeUpgradeAdmission(wsi)
            authorized = admission != nil
        } else if let token = server.config.token, mode == .liftboard {
            authorized = server.tokenAccepted(wsi: wsi, expected: token)
        }
        let c = Connection(id: server.makeSessionID(), wsi: wsi, mode: mode, server: server, authorized: authorized, admission: admission)
        user?.storeBytes(of: Unmanaged.passRetained(c).toOpaque(), as: UnsafeMutableRawPointer?.self)
        server.sessions.connections[ObjectIdentifier(c)] = c
        server.log(.info, "connect", session: c.id, mode == .echo ? "echo" : "liftboard.v1")
        if mode == .liftboard {
            c.startHelloDeadline()
            c.startAuth()
        }
    case LWS_CALLBACK_RECEIVE:
        guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self), let input else { return 0 }
        let final = lws_is_final_fragment(wsi) != 0, binary = lws_frame_is_binary(wsi) != 0
        // Unsafe, measured (docs/performance.md, "srv57": 42 Ir a message): the connection is
        // used without a retain of its own for the call (a strong reference taken out of the
        // pointer was retained and released around every message). The pointer's own retain,
        // taken at ESTABLISHED, is given back only at CLOSED, which lws never calls from
        // inside a receive: nothing in `receive` closes the connection synchronously (a close
        // goes through a timer, `closeSoon`, or `clws_kill_async`).
        return Unmanaged<Connection>.fromOpaque(raw)._withUnsafeGuaranteedRef {
            $0.receive(UnsafeRawBufferPointer(start: input, count: len), final: final, binary: binary)
        }
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let c = connection() else { return 0 }
        return c.writeable()
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        connection()?.peerSentClose()
    case LWS_CALLBACK_TIMER:
        connection()?.helloDeadlinePassed()
    case LWS_CALLBACK_WSI_DESTROY:
        serverOf(wsi).forgetUpgradeAdmission(wsi)
    case LWS_CALLBACK_CLOSED:
        guard let c = connection() else { return 0 }
        let server = c.server
        c.hub?.leave(c)
        if c.awaitingLookup { server.forgetWaitingHello(c) }
        c.stopTimers()
        server.sessions.connections[ObjectIdentifier(c)] = nil
        // Written piece by piece under a kind named in advance (`Server.disconnectLogKinds`),
        // not composed through Strings (its line 3,710 Ir a close, now about 1,400).
        let midDrag = c.machine.session.isDragging
        server.log(.info, "disconnect", session: c.id, kind: midDrag ? Server.disconnectLogKinds.midDrag : Server.disconnectLogKinds.plain) {
            if midDrag { $0.append("mid-drag: nothing committed" as StaticString) }
        }
        user?.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        Unmanaged<Connection>.fromOpaque(Unmanaged.passUnretained(c).toOpaque()).release()
    default:
        break
    }
    return 0
}
