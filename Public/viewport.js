// The element's viewport: its canvas's CSS size and the display's pixel ratio, watched for
// changes (a resize of the box, a move to a screen of another devicePixelRatio).
import { pixelRatio } from "./renderer.js";

/** The canvas's size in whole CSS pixels (at least 1) and the pixel ratio: a hello's `viewport`. */
export function readViewport(canvas) {
  const r = canvas.getBoundingClientRect();
  return { w: Math.max(1, Math.round(r.width)), h: Math.max(1, Math.round(r.height)), dpr: pixelRatio() };
}

/** Calls `changed(viewport, first)` at start and whenever the size or the ratio changes. */
export class ViewportWatch {
  #canvas; #changed; #observer = null; #last = null; #dprQuery = null; #dprListener = null;

  constructor(canvas, changed) {
    this.#canvas = canvas;
    this.#changed = changed;
  }

  get started() { return this.#observer !== null; }

  start() {
    this.#observer = new ResizeObserver(() => this.#check());
    this.#observer.observe(this.#canvas);
    this.#watchDpr();
    this.#check();
  }

  stop() {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#dprQuery?.removeEventListener("change", this.#dprListener);
    this.#dprQuery = null;
  }

  #check() {
    const vp = readViewport(this.#canvas), last = this.#last;
    if (last && vp.w === last.w && vp.h === last.h && vp.dpr === last.dpr) return;
    this.#last = vp;
    this.#changed(vp, !last);
  }

  // A media query matches one ratio: a change answers once, and the watch moves to the new one.
  #watchDpr() {
    this.#dprQuery = matchMedia(`(resolution: ${pixelRatio()}dppx)`);
    this.#dprListener = () => {
      if (!this.started) return;
      this.#check();
      this.#watchDpr();
    };
    this.#dprQuery.addEventListener("change", this.#dprListener, { once: true });
  }
}
