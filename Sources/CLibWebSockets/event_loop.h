#ifndef CLIBWEBSOCKETS_EVENT_LOOP_H
#define CLIBWEBSOCKETS_EVENT_LOOP_H
#include <stdlib.h>
#include <uv.h>

// The server's event loop when lws services through libuv (epoll) rather than its own poll():
// the loop is the server's ("foreign" to lws), so that the server runs it one turn at a time
// and checks its stop flag between turns, as it does around lws_service().
//
// Why libuv and not libev: lws 4.1.6's libev plugin re-arms its timer with ev_timer_set on a
// watcher that may still be active, which libev ignores (the heap keeps the old time), so a
// timer scheduled earlier than the one armed fires late. The libuv plugin restarts its timer.

/// A new libuv loop, or NULL.
static inline void *clws_uv_loop_new(void) {
    uv_loop_t *loop = (uv_loop_t *)malloc(sizeof(uv_loop_t));
    if (loop && uv_loop_init(loop) != 0) { free(loop); return NULL; }
    return loop;
}

/// One turn: waits for an event or a timer, handles what is ready, returns.
static inline void clws_uv_run_once(void *loop) { uv_run((uv_loop_t *)loop, UV_RUN_ONCE); }

/// One turn that does not wait.
static inline void clws_uv_run_nowait(void *loop) { uv_run((uv_loop_t *)loop, UV_RUN_NOWAIT); }

/// After lws_context_destroy: lets the handles lws closed finish closing, then frees the loop.
static inline void clws_uv_loop_free(void *loop) {
    uv_loop_t *l = (uv_loop_t *)loop;
    for (int i = 0; i < 1000 && uv_loop_alive(l); i++) uv_run(l, UV_RUN_NOWAIT);
    if (uv_loop_close(l) == 0) free(l);
}

/// The kernel interface libuv waits with on this system ("epoll" on Linux).
static inline int clws_uv_backend_fd(void *loop) { return uv_backend_fd((uv_loop_t *)loop); }
#endif
