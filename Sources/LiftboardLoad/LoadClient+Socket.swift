import CLoadSockets
#if canImport(Glibc)
import Glibc
#endif

/// The session's socket: a non-blocking TCP connection, the HTTP/1.1 upgrade, then WebSocket
/// frames. Everything here runs on the load generator's one thread, driven by `EventLoop`.
extension LoadClient {
    /// Starts the TCP connection to `address`; failure is a connection error, as before.
    func connect(to address: SocketAddress) {
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return connectionFailed() }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // The kernel stamps each arrival: a move's answer is timed when it reached this machine's
        // socket, not when this loop got round to reading it (see `LoadGenerator.receivedNs`).
        _ = setsockopt(fd, SOL_SOCKET, LB_SO_TIMESTAMPNS, &one, socklen_t(MemoryLayout<Int32>.size))
        let r = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard r == 0 || errno == EINPROGRESS else { return connectionFailed() }
        guard generator.loop.add(fd, token: index, writable: true) else { return connectionFailed() }
        var nonce = [UInt8](repeating: 0, count: 16)
        var random = SystemRandomNumberGenerator()
        for k in 0..<16 { nonce[k] = random.next() }
        handshake = WebSocketHandshake(hostHeader: address.hostHeader, path: generator.config.echo ? "/echo" : generator.config.path,
                                       subprotocol: generator.config.echo ? "liftboard.echo" : "liftboard.v1", nonce: nonce)
    }

    /// epoll says the socket is ready: `events` is its mask.
    func ready(_ events: UInt32) {
        guard link != .closed else { return }  // closed earlier in the same batch of events
        if link == .connecting {
            guard events & (EPOLLOUT.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 else { return }
            var err: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0, err == 0, let request = handshake?.request else {
                return connectionFailed()
            }
            link = .upgrading
            generator.loop.modify(fd, token: index, writable: false)
            write(request)
            return
        }
        if events & EPOLLOUT.rawValue != 0 { flush() }
        if events & (EPOLLIN.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { readable() }
    }

    private func readable() {
        let scratch = generator.scratch
        while link == .upgrading || link == .open {
            var stamp: Int64 = 0
            let n = lb_read_timestamped(fd, scratch.baseAddress, scratch.count, &stamp)
            if n > 0 {
                generator.arrived(kernelRealtimeNs: stamp)
                arrived(UnsafeRawBufferPointer(rebasing: scratch[..<n]))
                if n < scratch.count { return }
            } else if n == 0 {
                return closed(error: link == .upgrading)
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK { closed(error: link == .upgrading) }
                return
            }
        }
    }

    private func arrived(_ bytes: UnsafeRawBufferPointer) {
        if link == .upgrading {
            upgradeAnswer.append(contentsOf: bytes)
            do {
                guard let end = try handshake?.check(upgradeAnswer) else { return }
                let rest = Array(upgradeAnswer[end...])
                upgradeAnswer = []
                link = .open
                established()
                if !rest.isEmpty { rest.withUnsafeBytes { frameBytes($0) } }
            } catch {
                generator.note("session \(index): \(error)")
                connectionFailed()
            }
            return
        }
        frameBytes(bytes)
    }

    private func frameBytes(_ bytes: UnsafeRawBufferPointer) {
        var closing: UInt16?? = nil
        do {
            try frames.consume(bytes) { event, payload in
                switch event {
                case .text, .binary: receive(payload)
                case .ping: _ = transmit(opcode: ClientFrame.pong, payload)
                case .pong: break
                case .close(let code): closing = .some(code)
                }
            }
        } catch {
            // A frame no server may send: fail the connection (RFC 6455 §7.1.7), 1002.
            generator.errors += 1
            return close(code: 1002)
        }
        if let code = closing { close(code: code ?? 1000) }
    }

    /// Frames the message in `generator.payload` and writes it; false when the socket is gone.
    func transmitPayload() -> Bool {
        generator.payload.withUnsafeBytes { transmit(opcode: ClientFrame.text, $0) }
    }

    func transmit(opcode: UInt8, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard link == .open else { return false }
        generator.frame.removeAll(keepingCapacity: true)
        ClientFrame.append(opcode: opcode, payload: payload, mask: generator.nextMask(), to: &generator.frame)
        write(generator.frame)
        return link == .open
    }

    /// Writes now if nothing waits before these bytes and the socket takes them; the rest waits
    /// for EPOLLOUT.
    private func write(_ bytes: [UInt8]) {
        guard unsent.isEmpty else { unsent.append(contentsOf: bytes); return }
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n == bytes.count { return }
        if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return closed(error: link == .upgrading) }
        unsent.append(contentsOf: bytes[max(0, n)...])
        generator.loop.modify(fd, token: index, writable: true)
    }

    private func flush() {
        guard !unsent.isEmpty else { return generator.loop.modify(fd, token: index, writable: false) }
        let n = unsent.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n < 0 {
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { closed(error: false) }
            return
        }
        unsent.removeFirst(n)
        if unsent.isEmpty { generator.loop.modify(fd, token: index, writable: false) }
    }

    /// Sends a close frame with `code` (best effort) and closes the socket.
    func close(code: UInt16) {
        if link == .open {
            let body: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
            generator.frame.removeAll(keepingCapacity: true)
            body.withUnsafeBytes { ClientFrame.append(opcode: ClientFrame.close, payload: $0, mask: generator.nextMask(), to: &generator.frame) }
            if unsent.isEmpty { _ = generator.frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
        }
        closed(error: false)
    }

    /// Could not connect or upgrade (lws's CONNECTION_ERROR): counted as an error.
    private func connectionFailed() { closed(error: true) }

    private func closed(error: Bool) {
        if error { generator.errors += 1 }
        if fd >= 0 { Glibc.close(fd); fd = -1 }
        link = .closed
        phase = .closed
        unsent = []
    }
}

/// Where sessions connect: an address resolved once per port, and the `Host` header naming it.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 = 0
    var hostHeader: String

    /// Resolves `host` (a name or a literal, IPv4 or IPv6) and `port`.
    init(host: String, port: Int) throws {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        hostHeader = (bare.contains(":") ? "[\(bare)]" : bare) + ":\(port)"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(bare, String(port), &hints, &result)
        guard rc == 0, let first = result else { throw LoadError.resolve(host, String(cString: gai_strerror(rc))) }
        defer { freeaddrinfo(result) }
        family = first.pointee.ai_family
        length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
