// <liftboard-board>: the one client. It forwards input, applies what the server says to its
// scene (dispatch.js), draws it in its shadow root, and tells its host page what happened with
// DOM events. The demo page, the iframe mode and any host page use this same element.
//
//   <script type="module" src="https://HOST/liftboard.js"></script>
//   <liftboard-board board="kitchen" server="wss://HOST/ws" token="…" mode="swap"></liftboard-board>
//   <liftboard-board board="kitchen" auth-endpoint="/liftboard-token"></liftboard-board>
//
// Events (bubbling, composed): liftboard-lift, -move, -drop, -cancel {id, from, to, pointer};
// liftboard-commit {version, by, own, change, order?, user?, name?}; liftboard-connection {state};
// liftboard-error {code, message}; liftboard-token-expiring {ms}; liftboard-presence {board,
// people, watching, more?} (who else is on the board and what each holds: presence-view.js). Methods: order(), undo(),
// focusItem(id). See docs/embedding.md.
//
// This module is the element: its attributes, methods and events, wiring the modules of one
// concern each: element-shadow.js (its nodes and style), connection.js (the socket),
// auth-session.js (its token: the attribute's or the auth-endpoint's, renewed in place),
// dispatch.js (what a message does), frame-loop.js (drawing), viewport.js (size and pixel
// ratio), theme-watch.js (light, dark, forced colors, the host's properties), menu-view.js
// ("Move to…"), pointer-input.js and key-input.js (input), focus-walk.js (focusItem).
import { debugQuery, elementOptions } from "./client.js";
import { createClientState, receive } from "./dispatch.js";
import { imageStates, resolveTheme } from "./card.js";
import { buildShadow } from "./element-shadow.js";
import { Connection } from "./connection.js";
import { FrameLoop } from "./frame-loop.js";
import { ViewportWatch, readViewport } from "./viewport.js";
import { readTheme, watchTheme } from "./theme-watch.js";
import { MoveToMenu } from "./menu-view.js";
import { PointerInput } from "./pointer-input.js";
import { listenKeys } from "./key-input.js";
import { focusStep, focusWalk } from "./focus-walk.js";

const RECONNECTING_ATTRIBUTES = ["board", "server", "token", "auth-endpoint", "mode", "idle-reset", "predict", "commit-order"];

export class LiftboardBoard extends HTMLElement {
  static observedAttributes = RECONNECTING_ATTRIBUTES;

  #canvas; #live; #probe; #options; #connection; #loop; #viewport; #menu; #pointer;
  #focusTarget = null; #theme = resolveTheme(); #themeWatch = null;

  constructor() {
    super();
    const { canvas, live, menu, probe } = buildShadow(this);
    this.#canvas = canvas;
    this.#live = live;
    this.#probe = probe;
    this.#options = elementOptions((name) => this.getAttribute(name));
    /** The client state: scene, counters, the committed order (read-only; for tests and debugging). */
    this.state = createClientState(this.#options.predict);
    const state = () => this.state, send = (msg) => this.#connection.send(msg), wake = () => this.#loop.wake();
    this.#connection = new Connection(this.state, {
      options: () => this.#options,
      viewport: () => readViewport(canvas),
      onState: (s) => this.#setConnection(s),
      onMessage: (msg) => this.#received(msg),
      onError: (code, message) => this.#fire("liftboard-error", { code, message }),
      onExpiring: (ms) => this.#fire("liftboard-token-expiring", { ms }),
    });
    this.#menu = new MoveToMenu(menu, canvas, { scene: () => this.state.scene, send });
    const openMenu = (id, at) => this.#menu.open(id, at);
    this.#pointer = new PointerInput(canvas, { state, send, wake, openMenu });
    listenKeys(canvas, {
      state, send, openMenu, undo: () => this.undo(),
      mayStartOnFocus: () => performance.now() - this.#pointer.lastPointerDown > 500 && !this.#focusTarget
        && !this.#menu.refocusing,
    });
    this.#loop = new FrameLoop(canvas, this.state, () => this.#look(),
      () => ({ lastPointerDown: this.#pointer.lastPointerDown, lastPointer: this.#pointer.lastPointer }));
    this.#viewport = new ViewportWatch(canvas, (vp, first) => this.#resized(vp, first));
    // Benchmark hooks only on a page asked for them (`?debug=1`).
    if (debugQuery(location.search)) {
      this.state.measureDraw = (k) => this.#loop.measureDraw(k);
      this.state.theme = () => this.#theme;
      this.state.images = imageStates;
    }
  }

  connectedCallback() {
    this.#viewport.start();
    this.#theme = readTheme(this, this.#probe);
    this.#themeWatch = watchTheme(this, {
      changed: () => this.refreshTheme(),
      imageSettled: () => this.#loop.wake(),
      // Reduced motion is the server's to apply (hello.config): a change reconnects with the new one.
      motionChanged: () => { if (this.#viewport.started) { this.#connection.close(); this.#connection.open(); } },
    });
    this.#connection.open();
  }

  disconnectedCallback() {
    this.#viewport.stop();
    this.#themeWatch?.();
    this.#themeWatch = null;
    this.#connection.close();
  }

  /** Reads the theme again (a host page that changed a --liftboard-* property says so). The
   *  system's light/dark and forced colors, and the host's style and class, are watched. */
  refreshTheme() {
    this.#theme = readTheme(this, this.#probe);
    this.#loop.wake();
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    const board = this.#options.board;
    this.#options = elementOptions((n) => this.getAttribute(n));
    this.state.prediction.enabled = this.#options.predict;
    if (!this.#viewport?.started) return;  // not started yet (an upgrade reports every attribute first)
    // A new signed token on an open session renews it in place: a drag in flight goes on.
    if (name === "token" && !this.#options.authEndpoint && this.#connection.renew(value)) return;
    if (this.#options.board !== board) this.state.order = null;
    this.#connection.close();
    this.#connection.open();
  }

  // --- Methods for the host page.

  /** The last committed order this element knows: section id -> item ids. */
  order() {
    const known = this.state.order?.sections ?? {};
    return Object.fromEntries(Object.entries(known).map(([s, ids]) => [s, [...ids]]));
  }

  /** Reverts this element's last drop (the server refuses with `cannot_undo` when the item moved since). */
  undo() { this.#connection.send({ t: "undo" }); }

  /** Moves the keyboard focus to item `id` with arrow keys, as a keyboard user would. Resolves
   *  true once the server focuses it, false when it cannot be reached. */
  focusItem(id) {
    if (this.#focusTarget) this.#focusTarget.resolve(false);
    return new Promise((resolve) => {
      this.#focusTarget = { walk: focusWalk(id), resolve };
      this.#canvas.focus({ preventScroll: true });
      this.#stepFocus();
    });
  }

  // --- What the connection says.

  #setConnection(state) {
    this.dataset.connection = state;
    this.#fire("liftboard-connection", { state });
  }

  #fire(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  #received(msg) {
    const out = receive(this.state, msg, performance.now());
    for (const [name, detail] of out.events) this.#fire(name, detail);
    if (out.announce !== null) this.#live.textContent = out.announce;
    if (out.redraw) this.#loop.wake();
    if (this.#focusTarget && out.redraw) this.#stepFocus();
  }

  /** focusItem: one arrow key per answer until the server's focus is on the item. */
  #stepFocus() {
    const target = this.#focusTarget, state = this.state;
    if (!target || !state.open) return;
    const step = focusStep(target.walk, state.scene, this.order(), state.keyboardStarted, state.lifts.has(-1));
    if (step === null) return;
    if ("done" in step) { this.#focusTarget = null; target.resolve(step.done); return; }
    state.keyboardStarted = true;
    this.#connection.send({ t: "key", key: step.key });
  }

  // --- Resizes (size or devicePixelRatio) and the look the renderer draws with.

  #resized(vp, first) {
    this.state.prediction.viewportW = vp.w;
    this.state.prediction.viewportH = vp.h;
    if (!first) this.#connection.send({ t: "resize", ...vp });
    this.#loop.wake();
  }

  #look() {
    const pointer = this.#pointer;
    return { theme: this.#theme, more: pointer.coarse ? (c) => pointer.wearsMore(c) : null };
  }
}

if (!customElements.get("liftboard-board")) customElements.define("liftboard-board", LiftboardBoard);
