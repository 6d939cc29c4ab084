// Others on the board (issue 44): the server's `presence` ({board, people, watching, more}) and
// the cells another session holds (`heldBy`). This module says what the page draws of them:
// - on the canvas (renderer.js calls `drawPresence` over the cells): a held cell is drawn
//   dimmed in its place (`HELD_ALPHA`) with a chip of the holder's name in their color, and the
//   holder's `target` as an insertion marker wearing the same chip ("Ana · 3" for a group's
//   drag; in a tree, the marker indented at the target's depth);
// - in a host page's header (`renderAvatarStack`, the demo page's): initials on each person's
//   color, "+N" past a few, and the watching count.
// The pure parts (`holdMarks`, `markerFor`, `avatarStack`) take no DOM and are tested in node.
import { valueAt } from "./easing.js";
import { contentToView, layoutOf } from "./scene.js";
import { indentOf, insertionLine, isTree } from "./tree-view.js";

/** How opaque a cell another session holds is drawn. */
export const HELD_ALPHA = 0.4;
/** How many avatars the stack shows before "+N". */
export const STACK_MAX = 4;
const FALLBACK = "#6e6e73";

/** A presence message's part the element passes on (`liftboard-presence`'s detail). */
export function presenceDetail(msg) {
  const d = { board: msg.board, people: msg.people || [], watching: msg.watching || 0 };
  if (msg.more) d.more = msg.more;
  return d;
}

/** The whole presence a `presence` message brings the page to, with `hello.config.presence:
 *  "delta"` (the page asks for it: client.js). A message without `base` is whole (the first, or
 *  one the server could not send as a difference); one with `base` is a difference from the
 *  presence numbered `base`, which the page has as `last` (numbered `lastV`): the sessions in
 *  `gone` leave the list, each entry of `changed` without `at` takes its members (a `target`
 *  without `section` only its `index`, a null one goes), and the entries with `at` (whole) go
 *  in at that index, in order. Returns {presence, v, missed}: `presence` a new object (`last`
 *  and its entries are left as they were: a host may keep them), `v` its number, and `missed`
 *  when the difference is not from `last` (applied to it anyway; the next whole one mends it). */
export function assemblePresence(last, lastV, msg) {
  if (msg.base === undefined) return { presence: presenceDetail(msg), v: msg.v, missed: false };
  let missed = !last || msg.base !== lastV;
  const gone = new Set(msg.gone || []);
  const people = (last?.people || []).filter((p) => !gone.has(p.session));
  const index = new Map(people.map((p, k) => [p.session, k]));
  const added = [];
  for (const c of msg.changed || []) {
    const { session, at, ...members } = c;
    if (at !== undefined) { added.push([at, { session, ...members }]); continue; }
    const k = index.get(session);
    if (k === undefined) { missed = true; continue; }
    const e = { ...people[k] };
    for (const [key, value] of Object.entries(members)) {
      if (key !== "target") e[key] = value;
      else if (value === null) delete e.target;
      else if ("section" in value || !e.target) e.target = { ...value };
      else e.target = { ...e.target, ...value };
    }
    people[k] = e;
  }
  added.sort((a, b) => a[0] - b[0]);
  for (const [at, e] of added) people.splice(at, 0, e);
  const presence = { board: msg.board, people, watching: "watching" in msg ? msg.watching : last?.watching || 0 };
  const more = "more" in msg ? msg.more : last?.more || 0;
  if (more) presence.more = more;
  return { presence, v: msg.v, missed };
}

/** "Ana Lima" -> "AL", "Guest 3" -> "G3", "bo" -> "B". */
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  return words.slice(0, 2).map((w) => [...w][0].toUpperCase()).join("");
}

/** The person holding item `id` whose name is `name`: the one whose `holds` has it, else the
 *  first of that name (a hold the presence has not caught up with), else a stand-in. */
export function holderOf(presence, id, name) {
  const people = presence?.people || [];
  const p = people.find((q) => (q.holds || []).includes(id)) || people.find((q) => q.name === name);
  return { name: name ?? p?.name ?? "?", color: p?.color || FALLBACK, target: p?.target ?? null, session: p?.session ?? null,
    holds: p?.holds || [id] };
}

/** Every held cell the scene knows: [{id, name, color, target, count}], in the scene's cell
 *  order. A person's `target` goes with their first held item only (one marker a drag);
 *  `count` is how many items their drag carries: their holds less a tree's descendants that
 *  ride with a held parent (a subtree is one item; a group of three is three). */
export function holdMarks(scene) {
  const out = [], seen = new Set();
  for (const c of scene.cells.values()) {
    if (!c.heldBy) continue;
    const h = holderOf(scene.presence, c.id, c.heldBy);
    const key = h.session ?? h.name;
    const target = seen.has(key) ? null : h.target;
    seen.add(key);
    out.push({ id: c.id, name: h.name, color: h.color, target, count: carried(scene, h.holds) });
  }
  return out;
}

/** The items a drag holding `holds` carries: those whose parent it does not also hold. On a
 *  tree an item this page has no cell of is a row hidden here (under a collapsed row, or a
 *  lifted subtree's descendant), not counted; on other boards it is a card out of the window. */
function carried(scene, holds) {
  const held = new Set(holds), tree = isTree(scene);
  let n = 0;
  for (const id of holds) {
    const c = scene.cells.get(id);
    if (c ? !held.has(c.parent) : !tree) n++;
  }
  return Math.max(1, n);
}

/** The chip's text of a drag carrying `count` items: "Ana", or "Ana · 3" for a group. */
export function chipLabel(name, count) {
  return count > 1 ? `${name} · ${count}` : name;
}

/**
 * Where an insertion at `target` ({section, index}) is drawn, in content coordinates:
 * `{section, x, y, w, h}`, a thin bar: horizontal in a list or a column (at the top of the cell
 * now at that place, or below the section's last), vertical in a grid (at that cell's leading
 * edge, or after the last). On a tree board the bar starts at the target's `depth` (indented as
 * the holder's own insertion line, tree-view.js `insertionLine`) and runs to the row's trailing
 * edge. The places are counted without the held items (`skip`), as the holder's own view has
 * them out. Null when the section's cells are not known here.
 */
export function markerFor(scene, target, skip, now) {
  if (!target) return null;
  const cells = [...scene.cells.values()]
    .filter((c) => c.section === target.section && !skip.has(c.id))
    .sort((a, b) => a.index - b.index);
  const section = scene.sections.find((s) => s.id === target.section);
  const grid = layoutOf(scene, target.section) === "grid";
  const at = (c) => valueAt(c.frame, now);
  if (cells.length === 0) {
    const f = section?.slot || (section && { x: section.frame.x, y: section.frame.y + (section.header ?? 0), w: section.frame.w, h: 0 });
    return f ? { section: target.section, x: f.x + 6, y: f.y, w: f.w - 12, h: 3 } : null;
  }
  const i = Math.max(0, Math.min(target.index, cells.length));
  if (grid) {
    const f = i < cells.length ? at(cells[i]) : at(cells[cells.length - 1]);
    const x = i < cells.length ? f.x : f.x + f.w;
    return { section: target.section, x: x - 1.5, y: f.y + 2, w: 3, h: f.h - 4 };
  }
  const f = i < cells.length ? at(cells[i]) : at(cells[cells.length - 1]);
  const y = i < cells.length ? f.y : f.y + f.h;
  if (isTree(scene) && Number.isInteger(target.depth)) {
    const line = insertionLine(f, target.depth, indentOf(scene));
    return { section: target.section, x: line.x0, y: y - 1.5, w: line.x1 - line.x0, h: 3 };
  }
  return { section: target.section, x: f.x + 6, y: y - 1.5, w: f.w - 12, h: 3 };
}

function chip(ctx, x, y, name, color) {
  ctx.font = "600 12px system-ui, sans-serif";
  const w = Math.ceil(ctx.measureText(name).width) + 16, h = 20;
  ctx.beginPath();
  if (ctx.roundRect) ctx.roundRect(x, y, w, h, h / 2); else ctx.rect(x, y, w, h);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.textBaseline = "middle";
  ctx.textAlign = "start";
  ctx.fillText(name, x + 8, y + h / 2 + 0.5);
  return { x, y, w, h };
}

/**
 * Draws the held cells' chips and the holders' insertion markers over the cells (viewport
 * coordinates; the cells themselves are drawn dimmed by the renderer). Records what it drew in
 * `scene.presenceDrawn` ([{id, name, color, chip, marker}], viewport rectangles) for tests.
 */
export function drawPresence(ctx, scene, now) {
  const marks = holdMarks(scene);
  const drawn = [];
  if (marks.length === 0) { scene.presenceDrawn = drawn; return drawn; }
  const held = new Set(marks.map((m) => m.id));
  for (const m of marks) {
    const cell = scene.cells.get(m.id);
    const f = valueAt(cell.frame, now);
    const o = contentToView(scene, cell.section, f.x, f.y, now);
    const entry = { id: m.id, name: m.name, color: m.color, count: m.count, chip: null, marker: null };
    if (!cell.hidden) entry.chip = chip(ctx, o.x + f.w - 12 - chipWidth(ctx, m.name), o.y + (f.h - 20) / 2, m.name, m.color);
    const bar = markerFor(scene, m.target, held, now);
    if (bar) {
      const v = contentToView(scene, bar.section, bar.x, bar.y, now);
      ctx.fillStyle = m.color;
      ctx.fillRect(v.x, v.y, bar.w, bar.h);
      ctx.beginPath();
      ctx.arc(v.x, v.y + bar.h / 2, 4.5, 0, Math.PI * 2);
      ctx.fill();
      // The chip sits on the bar's start (a list's) or above it (a grid's).
      const cx = bar.w > bar.h ? v.x + 10 : v.x - 8, cy = bar.w > bar.h ? v.y + bar.h / 2 - 10 : v.y - 10;
      entry.marker = { x: v.x, y: v.y, w: bar.w, h: bar.h, label: chipLabel(m.name, m.count),
        chip: chip(ctx, cx, cy, chipLabel(m.name, m.count), m.color) };
    }
    drawn.push(entry);
  }
  scene.presenceDrawn = drawn;
  return drawn;
}

function chipWidth(ctx, name) {
  ctx.font = "600 12px system-ui, sans-serif";
  return Math.ceil(ctx.measureText(name).width) + 16;
}

/** What an avatar stack shows of a presence: the first `max` people ({name, initials, color,
 *  holding, self}: `self` the session `self`, the page's own), then `extra` ("+N": the listed
 *  rest and `more`), and `watching`. */
export function avatarStack(detail, max = STACK_MAX, self = null) {
  const people = detail?.people || [];
  const shown = people.slice(0, max).map((p) => ({
    name: p.name, initials: initials(p.name), color: p.color || FALLBACK, holding: (p.holds || []).length > 0,
    self: self !== null && p.session === self,
  }));
  return { shown, extra: people.length - shown.length + (detail?.more || 0), watching: detail?.watching || 0 };
}

/** Draws `avatarStack(detail)` into `root` (a host page's element), replacing what was there:
 *  spans `.avatar` (`.self` the page's own session `self`; their color set through the CSSOM: no inline style attributes), `.avatar-more`
 *  and `.watching`. */
export function renderAvatarStack(root, detail, self = null, max = STACK_MAX) {
  const doc = root.ownerDocument;
  const stack = avatarStack(detail, max, self);
  const nodes = [];
  for (const p of stack.shown) {
    const a = doc.createElement("span");
    a.className = ["avatar", p.holding ? "holding" : "", p.self ? "self" : ""].filter(Boolean).join(" ");
    a.textContent = p.initials;
    a.title = p.name + (p.self ? " (you)" : "") + (p.holding ? " (moving a card)" : "");
    a.style.backgroundColor = p.color;
    nodes.push(a);
  }
  if (stack.extra > 0) {
    const m = doc.createElement("span");
    m.className = "avatar avatar-more";
    m.textContent = `+${stack.extra}`;
    m.title = `${stack.extra} more`;
    nodes.push(m);
  }
  if (stack.watching > 0) {
    const w = doc.createElement("span");
    w.className = "watching";
    w.textContent = `${stack.watching} watching`;
    nodes.push(w);
  }
  root.replaceChildren(...nodes);
  root.setAttribute("aria-label", [...stack.shown.map((p) => p.name + (p.self ? " (you)" : "")), stack.extra ? `${stack.extra} more` : "",
    stack.watching ? `${stack.watching} watching` : ""].filter(Boolean).join(", "));
  return stack;
}
