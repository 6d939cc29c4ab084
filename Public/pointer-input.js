// The pointer's input: every pointer with capture, forwarded as `down`, `move`, `up`, `cancel`
// and `wheel` messages, drawn ahead by the prediction (predict.js) where the finger alone
// decides. The element decides nothing: the server does. Also what only a pointer can do
// here: a finger's tap that makes a card wear "⋯", a tap on that "⋯" and the secondary
// button, both opening "Move to…".
import { modifiers } from "./client.js";
import * as predict from "./predict.js";
import { cellAt, moreButtonAt } from "./menu.js";
import { contentToView } from "./scene.js";
import { chevronAt, toggleMessage } from "./tree-view.js";

/** `v` to the nearest hundredth (the pointer's coordinates as the page sends them). */
const hundredths = (v) => Math.round(v * 100) / 100;

export class PointerInput {
  /** The last pointer was a finger or a pen: focused, selected and tapped cells wear "⋯". */
  coarse = false;
  /** The card a finger tapped last (it wears "⋯"), or null. */
  tapped = null;
  /** When the last pointer went down (`performance.now()`), and where it last was. */
  lastPointerDown = -Infinity;
  lastPointer = null;
  #canvas; #hooks; #press = null; #swallowed = new Set(); #pending = new Map(); #flushScheduled = false;

  /** `hooks`: `state()` (the client state), `send(msg)`, `wake()`, `openMenu(id, at)`. */
  constructor(canvas, hooks) {
    this.#canvas = canvas;
    this.#hooks = hooks;
    this.#listen();
  }

  /** Whether cell `c` wears the "⋯" button (for a finger or a pen: focused, selected, tapped). */
  wearsMore(c) {
    return c.movable && (c.id === this.#hooks.state().scene.focus || c.selected || c.id === this.tapped);
  }

  // Rounded to a hundredth of a pixel, and times (Connection.send) to a microsecond: what the
  // eye and the engine can tell apart, in numbers short enough for the server's quickest
  // reading (a float's tail, as in 116.60000000009313, has it read the digits the slow way).
  #point(ev) {
    const r = this.#canvas.getBoundingClientRect();
    return { x: hundredths(ev.clientX - r.left), y: hundredths(ev.clientY - r.top) };
  }

  /** Whether `ev` went down on the "⋯" of a card that wears it; if so, the menu opens for it. */
  #tapMore(ev) {
    const hit = moreButtonAt(this.#hooks.state().scene, this.#point(ev), performance.now(), (c) => this.wearsMore(c));
    if (!hit) return false;
    this.#swallowed.add(ev.pointerId);
    ev.preventDefault();
    this.#hooks.openMenu(hit.id, { x: hit.button.x - hit.button.r, y: hit.button.y + hit.button.r });
    return true;
  }

  /** Whether `ev` went down on a tree row's chevron; if so, that row collapses or expands
   *  (`toggle`): no press, drag or selection starts from it. */
  #tapChevron(ev) {
    const scene = this.#hooks.state().scene, at = this.#point(ev), now = performance.now();
    const id = chevronAt(scene, at.x, at.y, now, (c, f) => contentToView(scene, c.section, f.x, f.y, now));
    if (id === null) return false;
    this.#swallowed.add(ev.pointerId);
    ev.preventDefault();
    this.lastPointerDown = now;  // the focus this press gives is no Tab
    this.#canvas.focus({ preventScroll: true });
    this.#hooks.send(toggleMessage(id));
    return true;
  }

  /** A finger's or pen's tap (up soon, near where it went down) on a card: that card wears "⋯". */
  #noteTap(ev) {
    const press = this.#press, state = this.#hooks.state();
    if (!press || press.p !== ev.pointerId) return;
    this.#press = null;
    const at = this.#point(ev);
    const pressMs = state.prediction.config.pressMs ?? 500;
    if (Math.hypot(at.x - press.at.x, at.y - press.at.y) > 10 || performance.now() - press.t >= pressMs) return;
    this.tapped = cellAt(state.scene, at.x, at.y, performance.now());
    this.#hooks.wake();
  }

  // Moves are coalesced to the latest one per pointer and animation frame: a 240 Hz pen or
  // mouse costs the server no more than the display's rate. Anything else flushes them first,
  // so the server sees every pointer's events in order.
  #flushMoves() {
    this.#flushScheduled = false;
    for (const m of this.#pending.values()) this.#hooks.send(m);
    this.#pending.clear();
  }

  // The element's own press timer: the lift is drawn when the finger has waited, not a round
  // trip later. It fires no earlier than the server's (the down's `ms` plus `pressMs`), so the
  // ping it sends is answered after the server's own decision.
  #startPressTimer(p, downMs) {
    const state = this.#hooks.state(), pred = state.prediction;
    const mine = pred.pointers.get(p);
    if (!mine) return;
    const due = downMs + (pred.config.pressMs ?? 500);
    const check = () => {
      if (pred.pointers.get(p) !== mine) return;
      const now = performance.now();
      if (now < due) { setTimeout(check, due - now); return; }
      this.#flushMoves();
      const ping = predict.pressFired(pred, p, state.scene, now);
      if (ping) { this.#hooks.send(ping); this.#hooks.wake(); }
    };
    setTimeout(check, due - performance.now());
  }

  #listen() {
    const canvas = this.#canvas, hooks = this.#hooks;
    const state = () => hooks.state();
    const pred = () => state().prediction;
    canvas.addEventListener("pointerdown", (ev) => {
      // Not the primary button: it presses, lifts and pans nothing (the secondary one opens
      // "Move to…" on `contextmenu`), so it is neither captured, predicted nor sent. (A server
      // told of one with `button` ignores it too.)
      if (ev.button !== 0) { this.lastPointerDown = performance.now(); return; }  // its focus is no Tab
      this.coarse = ev.pointerType === "touch" || ev.pointerType === "pen";
      // A tap on a card's "⋯" opens "Move to…": no press, drag or selection starts from it.
      if (this.coarse && this.#tapMore(ev)) return;
      if (this.#tapChevron(ev)) return;
      this.#press = this.coarse ? { p: ev.pointerId, at: this.#point(ev), t: performance.now() } : null;
      if (!this.coarse && this.tapped !== null) { this.tapped = null; hooks.wake(); }
      this.#flushMoves();
      this.lastPointerDown = performance.now();
      this.lastPointer = this.#point(ev);
      canvas.setPointerCapture(ev.pointerId);
      canvas.focus({ preventScroll: true });
      if (state().open) predict.pointerDown(pred(), ev.pointerId, this.#point(ev), state().scene);
      const down = { t: "down", p: ev.pointerId, ...this.#point(ev), kind: ev.pointerType || "mouse", ms: ev.timeStamp };
      const mods = modifiers(ev);
      if (mods) down.mods = mods;
      hooks.send(down);
      this.#startPressTimer(ev.pointerId, down.ms);
      ev.preventDefault();
    });
    canvas.addEventListener("pointermove", (ev) => {
      if (!canvas.hasPointerCapture(ev.pointerId)) return;  // hovering: the server would ignore it anyway
      this.#pending.set(ev.pointerId, { t: "move", p: ev.pointerId, ...this.#point(ev), ms: ev.timeStamp });
      if (!this.#flushScheduled) { this.#flushScheduled = true; requestAnimationFrame(() => this.#flushMoves()); }
      this.lastPointer = this.#point(ev);
      // Drawn in this animation frame: the snapshot under the finger, or the content it pans.
      predict.pointerMove(pred(), ev.pointerId, this.#point(ev));
      predict.apply(pred(), state().scene, performance.now());
      hooks.wake();
    });
    canvas.addEventListener("pointerup", (ev) => {
      if (this.#swallowed.delete(ev.pointerId)) return;
      this.#noteTap(ev);
      this.#flushMoves();
      hooks.send({ t: "up", p: ev.pointerId, ...this.#point(ev), ms: ev.timeStamp });
      predict.pointerEnd(pred(), ev.pointerId, this.#point(ev), state().seq);
    });
    canvas.addEventListener("pointercancel", (ev) => {
      if (this.#swallowed.delete(ev.pointerId)) return;
      this.#flushMoves();
      hooks.send({ t: "cancel", p: ev.pointerId, ms: ev.timeStamp });
      predict.pointerEnd(pred(), ev.pointerId, null, state().seq);
    });
    // "Move to…": the secondary button (the server lifts nothing with it) opens the menu for
    // the card under it.
    canvas.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      const at = this.#point(ev);
      const id = cellAt(state().scene, at.x, at.y, performance.now());
      if (id !== null) hooks.openMenu(id, at);
    });
    canvas.addEventListener("wheel", (ev) => {
      const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? canvas.clientHeight : 1;
      // Where the pointer is: on a kanban board `dy` scrolls the column under it.
      hooks.send({ t: "wheel", dx: ev.deltaX * unit, dy: ev.deltaY * unit, ...this.#point(ev) });
      ev.preventDefault();
    }, { passive: false });
    // The browser's own selection, drag and pinch gestures would fight the board's.
    for (const type of ["selectstart", "dragstart", "gesturestart", "gesturechange"]) {
      canvas.addEventListener(type, (ev) => ev.preventDefault());
    }
  }
}
