// The scene model: what the server said the picture should be, with animations in flight.
// The renderer reads it; the tests check it without a canvas. No layout math, no order
// decisions: every value here came from a `layout` or a `frame`.
import { animation, isRunning, retarget, valueAt } from "./easing.js";
import { applyTreeChanges, treeFields } from "./tree-view.js";

export function createScene() {
  return {
    version: 0,
    content: { w: 0, h: 0 },
    scroll: animation(0, 0, 0, 0),
    // The board's layout as the server names it (`layout.layout`: "list", "grid" or
    // "columns"); every section is laid out so (`layoutOf`). The page never guesses it.
    layout: "list",
    // Columns (kanban): the board scrolls sideways (`scrollX`), each column on its own
    // (`columnScroll`, section id -> animation); a list or a grid has neither.
    columns: false,
    scrollX: animation(0, 0, 0, 0),
    columnScroll: new Map(),
    // The last `presence` (issue 44): who is here and what each holds (presence-view.js).
    presence: null,
    // A tree board (`layout.tree`): `{indent}`; each drag's insertion depth (tree-view.js).
    tree: null,
    dropDepths: new Map(),
    sections: [],
    cells: new Map(),      // id -> {id, label, color, section, index, movable, frame (anim), hidden, alpha, showAt}
    snapshots: new Map(),  // "p:id" -> {p, id, center (anim), size, scale, rotation, alpha (anims), done, endsAt}
    focus: null,
    seq: 0,
    ack: null,
  };
}

function cellFrom(info, now) {
  return {
    id: info.id, label: info.label, color: info.color, section: info.section, index: info.index,
    movable: info.movable, frame: animation(info.frame, info.frame, now, 0), hidden: !!info.hidden,
    selected: !!info.selected, alpha: 1, showAt: null, fade: null, removeAt: null, handle: info.handle || null,
    heldBy: info.heldBy ?? null,  // another session holds it: the holder's name (presence-view.js)
    ...cardFields(info), ...treeFields(info),
  };
}

/** Where content point (x, y) of section `section` is drawn in the viewport at `now` (`to`:
 *  where it will be once scrolling settles). A list or a grid scrolls as one; in columns the
 *  board scrolls sideways and the section's column vertically. */
export function contentToView(scene, section, x, y, now, to = false) {
  const at = (a) => (to ? a.to : valueAt(a, now));
  if (!scene.columns) return { x, y: y - at(scene.scroll) };
  const col = scene.columnScroll.get(section);
  return { x: x - at(scene.scrollX), y: y - (col ? at(col) : 0) };
}

/** The column (section) whose span holds viewport x at `now`, or null (lists, grids, gaps). */
export function columnAt(scene, x, now, to = false) {
  if (!scene.columns) return null;
  const cx = x + (to ? scene.scrollX.to : valueAt(scene.scrollX, now));
  for (const s of scene.sections) if (cx >= s.frame.x && cx < s.frame.x + s.frame.w) return s;
  return null;
}

/** The content point under viewport point (x, y) and the section it is in (columns: the column
 *  under it; its header is not content, so a point there gives section null). */
export function viewToContent(scene, x, y, now, to = false) {
  const at = (a) => (to ? a.to : valueAt(a, now));
  if (!scene.columns) return { x, y: y + at(scene.scroll), section: undefined };
  const col = columnAt(scene, x, now, to);
  if (!col || y < (col.header ?? 0)) return { x: x + at(scene.scrollX), y: NaN, section: null };
  const scroll = scene.columnScroll.get(col.id);
  return { x: x + at(scene.scrollX), y: y + (scroll ? at(scroll) : 0), section: col.id };
}

/** The shown cell under viewport point (x, y) at `now` (`to`: where frames are going), or null. */
export function cellUnder(scene, x, y, now, to = false) {
  const at = viewToContent(scene, x, y, now, to);
  if (at.section === null) return null;
  for (const c of scene.cells.values()) {
    if (c.hidden || (at.section !== undefined && c.section !== at.section)) continue;
    const f = to ? c.frame.to : valueAt(c.frame, now);
    if (at.x >= f.x && at.x < f.x + f.w && at.y >= f.y && at.y < f.y + f.h) return c;
  }
  return null;
}

/** A card's fields (issue 25), as `layout` and whole frame cells carry them: absent is null. */
function cardFields(info) {
  return { detail: info.detail ?? null, image: info.image ?? null, badge: info.badge ?? null, tags: info.tags ?? null,
    accent: info.accent ?? null };
}

function snapshotFrom(s, now, scene) {
  // A new snapshot starts from its cell as drawn: scale 1, rotation 0, alpha 1.
  const cell = scene.cells.get(s.id);
  let start = s.center;
  if (cell) {
    const f = valueAt(cell.frame, now);
    start = contentToView(scene, cell.section, f.x + f.w / 2, f.y + f.h / 2, now);
  }
  return {
    p: s.p, id: s.id, size: s.size || (cell ? { w: cell.frame.to.w, h: cell.frame.to.h } : { w: 0, h: 0 }),
    center: animation(start || { x: 0, y: 0 }, start || { x: 0, y: 0 }, now, 0),
    scale: animation(1, 1, now, 0), rotation: animation(0, 0, now, 0), alpha: animation(1, 1, now, 0),
    count: 1, subtree: 0, done: false, endsAt: 0, forbidden: false,
  };
}

function applySnapshot(scene, s, now) {
  const key = `${s.p}:${s.id}`;
  let snap = scene.snapshots.get(key);
  if (!snap || snap.done) { snap = snapshotFrom(s, now, scene); scene.snapshots.set(key, snap); }
  if (s.size) snap.size = s.size;
  // A multi-item drag: how many items the snapshot carries (the renderer stacks them).
  if (s.count !== undefined) snap.count = s.count;
  if (s.forbidden !== undefined) snap.forbidden = s.forbidden;  // over a section that refuses the drag
  if (s.subtree !== undefined) snap.subtree = s.subtree;  // a tree's lifted subtree: "+N"
  if (s.center) snap.center = retarget(snap.center, s.center, now, s.moveDur || 0, s.ease || "linear");
  const dur = s.dur || 0;
  for (const k of ["scale", "rotation", "alpha"]) {
    if (s[k] !== undefined) snap[k] = retarget(snap[k], s[k], now, dur, s.ease || "easeOut");
  }
  if (s.done) {
    snap.done = true;
    snap.endsAt = Math.max(now + (s.moveDur || 0), now + dur);
    const cell = scene.cells.get(s.id);
    if (cell) cell.showAt = snap.endsAt;  // the cell shows again when the snapshot lands
  }
}

/** Columns: each section's own vertical `scroll`, eased over `dur` from what is drawn. */
function applyColumnScrolls(scene, sections, now, dur) {
  if (!scene.columns) return;
  for (const s of sections) {
    if (s.scroll === undefined) continue;
    const a = scene.columnScroll.get(s.id);
    scene.columnScroll.set(s.id, a ? retarget(a, s.scroll, now, dur, "easeInOut") : animation(s.scroll, s.scroll, now, 0));
  }
}

const LAYOUTS = new Set(["list", "grid", "columns", "tree"]);

/** The layout section `section`'s cells are drawn in: "list", "grid", "columns" or "tree" (the
 *  board's, for every section). The page asks for the name (`hello.config.layouts: "named"`);
 *  a `layout` without one is taken for a list's (a server older than that choice names
 *  columns only). */
export function layoutOf(scene, section) {
  return scene.layout;
}

/** Whether `cell` sits in a grid: its card is drawn in grid form (the image on top). */
export function inGrid(scene, cell) {
  return layoutOf(scene, cell.section) === "grid";
}

/** Replaces the whole picture. */
export function applyLayout(scene, msg, now) {
  scene.version = msg.version;
  scene.content = msg.content;
  scene.scroll = animation(msg.scroll.y, msg.scroll.y, now, 0);
  scene.layout = LAYOUTS.has(msg.layout) ? msg.layout : "list";
  scene.columns = scene.layout === "columns";
  scene.tree = scene.layout === "tree" ? (msg.tree ?? {}) : null;
  scene.scrollX = animation(msg.scroll.x ?? 0, msg.scroll.x ?? 0, now, 0);
  scene.columnScroll = new Map();
  scene.sections = msg.sections;
  applyColumnScrolls(scene, msg.sections, now, 0);
  scene.cells = new Map();
  for (const c of msg.cells) scene.cells.set(c.id, cellFrom(c, now));
  scene.snapshots = new Map();
  for (const s of msg.snapshots || []) applySnapshot(scene, s, now);
  return scene;
}

/** Applies what changed. */
export function applyFrame(scene, msg, now) {
  scene.seq = msg.seq;
  if (msg.ack !== undefined) scene.ack = msg.ack;
  if (msg.scroll) {
    scene.scroll = retarget(scene.scroll, msg.scroll.y, now, msg.scrollDur || 0, "easeInOut");
    if (msg.scroll.x !== undefined) scene.scrollX = retarget(scene.scrollX, msg.scroll.x, now, msg.scrollDur || 0, "easeInOut");
  }
  if (msg.content) scene.content = msg.content;
  if (msg.sections) {
    scene.sections = msg.sections;
    applyColumnScrolls(scene, msg.sections, now, msg.scrollDur || 0);
  }
  for (const g of msg.gone || []) scene.cells.delete(g);
  // Items an edit took off the board fade out, then go.
  for (const r of msg.removed || []) {
    const cell = scene.cells.get(r);
    if (!cell) continue;
    const dur = msg.removeDur || 0;
    cell.fade = animation(cellOpacity(cell, now), 0, now, dur);
    cell.removeAt = now + dur;
  }
  // Snapshots first: a landing snapshot keeps its cell hidden until it lands.
  for (const s of msg.snapshots || []) applySnapshot(scene, s, now);
  for (const u of msg.cells || []) {
    let cell = scene.cells.get(u.id);
    if (!cell) {
      if (u.label === undefined) continue;  // an update for a cell we never had: wait for it whole
      cell = cellFrom({ ...u, hidden: u.hidden }, now);
      // An item new on the board (an edit) fades in where it lands.
      if (u.appear) cell.fade = animation(0, 1, now, u.dur || 0, "easeOut");
      scene.cells.set(u.id, cell);
    } else {
      cell.frame = retarget(cell.frame, u.frame, now, u.dur, u.ease);
      if (u.label !== undefined) Object.assign(cell, { label: u.label, color: u.color, section: u.section, index: u.index, movable: u.movable, handle: u.handle || null, ...cardFields(u) });
    }
    if (u.selected !== undefined) cell.selected = u.selected;
    if (u.heldBy !== undefined) cell.heldBy = u.heldBy;  // a hold begins (the name) or ends (null)
    applyTreeChanges(cell, u);
    if (u.hidden) { cell.hidden = true; cell.showAt = null; }
    else if (cell.hidden && cell.showAt === null) cell.hidden = false;
    cell.alpha = u.alpha ?? 1;
  }
  if (msg.focus !== undefined) scene.focus = msg.focus;
  return scene;
}

/** Ends what has landed: done snapshots go, their cells show. Returns whether anything moves. */
export function settle(scene, now) {
  let moving = isRunning(scene.scroll, now) || isRunning(scene.scrollX, now);
  for (const a of scene.columnScroll.values()) moving = moving || isRunning(a, now);
  for (const [key, s] of scene.snapshots) {
    if (s.done && now >= s.endsAt) { scene.snapshots.delete(key); continue; }
    moving = moving || s.done || isRunning(s.center, now) || isRunning(s.scale, now) || isRunning(s.rotation, now) || isRunning(s.alpha, now);
  }
  for (const [id, c] of scene.cells) {
    if (c.removeAt !== null && now >= c.removeAt) { scene.cells.delete(id); continue; }
    if (c.fade && !isRunning(c.fade, now)) { if (c.removeAt === null) c.fade = null; }
    else if (c.fade) moving = true;
    if (c.showAt !== null && now >= c.showAt) { c.hidden = false; c.showAt = null; }
    if (c.showAt !== null) moving = true;
    moving = moving || isRunning(c.frame, now);
  }
  return moving;
}

/** How opaque a cell is drawn at `now`: its alpha times its fade, if one runs. */
export function cellOpacity(cell, now) {
  return (cell.alpha ?? 1) * (cell.fade ? valueAt(cell.fade, now) : 1);
}

/** Applies any server message that changes the picture; returns whether it did. */
export function applyMessage(scene, msg, now) {
  if (msg.t === "layout") { applyLayout(scene, msg, now); return true; }
  if (msg.t === "frame") { applyFrame(scene, msg, now); return true; }
  return false;
}
