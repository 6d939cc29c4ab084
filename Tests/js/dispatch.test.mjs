import { test } from "node:test";
import assert from "node:assert/strict";
import { createClientState, layoutOrder, orderObject, receive, resetForConnection } from "../../Public/dispatch.js";

const frame = { x: 0, y: 0, w: 400, h: 56 };
const layout = {
  t: "layout", version: 3, content: { w: 400, h: 200 }, scroll: { x: 0, y: 0 },
  sections: [{ id: "todo", title: "To do", frame }, { id: "done", title: "Done", frame }],
  cells: [
    { id: "b", label: "B", color: "#000", section: "todo", index: 1, movable: true, frame },
    { id: "a", label: "A", color: "#000", section: "todo", index: 0, movable: true, frame },
  ],
};
const place = (section, index) => ({ section, index });

function connected() {
  const state = createClientState(false);
  receive(state, { t: "welcome", v: 1, session: "s1", board: "demo", config: { events: "inline" } }, 0);
  receive(state, layout, 0);
  return state;
}

test("a layout gives the order its cells show, every section named, cells by index", () => {
  assert.deepEqual(layoutOrder(layout), { todo: ["a", "b"], done: [] });
  const state = connected();
  assert.deepEqual(state.order, { version: 3, sections: { todo: ["a", "b"], done: [] } });
  assert.equal(state.session, "s1");
});

test("a gesture's lift, move and drop become DOM events with the lift's place as `from`", () => {
  const state = connected();
  const lift = { t: "lift", p: 7, id: "a", from: place("todo", 0), grab: { x: 0, y: 0 }, axis: "y" };
  const moved = { t: "moved", p: 7, id: "a", from: place("todo", 0), to: place("todo", 1) };
  const drop = { t: "drop", p: 7, id: "a", at: place("todo", 1), cancelled: false };
  assert.deepEqual(receive(state, { t: "frame", seq: 1, ms: 1, events: [lift] }, 1).events,
    [["liftboard-lift", { id: "a", from: place("todo", 0), to: place("todo", 0), pointer: 7 }]]);
  assert.deepEqual(receive(state, { t: "frame", seq: 2, ms: 2, events: [moved] }, 2).events,
    [["liftboard-move", { id: "a", from: place("todo", 0), to: place("todo", 1), pointer: 7 }]]);
  // A drop on its own (events "separate") reads the same.
  const out = receive(state, drop, 3);
  assert.deepEqual(out.events, [["liftboard-drop", { id: "a", from: place("todo", 0), to: place("todo", 1), pointer: 7 }]]);
  assert.deepEqual(state.gestures, { lift: 1, moved: 1, drop: 1 });
  assert.equal(state.lifts.size, 0);
});

test("an item added to a drag is a lift marked added; the drag's moves and drop keep the first lift's place", () => {
  const state = connected();
  receive(state, { t: "lift", p: 2, id: "a", from: place("todo", 0) }, 1);
  const added = receive(state, { t: "lift", p: 2, id: "b", from: place("todo", 1), added: true }, 2);
  assert.deepEqual(added.events, [["liftboard-lift", { id: "b", from: place("todo", 1), to: place("todo", 1), pointer: 2, added: true }]]);
  const drop = receive(state, { t: "drop", p: 2, id: "a", at: place("done", 0), cancelled: false }, 3);
  assert.deepEqual(drop.events, [["liftboard-drop", { id: "a", from: place("todo", 0), to: place("done", 0), pointer: 2 }]]);
});

test("a cancelled drop is liftboard-cancel", () => {
  const state = connected();
  receive(state, { t: "lift", p: -1, id: "b", from: place("todo", 1) }, 1);
  const out = receive(state, { t: "drop", p: -1, id: "b", at: place("todo", 1), cancelled: true }, 2);
  assert.deepEqual(out.events, [["liftboard-cancel", { id: "b", from: place("todo", 1), to: place("todo", 1), pointer: -1 }]]);
});

test("a commit says whose it was, and a full order becomes the order the element knows", () => {
  const state = connected();
  const change = { id: "a", section: "todo", after: "b", index: 1 };
  const own = receive(state, { t: "commit", board: "demo", version: 4, by: "s1", moves: [], change,
    order: [{ section: "todo", items: ["b", "a"] }, { section: "done", items: [] }] }, 1);
  assert.deepEqual(own.events, [["liftboard-commit",
    { version: 4, by: "s1", own: true, change, order: { todo: ["b", "a"], done: [] } }]]);
  assert.deepEqual(state.order, { version: 4, sections: { todo: ["b", "a"], done: [] } });
  // Without the order (commitOrder "none"), the event has none and the known order stays.
  const other = receive(state, { t: "commit", board: "demo", version: 5, by: "s2", moves: [], change }, 2);
  assert.deepEqual(other.events, [["liftboard-commit", { version: 5, by: "s2", own: false, change }]]);
  assert.equal(state.order.version, 4);
  assert.equal(state.commits, 2);
});

test("a commit signed by a person carries the person's user and name to the event", () => {
  const state = connected();
  const change = { id: "a", section: "todo", after: null, index: 0 };
  const out = receive(state, { t: "commit", board: "demo", version: 6, by: "s2", user: "ana", name: "Ana Lima", moves: [], change }, 1);
  assert.deepEqual(out.events, [["liftboard-commit", { version: 6, by: "s2", own: false, change, user: "ana", name: "Ana Lima" }]]);
});

test("a frame carrying its commit (commits inline) is the frame, then the commit", () => {
  const state = createClientState(false);
  receive(state, { t: "welcome", v: 1, session: "s1", board: "demo", config: { commits: "inline" } }, 0);
  const change = { id: "b", section: "todo", after: null, index: 0 };
  const out = receive(state, { t: "frame", seq: 1, ms: 5, cells: [], commit: { t: "commit", board: "demo", version: 3, by: "s2", moves: [], change } }, 1);
  assert.deepEqual(out.events, [["liftboard-commit", { version: 3, by: "s2", own: false, change }]]);
  assert.equal(state.commits, 1);
  assert.equal(state.version, 3);
  assert.equal(state.received, 2);  // the welcome and the frame: one message, not two
});

test("an older layout never replaces a newer committed order", () => {
  const state = connected();
  receive(state, { t: "commit", board: "demo", version: 9, by: "s2", moves: [], change: null, order: [{ section: "todo", items: ["b", "a"] }] }, 1);
  receive(state, layout, 2);  // version 3
  assert.deepEqual(state.order.sections, { todo: ["b", "a"] });
});

test("errors become liftboard-error; announcements are returned for the live region", () => {
  const state = connected();
  assert.deepEqual(receive(state, { t: "error", code: "cannot_undo", message: "moved since" }, 1).events,
    [["liftboard-error", { code: "cannot_undo", message: "moved since" }]]);
  const out = receive(state, { t: "announce", text: "Lifted A" }, 2);
  assert.equal(out.announce, "Lifted A");
  assert.deepEqual(out.events, []);
  assert.deepEqual(state.announcements, ["Lifted A"]);
});

test("frames and layouts redraw; a new connection forgets the old scene and gestures, not the order", () => {
  const state = connected();
  assert.equal(receive(state, { t: "frame", seq: 1, ms: 1 }, 1).redraw, true);
  receive(state, { t: "lift", p: 1, id: "a", from: place("todo", 0) }, 2);
  resetForConnection(state);
  assert.equal(state.scene.cells.size, 0);
  assert.equal(state.lifts.size, 0);
  assert.equal(state.session, null);
  assert.equal(state.order.version, 3);
});

test("a commit's order becomes a plain object", () => {
  assert.deepEqual(orderObject([{ section: "x", items: ["a"] }, { section: "y", items: [] }]), { x: ["a"], y: [] });
});
