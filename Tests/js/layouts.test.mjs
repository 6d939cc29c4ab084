// The page knows each section's layout from the server's `layout` message (never from a cell's
// shape): the scene keeps it, cards pick their form by it, "⋯" is found where it is drawn, and
// focusItem walks with the keys of that layout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, createScene, inGrid, layoutOf } from "../../Public/scene.js";
import { moreButtonAt } from "../../Public/menu.js";
import { focusStep, focusWalk } from "../../Public/focus-walk.js";

const cell = (id, section, index, frame, extra = {}) =>
  ({ id, label: id.toUpperCase(), color: "#888", section, index, movable: true, frame, ...extra });

/** A layout message of `layout` (absent: none named) with two sections of rich cells. */
function message(layout, cells) {
  const msg = {
    t: "layout", version: 0, content: { w: 400, h: 600 }, scroll: { x: 0, y: 0 },
    sections: [{ id: "s", title: "S", frame: { x: 0, y: 0, w: 400, h: 300 }, header: 32 },
               { id: "t", title: "T", frame: { x: 0, y: 300, w: 400, h: 300 }, header: 32 }],
    cells,
  };
  if (layout !== undefined) msg.layout = layout;
  return msg;
}

function sceneOf(layout, cells) {
  const s = createScene();
  applyMessage(s, message(layout, cells), 0);
  return s;
}

// A list row taller than 0.6 of its width, and a grid cell much wider than tall: the shapes the
// old guess (height >= 0.6 × width means grid) got wrong.
const tallRow = cell("a", "s", 0, { x: 0, y: 32, w: 200, h: 160 }, { detail: "tall", image: "/media/a.svg" });
const wideCell = cell("g", "s", 0, { x: 0, y: 32, w: 300, h: 100 }, { detail: "wide", image: "/media/g.svg" });

test("the scene takes each section's layout from the layout message, a list when none is named", () => {
  assert.equal(createScene().layout, "list");
  for (const kind of ["list", "grid", "columns"]) {
    const s = sceneOf(kind, [tallRow]);
    assert.equal(s.layout, kind);
    assert.equal(layoutOf(s, "s"), kind);
    assert.equal(layoutOf(s, "t"), kind);
    assert.equal(s.columns, kind === "columns");
  }
  assert.equal(sceneOf(undefined, [tallRow]).layout, "list");
  assert.equal(sceneOf("spiral", [tallRow]).layout, "list");
  // A later layout replaces the kind with the rest of the picture.
  const s = sceneOf("grid", [wideCell]);
  applyMessage(s, message("list", [tallRow]), 10);
  assert.equal(s.layout, "list");
});

test("a card's form follows the layout, not its shape", () => {
  assert.equal(inGrid(sceneOf("list", [tallRow]), tallRow), false);
  assert.equal(inGrid(sceneOf("grid", [wideCell]), wideCell), true);
  assert.equal(inGrid(sceneOf("columns", [tallRow]), tallRow), false);
});

test("the '⋯' of a card is found where its layout draws it", () => {
  const wears = () => true;
  // Grid: at the top-left corner of the cell (r 14, 12 px in from the left, 8 down).
  const grid = sceneOf("grid", [wideCell]);
  assert.deepEqual(moreButtonAt(grid, { x: 26, y: 54 }, 0, wears), { id: "g", button: { x: 26, y: 54, r: 14 } });
  assert.equal(moreButtonAt(grid, { x: 272, y: 82 }, 0, wears), null);
  // List: at the right end of the row, halfway down.
  const list = sceneOf("list", [tallRow]);
  assert.deepEqual(moreButtonAt(list, { x: 172, y: 112 }, 0, wears), { id: "a", button: { x: 172, y: 112, r: 14 } });
  assert.equal(moreButtonAt(list, { x: 26, y: 54 }, 0, wears), null);
  // Only on cells that wear it, and not on a hidden (lifted) one.
  assert.equal(moreButtonAt(list, { x: 172, y: 112 }, 0, () => false), null);
  list.cells.get("a").hidden = true;
  assert.equal(moreButtonAt(list, { x: 172, y: 112 }, 0, wears), null);
});

// Four cells in one column: the old guess (two cells on one row means grid) took a
// one-column grid for a list.
const column = ["a", "b", "c", "d"].map((id, k) => cell(id, k < 2 ? "s" : "t", k % 2, { x: 0, y: 32 + 100 * k, w: 120, h: 90 }));
const order = { s: ["a", "b"], t: ["c", "d"] };

function walkIn(layout, focus, to) {
  const s = sceneOf(layout, column);
  s.focus = focus;
  return [s, focusWalk(to)];
}

test("focusItem starts with Tab, then waits for each answer, and ends where the focus is", () => {
  const [s, walk] = walkIn("list", null, "c");
  assert.deepEqual(focusStep(walk, s, order, false, false), { key: "Tab" });
  assert.equal(focusStep(walk, s, order, true, false), null);  // the answer to Tab is not in yet
  s.focus = "a";
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowDown" });
  assert.equal(focusStep(walk, s, order, true, false), null);
  s.focus = "c";
  assert.deepEqual(focusStep(walk, s, order, true, false), { done: true });
});

test("focusItem walks with its layout's keys: Up and Down in a list, Left and Right in a grid", () => {
  let [s, walk] = walkIn("list", "c", "a");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowUp" });
  [s, walk] = walkIn("grid", "a", "d");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowRight" });
  [s, walk] = walkIn("grid", "d", "b");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowLeft" });
});

test("in columns focusItem crosses columns with Left and Right and moves within one with Up and Down", () => {
  let [s, walk] = walkIn("columns", "a", "d");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowRight" });
  [s, walk] = walkIn("columns", "d", "a");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowLeft" });
  [s, walk] = walkIn("columns", "a", "b");
  assert.deepEqual(focusStep(walk, s, order, true, false), { key: "ArrowDown" });
});

test("focusItem gives up on an item the order lacks, during a keyboard drag, and after too many steps", () => {
  let [s, walk] = walkIn("list", "a", "zz");
  assert.deepEqual(focusStep(walk, s, order, true, false), { done: false });
  [s, walk] = walkIn("list", "a", "d");
  assert.deepEqual(focusStep(walk, s, order, true, true), { done: false });
  [s, walk] = walkIn("list", "a", "d");
  walk.steps = 6;  // more than the board's four items and one
  walk.last = "b";
  assert.deepEqual(focusStep(walk, s, order, true, false), { done: false });
});
