// <liftboard-board>: the one client. It forwards input, applies what the server says to its
// scene (dispatch.js), draws it in its shadow root, and tells its host page what happened with
// DOM events. The demo page, the iframe mode and any host page use this same element.
//
//   <script type="module" src="https://HOST/liftboard.js"></script>
//   <liftboard-board board="kitchen" server="wss://HOST/ws" token="…" mode="swap"></liftboard-board>
//
// Events (bubbling, composed): liftboard-lift, -move, -drop, -cancel {id, from, to, pointer};
// liftboard-commit {version, by, own, change, order?}; liftboard-connection {state};
// liftboard-error {code, message}. Methods: order(), undo(), focusItem(id). See docs/embedding.md.
import { FORWARDED_KEYS, backoffMs, debugQuery, elementOptions, elementSocketURL, helloMessage, modifiers } from "./client.js";
import { createClientState, receive, resetForConnection } from "./dispatch.js";
import { contentToView, settle } from "./scene.js";
import * as predict from "./predict.js";
import { draw, pixelRatio } from "./renderer.js";
import { valueAt } from "./easing.js";
import { cellAt, menuEntries } from "./menu.js";
import { imageStates, isRich, moreButton, onImageSettled, resolveTheme } from "./card.js";

// Light and dark follow the system (the canvas reads the same choice: `#readTheme`); a host
// page's --liftboard-* custom properties win over both (docs/embedding.md).
const STYLE = `
:host { display: block; position: relative; height: 480px; color-scheme: light dark;
  background: var(--liftboard-background, #f5f5f7); }
@media (prefers-color-scheme: dark) { :host { background: var(--liftboard-background, #000); } }
@media (forced-colors: active) { :host { background: Canvas; } }
:host([hidden]) { display: none; }
canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block; touch-action: none;
  user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; outline: none; }
canvas:focus-visible { box-shadow: inset 0 0 0 3px #1a73e8; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.menu { position: absolute; z-index: 2; min-width: 180px; padding: 4px 0; margin: 0; background: #fff; color: #1d1d1f;
  border-radius: var(--liftboard-radius, 10px); box-shadow: 0 8px 28px rgba(0,0,0,0.25);
  font: 15px var(--liftboard-font, system-ui, sans-serif); }
@media (prefers-color-scheme: dark) { .menu { background: #2c2c2e; color: #f5f5f7; } .menu hr { border-top-color: #48484a; } }
@media (forced-colors: active) { .menu { border: 1px solid CanvasText; } }
.system-colors { position: absolute; visibility: hidden; }
.menu[hidden] { display: none; }
.menu button { display: block; width: 100%; padding: 8px 16px; border: 0; background: none; color: inherit;
  font: inherit; text-align: left; cursor: pointer; }
.menu button:focus, .menu button:hover { background: #1a73e8; color: #fff; outline: none; }
.menu hr { border: 0; border-top: 1px solid #e5e5ea; margin: 4px 0; }
`;
// A constructed sheet: no <style> element, so a host page's CSP needs no 'unsafe-inline'.
let sheet = null;
function styleSheet() {
  if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(STYLE); }
  return sheet;
}

/** `v` to the nearest hundredth (the pointer's coordinates as the page sends them). */
const hundredths = (v) => Math.round(v * 100) / 100;

const INSTRUCTIONS = "Long-press a card and drag it to reorder. With the keyboard: Tab to the board, arrow keys move "
  + "the focus, Space lifts the focused card, arrow keys move it, Space drops it, Escape cancels. "
  + "The context menu key, Shift+F10 or a right click opens Move to… for a card.";
const RECONNECTING_ATTRIBUTES = ["board", "server", "token", "mode", "idle-reset", "predict", "commit-order"];
let instances = 0;

export class LiftboardBoard extends HTMLElement {
  static observedAttributes = RECONNECTING_ATTRIBUTES;

  #canvas; #live; #menu; #fromMenu = false; #socket = null; #retry = null; #observer = null; #scheduled = false;
  #options; #lastViewport = null; #lastPointerDown = -Infinity; #lastPointer = null;
  #pendingMoves = new Map(); #moveFlushScheduled = false; #focusTarget = null;
  #theme = resolveTheme(); #themeWatch = null; #probe;
  /** The last pointer was a finger or a pen: focused, selected and tapped cells wear "⋯". */
  #coarse = false; #tapped = null; #press = null; #swallowed = new Set();

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open", delegatesFocus: true });
    root.adoptedStyleSheets = [styleSheet()];
    const n = ++instances;
    this.#canvas = document.createElement("canvas");
    Object.assign(this.#canvas, { tabIndex: 0 });
    this.#canvas.setAttribute("role", "application");
    this.#canvas.setAttribute("aria-label", "Reorderable board");
    this.#canvas.setAttribute("aria-describedby", `instructions-${n}`);
    const instructions = document.createElement("p");
    instructions.id = `instructions-${n}`;
    instructions.className = "visually-hidden";
    instructions.textContent = INSTRUCTIONS;
    this.#live = document.createElement("div");
    this.#live.className = "visually-hidden";
    this.#live.setAttribute("aria-live", "assertive");
    this.#live.setAttribute("aria-atomic", "true");
    this.#menu = document.createElement("div");
    this.#menu.className = "menu";
    this.#menu.setAttribute("role", "menu");
    this.#menu.hidden = true;
    // Resolves the system colors forced colors put in force (canvas takes no keywords of them everywhere).
    this.#probe = document.createElement("span");
    this.#probe.className = "system-colors";
    this.#probe.setAttribute("aria-hidden", "true");
    root.append(this.#canvas, instructions, this.#live, this.#menu, this.#probe);
    this.#options = elementOptions((name) => this.getAttribute(name));
    /** The client state: scene, counters, the committed order (read-only; for tests and debugging). */
    this.state = createClientState(this.#options.predict);
    // Benchmark hooks only on a page asked for them (`?debug=1`).
    if (debugQuery(location.search)) {
      this.state.measureDraw = (k) => this.#measureDraw(k);
      this.state.theme = () => this.#theme;
      this.state.images = imageStates;
    }
    this.#listen();
  }

  connectedCallback() {
    this.#observer = new ResizeObserver(() => this.#resized());
    this.#observer.observe(this.#canvas);
    this.#watchDpr();
    this.#watchTheme();
    this.#resized();
    this.#connect();
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#themeWatch?.();
    this.#themeWatch = null;
    this.#disconnect();
  }

  /** Reads the theme again (a host page that changed a --liftboard-* property says so). The
   *  system's light/dark and forced colors, and the host's style and class, are watched. */
  refreshTheme() {
    this.#readTheme();
    this.#wake();
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    const board = this.#options.board;
    this.#options = elementOptions((n) => this.getAttribute(n));
    this.state.prediction.enabled = this.#options.predict;
    if (!this.#observer) return;  // not started yet (an upgrade reports every attribute first)
    if (this.#options.board !== board) this.state.order = null;
    this.#disconnect();
    this.#connect();
  }

  // --- Methods for the host page.

  /** The last committed order this element knows: section id -> item ids. */
  order() {
    const known = this.state.order?.sections ?? {};
    return Object.fromEntries(Object.entries(known).map(([s, ids]) => [s, [...ids]]));
  }

  /** Reverts this element's last drop (the server refuses with `cannot_undo` when the item moved since). */
  undo() { this.#send({ t: "undo" }); }

  /** Moves the keyboard focus to item `id` with arrow keys, as a keyboard user would. Resolves
   *  true once the server focuses it, false when it cannot be reached. */
  focusItem(id) {
    if (this.#focusTarget) this.#focusTarget.resolve(false);
    return new Promise((resolve) => {
      this.#focusTarget = { id, resolve, steps: 0, last: undefined };
      this.#canvas.focus({ preventScroll: true });
      this.#stepFocus();
    });
  }

  // --- Connection.

  #setConnection(state) {
    this.dataset.connection = state;
    this.#fire("liftboard-connection", { state });
  }

  #fire(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  #viewport() {
    const r = this.#canvas.getBoundingClientRect();
    return { w: Math.max(1, Math.round(r.width)), h: Math.max(1, Math.round(r.height)), dpr: pixelRatio() };
  }

  #send(msg) {
    const state = this.state;
    if (!state.open) return;
    msg.seq = ++state.seq;
    msg.ms = Math.round(performance.now() * 1000) / 1000;
    this.#socket.send(JSON.stringify(msg));
    state.sent++;
    predict.sent(state.prediction, msg);
  }

  #connect() {
    const state = this.state, opts = this.#options;
    clearTimeout(this.#retry);
    this.#retry = null;
    resetForConnection(state);
    state.keyboardStarted = false;
    this.#setConnection("connecting");
    const ws = new WebSocket(elementSocketURL(opts.server, import.meta.url, opts.token), "liftboard.v1");
    this.#socket = ws;
    ws.onopen = () => {
      state.open = true;
      state.attempts = 0;
      this.#setConnection("open");
      const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
      ws.send(JSON.stringify(helloMessage(opts, this.#viewport(), reduced, performance.now())));
    };
    ws.onmessage = (ev) => {
      const out = receive(state, JSON.parse(ev.data), performance.now());
      for (const [name, detail] of out.events) this.#fire(name, detail);
      if (out.announce !== null) this.#live.textContent = out.announce;
      if (out.redraw) this.#wake();
      if (this.#focusTarget && out.redraw) this.#stepFocus();
    };
    ws.onclose = () => {
      state.open = false;
      this.#setConnection("closed");
      this.#retry = setTimeout(() => this.#connect(), backoffMs(state.attempts++));
    };
    ws.onerror = () => {};  // onclose follows and reconnects
  }

  #disconnect() {
    clearTimeout(this.#retry);
    this.#retry = null;
    const ws = this.#socket;
    this.#socket = null;
    if (!ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    ws.close();
    if (this.state.open) { this.state.open = false; this.#setConnection("closed"); }
  }

  // --- focusItem: one arrow key per answer until the server's focus is on the item.

  #stepFocus() {
    const target = this.#focusTarget, state = this.state;
    if (!target || !state.open) return;
    const focus = state.scene.focus;
    const done = (ok) => { this.#focusTarget = null; target.resolve(ok); };
    if (focus === target.id) return done(true);
    if (focus === target.last && target.steps > 0) return;  // the answer to the last key is not in yet
    const ids = Object.values(this.order()).flat();
    const to = ids.indexOf(target.id);
    // Arrow keys would move a keyboard drag's item, not the focus.
    if (to < 0 || target.steps > ids.length + 1 || state.lifts.has(-1)) return done(false);
    target.steps++;
    target.last = focus;
    if (!state.keyboardStarted || focus === null) { state.keyboardStarted = true; this.#send({ t: "key", key: "Tab" }); return; }
    const forward = ids.indexOf(focus) < to;
    let key;
    if (state.scene.columns) {
      // Kanban: Left and Right go to the next column, Up and Down within one.
      const at = (id) => Object.keys(this.order()).findIndex((s) => this.order()[s].includes(id));
      const from = at(focus), into = at(target.id);
      key = from === into ? (forward ? "ArrowDown" : "ArrowUp") : (from < into ? "ArrowRight" : "ArrowLeft");
    } else {
      const grid = this.#isGrid();
      key = forward ? (grid ? "ArrowRight" : "ArrowDown") : (grid ? "ArrowLeft" : "ArrowUp");
    }
    this.#send({ t: "key", key });
  }

  #isGrid() {
    const rows = new Set();
    for (const c of this.state.scene.cells.values()) {
      const key = `${c.section}|${c.frame.to.y}`;
      if (rows.has(key)) return true;
      rows.add(key);
    }
    return false;
  }

  // --- Drawing: at the display's refresh rate while something moves, not at all when idle.

  #frame(now) {
    this.#scheduled = false;
    const canvas = this.#canvas, state = this.state, pred = state.prediction;
    const correcting = predict.apply(pred, state.scene, now);
    const moving = settle(state.scene, now);
    state.drawMs.push(draw(canvas, state.scene, now, this.#look()));
    if (state.drawMs.length > 600) state.drawMs.splice(0, 300);
    if (state.trace) this.#traceFrame(now);
    if (moving || correcting || state.trace) this.#wake();
  }

  #traceFrame(now) {
    const state = this.state;
    const pointers = [...state.prediction.pointers.entries()].map(([p, q]) => ({ p, x: q.x, y: q.y }));
    const snapshots = [...state.scene.snapshots.values()].map((s) => ({ p: s.p, id: s.id, ...valueAt(s.center, now) }));
    state.trace.push({ now, at: performance.now(), pointers, snapshots, lastPointerDown: this.#lastPointerDown, lastPointer: this.#lastPointer });
    if (state.trace.length > 20000) state.trace.splice(0, 10000);
  }

  #wake() {
    if (!this.#scheduled) { this.#scheduled = true; requestAnimationFrame((now) => this.#frame(now)); }
  }

  /** For benchmarks: draws the current scene `n` times; returns the median ms per draw. */
  #measureDraw(n = 60) {
    const times = [], look = this.#look();
    for (let k = 0; k < n; k++) times.push(draw(this.#canvas, this.state.scene, performance.now(), look));
    times.sort((a, b) => a - b);
    return { median: times[n >> 1], p95: times[Math.floor(n * 0.95)], cells: this.state.scene.cells.size };
  }

  // --- Resizes: size or devicePixelRatio.

  #resized() {
    const vp = this.#viewport(), last = this.#lastViewport;
    if (last && vp.w === last.w && vp.h === last.h && vp.dpr === last.dpr) return;
    this.#lastViewport = vp;
    this.state.prediction.viewportW = vp.w;
    this.state.prediction.viewportH = vp.h;
    if (last) this.#send({ t: "resize", ...vp });
    this.#wake();
  }

  // --- Themes: the system's light or dark, forced colors, the host's custom properties.

  #look() {
    return { theme: this.#theme, more: this.#coarse ? (c) => this.#wearsMore(c) : null };
  }

  #wearsMore(c) {
    return c.movable && (c.id === this.state.scene.focus || c.selected || c.id === this.#tapped);
  }

  #readTheme() {
    const cs = getComputedStyle(this);
    const forced = matchMedia("(forced-colors: active)").matches;
    let system = null;
    if (forced) {
      system = {};
      for (const name of ["Canvas", "CanvasText", "Highlight", "HighlightText", "GrayText"]) {
        this.#probe.style.color = name;
        system[name] = getComputedStyle(this.#probe).color;
      }
    }
    this.#theme = resolveTheme({ dark: matchMedia("(prefers-color-scheme: dark)").matches, forced, system,
      prop: (name) => cs.getPropertyValue(name) });
  }

  #watchTheme() {
    this.#readTheme();
    const queries = ["(prefers-color-scheme: dark)", "(forced-colors: active)"].map((q) => matchMedia(q));
    const changed = () => this.refreshTheme();
    for (const q of queries) q.addEventListener("change", changed);
    // A host page that switches its own theme by a class or a style on itself or the element.
    const mo = new MutationObserver(changed);
    for (const el of [this, document.documentElement, document.body].filter(Boolean)) {
      mo.observe(el, { attributes: true, attributeFilter: ["class", "style", "data-theme"] });
    }
    const stopImages = onImageSettled(() => this.#wake());
    // Reduced motion is the server's to apply (hello.config): a change reconnects with the new one.
    const motion = matchMedia("(prefers-reduced-motion: reduce)");
    const moved = () => { if (this.#observer) { this.#disconnect(); this.#connect(); } };
    motion.addEventListener("change", moved);
    this.#themeWatch = () => {
      for (const q of queries) q.removeEventListener("change", changed);
      motion.removeEventListener("change", moved);
      mo.disconnect();
      stopImages();
    };
  }

  #watchDpr() {
    matchMedia(`(resolution: ${pixelRatio()}dppx)`).addEventListener("change", () => {
      if (!this.isConnected) return;
      this.#resized();
      this.#watchDpr();
    }, { once: true });
  }

  // --- Input: every pointer, with capture; the element never decides anything.

  /** Opens "Move to…" for card `id` at viewport point `at`, focused on its first entry. */
  #openMenu(id, at) {
    const entries = menuEntries(this.state.scene, id);
    if (entries.length === 0) return;
    const cell = this.state.scene.cells.get(id);
    this.#menu.replaceChildren();
    this.#menu.setAttribute("aria-label", `Move ${cell.label || id} to…`);
    entries.forEach((e, k) => {
      if (k === 4) { const hr = document.createElement("hr"); hr.setAttribute("role", "separator"); this.#menu.append(hr); }
      const b = document.createElement("button");
      b.setAttribute("role", "menuitem");
      b.tabIndex = -1;
      b.textContent = e.label;
      b.dataset.section = e.section;
      b.dataset.place = e.place;
      b.addEventListener("click", () => {
        this.#send({ t: "moveTo", id, section: e.section, place: e.place });
        this.#closeMenu(true);
      });
      this.#menu.append(b);
    });
    this.#menu.hidden = false;
    const w = this.#canvas.clientWidth, h = this.#canvas.clientHeight;
    const mw = this.#menu.offsetWidth, mh = this.#menu.offsetHeight;
    this.#menu.style.left = `${Math.max(4, Math.min(at.x, w - mw - 4))}px`;
    this.#menu.style.top = `${Math.max(4, Math.min(at.y, h - mh - 4))}px`;
    this.#menu.querySelector("button").focus();
  }

  #closeMenu(refocus) {
    if (this.#menu.hidden) return;
    this.#menu.hidden = true;
    this.#menu.replaceChildren();
    if (refocus) {
      // Back from the menu, not tabbed in: this focus starts no keyboard reordering.
      this.#fromMenu = true;
      this.#canvas.focus({ preventScroll: true });
      this.#fromMenu = false;
    }
  }

  /** The menu's keys, as a menu's are: arrows move, Home and End jump, Escape and Tab close. */
  #menuKey(ev) {
    const items = [...this.#menu.querySelectorAll("button")];
    const k = items.indexOf(this.#menu.getRootNode().activeElement);
    let next = null;
    if (ev.key === "ArrowDown") next = (k + 1) % items.length;
    else if (ev.key === "ArrowUp") next = (k - 1 + items.length) % items.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = items.length - 1;
    else if (ev.key === "Escape" || ev.key === "Tab") { this.#closeMenu(true); ev.preventDefault(); return; }
    else return;
    items[next].focus();
    ev.preventDefault();
  }

  /** Whether `ev` went down on the "⋯" of a card that wears it; if so, the menu opens for it. */
  #tapMore(ev) {
    const at = this.#point(ev), now = performance.now(), scene = this.state.scene;
    for (const c of scene.cells.values()) {
      if (c.hidden || !this.#wearsMore(c)) continue;
      const f = valueAt(c.frame, now);
      // Where the button is drawn: the board's scroll, or in columns the board's sideways one
      // and the card's column's own; under a column's header it is clipped away.
      const v = contentToView(scene, c.section, f.x, f.y, now);
      const b = moreButton({ ...f, x: v.x, y: v.y }, f.h >= 0.6 * f.w && isRich(c), !!c.selected);
      if (scene.columns && at.y < (scene.sections.find((s) => s.id === c.section)?.header ?? 0)) continue;
      if (Math.hypot(at.x - b.x, at.y - b.y) > b.r + 8) continue;
      this.#swallowed.add(ev.pointerId);
      ev.preventDefault();
      this.#openMenu(c.id, { x: b.x - b.r, y: b.y + b.r });
      return true;
    }
    return false;
  }

  /** A finger's or pen's tap (up soon, near where it went down) on a card: that card wears "⋯". */
  #noteTap(ev) {
    const press = this.#press;
    if (!press || press.p !== ev.pointerId) return;
    this.#press = null;
    const at = this.#point(ev);
    const pressMs = this.state.prediction.config.pressMs ?? 500;
    if (Math.hypot(at.x - press.at.x, at.y - press.at.y) > 10 || performance.now() - press.t >= pressMs) return;
    this.#tapped = cellAt(this.state.scene, at.x, at.y, performance.now());
    this.#wake();
  }

  // Rounded to a hundredth of a pixel, and times (in #send) to a microsecond: what the eye and
  // the engine can tell apart, in numbers short enough for the server's quickest reading (a
  // float's tail, as in 116.60000000009313, has it read the digits the slow way).
  #point(ev) {
    const r = this.#canvas.getBoundingClientRect();
    return { x: hundredths(ev.clientX - r.left), y: hundredths(ev.clientY - r.top) };
  }

  // Moves are coalesced to the latest one per pointer and animation frame: a 240 Hz pen or
  // mouse costs the server no more than the display's rate. Anything else flushes them first,
  // so the server sees every pointer's events in order.
  #flushMoves() {
    this.#moveFlushScheduled = false;
    for (const m of this.#pendingMoves.values()) this.#send(m);
    this.#pendingMoves.clear();
  }

  // The element's own press timer: the lift is drawn when the finger has waited, not a round
  // trip later. It fires no earlier than the server's (the down's `ms` plus `pressMs`), so the
  // ping it sends is answered after the server's own decision.
  #startPressTimer(p, downMs) {
    const pred = this.state.prediction;
    const mine = pred.pointers.get(p);
    if (!mine) return;
    const due = downMs + (pred.config.pressMs ?? 500);
    const check = () => {
      if (pred.pointers.get(p) !== mine) return;
      const now = performance.now();
      if (now < due) { setTimeout(check, due - now); return; }
      this.#flushMoves();
      const ping = predict.pressFired(pred, p, this.state.scene, now);
      if (ping) { this.#send(ping); this.#wake(); }
    };
    setTimeout(check, due - performance.now());
  }

  #listen() {
    const canvas = this.#canvas, state = this.state;
    const pred = () => state.prediction;
    canvas.addEventListener("pointerdown", (ev) => {
      // Not the primary button: it presses, lifts and pans nothing (the secondary one opens
      // "Move to…" on `contextmenu`), so it is neither captured, predicted nor sent. (A server
      // told of one with `button` ignores it too.)
      if (ev.button !== 0) { this.#lastPointerDown = performance.now(); return; }  // its focus is no Tab
      this.#coarse = ev.pointerType === "touch" || ev.pointerType === "pen";
      // A tap on a card's "⋯" opens "Move to…": no press, drag or selection starts from it.
      if (this.#coarse && this.#tapMore(ev)) return;
      this.#press = this.#coarse ? { p: ev.pointerId, at: this.#point(ev), t: performance.now() } : null;
      if (!this.#coarse && this.#tapped !== null) { this.#tapped = null; this.#wake(); }
      this.#flushMoves();
      this.#lastPointerDown = performance.now();
      this.#lastPointer = this.#point(ev);
      canvas.setPointerCapture(ev.pointerId);
      canvas.focus({ preventScroll: true });
      if (state.open) predict.pointerDown(pred(), ev.pointerId, this.#point(ev), state.scene);
      const down = { t: "down", p: ev.pointerId, ...this.#point(ev), kind: ev.pointerType || "mouse" };
      const mods = modifiers(ev);
      if (mods) down.mods = mods;
      this.#send(down);
      this.#startPressTimer(ev.pointerId, down.ms);
      ev.preventDefault();
    });
    canvas.addEventListener("pointermove", (ev) => {
      if (!canvas.hasPointerCapture(ev.pointerId)) return;  // hovering: the server would ignore it anyway
      this.#pendingMoves.set(ev.pointerId, { t: "move", p: ev.pointerId, ...this.#point(ev) });
      if (!this.#moveFlushScheduled) { this.#moveFlushScheduled = true; requestAnimationFrame(() => this.#flushMoves()); }
      this.#lastPointer = this.#point(ev);
      // Drawn in this animation frame: the snapshot under the finger, or the content it pans.
      predict.pointerMove(pred(), ev.pointerId, this.#point(ev));
      predict.apply(pred(), state.scene, performance.now());
      this.#wake();
    });
    canvas.addEventListener("pointerup", (ev) => {
      if (this.#swallowed.delete(ev.pointerId)) return;
      this.#noteTap(ev);
      this.#flushMoves();
      this.#send({ t: "up", p: ev.pointerId, ...this.#point(ev) });
      predict.pointerEnd(pred(), ev.pointerId, this.#point(ev), state.seq);
    });
    canvas.addEventListener("pointercancel", (ev) => {
      if (this.#swallowed.delete(ev.pointerId)) return;
      this.#flushMoves();
      this.#send({ t: "cancel", p: ev.pointerId });
      predict.pointerEnd(pred(), ev.pointerId, null, state.seq);
    });
    // "Move to…": the secondary button (the server lifts nothing with it) opens the menu for
    // the card under it; the ContextMenu key or Shift+F10 for the focused card.
    canvas.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      const at = this.#point(ev);
      const id = cellAt(state.scene, at.x, at.y, performance.now());
      if (id !== null) this.#openMenu(id, at);
    });
    this.#menu.addEventListener("keydown", (ev) => this.#menuKey(ev));
    // A press on an entry keeps the focus where it is (WebKit does not focus a pressed button:
    // the focus would leave the menu and close it before the click).
    this.#menu.addEventListener("mousedown", (ev) => ev.preventDefault());
    this.#menu.addEventListener("focusout", (ev) => {
      if (!this.#menu.contains(ev.relatedTarget)) this.#closeMenu(false);
    });
    canvas.addEventListener("wheel", (ev) => {
      const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? canvas.clientHeight : 1;
      // Where the pointer is: on a kanban board `dy` scrolls the column under it.
      this.#send({ t: "wheel", dx: ev.deltaX * unit, dy: ev.deltaY * unit, ...this.#point(ev) });
      ev.preventDefault();
    }, { passive: false });
    canvas.addEventListener("keydown", (ev) => {
      if (ev.key === "ContextMenu" || (ev.key === "F10" && ev.shiftKey)) {
        const id = state.scene.focus;
        if (id !== null && id !== undefined) {
          const c = state.scene.cells.get(id);
          const f = c ? valueAt(c.frame, performance.now()) : { x: 0, y: 0, w: 0, h: 0 };
          this.#openMenu(id, contentToView(state.scene, c?.section, f.x + 24, f.y + f.h / 2, performance.now()));
        }
        ev.preventDefault();
        return;
      }
      // Undo: Ctrl-Z (Cmd-Z on a Mac) reverts this element's last drop.
      if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === "z") {
        this.undo();
        ev.preventDefault();
        return;
      }
      if (ev.key === "Tab" && !state.keyboardStarted) { state.keyboardStarted = true; this.#send({ t: "key", key: "Tab" }); return; }
      if (!FORWARDED_KEYS.has(ev.key)) return;
      state.keyboardStarted = true;
      const key = { t: "key", key: ev.key };
      const mods = modifiers(ev);
      if (mods) key.mods = mods;
      this.#send(key);
      ev.preventDefault();
    });
    canvas.addEventListener("focus", () => {
      // Tabbing in (not a pointer) starts keyboard reordering: the server focuses the first item.
      if (!state.keyboardStarted && state.open && performance.now() - this.#lastPointerDown > 500 && !this.#focusTarget
          && !this.#fromMenu) {
        state.keyboardStarted = true;
        this.#send({ t: "key", key: "Tab" });
      }
    });
    for (const type of ["selectstart", "dragstart", "gesturestart", "gesturechange"]) {
      canvas.addEventListener(type, (ev) => ev.preventDefault());
    }
  }
}

if (!customElements.get("liftboard-board")) customElements.define("liftboard-board", LiftboardBoard);
