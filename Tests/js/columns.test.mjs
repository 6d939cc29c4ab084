// Kanban columns in the page: each column scrolls on its own, the board sideways; hit tests,
// the local lift and a pan's directional lock follow the same rules as the server's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, cellUnder, contentToView, createScene, settle, viewToContent } from "../../Public/scene.js";
import { cellAt } from "../../Public/menu.js";
import { valueAt } from "../../Public/easing.js";
import * as predict from "../../Public/predict.js";

// Three columns 280 wide with 12 px gaps (content 864 wide) in a 500 x 400 viewport: the board
// scrolls sideways by 364 at most; column "b" is 720 tall (scrolls by 320 at most).
const col = (id, k, contentHeight, scroll = 0) => ({
  id, title: id.toUpperCase(), frame: { x: k * 292, y: 0, w: 280, h: 400 }, header: 40, scroll, contentHeight,
});
const cell = (id, section, k, index, y) => ({
  id, label: id, color: "#333", section, index, movable: true, frame: { x: k * 292, y, w: 280, h: 56 },
});
const layout = {
  t: "layout", version: 0, layout: "columns", content: { w: 864, h: 400 }, scroll: { x: 0, y: 0 },
  sections: [col("a", 0, 168), col("b", 1, 720), col("c", 2, 40)],
  cells: [cell("a0", "a", 0, 0, 48), cell("a1", "a", 0, 1, 112), cell("b0", "b", 1, 0, 48), cell("b5", "b", 1, 5, 368)],
};
const config = { pressMs: 500, allowableMovement: 10, liftScale: 1.05, liftRotation: 0.0873, liftAlpha: 0.8, liftMs: 300 };

function setup() {
  const scene = createScene();
  applyMessage(scene, layout, 0);
  const pred = predict.createPrediction(true);
  pred.config = config;
  pred.viewportW = 500;
  pred.viewportH = 400;
  return { scene, pred };
}

test("a columns layout keeps the board's sideways scroll and each column's own", () => {
  const { scene } = setup();
  assert.equal(scene.columns, true);
  assert.deepEqual([...scene.columnScroll.keys()], ["a", "b", "c"]);
  // A frame scrolls column b alone (eased over scrollDur) and the board sideways.
  applyMessage(scene, { t: "frame", seq: 1, scroll: { x: 100, y: 0 }, scrollDur: 200,
    sections: [col("a", 0, 168), col("b", 1, 720, 150), col("c", 2, 40)] }, 1000);
  assert.equal(valueAt(scene.columnScroll.get("b"), 1200), 150);
  assert.equal(valueAt(scene.columnScroll.get("a"), 1200), 0);
  assert.equal(valueAt(scene.scrollX, 1200), 100);
  assert.ok(settle(scene, 1100));
  assert.ok(!settle(scene, 1200));
  // A cell is drawn at its column-content place less the board's x and its column's y scroll.
  assert.deepEqual(contentToView(scene, "b", 292, 368, 1200), { x: 192, y: 218 });
  assert.deepEqual(contentToView(scene, "a", 0, 48, 1200), { x: -100, y: 48 });
});

test("a list's layout is not columns and keeps its one vertical scroll", () => {
  const scene = createScene();
  applyMessage(scene, { ...layout, layout: undefined, scroll: { x: 0, y: 30 } }, 0);
  assert.equal(scene.columns, false);
  assert.deepEqual(contentToView(scene, "a", 10, 100, 0), { x: 10, y: 70 });
  assert.deepEqual(viewToContent(scene, 10, 70, 0), { x: 10, y: 100, section: undefined });
});

test("hit tests find the column under x, then its cell under its own scroll; headers and gaps hold none", () => {
  const { scene } = setup();
  applyMessage(scene, { t: "frame", seq: 1, sections: [col("a", 0, 168), col("b", 1, 720, 320), col("c", 2, 40)] }, 0);
  // Column b scrolled by 320: its row at y 368 is drawn at 48..104.
  assert.equal(cellUnder(scene, 300, 60, 0)?.id, "b5");
  assert.equal(cellAt(scene, 300, 60, 0), "b5");
  // Column a is not scrolled: a0 is at 48..104.
  assert.equal(cellAt(scene, 20, 60, 0), "a0");
  // The header (y < 40) is not content, nor is the gap between a and b (x 280..292).
  assert.equal(cellAt(scene, 300, 20, 0), null);
  assert.equal(cellAt(scene, 285, 60, 0), null);
  assert.equal(viewToContent(scene, 285, 60, 0).section, null);
});

test("the local lift starts at the cell as drawn in a scrolled column and follows in both axes", () => {
  const { scene, pred } = setup();
  applyMessage(scene, { t: "frame", seq: 1, scroll: { x: 50, y: 0 }, sections: [col("a", 0, 168), col("b", 1, 720, 320), col("c", 2, 40)] }, 0);
  predict.pointerDown(pred, 1, { x: 300, y: 60 }, scene);
  predict.sent(pred, { t: "down", p: 1, x: 300, y: 60, seq: 1 });
  assert.equal(predict.pressFired(pred, 1, scene, 500).t, "ping");
  const snap = () => valueAt(scene.snapshots.get("1:b5").center, 600);
  // b5's center (292 + 140, 368 + 28) less the board's 50 and the column's 320.
  assert.deepEqual(snap(), { x: 382, y: 76 });
  // Columns: no x lock; the snapshot follows the pointer sideways too.
  predict.pointerMove(pred, 1, { x: 420, y: 90 });
  predict.apply(pred, scene, 600);
  assert.deepEqual(snap(), { x: 502, y: 106 });
  // The server's lift with axis "xy" keeps that (a list's "y" would lock x).
  predict.onLift(pred, { t: "lift", p: 1, id: "b5", grab: { x: 82, y: 16 }, axis: "xy" }, scene, 600);
  predict.apply(pred, scene, 700);
  assert.deepEqual(valueAt(scene.snapshots.get("1:b5").center, 700), { x: 502, y: 106 });
});

test("a pan locks its axis once: sideways scrolls the board only, vertical the down's column only", () => {
  const { scene, pred } = setup();
  predict.pointerDown(pred, 1, { x: 300, y: 200 }, scene);
  predict.pointerMove(pred, 1, { x: 280, y: 195 });  // past allowableMovement, mostly sideways
  predict.pointerMove(pred, 1, { x: 200, y: 100 });  // now mostly vertical: the axis holds
  predict.apply(pred, scene, 10);
  assert.equal(valueAt(scene.scrollX, 10), 100);
  assert.equal(valueAt(scene.columnScroll.get("b"), 10), 0);
  // Clamped to the content: 864 - 500.
  predict.pointerMove(pred, 1, { x: -300, y: 100 });
  predict.apply(pred, scene, 20);
  assert.equal(valueAt(scene.scrollX, 20), 364);

  const two = setup();
  predict.pointerDown(two.pred, 2, { x: 300, y: 300 }, two.scene);
  predict.pointerMove(two.pred, 2, { x: 305, y: 280 });  // vertical
  predict.pointerMove(two.pred, 2, { x: 10, y: 200 });   // crossing into column a changes nothing
  predict.apply(two.pred, two.scene, 10);
  assert.equal(valueAt(two.scene.columnScroll.get("b"), 10), 100);
  assert.equal(valueAt(two.scene.columnScroll.get("a"), 10), 0);
  assert.equal(valueAt(two.scene.scrollX, 10), 0);
  // Clamped to the column's rows: 720 - 400.
  predict.pointerMove(two.pred, 2, { x: 10, y: -300 });
  predict.apply(two.pred, two.scene, 20);
  assert.equal(valueAt(two.scene.columnScroll.get("b"), 20), 320);
});

test("a one-column board's card is as wide as the board, yet its local lift follows x too", () => {
  const scene = createScene();
  applyMessage(scene, { ...layout, content: { w: 280, h: 400 }, sections: [col("a", 0, 168)],
    cells: [cell("a0", "a", 0, 0, 48)] }, 0);
  const pred = predict.createPrediction(true);
  Object.assign(pred, { config, viewportW: 280, viewportH: 400 });
  predict.pointerDown(pred, 1, { x: 100, y: 60 }, scene);
  assert.equal(predict.pressFired(pred, 1, scene, 500).t, "ping");
  predict.pointerMove(pred, 1, { x: 130, y: 70 });
  predict.apply(pred, scene, 520);
  assert.deepEqual(valueAt(scene.snapshots.get("1:a0").center, 520), { x: 170, y: 86 });
});
