import CLibWebSockets

/// What `Server.start()` opens and how, decided from the configuration (issue 39): the address
/// to listen on, the file descriptor budget, the Host names answered, the store, the listening
/// vhost's port and options, and whether to warn that the boards are exposed. `Server.start()`
/// performs it (the descriptor limit set, the store opened and seeded, lws's context and vhost
/// made); the plan is tested without doing any of that.
struct StartPlan {
    /// The store the server opens.
    enum StoreChoice: Equatable {
        /// `--store postgresql://...`: shared with other processes, with a listener.
        case postgres(url: String)
        /// SQLite in `--data`, created if missing.
        case sqlite(directory: String, path: String)
    }

    let address: ListenAddress
    let budget: FileDescriptorBudget
    let allowedHosts: Set<String>
    let store: StoreChoice
    /// The vhost's port: the configured one, or none when the server listens itself
    /// (`--share-port`, Server+ListenShare.swift).
    let vhostPort: Int32
    /// The vhost's options: fail unless bound; IPv4 only for an IPv4 address; TLS with a certificate.
    let vhostOptions: UInt64
    /// Listening on a public address without `--token`: said once in the log.
    let exposed: Bool

    /// The plan for `config`. `setLimit` sets the process's descriptor limit to what the
    /// sessions asked for want (`FileDescriptorBudget.setLimit`), and returns what it got.
    init(config: ServerConfig, setLimit: (Int) -> Int) throws(ServerError) {
        do { address = try ListenAddress.resolve(config.host) } catch { throw .host(error) }
        let recording = config.recordDir != nil
        let limit = setLimit(FileDescriptorBudget.wantedLimit(requestedSessions: config.maxSessions, recording: recording))
        do { budget = try FileDescriptorBudget(limit: limit, requestedSessions: config.maxSessions, recording: recording) } catch { throw .budget(error) }
        allowedHosts = HostCheck.allowed(host: config.host, numeric: address, extra: config.allowHosts)
        store = config.storeURL.map { .postgres(url: $0) } ?? .sqlite(directory: config.dataDir, path: config.dataDir + "/liftboard.sqlite")
        vhostPort = config.sharePort ? CONTEXT_PORT_NO_LISTEN_SERVER : Int32(config.port)
        var options = CLWS_VHOST_FAIL_UNLESS_BOUND | (address.isIPv6 ? 0 : CLWS_VHOST_IPV4_ONLY)
        if config.tlsCert != nil && config.tlsKey != nil { options |= CLWS_VHOST_TLS_OPTIONS }
        vhostOptions = options
        exposed = address.isPublic && config.token == nil
    }
}
