// The element's socket: opens it with the hello, stamps and sends every message, hands each
// server message on, and reconnects after a close with backoff. Its token (attribute or
// auth-endpoint, renewed in place) is auth-session.js's. No drawing, no DOM events: the element
// is told of the connection's state, of every message and of every error.
import { backoffMs, elementSocketURL, helloMessage, stampMs } from "./client.js";
import { resetForConnection } from "./dispatch.js";
import { AuthSession, readClaims } from "./auth-session.js";
import * as predict from "./predict.js";

export class Connection {
  #state; #socket = null; #retry = null; #hooks; #auth;
  /** Counts opens and closes: a token that arrives for an attempt since given up is dropped. */
  #attempt = 0;

  /** `hooks`: `options()` (the element's, client.js), `viewport()`, `onState(state)` with
   *  "connecting", "open" or "closed", `onMessage(msg)`, `onError(code, message)` and
   *  `onExpiring(ms)` (the token expires soon and the element has no endpoint to renew it). */
  constructor(state, hooks) {
    this.#state = state;
    this.#hooks = hooks;
    this.#auth = new AuthSession({
      options: hooks.options, fetch: (...a) => fetch(...a), now: () => Date.now(),
      onError: hooks.onError, onExpiring: hooks.onExpiring,
    });
  }

  /** The host set a new `token` on an open session: true when it was sent as a renewal in
   *  place (`{t: "auth"}`; a drag goes on), false when the caller must reconnect. */
  renew(token) {
    if (!this.#state.open) return false;
    const msg = this.#auth.renewal(token);
    if (msg) this.send(msg);
    return msg !== null;
  }

  /** Stamps `msg` with the next `seq` and its time (`stampMs`: the event's own `ms`, when the
   *  caller gave one, or the page's clock now), and sends it (nothing while closed). */
  send(msg) {
    const state = this.#state;
    if (!state.open) return;
    msg.seq = ++state.seq;
    msg.ms = state.lastMs = stampMs(msg.ms, performance.now(), state.lastMs ?? 0);
    this.#socket.send(JSON.stringify(msg));
    state.sent++;
    predict.sent(state.prediction, msg);
  }

  /** A new socket (any current one closed first by the caller): its token first (the
   *  attribute's, or the endpoint's), then a fresh scene and the hello. */
  open() {
    const state = this.#state, hooks = this.#hooks;
    clearTimeout(this.#retry);
    this.#retry = null;
    hooks.onState("connecting");
    const attempt = ++this.#attempt;
    this.#auth.connectToken().then(({ token, retry }) => {
      if (attempt !== this.#attempt) return;  // closed or opened again meanwhile
      if (token === undefined) {  // the endpoint failed (reported): again later, unless it said no
        hooks.onState("closed");
        if (retry) this.#retry = setTimeout(() => this.open(), backoffMs(state.attempts++));
        return;
      }
      this.#connect(token);
    });
  }

  #connect(token) {
    const state = this.#state, hooks = this.#hooks, opts = hooks.options();
    resetForConnection(state);
    state.keyboardStarted = false;
    state.prediction.viewOnly = readClaims(token)?.role === "view";  // a hint: the server decides
    const ws = new WebSocket(elementSocketURL(opts.server, import.meta.url, token, opts.board), "liftboard.v1");
    this.#socket = ws;
    ws.onopen = () => {
      state.open = true;
      state.attempts = 0;
      hooks.onState("open");
      const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
      ws.send(JSON.stringify(helloMessage(opts, hooks.viewport(), reduced, performance.now())));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.t === "token_expiring") this.#auth.expiring(msg).then((renewal) => { if (renewal && ws === this.#socket) this.send(renewal); });
      if (msg.t === "token_renewed") state.prediction.viewOnly = msg.role === "view";
      hooks.onMessage(msg);
    };
    ws.onclose = (ev) => {
      const opened = state.open;
      state.open = false;
      this.#socket = null;
      hooks.onState("closed");
      const { error, retry } = this.#auth.closed(ev, opened);
      if (error) hooks.onError(...error);
      if (retry) this.#retry = setTimeout(() => this.open(), backoffMs(state.attempts++));
    };
    ws.onerror = () => {};  // onclose follows and reconnects
  }

  /** Closes the socket for good (no reconnect) and says "closed" if it was open. */
  close() {
    clearTimeout(this.#retry);
    this.#retry = null;
    this.#attempt++;
    const ws = this.#socket;
    this.#socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    ws.close();
    if (this.#state.open) { this.#state.open = false; this.#hooks.onState("closed"); }
  }
}
