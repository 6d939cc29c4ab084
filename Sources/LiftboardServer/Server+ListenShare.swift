import CLibWebSockets
import Foundation

/// Several processes on one port (`--workers`, `--share-port`): each listens with SO_REUSEPORT
/// and the kernel spreads new connections over them. lws 4.1 sets SO_REUSEPORT only with
/// several service threads, whatever LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE says, so the server
/// makes the listening socket itself, has lws watch it as a raw descriptor, and adopts each
/// accepted connection into the vhost (which then handles it exactly as one lws accepted).
extension Server {
    static let listenProtocol = "liftboard.listen"

    /// Listens on the configured host and port with SO_REUSEPORT; returns the bound port.
    func listenShared(_ vhost: OpaquePointer, host: String) throws(ServerError) -> Int {
        var bound: Int32 = 0
        let fd = clws_listen_shared(host, Int32(config.port), &bound)
        guard fd >= 0 else { throw .listen("cannot listen on \(host):\(config.port): \(String(cString: strerror(errno)))") }
        guard clws_adopt_listener(vhost, fd, Server.listenProtocol) != nil else {
            close(fd)
            throw .listen("libwebsockets would not watch the listening socket")
        }
        return Int(bound)
    }
}

/// The listening socket has connections waiting: accept them all into its vhost.
func listenCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                    _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi, reason == LWS_CALLBACK_RAW_RX_FILE else { return 0 }
    clws_accept_all(lws_get_vhost(wsi), lws_get_socket_fd(wsi))
    return 0
}
