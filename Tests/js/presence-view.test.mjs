import { test } from "node:test";
import assert from "node:assert/strict";
import { createClientState, receive } from "../../Public/dispatch.js";
import { assemblePresence, avatarStack, chipLabel, drawPresence, holdMarks, holderOf, initials, markerFor } from "../../Public/presence-view.js";
import { readFileSync } from "node:fs";

const row = (i) => ({ x: 0, y: 40 + 57 * i, w: 400, h: 56 });
const sections = [{ id: "todo", title: "To do", frame: { x: 0, y: 0, w: 400, h: 300 }, header: 32 },
  { id: "done", title: "Done", frame: { x: 0, y: 300, w: 400, h: 100 }, header: 32, slot: { x: 0, y: 332, w: 400, h: 56 } }];
const layout = (heldBy = {}) => ({
  t: "layout", version: 1, content: { w: 400, h: 400 }, scroll: { x: 0, y: 0 }, layout: "list", sections,
  cells: ["a", "b", "c"].map((id, i) => ({ id, label: id.toUpperCase(), color: "#000", section: "todo", index: i, movable: true,
    frame: row(i), ...(heldBy[id] ? { heldBy: heldBy[id] } : {}) })),
});
const ana = { session: "s1", user: null, name: "Guest 1", color: "#e8590c", role: "edit", holds: ["b"], target: { section: "todo", index: 0 } };
const bo = { session: "s2", user: null, name: "Guest 2", color: "#1971c2", role: "edit", holds: [] };
const presence = { t: "presence", board: "demo", people: [ana, bo], watching: 3 };

/** A canvas context that records what is drawn (enough of it for drawPresence). */
function fakeContext() {
  const calls = [];
  const ctx = { calls, font: "", fillStyle: "", textAlign: "", textBaseline: "" };
  for (const k of ["beginPath", "roundRect", "rect", "fill", "arc"]) ctx[k] = (...a) => calls.push([k, ...a]);
  ctx.fillRect = (...a) => calls.push(["fillRect", ctx.fillStyle, ...a]);
  ctx.fillText = (t, x, y) => calls.push(["fillText", ctx.fillStyle, t]);
  ctx.measureText = (t) => ({ width: 7 * t.length });
  return ctx;
}

function stateWith(heldBy) {
  const state = createClientState(false);
  receive(state, { t: "welcome", v: 1, session: "s2", board: "demo", config: {} }, 0);
  receive(state, layout(heldBy), 0);
  return state;
}

test("initials: two words' first letters, one word's first, nothing a question mark", () => {
  assert.equal(initials("Ana Lima"), "AL");
  assert.equal(initials("Guest 12"), "G1");
  assert.equal(initials("bo"), "B");
  assert.equal(initials("  "), "?");
  assert.equal(initials("Émile zola extra"), "ÉZ");
});

test("a presence message becomes a liftboard-presence event with board, people, watching and a redraw", () => {
  const state = stateWith({});
  const out = receive(state, { ...presence, more: 2 }, 5);
  assert.deepEqual(out.events, [["liftboard-presence", { board: "demo", people: [ana, bo], watching: 3, more: 2 }]]);
  assert.equal(out.redraw, true);
  assert.equal(state.scene.presence.people[0].name, "Guest 1");
  // `more` left out when the server leaves it out.
  assert.equal("more" in receive(state, presence, 6).events[0][1], false);
});

test("a cell's heldBy comes from the layout and from frames, and null ends it", () => {
  const state = stateWith({ b: "Guest 1" });
  assert.equal(state.scene.cells.get("b").heldBy, "Guest 1");
  receive(state, { t: "frame", seq: 1, cells: [{ id: "b", frame: row(1), heldBy: null }] }, 1);
  assert.equal(state.scene.cells.get("b").heldBy, null);
  receive(state, { t: "frame", seq: 2, cells: [{ id: "c", frame: row(2), heldBy: "Guest 1" }] }, 2);
  assert.equal(state.scene.cells.get("c").heldBy, "Guest 1");
  receive(state, { t: "frame", seq: 3, cells: [{ id: "c", frame: row(2) }] }, 3);
  assert.equal(state.scene.cells.get("c").heldBy, "Guest 1", "a frame that does not name heldBy keeps it");
});

test("the holder is the person whose holds have the item, else the one of that name, else a stand-in", () => {
  assert.equal(holderOf(presence, "b", "Guest 1").color, "#e8590c");
  assert.deepEqual(holderOf(presence, "b", "Guest 1").target, { section: "todo", index: 0 });
  // The frame's heldBy can come before the presence that lists the hold.
  assert.equal(holderOf({ people: [{ ...ana, holds: [] }] }, "c", "Guest 1").color, "#e8590c");
  const nobody = holderOf(null, "c", "Guest 9");
  assert.equal(nobody.name, "Guest 9");
  assert.match(nobody.color, /^#[0-9a-f]{6}$/);
  assert.equal(nobody.target, null);
});

test("holdMarks lists held cells with their holder's color; a person's target goes with one item", () => {
  const state = stateWith({ b: "Guest 1", c: "Guest 1" });
  receive(state, { ...presence, people: [{ ...ana, holds: ["b", "c"] }, bo] }, 1);
  assert.deepEqual(holdMarks(state.scene), [
    { id: "b", name: "Guest 1", color: "#e8590c", target: { section: "todo", index: 0 }, count: 2 },
    { id: "c", name: "Guest 1", color: "#e8590c", target: null, count: 2 },
  ]);
  assert.deepEqual(holdMarks(stateWith({}).scene), []);
});

test("a list's marker is at the top of the cell at the target place, counted without the held item", () => {
  const scene = stateWith({ b: "Guest 1" }).scene;
  const skip = new Set(["b"]);
  // Others: a (0), c (1). Index 0: above a; index 1: above c (b's own place is skipped); 2: below c.
  assert.equal(markerFor(scene, { section: "todo", index: 0 }, skip, 0).y, row(0).y - 1.5);
  assert.equal(markerFor(scene, { section: "todo", index: 1 }, skip, 0).y, row(2).y - 1.5);
  assert.equal(markerFor(scene, { section: "todo", index: 2 }, skip, 0).y, row(2).y + 56 - 1.5);
  assert.equal(markerFor(scene, { section: "todo", index: 9 }, skip, 0).y, row(2).y + 56 - 1.5, "past the end: after the last");
  // An empty section: its slot's top.
  assert.deepEqual(markerFor(scene, { section: "done", index: 0 }, skip, 0), { section: "done", x: 6, y: 332, w: 388, h: 3 });
  assert.equal(markerFor(scene, null, skip, 0), null);
  assert.equal(markerFor(scene, { section: "nowhere", index: 0 }, skip, 0), null);
});

test("a grid's marker is a vertical bar at the leading edge of the cell at the target place", () => {
  const tile = (i) => ({ x: 10 + 110 * i, y: 40, w: 100, h: 100 });
  const msg = { ...layout(), layout: "grid", cells: ["a", "b", "c"].map((id, i) => ({ id, label: id, color: "#000", section: "todo", index: i, movable: true, frame: tile(i) })) };
  const state = createClientState(false);
  receive(state, msg, 0);
  const m = markerFor(state.scene, { section: "todo", index: 1 }, new Set(["a"]), 0);
  assert.deepEqual(m, { section: "todo", x: tile(2).x - 1.5, y: 42, w: 3, h: 96 });
  assert.equal(markerFor(state.scene, { section: "todo", index: 3 }, new Set(), 0).x, tile(2).x + 100 - 1.5);
});

test("drawPresence draws the chip on the held cell and the marker in the holder's color, and records both", () => {
  const state = stateWith({ b: "Guest 1" });
  receive(state, presence, 1);
  const ctx = fakeContext();
  const drawn = drawPresence(ctx, state.scene, 2);
  assert.equal(drawn.length, 1);
  assert.equal(state.scene.presenceDrawn, drawn);
  const [d] = drawn;
  assert.equal(d.color, "#e8590c");
  // The chip sits inside b's row, at its trailing end.
  assert.ok(d.chip.y > row(1).y && d.chip.y + d.chip.h < row(1).y + 56, JSON.stringify(d.chip));
  assert.equal(d.chip.x + d.chip.w, 400 - 12);
  assert.equal(d.marker.y, row(0).y - 1.5);
  assert.ok(ctx.calls.some((c) => c[0] === "fillRect" && c[1] === "#e8590c"), "the marker bar is in the holder's color");
  assert.equal(ctx.calls.filter((c) => c[0] === "fillText" && c[2] === "Guest 1").length, 2, "a chip on the cell and one on the marker");
});

test("a tree's marker starts at the target's depth, as the holder's insertion line; a subtree is one item", () => {
  // Rows: g (0), m and e (1, under g), b (0). Ana drags b between m and e, two levels in (under m).
  const depth = { g: 0, m: 1, e: 1, b: 0 };
  const cells = ["g", "m", "e", "b"].map((id, i) => ({ id, label: id, color: "#000", section: "todo", index: i, movable: true,
    depth: depth[id], ...(id === "m" || id === "e" ? { parent: "g" } : {}), frame: { ...row(i), x: depth[id] * 20, w: 400 - depth[id] * 20 } }));
  const state = createClientState(false);
  receive(state, { ...layout(), layout: "tree", tree: { indent: 20 }, cells }, 0);
  const m = markerFor(state.scene, { section: "todo", index: 2, depth: 2 }, new Set(["b"]), 0);
  assert.deepEqual(m, { section: "todo", x: 2 * 20 + 6, y: row(2).y - 1.5, w: 400 - 6 - 46, h: 3 });
  // No depth (a list's target on a tree board cannot be; still drawn, at the row's own edge).
  assert.equal(markerFor(state.scene, { section: "todo", index: 1 }, new Set(["b"]), 0).x, 20 + 6);
  // g held with its subtree (g, m, e): one item; its chip is the name alone.
  receive(state, { t: "frame", seq: 1, cells: ["g", "m", "e"].map((id, i) => ({ id, frame: cells[i].frame, heldBy: "Guest 1" })) }, 1);
  // x: a descendant this page has no row of (collapsed here): not counted either.
  receive(state, { ...presence, people: [{ ...ana, holds: ["g", "m", "e", "x"], target: { section: "todo", index: 1, depth: 0 } }, bo] }, 1);
  assert.deepEqual(holdMarks(state.scene).map((h) => h.count), [1, 1, 1]);
  const [d] = drawPresence(fakeContext(), state.scene, 2);
  assert.equal(d.marker.label, "Guest 1");
  assert.equal(d.marker.x, 6, "depth 0: the line starts at the left edge");
});

test("a group's drag wears the count on its marker's chip: Ana · 3", () => {
  assert.equal(chipLabel("Ana", 3), "Ana · 3");
  assert.equal(chipLabel("Ana", 1), "Ana");
  const state = stateWith({ a: "Guest 1", b: "Guest 1", c: "Guest 1" });
  receive(state, { ...presence, people: [{ ...ana, holds: ["a", "b", "c"] }, bo] }, 1);
  const ctx = fakeContext();
  const drawn = drawPresence(ctx, state.scene, 2);
  assert.deepEqual(drawn.map((d) => d.count), [3, 3, 3]);
  assert.equal(drawn[0].marker.label, "Guest 1 · 3");
  assert.equal(drawn.filter((d) => d.marker).length, 1, "one marker a drag");
  assert.ok(ctx.calls.some((c) => c[0] === "fillText" && c[2] === "Guest 1 · 3"));
});

test("drawPresence draws nothing when no cell is held, and follows the scroll", () => {
  const none = stateWith({});
  const ctx = fakeContext();
  assert.deepEqual(drawPresence(ctx, none.scene, 0), []);
  assert.deepEqual(ctx.calls, []);
  const state = stateWith({ b: "Guest 1" });
  receive(state, presence, 1);
  receive(state, { t: "frame", seq: 1, scroll: { y: 30 } }, 1);
  assert.equal(drawPresence(fakeContext(), state.scene, 2)[0].marker.y, row(0).y - 1.5 - 30);
});

test("the avatar stack shows a few people, counts the rest and `more` in +N, and the watchers", () => {
  const people = ["Ana Lima", "Bo", "Cy", "Di", "Ed", "Flo"].map((name, i) => ({ session: `s${i}`, name, color: "#123456", holds: i === 1 ? ["x"] : [] }));
  const s = avatarStack({ people, watching: 7, more: 10 });
  assert.deepEqual(s.shown.map((p) => p.initials), ["AL", "B", "C", "D"]);
  assert.deepEqual(s.shown.map((p) => p.holding), [false, true, false, false]);
  assert.deepEqual(s.shown.map((p) => p.self), [false, false, false, false]);
  assert.deepEqual(avatarStack({ people }, 4, "s2").shown.map((p) => p.self), [false, false, true, false]);
  assert.equal(s.extra, 2 + 10);
  assert.equal(s.watching, 7);
  assert.deepEqual(avatarStack({ people: people.slice(0, 2), watching: 0 }), {
    shown: [{ name: "Ana Lima", initials: "AL", color: "#123456", holding: false, self: false },
      { name: "Bo", initials: "B", color: "#123456", holding: true, self: false }],
    extra: 0, watching: 0 });
});

// Issue 44, presence as differences (`hello.config.presence: "delta"`): the page rebuilds the
// whole presence, and `liftboard-presence` carries it whole.
const whole = { t: "presence", v: 7, board: "demo", people: [ana, bo], watching: 3 };

test("a whole presence with v is taken as is; a difference from it changes only what it says", () => {
  const first = assemblePresence(null, undefined, whole);
  assert.deepEqual(first, { presence: { board: "demo", people: [ana, bo], watching: 3 }, v: 7, missed: false });
  // Ana's target moves within its section: only the index comes.
  const moved = assemblePresence(first.presence, 7, { t: "presence", v: 8, base: 7, board: "demo", changed: [{ session: "s1", target: { index: 2 } }] });
  assert.equal(moved.missed, false);
  assert.deepEqual(moved.presence.people, [{ ...ana, target: { section: "todo", index: 2 } }, bo]);
  assert.deepEqual(first.presence.people[0].target, { section: "todo", index: 0 }, "the last presence is left as it was");
  // Bo lifts c in another section: the whole target; Ana drops: holds and a null target.
  const both = assemblePresence(moved.presence, 8, { t: "presence", v: 9, base: 8, board: "demo", changed: [
    { session: "s1", holds: [], target: null }, { session: "s2", holds: ["c"], target: { section: "done", index: 0 } }] });
  assert.deepEqual(both.presence.people, [{ ...ana, holds: [], target: undefined }, { ...bo, holds: ["c"], target: { section: "done", index: 0 } }]
    .map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined))));
  assert.equal("target" in both.presence.people[0], false);
});

test("a leave, a join at its index, watching and more changed", () => {
  const first = assemblePresence(null, undefined, whole).presence;
  const cy = { session: "s0", user: "cy", name: "Cy", color: "#2f9e44", role: "move", holds: [] };
  const dee = { session: "s9", user: null, name: "Guest 9", color: "#099268", role: "edit", holds: [] };
  const got = assemblePresence(first, 7, { t: "presence", v: 10, base: 7, board: "demo", gone: ["s1"],
    changed: [{ at: 0, ...cy }, { at: 2, ...dee }], watching: 4, more: 2 });
  assert.deepEqual(got.presence, { board: "demo", people: [cy, bo, dee], watching: 4, more: 2 });
  // Unsaid, watching and more stay; more back to 0 leaves it out.
  const next = assemblePresence(got.presence, 10, { t: "presence", v: 11, base: 10, board: "demo", more: 0 });
  assert.deepEqual(next.presence, { board: "demo", people: [cy, bo, dee], watching: 4 });
});

test("a difference from another presence than the page's last is flagged missed", () => {
  const first = assemblePresence(null, undefined, whole).presence;
  assert.equal(assemblePresence(first, 7, { t: "presence", v: 9, base: 8, board: "demo" }).missed, true);
  assert.equal(assemblePresence(null, undefined, { t: "presence", v: 9, base: 8, board: "demo" }).missed, true);
  assert.equal(assemblePresence(first, 7, { t: "presence", v: 9, base: 7, board: "demo", changed: [{ session: "s5", holds: [] }] }).missed, true);
});

test("dispatch rebuilds the whole presence from differences and fires it whole", () => {
  const state = stateWith({});
  receive(state, whole, 5);
  const out = receive(state, { t: "presence", v: 8, base: 7, board: "demo", changed: [{ session: "s2", holds: ["a"], target: { section: "todo", index: 1 } }] }, 6);
  const want = { board: "demo", people: [ana, { ...bo, holds: ["a"], target: { section: "todo", index: 1 } }], watching: 3 };
  assert.deepEqual(out.events, [["liftboard-presence", want]]);
  assert.deepEqual(state.scene.presence, want);
  assert.equal(state.presenceMissed, undefined);
});

test("the contract's worked example: the differences the server sends rebuild each presence it was given", () => {
  const dir = new URL("../LiftboardWireTests/ContractExamples/presence-delta/", import.meta.url);
  const json = (name) => readFileSync(new URL(name, dir), "utf8").split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const given = json("stream.jsonl").filter((m) => m.t === "presence");
  const sent = json("expected.jsonl");
  assert.equal(sent.length, given.length);
  let last = null, v;
  sent.forEach((msg, k) => {
    const made = assemblePresence(last, v, msg);
    assert.equal(made.missed, false, `presence ${k + 1}`);
    const { t, ms, ...want } = given[k];
    assert.deepEqual(made.presence, want, `presence ${k + 1}`);
    ({ presence: last, v } = made);
  });
});
