// Trees (issue 43; docs/protocol.md, "Trees (ours)"): what a tree board adds to the page. The
// server decides every row's place and depth (its frame is already indented by `depth ×
// indent`); this module keeps the tree facts cells carry, finds the disclosure chevron under a
// point, and draws what a list does not have: the guide lines of the levels a row sits in,
// the chevron, the "+N" of a lifted subtree and the insertion line at the drop's depth.
//
// The scene facts and hit tests are pure (Tests/js/tree-view.test.mjs); the drawing takes a
// 2D context and the theme.
import { valueAt } from "./easing.js";

/** The px of a row's leading edge the chevron takes (its hit area; the label starts after it). */
export const CHEVRON_BAND = 32;

/** The px a level indents when a tree board's layout does not say (the contract's default). */
export const DEFAULT_INDENT = 24;

/** Whether `scene` is a tree board's. */
export function isTree(scene) {
  return scene.layout === "tree";
}

/** A level's indent in px on `scene`'s board. */
export function indentOf(scene) {
  const i = scene.tree?.indent;
  return Number.isFinite(i) && i >= 0 ? i : DEFAULT_INDENT;
}

/** A whole cell's tree facts (`layout`, or a cell entering a frame's window): absent is the
 *  default (depth 0, top level, no children, expanded). */
export function treeFields(info) {
  return {
    depth: info.depth ?? 0, parent: info.parent ?? null,
    hasChildren: !!info.hasChildren, collapsed: !!info.collapsed,
  };
}

/** A changed cell's tree facts onto `cell`: each only when the frame sends it (a `parent` of
 *  `null` is a row that became top level; `false` a fact that stopped holding). */
export function applyTreeChanges(cell, update) {
  if (update.depth !== undefined) cell.depth = update.depth;
  if (update.parent !== undefined) cell.parent = update.parent;
  if (update.hasChildren !== undefined) cell.hasChildren = update.hasChildren;
  if (update.collapsed !== undefined) cell.collapsed = update.collapsed;
}

/** A lift or a `moved` (`e.to`, or `e.from` for a lift) on a tree board: the depth the drag's
 *  insertion line is drawn at, per item. A drop forgets it. */
export function noteGesture(scene, e) {
  if (!scene.dropDepths) scene.dropDepths = new Map();
  if (e.t === "drop") { scene.dropDepths.delete(e.id); return; }
  const place = e.t === "moved" ? e.to : e.from;
  if (place && place.depth !== undefined) scene.dropDepths.set(e.id, place.depth);
}

/** The chevron's box in a row drawn at frame `f`: the row's leading band, its whole height. */
export function chevronBox(f) {
  return { x: f.x, y: f.y, w: Math.min(CHEVRON_BAND, f.w), h: f.h };
}

/**
 * The id of the row whose chevron is under viewport point (x, y) at `now`, or null: a shown
 * row with children on a tree board. `toView(cell, f)` maps a content frame to the viewport
 * (scene.js's contentToView; passed in, so this module needs no scroll math of its own).
 */
export function chevronAt(scene, x, y, now, toView) {
  if (!isTree(scene)) return null;
  for (const c of scene.cells.values()) {
    if (c.hidden || !c.hasChildren) continue;
    const f = valueAt(c.frame, now);
    const v = toView(c, f);
    const b = chevronBox({ x: v.x, y: v.y, w: f.w, h: f.h });
    if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h) return c.id;
  }
  return null;
}

/** The `toggle` message a chevron's tap, click or key sends for row `id`. */
export function toggleMessage(id) {
  return { t: "toggle", id };
}

/** The "+N" a lifted subtree's snapshot wears (N its descendants), or null for a lone item. */
export function subtreeBadge(snapshot) {
  const n = snapshot?.subtree ?? 0;
  return n > 0 ? `+${n}` : null;
}

/** The x of the guide line of level `k` (the line under the chevrons of depth-k rows). */
export function guideX(indent, k) {
  return k * indent + indent / 2;
}

/** The insertion line of a lifted row whose hole is at frame `f`, at depth `depth`: from the
 *  depth's indent to the row's trailing edge, across the hole's middle. */
export function insertionLine(f, depth, indent) {
  const x0 = depth * indent + 6;
  return { x0, x1: Math.max(x0, f.x + f.w - 6), y: f.y + f.h / 2 };
}

// --- Drawing (a 2D context in content coordinates, the theme card.js resolved).

/** The x of the 1 px guide of level `k` on the pixel grid: a crisp line, the cheapest fill. */
function guideLeft(indent, k) {
  return Math.floor(guideX(indent, k));
}

/**
 * The guides of the rows a frame draws opaque, as rectangles `{x, y, h}` (1 px wide): level k's
 * line runs through each row deeper than k and the gap below it (2 px), and the lines of rows
 * that touch join into one rectangle. `rows`: depth, y and h of each row, flat. About one
 * rectangle a subtree a level in view, where a rectangle a row a level would be four times the
 * rows on a deep tree (each a fill the canvas records and rasterizes).
 */
export function guideRuns(rows, indent) {
  const out = [];
  if (indent <= 0) return out;
  const order = [];
  for (let i = 0; i < rows.length; i += 3) if (rows[i] > 0) order.push(i);
  order.sort((a, b) => rows[a + 1] - rows[b + 1]);
  const open = [];  // level -> the run being extended, or undefined
  for (const i of order) {
    const depth = rows[i], y = rows[i + 1], end = y + rows[i + 2] + 2;
    for (let k = 0; k < depth; k++) {
      const run = open[k];
      if (run && y <= run.end) { run.end = Math.max(run.end, end); continue; }
      if (run) out.push({ x: guideLeft(indent, k), y: run.y, h: run.end - run.y });
      open[k] = { y, end };
    }
  }
  open.forEach((run, k) => { if (run) out.push({ x: guideLeft(indent, k), y: run.y, h: run.end - run.y }); });
  return out;
}

/** Fills the guides `guideRuns` gave. The slot's gray: a separator's would vanish against the
 *  background. */
export function fillGuideRuns(ctx, runs, theme) {
  if (runs.length === 0) return;
  ctx.fillStyle = theme.slot;
  for (const r of runs) ctx.fillRect(r.x, r.y, 1, r.h);
}

/** One row's guides (a row drawn at its own opacity, fading in or out): as `guideRuns` draws
 *  them, the row alone. */
export function drawGuides(ctx, cell, f, indent, theme) {
  fillGuideRuns(ctx, guideRuns([cell.depth ?? 0, f.y, f.h], indent), theme);
}

const CHEVRON_R = 5, CHEVRON_LINE = 2.25;

/** Strokes the disclosure chevron centered at (cx, cy): pointing right when collapsed, down
 *  (the same stroke turned a quarter clockwise) when expanded. */
function strokeChevron(ctx, cx, cy, collapsed, color) {
  const r = CHEVRON_R;
  ctx.beginPath();
  if (collapsed) {
    ctx.moveTo(cx - r / 2, cy - r);
    ctx.lineTo(cx + r / 2, cy);
    ctx.lineTo(cx - r / 2, cy + r);
  } else {
    ctx.moveTo(cx + r, cy - r / 2);
    ctx.lineTo(cx, cy + r / 2);
    ctx.lineTo(cx - r, cy - r / 2);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = CHEVRON_LINE;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.stroke();
}

/** The chevron's center in a row drawn at frame `f`: the middle of its band, past the bar's
 *  6 px inset. */
export function chevronCenter(f) {
  const b = chevronBox(f);
  return { x: b.x + 6 + (b.w - 6) / 2, y: b.y + b.h / 2 };
}

/** The side (CSS px) of a chevron's sprite: the stroke and its round caps, with room. */
export const SPRITE = 16;

/**
 * The chevrons drawn once each (a color, a direction, a pixel ratio) into a small canvas of
 * their own and copied into every row that wears one: a row's chevron costs one image copy, not
 * a path stroked with round caps and joins, in the recording and in the raster. `make(w, h)`
 * gives a canvas (the page's: a new <canvas>); with none (no DOM), `draw` strokes as ever.
 */
export class ChevronSprites {
  constructor(make = (w, h) => {
    const doc = globalThis.document;
    if (!doc) return null;
    const c = doc.createElement("canvas");
    c.width = w;
    c.height = h;
    return c;
  }) {
    this.make = make;
    this.cache = new Map();
  }

  sprite(color, collapsed, dpr) {
    const key = `${color}|${collapsed}|${dpr}`;
    let s = this.cache.get(key);
    if (s === undefined) {
      if (this.cache.size >= 32) this.cache.clear();  // themes come and go: a few at a time
      const side = Math.ceil(SPRITE * dpr);
      s = this.make(side, side);
      if (s) {
        const g = s.getContext("2d");
        g.scale(dpr, dpr);
        strokeChevron(g, SPRITE / 2, SPRITE / 2, collapsed, color);
      }
      this.cache.set(key, s);
    }
    return s;
  }

  /** Row `cell`'s chevron at frame `f`, if it has children, in `color`; `dpr` the canvas's. */
  draw(ctx, cell, f, color, dpr) {
    if (!cell.hasChildren) return;
    const c = chevronCenter(f), s = this.sprite(color, !!cell.collapsed, dpr);
    if (s) ctx.drawImage(s, c.x - SPRITE / 2, c.y - SPRITE / 2, SPRITE, SPRITE);
    else strokeChevron(ctx, c.x, c.y, !!cell.collapsed, color);
  }
}

/** A chevron stroked where it is (a snapshot's, turned and scaled with it). */
export function drawChevron(ctx, cell, f, color) {
  if (!cell.hasChildren) return;
  const c = chevronCenter(f);
  strokeChevron(ctx, c.x, c.y, !!cell.collapsed, color);
}

/** The insertion lines of the tree drags in flight: each lifted row's hole, at the depth its
 *  last `moved` said. A dot at the line's start, as outliners draw it. */
export function drawInsertionLines(ctx, scene, now, theme) {
  if (!scene.dropDepths || scene.dropDepths.size === 0) return;
  const indent = indentOf(scene);
  for (const [id, depth] of scene.dropDepths) {
    const cell = scene.cells.get(id);
    if (!cell || !cell.hidden) continue;
    const line = insertionLine(valueAt(cell.frame, now), depth, indent);
    ctx.fillStyle = theme.focus;
    ctx.fillRect(line.x0, line.y - 1, line.x1 - line.x0, 2);
    ctx.beginPath();
    ctx.arc(line.x0, line.y, 4, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** The "+N" of a lifted subtree, at the snapshot's trailing end (box in the snapshot's own
 *  coordinates, centered on 0). */
export function drawSubtreeBadge(ctx, snapshot, box) {
  const text = subtreeBadge(snapshot);
  if (text === null) return;
  ctx.font = "700 13px system-ui, sans-serif";
  const w = Math.max(26, ctx.measureText(text).width + 14), h = 22;
  const x = box.x + box.w - w - 14, y = box.y + (box.h - h) / 2;
  ctx.beginPath();
  if (ctx.roundRect) ctx.roundRect(x, y, w, h, h / 2); else ctx.rect(x, y, w, h);
  ctx.fillStyle = "rgba(0,0,0,0.55)";
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, x + w / 2, y + h / 2 + 0.5);
  ctx.textAlign = "start";
}
