#ifndef CLIBWEBSOCKETS_LISTEN_SHARE_H
#define CLIBWEBSOCKETS_LISTEN_SHARE_H
#include <libwebsockets.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// Several processes on one port. lws 4.1 sets SO_REUSEPORT on its listen socket only when the
// context has several service threads (Debian builds LWS_MAX_SMP 1), whatever
// LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE says; so the server listens itself, watches the socket
// as a raw descriptor, and hands each accepted connection to lws as if lws had accepted it.

/// A non-blocking listening TCP socket with SO_REUSEPORT on host:port; the port it got in
/// *bound. Returns the fd, or -1 with errno set.
static inline int clws_listen_shared(const char *host, int port, int *bound) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(host, service, &hints, &res) != 0 || !res) { errno = EADDRNOTAVAIL; return -1; }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        freeaddrinfo(res);
        errno = e;
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    *bound = port;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
        *bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

/// Watches the listening socket as a raw descriptor bound to `protocol` (LWS_CALLBACK_RAW_RX_FILE
/// when a connection waits).
static inline struct lws *clws_adopt_listener(struct lws_vhost *vh, int fd, const char *protocol) {
    lws_sock_file_fd_type u;
    u.filefd = fd;
    return lws_adopt_descriptor_vhost(vh, LWS_ADOPT_RAW_FILE_DESC, u, protocol, NULL);
}

/// Accepts every waiting connection and adopts each as an HTTP server connection of `vh`.
/// Returns how many were adopted.
static inline int clws_accept_all(struct lws_vhost *vh, int fd) {
    int n = 0;
    for (;;) {
        int c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c < 0) return n;
        if (!lws_adopt_socket_vhost(vh, c)) close(c); else n++;
    }
}
#endif
