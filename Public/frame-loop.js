// Drawing: at the display's refresh rate while something moves, not at all when idle. Each
// frame applies the prediction, settles the scene's animations and draws it (renderer.js).
import { settle } from "./scene.js";
import * as predict from "./predict.js";
import { draw } from "./renderer.js";
import { valueAt } from "./easing.js";

export class FrameLoop {
  #canvas; #state; #look; #pointerNote; #scheduled = false;

  /** `look()`: what the renderer needs besides the scene (the theme, who wears "⋯");
   *  `pointerNote()`: `{lastPointerDown, lastPointer}` for a benchmark's trace. */
  constructor(canvas, state, look, pointerNote) {
    this.#canvas = canvas;
    this.#state = state;
    this.#look = look;
    this.#pointerNote = pointerNote;
  }

  /** Asks for a frame (one per animation frame however often it is asked). */
  wake() {
    if (!this.#scheduled) { this.#scheduled = true; requestAnimationFrame((now) => this.#frame(now)); }
  }

  #frame(now) {
    this.#scheduled = false;
    const state = this.#state, pred = state.prediction;
    const correcting = predict.apply(pred, state.scene, now);
    const moving = settle(state.scene, now);
    state.drawMs.push(draw(this.#canvas, state.scene, now, this.#look()));
    if (state.drawMs.length > 600) state.drawMs.splice(0, 300);
    if (state.trace) this.#traceFrame(now);
    if (moving || correcting || state.trace) this.wake();
  }

  #traceFrame(now) {
    const state = this.#state;
    const pointers = [...state.prediction.pointers.entries()].map(([p, q]) => ({ p, x: q.x, y: q.y }));
    const snapshots = [...state.scene.snapshots.values()].map((s) => ({ p: s.p, id: s.id, ...valueAt(s.center, now) }));
    state.trace.push({ now, at: performance.now(), pointers, snapshots, ...this.#pointerNote() });
    if (state.trace.length > 20000) state.trace.splice(0, 10000);
  }

  /** For benchmarks: draws the current scene `n` times; returns the median ms per draw. */
  measureDraw(n = 60) {
    const times = [], look = this.#look();
    for (let k = 0; k < n; k++) times.push(draw(this.#canvas, this.#state.scene, performance.now(), look));
    times.sort((a, b) => a - b);
    return { median: times[n >> 1], p95: times[Math.floor(n * 0.95)], cells: this.#state.scene.cells.size };
  }
}
