#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

// What Swift cannot import from libwebsockets.h (macros, multi-bit masks, variadic logging),
// plus a few helpers that keep pointer arithmetic on lws buffers on the C side.

static const size_t CLWS_PRE = LWS_PRE;
static const uint64_t CLWS_CONTEXT_OPTIONS = LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
    LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT | LWS_SERVER_OPTION_VALIDATE_UTF8;
static const uint64_t CLWS_VHOST_TLS_OPTIONS = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
/// A vhost whose listening socket cannot be bound fails instead of waiting for its interface.
static const uint64_t CLWS_VHOST_FAIL_UNLESS_BOUND = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
/// An AF_INET listening socket, so that an IPv4 `iface` literal is bound as given.
static const uint64_t CLWS_VHOST_IPV4_ONLY = LWS_SERVER_OPTION_DISABLE_IPV6;
/// The context option that makes lws load its libuv plugin (epoll; see event_loop.h).
static const uint64_t CLWS_CONTEXT_LIBUV = LWS_SERVER_OPTION_LIBUV;
static const uint64_t CLWS_CLIENT_CONTEXT_OPTIONS = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;

/// The bytes the heap holds free (glibc's mallinfo2, every arena).
static inline size_t clws_heap_free_bytes(void) { return mallinfo2().fordblks; }

/// Gives the free pages inside the heap back to the kernel (glibc's malloc_trim(0) releases
/// whole free pages anywhere in each arena, not only at its top). Returns whether any went back.
static inline int clws_heap_trim(void) { return malloc_trim(0); }

static inline void clws_log_emit(int level, const char *line) { _lws_log(level, "%s\n", line); }

/// A timer whose callback can find its owner: `sul` must come first.
typedef struct clws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
} clws_timer;

static inline clws_timer *clws_timer_new(void *owner) {
    clws_timer *t = (clws_timer *)calloc(1, sizeof(clws_timer));
    if (t) t->owner = owner;
    return t;
}

static inline void *clws_timer_owner(lws_sorted_usec_list_t *sul) { return ((clws_timer *)sul)->owner; }

/// Writes an HTTP response (status, content type, extra headers given as NUL-separated
/// "name:" / "value" pairs, then the body) without completing the transaction.
/// Returns nonzero when the connection should close.
static inline int clws_http_write_response(struct lws *wsi, unsigned int status, const char *content_type,
                                           const char *const *header_names, const char *const *header_values,
                                           int header_count, const unsigned char *body, size_t body_len) {
    unsigned char headers[LWS_PRE + 4096];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof(headers) - 1;
    if (lws_add_http_common_headers(wsi, status, content_type, (lws_filepos_t)body_len, &p, end)) return 1;
    for (int i = 0; i < header_count; i++) {
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)header_names[i],
                                        (const unsigned char *)header_values[i],
                                        (int)strlen(header_values[i]), &p, end)) return 1;
    }
    if (lws_finalize_write_http_header(wsi, start, &p, end)) return 1;
    if (body_len > 0) {
        unsigned char *b = (unsigned char *)malloc(LWS_PRE + body_len);
        if (!b) return 1;
        memcpy(b + LWS_PRE, body, body_len);
        int n = lws_write(wsi, b + LWS_PRE, body_len, LWS_WRITE_HTTP_FINAL);
        free(b);
        if (n < 0) return 1;
    }
    return 0;
}

/// Writes a complete HTTP response (see clws_http_write_response) and completes the
/// transaction. Returns nonzero when the connection should close.
static inline int clws_http_respond(struct lws *wsi, unsigned int status, const char *content_type,
                                    const char *const *header_names, const char *const *header_values,
                                    int header_count, const unsigned char *body, size_t body_len) {
    if (clws_http_write_response(wsi, status, content_type, header_names, header_values, header_count, body, body_len))
        return 1;
    return lws_http_transaction_completed(wsi) ? 1 : 0;
}

/// Writes `head` (a status line and headers, each ending in CRLF, without the blank line) and
/// then the body, as they are. For answers given while an upgrade is being confirmed, where
/// lws has not yet read the request's HTTP version and would write "HTTP/1.0".
static inline int clws_http_write_raw(struct lws *wsi, const char *head, const unsigned char *body, size_t body_len) {
    size_t head_len = strlen(head);
    unsigned char *b = (unsigned char *)malloc(LWS_PRE + head_len + 2 + body_len);
    if (!b) return 1;
    memcpy(b + LWS_PRE, head, head_len);
    memcpy(b + LWS_PRE + head_len, "\r\n", 2);
    if (body_len) memcpy(b + LWS_PRE + head_len + 2, body, body_len);
    size_t n = head_len + 2 + body_len;
    int m = lws_write(wsi, b + LWS_PRE, n, LWS_WRITE_HTTP);
    free(b);
    return m != (int)n;
}

/// Closes a connection from outside its own callback at the next timeout check (within a
/// second), whether or not its socket would take a close frame.
static inline void clws_kill_async(struct lws *wsi) { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC); }

/// Closes a connection now, from outside its own callback: with a close reason set, lws sends
/// the close frame and waits for the client's (the connection lives on until then).
static inline void clws_kill_sync(struct lws *wsi) { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC); }

/// Cancels the connection's `lws_set_timer_usecs` timer (the macro is a cast Swift does not
/// import).
static inline void clws_cancel_timer(struct lws *wsi) { lws_set_timer_usecs(wsi, LWS_SET_TIMER_USEC_CANCEL); }

/// The accepted socket of a LWS_CALLBACK_FILTER_NETWORK_CONNECTION.
static inline int clws_filter_accept_fd(void *in) { return (int)(intptr_t)in; }

/// One WebSocket message from a buffer with LWS_PRE bytes of room before `payload`.
static inline int clws_write_text(struct lws *wsi, unsigned char *payload, size_t len) {
    return lws_write(wsi, payload, len, LWS_WRITE_TEXT);
}

static inline int clws_write_opcode(struct lws *wsi, unsigned char *payload, size_t len, int binary) {
    return lws_write(wsi, payload, len, binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT);
}

/// Bytes that are already whole WebSocket frames, written as they are: lws 4.1.6 passes
/// LWS_WRITE_RAW (LWS_WRITE_HTTP) on a WebSocket connection straight to `lws_issue_raw`, which
/// keeps what the socket does not take (`lws_partial_buffered`) like any frame's rest. Needs
/// no room before `bytes`.
static inline int clws_write_frames(struct lws *wsi, unsigned char *bytes, size_t len) {
    return lws_write(wsi, bytes, len, LWS_WRITE_RAW);
}

/// Starts a Server-Sent Events response: 200, `text/event-stream`, no length (the stream ends
/// when the connection does), the extra headers, and lws told not to time it out.
/// Returns nonzero when the connection should close.
static inline int clws_sse_begin(struct lws *wsi, const char *const *header_names, const char *const *header_values,
                                 int header_count) {
    unsigned char headers[LWS_PRE + 4096];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof(headers) - 1;
    if (lws_add_http_common_headers(wsi, 200, "text/event-stream", LWS_ILLEGAL_HTTP_CONTENT_LEN, &p, end)) return 1;
    for (int i = 0; i < header_count; i++) {
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)header_names[i],
                                        (const unsigned char *)header_values[i],
                                        (int)strlen(header_values[i]), &p, end)) return 1;
    }
    if (lws_finalize_write_http_header(wsi, start, &p, end)) return 1;
    lws_http_mark_sse(wsi);
    return 0;
}

/// Writes `len` bytes of an open HTTP response body (an SSE stream). Returns nonzero on failure.
static inline int clws_http_write_body(struct lws *wsi, const unsigned char *body, size_t len) {
    unsigned char *b = (unsigned char *)malloc(LWS_PRE + len);
    if (!b) return 1;
    memcpy(b + LWS_PRE, body, len);
    int n = lws_write(wsi, b + LWS_PRE, len, LWS_WRITE_HTTP);
    free(b);
    return n < 0 ? 1 : 0;
}

#endif
