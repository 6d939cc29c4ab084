// The page: forwards input, applies what the server says to the scene, draws it.
import { FORWARDED_KEYS, backoffMs, gestureEvents, helloMessage, pageOptions, socketURL } from "./client.js";
import { applyMessage, createScene, settle } from "./scene.js";
import * as predict from "./predict.js";
import { draw } from "./renderer.js";
import { valueAt } from "./easing.js";

const options = pageOptions(location.search);
const canvas = document.getElementById("board");
const statusEl = document.getElementById("status");
const live = document.getElementById("live");
const notice = document.getElementById("kiosk-notice");
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

const state = {
  scene: createScene(), socket: null, open: false, attempts: 0, seq: 0, sent: 0, received: 0,
  announcements: [], commits: 0, version: null, lastChange: null, drawMs: [], session: null,
  gestures: { lift: 0, moved: 0, drop: 0 },
  prediction: predict.createPrediction(options.predict),
  trace: null,  // benchmarks set an array: every drawn frame's pointers and snapshot centers
};
const pred = state.prediction;
window.__liftboard = state;  // read-only hook for tests and debugging
if (options.kiosk) document.body.classList.add("kiosk");

function setStatus(s, text) {
  statusEl.dataset.state = s;
  statusEl.textContent = text;
  notice.hidden = !(options.kiosk && s !== "open");
}

function viewport() {
  const r = canvas.getBoundingClientRect();
  return { w: Math.max(1, Math.round(r.width)), h: Math.max(1, Math.round(r.height)), dpr: window.devicePixelRatio || 1 };
}

function send(msg) {
  if (!state.open) return;
  msg.seq = ++state.seq;
  msg.ms = performance.now();
  state.socket.send(JSON.stringify(msg));
  state.sent++;
  predict.sent(pred, msg);
}

function connect() {
  setStatus("connecting", state.attempts ? "reconnecting…" : "connecting…");
  const ws = new WebSocket(socketURL(location, options.token), "liftboard.v1");
  state.socket = ws;
  ws.onopen = () => {
    state.open = true;
    state.attempts = 0;
    setStatus("open", "connected");
    pred.pointers.clear();
    const hello = helloMessage(options, viewport(), reducedMotion, performance.now());
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    const now = performance.now();
    state.received++;
    if (msg.t === "layout") state.version = msg.version;
    // lift, moved and drop: inside the frame (events inline, as the page asks) or on their own;
    // either way before the frame's picture, as the contract orders them.
    for (const e of gestureEvents(msg)) {
      state.gestures[e.t]++;
      if (e.t === "lift") { predict.onLift(pred, e, state.scene, now); predict.apply(pred, state.scene, now); wake(); }
      else if (e.t === "drop") predict.onDrop(pred, e);
    }
    if (msg.t === "frame") {
      const drawn = predict.drawnCenters(pred, state.scene, now);
      applyMessage(state.scene, msg, now);
      predict.onFrame(pred, msg, state.scene, now, drawn);
      predict.apply(pred, state.scene, now);
      wake();
    } else if (applyMessage(state.scene, msg, now)) { predict.apply(pred, state.scene, now); wake(); }
    else if (msg.t === "pong") { predict.onPong(pred, msg, state.scene, now); wake(); }
    else if (msg.t === "announce") { live.textContent = msg.text; state.announcements.push(msg.text); }
    else if (msg.t === "commit") { state.commits++; state.version = msg.version; state.lastChange = msg.change ?? null; }
    else if (msg.t === "welcome") { state.session = msg.session; state.config = msg.config; pred.config = msg.config; }
    else if (msg.t === "error") console.warn("liftboard:", msg.code, msg.message);
  };
  ws.onclose = () => {
    state.open = false;
    setStatus("closed", "reconnecting…");
    setTimeout(connect, backoffMs(state.attempts++));
  };
  ws.onerror = () => {};  // onclose follows and reconnects
}

// --- Drawing: at the display's refresh rate while something moves, not at all when idle.
let scheduled = false;
function frame(now) {
  scheduled = false;
  const dpr = window.devicePixelRatio || 1;
  const r = canvas.getBoundingClientRect();
  const w = Math.round(r.width * dpr), h = Math.round(r.height * dpr);
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const correcting = predict.apply(pred, state.scene, now);
  const moving = settle(state.scene, now);
  state.drawMs.push(draw(canvas, state.scene, now, dpr));
  if (state.drawMs.length > 600) state.drawMs.splice(0, 300);
  if (state.trace) traceFrame(now);
  if (moving || correcting || state.trace) wake();
}
function traceFrame(now) {
  const pointers = [...pred.pointers.entries()].map(([p, q]) => ({ p, x: q.x, y: q.y }));
  const snapshots = [...state.scene.snapshots.values()].map((s) => ({ p: s.p, id: s.id, ...valueAt(s.center, now) }));
  state.trace.push({ now, at: performance.now(), pointers, snapshots, lastPointerDown, lastPointer });
  if (state.trace.length > 20000) state.trace.splice(0, 10000);
}
function wake() {
  if (!scheduled) { scheduled = true; requestAnimationFrame(frame); }
}

/** For benchmarks: draws the current scene `n` times; returns the median ms per draw. */
state.measureDraw = (n = 60) => {
  const dpr = window.devicePixelRatio || 1, times = [];
  for (let k = 0; k < n; k++) times.push(draw(canvas, state.scene, performance.now(), dpr));
  times.sort((a, b) => a - b);
  return { median: times[n >> 1], p95: times[Math.floor(n * 0.95)], cells: state.scene.cells.size };
};

// --- Input: every pointer, with capture; the page never decides anything.
function point(ev) {
  const r = canvas.getBoundingClientRect();
  return { x: ev.clientX - r.left, y: ev.clientY - r.top };
}
let lastPointerDown = -Infinity;
let lastPointer = null;  // the latest pointer position the page saw, for traces
canvas.addEventListener("pointerdown", (ev) => {
  flushMoves();
  lastPointerDown = performance.now();
  lastPointer = point(ev);
  canvas.setPointerCapture(ev.pointerId);
  canvas.focus({ preventScroll: true });
  if (state.open) predict.pointerDown(pred, ev.pointerId, point(ev), state.scene);
  const down = { t: "down", p: ev.pointerId, ...point(ev), kind: ev.pointerType || "mouse" };
  send(down);
  startPressTimer(ev.pointerId, down.ms);
  ev.preventDefault();
});
// The page's own press timer: the lift is drawn when the finger has waited, not a round trip
// later. It fires no earlier than the server's (the down's `ms` plus `pressMs`), so the ping it
// sends is answered after the server's own decision.
function startPressTimer(p, downMs) {
  const mine = pred.pointers.get(p);
  if (!mine) return;
  const due = downMs + (pred.config.pressMs ?? 500);
  const check = () => {
    if (pred.pointers.get(p) !== mine) return;
    const now = performance.now();
    if (now < due) { setTimeout(check, due - now); return; }
    flushMoves();
    const ping = predict.pressFired(pred, p, state.scene, now);
    if (ping) { send(ping); wake(); }
  };
  setTimeout(check, due - performance.now());
}
// Moves are coalesced to the latest one per pointer and animation frame: a 240 Hz pen or
// mouse costs the server no more than the display's rate. Anything else flushes them first,
// so the server sees every pointer's events in order.
const pendingMoves = new Map();
let moveFlushScheduled = false;
function flushMoves() {
  moveFlushScheduled = false;
  for (const m of pendingMoves.values()) send(m);
  pendingMoves.clear();
}
canvas.addEventListener("pointermove", (ev) => {
  if (!canvas.hasPointerCapture(ev.pointerId)) return;  // hovering: the server would ignore it anyway
  pendingMoves.set(ev.pointerId, { t: "move", p: ev.pointerId, ...point(ev) });
  if (!moveFlushScheduled) { moveFlushScheduled = true; requestAnimationFrame(flushMoves); }
  lastPointer = point(ev);
  // Drawn in this animation frame: the snapshot under the finger, or the content it pans.
  predict.pointerMove(pred, ev.pointerId, point(ev));
  predict.apply(pred, state.scene, performance.now());
  wake();
});
canvas.addEventListener("pointerup", (ev) => {
  flushMoves();
  send({ t: "up", p: ev.pointerId, ...point(ev) });
  predict.pointerEnd(pred, ev.pointerId, point(ev), state.seq);
});
canvas.addEventListener("pointercancel", (ev) => {
  flushMoves();
  send({ t: "cancel", p: ev.pointerId });
  predict.pointerEnd(pred, ev.pointerId, null, state.seq);
});
canvas.addEventListener("contextmenu", (ev) => ev.preventDefault());
canvas.addEventListener("wheel", (ev) => {
  const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? canvas.clientHeight : 1;
  send({ t: "wheel", dx: ev.deltaX * unit, dy: ev.deltaY * unit });
  ev.preventDefault();
}, { passive: false });
canvas.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" && !state.keyboardStarted) { state.keyboardStarted = true; send({ t: "key", key: "Tab" }); return; }
  if (!FORWARDED_KEYS.has(ev.key)) return;
  state.keyboardStarted = true;
  send({ t: "key", key: ev.key });
  ev.preventDefault();
});
// Undo: Ctrl-Z (Cmd-Z on a Mac) anywhere on the page reverts this page's last drop; the server
// answers `cannot_undo` when the item has moved since.
document.addEventListener("keydown", (ev) => {
  if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === "z") {
    send({ t: "undo" });
    ev.preventDefault();
  }
});
canvas.addEventListener("focus", () => {
  // Tabbing in (not a pointer) starts keyboard reordering: the server focuses the first item.
  if (!state.keyboardStarted && state.open && performance.now() - lastPointerDown > 500) {
    state.keyboardStarted = true;
    send({ t: "key", key: "Tab" });
  }
});
for (const type of ["gesturestart", "gesturechange", "selectstart", "dragstart"]) {
  document.addEventListener(type, (ev) => ev.preventDefault());
}

// --- Resizes: size or devicePixelRatio.
let lastViewport = null;
function resized() {
  const vp = viewport();
  if (lastViewport && vp.w === lastViewport.w && vp.h === lastViewport.h && vp.dpr === lastViewport.dpr) return;
  const first = lastViewport === null;
  lastViewport = vp;
  pred.viewportH = vp.h;
  if (!first) send({ t: "resize", ...vp });
  wake();
}
new ResizeObserver(resized).observe(canvas);
function watchDpr() {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener("change", () => { resized(); watchDpr(); }, { once: true });
}
watchDpr();

// --- Kiosk: the cursor hides after a few idle seconds.
if (options.kiosk) {
  let idleTimer = null;
  const active = () => {
    document.body.classList.remove("idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => document.body.classList.add("idle"), 3000);
  };
  for (const type of ["pointermove", "pointerdown", "keydown"]) document.addEventListener(type, active);
  active();
}

resized();
connect();
