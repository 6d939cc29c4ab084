import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, cellOpacity, createScene, settle } from "../../Public/scene.js";
import { valueAt } from "../../Public/easing.js";

const layout = {
  t: "layout", version: 0, content: { w: 400, h: 475 }, scroll: { x: 0, y: 0 },
  sections: [{ id: "todo", title: "To do", frame: { x: 0, y: 0, w: 400, h: 299 }, header: 32 }],
  cells: [
    { id: "a", label: "A", color: "#f4b400", section: "todo", index: 0, movable: true, frame: { x: 0, y: 32, w: 400, h: 56 } },
    { id: "b", label: "B", color: "#4285f4", section: "todo", index: 1, movable: true, frame: { x: 0, y: 89, w: 400, h: 96 } },
  ],
};

function scene() {
  const s = createScene();
  applyMessage(s, layout, 0);
  return s;
}

test("a layout replaces the whole picture", () => {
  const s = scene();
  assert.deepEqual([...s.cells.keys()], ["a", "b"]);
  assert.equal(s.cells.get("b").frame.to.h, 96);
  assert.equal(settle(s, 0), false);
});

test("a lift hides the cell and starts the snapshot from the cell as drawn", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 600,
    cells: [{ id: "a", frame: { x: 0, y: 32, w: 400, h: 56 }, alpha: 1, hidden: true, dur: 0, ease: "easeInOut" }],
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, size: { w: 400, h: 56 }, moveDur: 0, scale: 1.05, rotation: 0.0873, alpha: 0.8, dur: 300, ease: "easeOut", done: false }] }, 1000);
  const snap = s.snapshots.get("1:a");
  assert.equal(s.cells.get("a").hidden, true);
  assert.equal(valueAt(snap.scale, 1000), 1);
  assert.equal(valueAt(snap.scale, 1300), 1.05);
  assert.ok(valueAt(snap.scale, 1150) > 1 && valueAt(snap.scale, 1150) < 1.05);
  // Following the finger does not cut the lift animation short.
  applyMessage(s, { t: "frame", seq: 2, ms: 700, snapshots: [{ p: 1, id: "a", center: { x: 200, y: 90 }, moveDur: 0, done: false }] }, 1100);
  assert.deepEqual(valueAt(s.snapshots.get("1:a").center, 1100), { x: 200, y: 90 });
  assert.ok(valueAt(s.snapshots.get("1:a").scale, 1150) < 1.05);
  assert.equal(settle(s, 1150), true);
});

test("cells shift over their duration from where they are shown", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 0, cells: [{ id: "b", frame: { x: 0, y: 32, w: 400, h: 96 }, alpha: 1, hidden: false, dur: 250, ease: "linear" }] }, 0);
  assert.equal(valueAt(s.cells.get("b").frame, 125).y, 60.5);
  assert.equal(valueAt(s.cells.get("b").frame, 250).y, 32);
});

test("a done snapshot lands, then goes, and its cell shows again at that moment", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 0,
    cells: [{ id: "a", frame: { x: 0, y: 32, w: 400, h: 56 }, alpha: 1, hidden: true, dur: 0, ease: "easeInOut" }],
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, size: { w: 400, h: 56 }, moveDur: 0, scale: 1.05, dur: 300, ease: "easeOut", done: false }] }, 0);
  applyMessage(s, { t: "frame", seq: 2, ms: 0,
    cells: [{ id: "a", frame: { x: 0, y: 129, w: 400, h: 56 }, alpha: 1, hidden: false, dur: 0, ease: "easeInOut" }],
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 157 }, moveDur: 250, scale: 1, rotation: 0, alpha: 1, dur: 250, ease: "easeOut", done: true }] }, 1000);
  assert.equal(s.cells.get("a").hidden, true);
  settle(s, 1100);
  assert.equal(s.snapshots.size, 1);
  assert.equal(s.cells.get("a").hidden, true);
  settle(s, 1250);
  assert.equal(s.snapshots.size, 0);
  assert.equal(s.cells.get("a").hidden, false);
  assert.equal(settle(s, 1300), false);
});

test("gone cells leave, entering cells come whole, and scrolls animate only with scrollDur", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 0, scroll: { x: 0, y: 500 }, gone: ["a"],
    cells: [{ id: "z", frame: { x: 0, y: 900, w: 400, h: 56 }, alpha: 1, hidden: false, dur: 0, ease: "easeInOut", label: "Z", color: "#000", section: "todo", index: 9, movable: true }] }, 0);
  assert.equal(s.cells.has("a"), false);
  assert.equal(s.cells.get("z").label, "Z");
  assert.equal(valueAt(s.scroll, 0), 500);
  applyMessage(s, { t: "frame", seq: 2, ms: 0, scroll: { x: 0, y: 0 }, scrollDur: 500 }, 100);
  assert.equal(valueAt(s.scroll, 100), 500);
  assert.equal(valueAt(s.scroll, 600), 0);
});

test("messages that are not pictures are left alone", () => {
  const s = scene();
  assert.equal(applyMessage(s, { t: "announce", text: "hi" }, 0), false);
  assert.equal(applyMessage(s, { t: "commit" }, 0), false);
});

test("an item an edit adds fades in, and one it removes fades out and then goes", () => {
  const s = scene();
  applyMessage(s, { t: "frame", seq: 1, ms: 700, removed: ["a"], removeDur: 250,
    cells: [{ id: "n", frame: { x: 0, y: 186, w: 400, h: 56 }, alpha: 1, hidden: false, dur: 250, ease: "easeInOut",
      appear: true, label: "N", color: "#123456", section: "todo", index: 2, movable: true }] }, 1000);
  const n = s.cells.get("n"), a = s.cells.get("a");
  assert.equal(cellOpacity(n, 1000), 0);
  assert.equal(cellOpacity(a, 1000), 1);
  assert.ok(cellOpacity(n, 1125) > 0 && cellOpacity(n, 1125) < 1);
  assert.ok(cellOpacity(a, 1125) > 0 && cellOpacity(a, 1125) < 1);
  assert.equal(settle(s, 1125), true);
  assert.equal(settle(s, 1250), false);
  assert.equal(cellOpacity(n, 1250), 1);
  assert.equal(s.cells.has("a"), false, "the removed cell is gone once it has faded");
  assert.equal(s.cells.has("n"), true);
});

test("issue 23: a snapshot keeps forbidden until told otherwise, and cells keep their handle", () => {
  const s = createScene();
  applyMessage(s, { ...layout, cells: [{ ...layout.cells[0], handle: "trailing" }, layout.cells[1]] }, 0);
  assert.equal(s.cells.get("a").handle, "trailing");
  assert.equal(s.cells.get("b").handle, null);
  applyMessage(s, { t: "frame", seq: 1, ms: 0,
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, size: { w: 400, h: 56 }, moveDur: 0, done: false }] }, 0);
  assert.equal(s.snapshots.get("1:a").forbidden, false);
  applyMessage(s, { t: "frame", seq: 2, ms: 16, snapshots: [{ p: 1, id: "a", center: { x: 200, y: 250 }, moveDur: 0, forbidden: true, done: false }] }, 16);
  applyMessage(s, { t: "frame", seq: 3, ms: 32, snapshots: [{ p: 1, id: "a", center: { x: 200, y: 260 }, moveDur: 0, done: false }] }, 32);
  assert.equal(s.snapshots.get("1:a").forbidden, true);
  applyMessage(s, { t: "frame", seq: 4, ms: 48, snapshots: [{ p: 1, id: "a", center: { x: 200, y: 330 }, moveDur: 0, forbidden: false, done: false }] }, 48);
  assert.equal(s.snapshots.get("1:a").forbidden, false);
});

test("cells keep their selection from layouts and frames; a snapshot keeps the count it carries", () => {
  const s = createScene();
  applyMessage(s, { ...layout, cells: [{ ...layout.cells[0], selected: true }, layout.cells[1]] }, 0);
  assert.equal(s.cells.get("a").selected, true);
  assert.equal(s.cells.get("b").selected, false);
  applyMessage(s, { t: "frame", seq: 1, ms: 10, cells: [{ id: "a", frame: layout.cells[0].frame, alpha: 1, hidden: true, dur: 0, ease: "easeOut", selected: false }],
                    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, size: { w: 400, h: 56 }, moveDur: 0, scale: 1.05, rotation: 0, alpha: 0.8, dur: 300, ease: "easeOut", done: false }] }, 10);
  assert.equal(s.cells.get("a").selected, false);
  assert.equal(s.snapshots.get("1:a").count, 1);
  applyMessage(s, { t: "frame", seq: 2, ms: 20, gone: ["b"], snapshots: [{ p: 1, id: "a", count: 2, done: false }] }, 20);
  assert.equal(s.snapshots.get("1:a").count, 2);
  // A frame that does not say the selection leaves it.
  applyMessage(s, { t: "frame", seq: 3, ms: 30, cells: [{ id: "a", frame: layout.cells[0].frame, alpha: 1, hidden: false, dur: 0, ease: "easeOut" }] }, 30);
  assert.equal(s.cells.get("a").selected, false);
});
