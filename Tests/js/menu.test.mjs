import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, createScene } from "../../Public/scene.js";
import { cellAt, menuEntries } from "../../Public/menu.js";

const layout = {
  t: "layout", version: 0, content: { w: 400, h: 475 }, scroll: { x: 0, y: 20 },
  sections: [{ id: "todo", title: "To do", frame: { x: 0, y: 0, w: 400, h: 200 }, header: 32 },
             { id: "done", title: "Done", frame: { x: 0, y: 200, w: 400, h: 88 }, header: 32 }],
  cells: [
    { id: "a", label: "A", color: "#f4b400", section: "todo", index: 0, movable: true, frame: { x: 0, y: 32, w: 400, h: 56 } },
    { id: "p", label: "P", color: "#888", section: "todo", index: 1, movable: false, frame: { x: 0, y: 89, w: 400, h: 56 } },
  ],
};

test("the menu offers a card up, down, its section's ends and every other section; nothing for a pinned card", () => {
  const s = createScene();
  applyMessage(s, layout, 0);
  assert.deepEqual(menuEntries(s, "a").map((e) => [e.label, e.section, e.place]), [
    ["Up one", "todo", "up"], ["Down one", "todo", "down"], ["To the top", "todo", "first"],
    ["To the bottom", "todo", "last"], ["Move to Done", "done", "last"],
  ]);
  assert.deepEqual(menuEntries(s, "p"), []);
  assert.deepEqual(menuEntries(s, "nope"), []);
});

test("the card under a point counts the scroll offset", () => {
  const s = createScene();
  applyMessage(s, layout, 0);
  assert.equal(cellAt(s, 10, 40, 0), "a");   // content y 60
  assert.equal(cellAt(s, 10, 10, 0), null);  // content y 30: the header
  assert.equal(cellAt(s, 10, 80, 0), "p");
});
