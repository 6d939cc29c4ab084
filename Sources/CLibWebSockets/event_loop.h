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
/// A connection's session timer on the libuv loop itself, not an lws `sul`: lws 4.1.6's libuv
/// plugin restarts its one sul timer with the time left rounded to the nearest millisecond, and
/// libuv 1.44 runs a timer restarted with 0 ms again within the same pass, so a sul due in less
/// than half a millisecond spins the loop until it is due.
typedef struct clws_uv_timer {
    uv_timer_t timer;
    void *owner;
} clws_uv_timer;

/// A stopped timer on `loop` for `owner`, or NULL.
static inline clws_uv_timer *clws_uv_timer_new(void *loop, void *owner) {
    clws_uv_timer *t = (clws_uv_timer *)calloc(1, sizeof(clws_uv_timer));
    if (!t) return NULL;
    if (uv_timer_init((uv_loop_t *)loop, &t->timer) != 0) { free(t); return NULL; }
    t->owner = owner;
    return t;
}

static inline void *clws_uv_timer_owner(uv_timer_t *timer) { return ((clws_uv_timer *)timer)->owner; }

/// (Re)arms the timer to call `cb` once, `ms` after the loop's time.
static inline void clws_uv_timer_start(clws_uv_timer *t, uv_timer_cb cb, uint64_t ms) { uv_timer_start(&t->timer, cb, ms, 0); }

static inline void clws_uv_timer_stop(clws_uv_timer *t) { uv_timer_stop(&t->timer); }

static void clws_uv_timer_closed(uv_handle_t *handle) { free(handle); }

/// Stops the timer for good; its memory is freed once libuv has closed it (the next turn).
static inline void clws_uv_timer_free(clws_uv_timer *t) { uv_close((uv_handle_t *)&t->timer, clws_uv_timer_closed); }
#endif
