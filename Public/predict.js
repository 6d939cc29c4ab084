// Prediction: the page draws ahead what the finger alone decides, so the lifted cell stays
// under the finger at any network delay (docs/protocol.md, "Prediction"). The server stays the
// truth: its `lift` says how a snapshot follows its pointer (`grab`, `axis`), its frames say
// everything else, and a frame that acks a `seq` corrects what was drawn for it. Pure: no DOM,
// no clock; the page passes `now` and writes what is predicted into the scene it draws.
// Because it predicts, the page asks for `follow: "quiet"`: the server leaves a move that only
// moves the snapshot unanswered, and the next frame it does send (a reorder, a scroll, the drop)
// carries the center for the `seq` it acks, which `onFrame` checks as it checks any other.
import { animation, ease, retarget, valueAt } from "./easing.js";
import { cellUnder, columnAt, contentToView, layoutOf } from "./scene.js";

/** How long a correction to the server's value takes (ms). */
export const CORRECTION_MS = 100;
/** How long an undone local lift takes to settle back into its cell (ms). */
export const UNDO_MS = 150;
const SENT_KEPT = 64;

export function createPrediction(enabled = true) {
  // pointers: p -> {down, x, y, scrollAtDown, phase: pending|panning|pressed|dragging, sent: [{seq, x, y}],
  //                 endSeq, drag: {id, key, grab, lockX, x, local, pingId, corr},
  //                 columns: {scrollX, column, columnScroll} at the down, panAxis: x|y}
  return { enabled, pointers: new Map(), config: {}, viewportW: 0, viewportH: 0, pings: 0 };
}

const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

/** How far (px) a lifted snapshot's ends may rise or fall (docs/protocol.md, "Frames"). */
export const TILT_RISE = 18;

/**
 * asin(x) for x in [0, 1] by +, -, *, / and square roots alone, operation for operation as the
 * server's `arcsine` (Sources/LiftboardCore/SessionConfig.swift), so both give the same bits.
 */
export function arcsine(x) {
  let z = x / (1 + Math.sqrt((1 - x) * (1 + x)));
  z = z / (1 + Math.sqrt(1 + z * z));
  z = z / (1 + Math.sqrt(1 + z * z));
  const z2 = z * z;
  let term = z, sum = z;
  for (let k = 1; k <= 14; k++) {
    term = -term * z2;
    sum += term / (2 * k + 1);
  }
  return 8 * sum;
}

/** The lift's tilt for a cell `width` wide: `liftRotation`, its size capped at asin(36 / width). */
export function liftRotation(rotation, width) {
  const limit = 2 * TILT_RISE;
  if (!(width > limit)) return rotation;
  const cap = arcsine(limit / width);
  return rotation > cap ? cap : rotation < -cap ? -cap : rotation;
}

export function pointerDown(pred, p, pos, scene) {
  if (!pred.enabled) return;
  let columns = null;
  if (scene.columns) {
    // A vertical pan scrolls the column under the down (as the server decides), whatever it crosses.
    const col = columnAt(scene, pos.x, 0, true);
    columns = { scrollX: scene.scrollX.to, column: col, columnScroll: col ? scene.columnScroll.get(col.id)?.to ?? 0 : 0 };
  }
  pred.pointers.set(p, { down: pos, x: pos.x, y: pos.y, scrollAtDown: scene.scroll.to, columns, panAxis: "y", phase: "pending", sent: [], endSeq: null, drag: null });
}

/** The pointer moved: a pending press that goes too far becomes a pan. */
export function pointerMove(pred, p, pos) {
  const ptr = pred.pointers.get(p);
  if (!ptr || ptr.endSeq !== null) return;
  ptr.x = pos.x; ptr.y = pos.y;
  const allowable = pred.config.allowableMovement ?? 10;
  if (ptr.phase === "pending" && distance(pos, ptr.down) > allowable) {
    ptr.phase = "panning";
    // Columns: the pan's axis is decided once, here (UIScrollView's directional lock).
    if (ptr.columns) ptr.panAxis = Math.abs(pos.x - ptr.down.x) > Math.abs(pos.y - ptr.down.y) ? "x" : "y";
  }
}

/** The pointer went up (or was cancelled) in the message `seq`: predictions end once acked. */
export function pointerEnd(pred, p, pos, seq) {
  const ptr = pred.pointers.get(p);
  if (!ptr) return;
  if (pos) { ptr.x = pos.x; ptr.y = pos.y; }
  ptr.endSeq = seq;
}

/** A message for pointer `p` went out: what the server will see for its `seq`. */
export function sent(pred, msg) {
  const ptr = pred.pointers.get(msg.p);
  if (!ptr || msg.x === undefined) return;
  ptr.sent.push({ seq: msg.seq, x: msg.x, y: msg.y });
  if (ptr.sent.length > SENT_KEPT) ptr.sent.splice(0, ptr.sent.length - SENT_KEPT);
}

function predictedCenter(ptr) {
  const d = ptr.drag;
  return { x: d.lockX ? d.x : ptr.x + d.grab.x, y: ptr.y + d.grab.y };
}

function drawnCenter(scene, key, now) {
  const snap = scene.snapshots.get(key);
  return snap ? valueAt(snap.center, now) : null;
}

/** Starts easing from what is drawn now to the prediction, over CORRECTION_MS. */
function correctFrom(ptr, drawn, now) {
  if (!drawn) return;
  const target = predictedCenter(ptr);
  if (distance(drawn, target) <= 1) return;
  ptr.drag.corr = { dx: drawn.x - target.x, dy: drawn.y - target.y, start: now };
}

/**
 * The page's own press timer fired for pointer `p`: lifts a local snapshot of the movable cell
 * under it, unless the pointer went too far. Returns the ping to send (its answer comes after
 * the server's own press decision), or null.
 */
export function pressFired(pred, p, scene, now) {
  const ptr = pred.pointers.get(p);
  if (!ptr || ptr.phase !== "pending" || ptr.endSeq !== null || ptr.drag) return null;
  ptr.phase = "pressed";
  // A `view` token's page never lifts (the server refuses): no snapshot to show and take back.
  if (pred.viewOnly) return null;
  const cell = cellUnder(scene, ptr.x, ptr.y, now, true);
  const key = cell && `${p}:${cell.id}`;
  if (!cell || !cell.movable || cell.hidden || scene.snapshots.has(key)) return null;
  const f = valueAt(cell.frame, now);
  const center = contentToView(scene, cell.section, f.x + f.w / 2, f.y + f.h / 2, now);
  const cfg = pred.config, liftMs = cfg.reducedMotion ? 0 : (cfg.liftMs ?? 300);
  scene.snapshots.set(key, {
    p, id: cell.id, size: { w: f.w, h: f.h }, center: animation(center, center, now, 0),
    scale: animation(1, cfg.liftScale ?? 1.05, now, liftMs, "easeOut"),
    rotation: animation(0, liftRotation(cfg.liftRotation ?? 0.0873, f.w), now, liftMs, "easeOut"),
    alpha: animation(1, cfg.liftAlpha ?? 0.8, now, liftMs, "easeOut"),
    done: false, endsAt: 0, local: true,
  });
  cell.hidden = true; cell.showAt = null;
  // A list's snapshot keeps its x (the server's `axis` says "y" for a list, as the layout
  // does); a grid's and columns' follow in both axes.
  const lockX = layoutOf(scene, cell.section) === "list";
  const pingId = `press:${p}:${++pred.pings}`;
  ptr.phase = "dragging";
  ptr.drag = { id: cell.id, key, grab: { x: center.x - ptr.x, y: center.y - ptr.y }, lockX, x: center.x, local: true, pingId, corr: null };
  return { t: "ping", id: pingId };
}

/** The local snapshot settles back into its cell: the server did not lift it. */
function undoLocal(pred, ptr, scene, now) {
  const d = ptr.drag;
  ptr.drag = null;
  ptr.phase = "pressed";
  const snap = scene.snapshots.get(d.key);
  const cell = scene.cells.get(d.id);
  if (!snap || !snap.local) return;
  const f = cell ? cell.frame.to : null;
  const home = f ? contentToView(scene, cell.section, f.x + f.w / 2, f.y + f.h / 2, now, true) : valueAt(snap.center, now);
  snap.center = retarget(snap.center, home, now, UNDO_MS, "easeOut");
  snap.scale = retarget(snap.scale, 1, now, UNDO_MS, "easeOut");
  snap.rotation = retarget(snap.rotation, 0, now, UNDO_MS, "easeOut");
  snap.alpha = retarget(snap.alpha, 1, now, UNDO_MS, "easeOut");
  snap.done = true;
  snap.endsAt = now + UNDO_MS;
  if (cell) cell.showAt = snap.endsAt;
}

/** The server lifted an item for pointer `p`: confirms (or replaces) the local lift. */
export function onLift(pred, msg, scene, now) {
  const ptr = pred.pointers.get(msg.p);
  if (!ptr || !msg.grab) return;
  if (ptr.drag && ptr.drag.id !== msg.id) undoLocal(pred, ptr, scene, now);
  const key = `${msg.p}:${msg.id}`;
  const drawn = drawnCenter(scene, key, now);
  const prev = ptr.drag;
  const grab = { x: msg.grab.x, y: msg.grab.y };
  ptr.phase = "dragging";
  ptr.drag = { id: msg.id, key, grab, lockX: msg.axis === "y", x: prev ? prev.x : ptr.x + grab.x, local: false, pingId: null, corr: prev ? prev.corr : null };
  if (prev) correctFrom(ptr, drawn, now);
}

/** A drag of pointer `p` ended on the server: its frames place the snapshot from now on. */
export function onDrop(pred, msg) {
  const ptr = pred.pointers.get(msg.p);
  if (ptr && ptr.drag && ptr.drag.id === msg.id) { ptr.drag = null; ptr.phase = "pressed"; }
}

/** The answer to a press ping: no `lift` came before it, so the server refused the local lift. */
export function onPong(pred, msg, scene, now) {
  for (const ptr of pred.pointers.values()) {
    if (ptr.drag && ptr.drag.local && ptr.drag.pingId === msg.id) undoLocal(pred, ptr, scene, now);
  }
}

/**
 * A frame was applied: checks the server's snapshot center against what was drawn for the
 * acked `seq` (more than a pixel off: adopt the server's rule and ease to it), and ends the
 * predictions of pointers whose last message is acked. Call before `apply`.
 */
export function onFrame(pred, msg, scene, now, drawnBefore) {
  for (const [p, ptr] of pred.pointers) {
    if (ptr.endSeq !== null && msg.ack !== undefined && msg.ack >= ptr.endSeq && !ptr.drag) { pred.pointers.delete(p); continue; }
    const d = ptr.drag;
    if (!d || d.local) continue;
    const s = (msg.snapshots || []).find((u) => u.p === p && u.id === d.id && u.center && !(u.moveDur > 0));
    if (!s) continue;
    const at = [...ptr.sent].reverse().find((m) => msg.ack !== undefined && m.seq <= msg.ack);
    if (!at) continue;
    const expected = { x: d.lockX ? d.x : at.x + d.grab.x, y: at.y + d.grab.y };
    if (d.lockX) d.x = s.center.x;
    if (distance(expected, s.center) > 1) {
      d.grab = { x: s.center.x - at.x, y: s.center.y - at.y };
      d.x = s.center.x;
      correctFrom(ptr, drawnBefore.get(d.key) || null, now);
    }
  }
}

/** What is drawn now for every snapshot at `key`, before a frame retargets them. */
export function drawnCenters(pred, scene, now) {
  const out = new Map();
  for (const ptr of pred.pointers.values()) if (ptr.drag) out.set(ptr.drag.key, drawnCenter(scene, ptr.drag.key, now));
  return out;
}

const clamp = (v, max) => Math.min(Math.max(0, max), Math.max(0, v));

/** A pan's scroll, drawn ahead: the board's (a list or grid), or in columns the board's
 *  sideways or the down's column's vertical one, by the pan's axis. */
function panTo(pred, ptr, scene, now) {
  const c = ptr.columns;
  if (!c) {
    const y = clamp(ptr.scrollAtDown - (ptr.y - ptr.down.y), scene.content.h - pred.viewportH);
    scene.scroll = animation(y, y, now, 0);
  } else if (ptr.panAxis === "x") {
    const x = clamp(c.scrollX - (ptr.x - ptr.down.x), scene.content.w - pred.viewportW);
    scene.scrollX = animation(x, x, now, 0);
  } else if (c.column) {
    const col = scene.sections.find((s) => s.id === c.column.id) || c.column;
    const y = clamp(c.columnScroll - (ptr.y - ptr.down.y), (col.contentHeight ?? 0) - pred.viewportH);
    scene.columnScroll.set(col.id, animation(y, y, now, 0));
  }
}

/**
 * Writes the predictions into the scene for `now`: each dragged snapshot at its pointer plus
 * the grab (easing out any correction), and a pan's scroll. Returns whether a correction is
 * still running (the page keeps drawing).
 */
export function apply(pred, scene, now) {
  let moving = false;
  for (const ptr of pred.pointers.values()) {
    const d = ptr.drag;
    if (d) {
      const snap = scene.snapshots.get(d.key);
      if (!snap || snap.done) continue;
      let c = predictedCenter(ptr);
      if (d.corr) {
        const k = (now - d.corr.start) / CORRECTION_MS;
        if (k >= 1) d.corr = null;
        else {
          const left = 1 - ease("easeOut", k);
          c = { x: c.x + d.corr.dx * left, y: c.y + d.corr.dy * left };
          moving = true;
        }
      }
      snap.center = animation(c, c, now, 0);
    } else if (ptr.phase === "panning") {
      panTo(pred, ptr, scene, now);
    }
  }
  return moving;
}
