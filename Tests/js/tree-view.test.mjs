// Trees on the page (issue 43; docs/protocol.md, "Trees (ours)"): the tree facts a scene keeps
// from layouts and frames, the chevron's hit test, the insertion depth, "+N", guides, and the
// entries "Move to…" adds. The board is the contract's example: indent 24, rows 44 px.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, contentToView, createScene } from "../../Public/scene.js";
import { receive, createClientState } from "../../Public/dispatch.js";
import { menuEntries } from "../../Public/menu.js";
import {
  CHEVRON_BAND, ChevronSprites, SPRITE, chevronAt, guideRuns, indentOf, insertionLine, isTree, subtreeBadge, toggleMessage,
  drawChevron, drawGuides, drawInsertionLines, drawSubtreeBadge,
} from "../../Public/tree-view.js";

const row = (id, index, depth, y, extra = {}) => ({
  id, label: id, color: "#4285f4", section: "home", index, movable: true,
  frame: { x: depth * 24, y, w: 400 - depth * 24, h: 44 }, depth, ...extra,
});

const layout = {
  t: "layout", layout: "tree", tree: { indent: 24 }, version: 0, content: { w: 400, h: 600 }, scroll: { x: 0, y: 10 },
  sections: [{ id: "home", title: "Home", frame: { x: 0, y: 0, w: 400, h: 257 }, header: 32, maxDepth: 2 },
             { id: "work", title: "Work", frame: { x: 0, y: 257, w: 400, h: 76 }, header: 32 }],
  cells: [
    row("groceries", 0, 0, 32, { hasChildren: true }),
    row("milk", 1, 1, 77, { parent: "groceries" }),
    row("eggs", 2, 1, 122, { parent: "groceries" }),
    row("garden", 3, 0, 167, { hasChildren: true, collapsed: true }),
    row("bills", 4, 0, 212),
  ],
};

function scene() {
  const s = createScene();
  applyMessage(s, layout, 0);
  return s;
}

const toView = (s) => (c, f) => contentToView(s, c.section, f.x, f.y, 0);

test("a tree layout names its layout and indent; whole cells keep their tree facts", () => {
  const s = scene();
  assert.equal(isTree(s), true);
  assert.equal(indentOf(s), 24);
  assert.equal(s.columns, false);
  const g = s.cells.get("groceries"), m = s.cells.get("milk"), gd = s.cells.get("garden");
  assert.deepEqual([g.depth, g.parent, g.hasChildren, g.collapsed], [0, null, true, false]);
  assert.deepEqual([m.depth, m.parent, m.hasChildren, m.collapsed], [1, "groceries", false, false]);
  assert.deepEqual([gd.hasChildren, gd.collapsed], [true, true]);
  // A list board is no tree, and a tree layout without `tree` takes the default indent.
  const list = createScene();
  applyMessage(list, { ...layout, layout: "list", tree: undefined }, 0);
  assert.equal(isTree(list), false);
  const bare = createScene();
  applyMessage(bare, { ...layout, tree: undefined }, 0);
  assert.equal(indentOf(bare), 24);
});

test("a frame changes only the tree facts it sends: null parent is top level, false a fact gone", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 10, cells: [
    { id: "eggs", frame: { x: 0, y: 122, w: 400, h: 44 }, alpha: 1, hidden: false, dur: 250, ease: "easeInOut", depth: 0, parent: null },
    { id: "groceries", frame: { x: 0, y: 32, w: 400, h: 44 }, alpha: 1, hidden: false, dur: 0, ease: "easeInOut", collapsed: true },
    { id: "bills", frame: { x: 0, y: 212, w: 400, h: 44 }, alpha: 1, hidden: false, dur: 0, ease: "easeInOut" },
  ], gone: ["milk"] }, 0);
  const e = s.cells.get("eggs"), g = s.cells.get("groceries"), b = s.cells.get("bills");
  assert.deepEqual([e.depth, e.parent], [0, null]);
  assert.deepEqual([g.collapsed, g.hasChildren], [true, true]);
  assert.deepEqual([b.depth, b.parent, b.hasChildren], [0, null, false]);
  assert.equal(s.cells.has("milk"), false);  // a collapse's rows leave as `gone`
  applyMessage(s, { t: "frame", seq: 2, ms: 20, cells: [
    { id: "groceries", frame: { x: 0, y: 32, w: 400, h: 44 }, alpha: 1, hidden: false, dur: 0, ease: "easeInOut", hasChildren: false, collapsed: false },
    // An expand's rows come whole, as cells entering the window do.
    row("seeds", 4, 1, 212, { parent: "garden" }),
  ] }, 0);
  assert.deepEqual([g.collapsed, g.hasChildren], [false, false]);
  assert.deepEqual([s.cells.get("seeds").depth, s.cells.get("seeds").parent], [1, "garden"]);
});

test("the chevron's band of a row with children toggles it; elsewhere, or on a leaf row, nothing", () => {
  const s = scene();
  // Content y = view y + scroll 10. Groceries: content y 32..76, x 0..32.
  assert.equal(chevronAt(s, 10, 40, 0, toView(s)), "groceries");
  assert.equal(chevronAt(s, CHEVRON_BAND + 1, 40, 0, toView(s)), null);    // the row's label: no chevron
  assert.equal(chevronAt(s, 30, 80, 0, toView(s)), null);                  // milk has no children
  assert.equal(chevronAt(s, 5, 160, 0, toView(s)), "garden");              // content y 170
  // Hidden rows (a lifted row's hole) have no chevron; a list board has none at all.
  s.cells.get("garden").hidden = true;
  assert.equal(chevronAt(s, 5, 160, 0, toView(s)), null);
  const list = createScene();
  applyMessage(list, { ...layout, layout: "list" }, 0);
  assert.equal(chevronAt(list, 10, 40, 0, toView(list)), null);
  assert.deepEqual(toggleMessage("garden"), { t: "toggle", id: "garden" });
});

test("the chevron of an indented row sits at its indent", () => {
  const s = scene();
  s.cells.get("milk").hasChildren = true;
  assert.equal(chevronAt(s, 30, 80, 0, toView(s)), "milk");   // x 24..56
  assert.equal(chevronAt(s, 20, 80, 0, toView(s)), null);     // left of milk's row: a guide's gutter
});

test("lifts and moves set the insertion depth; a drop forgets it; the line starts at the depth", () => {
  const state = createClientState(false);
  receive(state, layout, 0);
  receive(state, { t: "lift", p: 1, id: "bills", from: { section: "home", index: 4, depth: 0 }, grab: { x: 0, y: 0 }, axis: "y" }, 0);
  assert.equal(state.scene.dropDepths.get("bills"), 0);
  receive(state, { t: "moved", p: 1, id: "bills", from: { section: "home", index: 4, depth: 0 }, to: { section: "home", index: 3, depth: 1 } }, 0);
  assert.equal(state.scene.dropDepths.get("bills"), 1);
  assert.deepEqual(insertionLine({ x: 24, y: 167, w: 376, h: 44 }, 1, 24), { x0: 30, x1: 394, y: 189 });
  receive(state, { t: "drop", p: 1, id: "bills", at: { section: "home", index: 3, depth: 1 }, cancelled: false }, 0);
  assert.equal(state.scene.dropDepths.has("bills"), false);
  // A list's places carry no depth: no line.
  const list = createClientState(false);
  receive(list, { ...layout, layout: "list" }, 0);
  receive(list, { t: "lift", p: 1, id: "bills", from: { section: "home", index: 4 }, grab: { x: 0, y: 0 }, axis: "y" }, 0);
  assert.equal(list.scene.dropDepths.size, 0);
});

test("the insertion line is drawn for a hidden lifted row only, at the depth's indent", () => {
  const s = scene();
  s.dropDepths.set("bills", 1);
  const calls = [];
  const ctx = { fillRect: (...a) => calls.push(["rect", ...a]), beginPath() {}, arc: (...a) => calls.push(["arc", ...a]), fill() {} };
  drawInsertionLines(ctx, s, 0, { focus: "#1a73e8" });
  assert.deepEqual(calls, []);  // bills is not hidden: no drag holds its hole
  s.cells.get("bills").hidden = true;
  drawInsertionLines(ctx, s, 0, { focus: "#1a73e8" });
  assert.deepEqual(calls[0], ["rect", 30, 233, 364, 2]);
  assert.deepEqual(calls[1].slice(0, 4), ["arc", 30, 234, 4]);
});

test("a lifted subtree's snapshot keeps `subtree` and wears +N; a lone item none", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 600, snapshots: [{ p: 1, id: "groceries", center: { x: 200, y: 54 }, size: { w: 400, h: 44 },
    moveDur: 0, scale: 1.05, rotation: 0.0873, alpha: 0.8, subtree: 2, dur: 300, ease: "easeOut", done: false }] }, 0);
  const snap = s.snapshots.get("1:groceries");
  assert.equal(snap.subtree, 2);
  assert.equal(subtreeBadge(snap), "+2");
  assert.equal(subtreeBadge({ subtree: 0 }), null);
  assert.equal(subtreeBadge(undefined), null);
  const texts = [];
  const ctx = { measureText: (t) => ({ width: 7 * t.length }), beginPath() {}, rect() {}, fill() {}, fillText: (t) => texts.push(t) };
  drawSubtreeBadge(ctx, snap, { x: -200, y: -22, w: 400, h: 44 });
  drawSubtreeBadge(ctx, { subtree: 0 }, { x: -200, y: -22, w: 400, h: 44 });
  assert.deepEqual(texts, ["+2"]);
});

/** A 2D context that records the calls the tree's drawing makes (and the style at each draw). */
function recorder() {
  const calls = [];
  const ctx = { calls };
  for (const name of ["beginPath", "moveTo", "lineTo", "scale", "drawImage"]) ctx[name] = (...a) => calls.push([name, ...a]);
  ctx.fillRect = (...a) => calls.push(["fillRect", ctx.fillStyle, ...a]);
  ctx.stroke = () => calls.push(["stroke", ctx.strokeStyle, ctx.lineWidth, ctx.lineCap]);
  return ctx;
}

test("guides: one per level above the row, under the chevrons of that level, through the gap below", () => {
  // A row alone: depth 2 at y 100, 44 tall: levels 0 and 1, 1 px on the pixel grid.
  assert.deepEqual(guideRuns([2, 100, 44], 24), [{ x: 12, y: 100, h: 46 }, { x: 36, y: 100, h: 46 }]);
  assert.deepEqual(guideRuns([0, 100, 44], 24), []);
  assert.deepEqual(guideRuns([3, 100, 44], 0), []);  // indent 0: rows do not step, nothing to guide
  const ctx = recorder();
  drawGuides(ctx, { depth: 1 }, { x: 24, y: 100, w: 376, h: 44 }, 24, { slot: "#ccc" });
  assert.deepEqual(ctx.calls, [["fillRect", "#ccc", 12, 100, 1, 46]]);
});

test("the guides of touching rows join: a rectangle a subtree a level, in whatever order the rows come", () => {
  // groceries (0) > milk (1) > skim (2), whole (2); eggs (1); garden (0) > seeds (1): rows 45
  // apart, 44 tall (their guides' 2 px below reach the next row), given out of order.
  const rows = [[1, 90], [0, 0], [2, 135], [1, 45], [2, 180], [0, 225], [1, 270]];
  const flat = rows.flatMap(([d, y]) => [d, y, 44]);
  const runs = guideRuns(flat, 24).sort((a, b) => a.x - b.x || a.y - b.y);
  assert.deepEqual(runs, [
    { x: 12, y: 45, h: 181 },   // level 0 under groceries: milk to eggs' row and its gap
    { x: 12, y: 270, h: 46 },   // level 0 under garden: seeds
    { x: 36, y: 135, h: 91 },   // level 1 under milk: skim and whole
  ]);
  // Rows apart (a gap wider than 2 px) do not join.
  assert.equal(guideRuns([1, 0, 44, 1, 50, 44], 24).length, 2);
});

test("a chevron is drawn once into a sprite per color, direction and pixel ratio, then copied", () => {
  const made = [];
  const sprites = new ChevronSprites((w, h) => {
    const c = { w, h, g: recorder() };
    c.getContext = () => c.g;
    made.push(c);
    return c;
  });
  const ctx = recorder();
  const f = { x: 24, y: 32, w: 376, h: 44 };  // the chevron's center: x 24 + 6 + 13, y 54
  sprites.draw(ctx, { hasChildren: true }, f, "#fff", 2);
  sprites.draw(ctx, { hasChildren: true }, { ...f, y: 77 }, "#fff", 2);
  sprites.draw(ctx, { hasChildren: true, collapsed: true }, f, "#fff", 2);
  sprites.draw(ctx, { hasChildren: false }, f, "#fff", 2);
  assert.equal(made.length, 2);  // expanded and collapsed, white, at 2x
  assert.deepEqual([made[0].w, made[0].h], [2 * SPRITE, 2 * SPRITE]);
  assert.deepEqual(ctx.calls.map((c) => [c[0], c[2], c[3], c[4], c[5]]),
    [["drawImage", 35, 46, SPRITE, SPRITE], ["drawImage", 35, 91, SPRITE, SPRITE], ["drawImage", 35, 46, SPRITE, SPRITE]]);
  assert.equal(ctx.calls[0][1], made[0]);
  assert.equal(ctx.calls[2][1], made[1]);
  // The sprite holds the chevron a snapshot strokes, centered: expanded points down, collapsed
  // right, 5 px from the center, 2.25 px wide with round caps.
  assert.deepEqual(made[0].g.calls, [["scale", 2, 2], ["beginPath"], ["moveTo", 13, 5.5], ["lineTo", 8, 10.5], ["lineTo", 3, 5.5], ["stroke", "#fff", 2.25, "round"]]);
  assert.deepEqual(made[1].g.calls.slice(2, 5), [["moveTo", 5.5, 3], ["lineTo", 10.5, 8], ["lineTo", 5.5, 13]]);
  const alone = recorder();
  drawChevron(alone, { hasChildren: true }, f, "#fff");
  assert.deepEqual(alone.calls, [["beginPath"], ["moveTo", 48, 51.5], ["lineTo", 43, 56.5], ["lineTo", 38, 51.5], ["stroke", "#fff", 2.25, "round"]]);
  // Without a canvas to draw into (no DOM), the row's chevron is stroked where it is.
  const bare = recorder();
  new ChevronSprites(() => null).draw(bare, { hasChildren: true }, f, "#fff", 1);
  assert.deepEqual(bare.calls, alone.calls);
});

test("Move to… offers Indent and Outdent on a tree board, not on a list", () => {
  const s = scene();
  const places = menuEntries(s, "milk").map((e) => [e.label, e.section, e.place]);
  assert.deepEqual(places.slice(4), [["Indent", "home", "indent"], ["Outdent", "home", "outdent"], ["Move to Work", "work", "last"]]);
  const list = createScene();
  applyMessage(list, { ...layout, layout: "list" }, 0);
  assert.equal(menuEntries(list, "milk").some((e) => e.place === "indent" || e.place === "outdent"), false);
});
