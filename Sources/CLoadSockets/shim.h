// What the load generator's sockets need that Swift's Glibc module does not import: epoll, and
// reading a socket with the kernel's receive timestamp (the cmsg macros).
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

/// Reads up to `len` bytes like read(2); when the socket has SO_TIMESTAMPNS on, `*realtime_ns`
/// is the time (CLOCK_REALTIME, ns) the kernel received the last of the bytes, else 0.
static inline ssize_t lb_read_timestamped(int fd, void *buf, size_t len, int64_t *realtime_ns) {
    struct iovec iov = { .iov_base = buf, .iov_len = len };
    union { char bytes[CMSG_SPACE(sizeof(struct timespec))]; struct cmsghdr align; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof control.bytes;
    *realtime_ns = 0;
    ssize_t n = recvmsg(fd, &msg, 0);
    if (n <= 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(c), sizeof ts);
            *realtime_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        }
    }
    return n;
}

/// SO_TIMESTAMPNS is a macro of a macro in glibc, which Swift does not import.
static const int LB_SO_TIMESTAMPNS = SO_TIMESTAMPNS;

