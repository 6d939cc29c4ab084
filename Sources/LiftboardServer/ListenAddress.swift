import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why `--host` cannot be listened on.
public enum ListenAddressError: Error, CustomStringConvertible {
    /// An interface name (`eth0`, `lo`): an interface may have several addresses, so the
    /// server asks for one of them instead of guessing.
    case interfaceName(String)
    /// Neither an IP literal nor a name that resolves.
    case unresolvable(String, String)

    public var description: String {
        switch self {
        case .interfaceName(let h):
            "--host \(h) is a network interface name: give one of its addresses (ip -brief address show \(h)), or 0.0.0.0 / :: for all interfaces"
        case .unresolvable(let h, let why):
            "--host \(h) does not resolve (\(why)): give an IPv4 or IPv6 address, localhost, or 0.0.0.0 / :: for all interfaces"
        }
    }
}

/// The address the listening socket is bound to, decided from `--host` before anything
/// listens. libwebsockets 4.1.6 takes the vhost's `iface` as an interface name or an IP
/// literal, but on its (default) IPv6 socket an IPv4 literal is parsed into the wrong part of
/// the address and the socket ends up bound to `::`, every interface; so the server always
/// hands it a literal of the socket's own family (an IPv4 one with IPv6 disabled).
public struct ListenAddress: Sendable, Equatable {
    /// What the user wrote.
    public let requested: String
    /// The numeric address handed to libwebsockets: `127.0.0.1`, `::1`, `0.0.0.0`, `::`.
    public let numeric: String
    public let isIPv6: Bool

    /// Every interface (`0.0.0.0`, `::`).
    public var isWildcard: Bool { numeric == "0.0.0.0" || numeric == "::" }

    /// Reachable from other machines: anything but a loopback address.
    public var isPublic: Bool {
        if isIPv6 { return numeric != "::1" }
        return !numeric.hasPrefix("127.")
    }

    /// `host` as it goes in a URL: IPv6 literals in brackets.
    public var urlHost: String { isIPv6 ? "[\(numeric)]" : numeric }

    /// Resolves `--host`: an IPv4 or IPv6 literal (brackets allowed), `localhost` (127.0.0.1,
    /// which every browser falls back to), or a name that resolves (its first address).
    public static func resolve(_ host: String) throws(ListenAddressError) -> ListenAddress {
        var literal = host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        if let v4 = canonical(literal, family: AF_INET) { return ListenAddress(requested: host, numeric: v4, isIPv6: false) }
        if let v6 = canonical(literal, family: AF_INET6) { return ListenAddress(requested: host, numeric: v6, isIPv6: true) }
        if literal.lowercased() == "localhost" { return ListenAddress(requested: host, numeric: "127.0.0.1", isIPv6: false) }
        if !literal.isEmpty, if_nametoindex(literal) != 0 { throw .interfaceName(host) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = literal.isEmpty ? EAI_NONAME : getaddrinfo(literal, nil, &hints, &result)
        guard rc == 0, let first = result else { throw .unresolvable(host, String(cString: gai_strerror(rc))) }
        defer { freeaddrinfo(result) }
        guard let numeric = numericHost(first.pointee.ai_addr, first.pointee.ai_addrlen) else {
            throw .unresolvable(host, "no usable address")
        }
        return ListenAddress(requested: host, numeric: numeric, isIPv6: first.pointee.ai_family == AF_INET6)
    }

    /// The literal in its canonical form (`::0001` becomes `::1`), if it is one of `family`.
    static func canonical(_ s: String, family: Int32) -> String? {
        var storage = in6_addr()
        guard inet_pton(family, s, &storage) == 1 else { return nil }
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, &storage, &out, socklen_t(out.count)) != nil else { return nil }
        return String(nulTerminated: out)
    }
}

/// getnameinfo's numeric form of a socket address.
func numericHost(_ sa: UnsafePointer<sockaddr>?, _ len: socklen_t) -> String? {
    guard let sa else { return nil }
    var out = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    guard getnameinfo(sa, len, &out, socklen_t(out.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
    return String(nulTerminated: out)
}

/// What the operating system says this process listens on: the address and port of every
/// listening TCP socket among its file descriptors. Used to report (and check) the bind
/// libwebsockets actually made rather than the one it was asked for.
enum ListeningSockets {
    struct Bound: Equatable, CustomStringConvertible {
        var host: String
        var port: Int
        var isIPv6: Bool
        var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    static func current() -> [Bound] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var out: [Bound] = []
        for name in names {
            guard let fd = Int32(name) else { continue }
            var accepting: Int32 = 0
            var len = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) == 0, accepting == 1 else { continue }
            var storage = sockaddr_storage()
            var slen = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let ok = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &slen) == 0 }
            }
            guard ok else { continue }
            let family = Int32(storage.ss_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let host = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { numericHost($0, slen) }
            }
            let port = withUnsafePointer(to: &storage) { p -> Int in
                family == AF_INET
                    ? p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
                    : p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            if let host { out.append(Bound(host: host, port: port, isIPv6: family == AF_INET6)) }
        }
        return out
    }
}

extension String {
    /// The UTF-8 text of a C buffer up to its first NUL (or its end).
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
