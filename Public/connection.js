// The element's socket: opens it with the hello, stamps and sends every message, hands each
// server message on, and reconnects after a close with backoff. No drawing, no DOM events:
// the element is told of the connection's state and of every message.
import { backoffMs, elementSocketURL, helloMessage } from "./client.js";
import { resetForConnection } from "./dispatch.js";
import * as predict from "./predict.js";

export class Connection {
  #state; #socket = null; #retry = null; #hooks;

  /** `hooks`: `options()` (the element's, client.js), `viewport()`, `onState(state)` with
   *  "connecting", "open" or "closed", and `onMessage(msg)`. */
  constructor(state, hooks) {
    this.#state = state;
    this.#hooks = hooks;
  }

  /** Stamps `msg` with the next `seq` and the page's clock, and sends it (nothing while closed). */
  send(msg) {
    const state = this.#state;
    if (!state.open) return;
    msg.seq = ++state.seq;
    msg.ms = Math.round(performance.now() * 1000) / 1000;
    this.#socket.send(JSON.stringify(msg));
    state.sent++;
    predict.sent(state.prediction, msg);
  }

  /** A new socket (any current one closed first by the caller): a fresh scene, then the hello. */
  open() {
    const state = this.#state, hooks = this.#hooks, opts = hooks.options();
    clearTimeout(this.#retry);
    this.#retry = null;
    resetForConnection(state);
    state.keyboardStarted = false;
    hooks.onState("connecting");
    const ws = new WebSocket(elementSocketURL(opts.server, import.meta.url, opts.token), "liftboard.v1");
    this.#socket = ws;
    ws.onopen = () => {
      state.open = true;
      state.attempts = 0;
      hooks.onState("open");
      const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
      ws.send(JSON.stringify(helloMessage(opts, hooks.viewport(), reduced, performance.now())));
    };
    ws.onmessage = (ev) => hooks.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      state.open = false;
      hooks.onState("closed");
      this.#retry = setTimeout(() => this.open(), backoffMs(state.attempts++));
    };
    ws.onerror = () => {};  // onclose follows and reconnects
  }

  /** Closes the socket for good (no reconnect) and says "closed" if it was open. */
  close() {
    clearTimeout(this.#retry);
    this.#retry = null;
    const ws = this.#socket;
    this.#socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    ws.close();
    if (this.#state.open) { this.#state.open = false; this.#hooks.onState("closed"); }
  }
}
