import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMessage, createScene, settle } from "../../Public/scene.js";
import { valueAt } from "../../Public/easing.js";
import * as predict from "../../Public/predict.js";

// A list 400 wide in a 300-tall viewport: a (movable), pin (pinned), then rows down to y 1000.
const layout = {
  t: "layout", version: 0, content: { w: 400, h: 1000 }, scroll: { x: 0, y: 0 },
  sections: [{ id: "s", title: "S", frame: { x: 0, y: 0, w: 400, h: 1000 }, header: 32 }],
  cells: [
    { id: "a", label: "A", color: "#111", section: "s", index: 0, movable: true, frame: { x: 0, y: 32, w: 400, h: 56 } },
    { id: "pin", label: "P", color: "#222", section: "s", index: 1, movable: false, frame: { x: 0, y: 89, w: 400, h: 56 } },
  ],
};
const config = { pressMs: 500, allowableMovement: 10, liftScale: 1.05, liftRotation: 0.0873, liftAlpha: 0.8, liftMs: 300 };

function setup() {
  const scene = createScene();
  applyMessage(scene, layout, 0);
  const pred = predict.createPrediction(true);
  pred.config = config;
  pred.viewportH = 300;
  return { scene, pred };
}

function downAt(pred, scene, p, pos, seq) {
  predict.pointerDown(pred, p, pos, scene);
  predict.sent(pred, { t: "down", p, ...pos, seq });
}

const center = (scene, key, now) => valueAt(scene.snapshots.get(key).center, now);

test("the page's press timer lifts a local snapshot that follows the pointer with the list's x lock", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  const ping = predict.pressFired(pred, 1, scene, 500);
  assert.equal(ping.t, "ping");
  assert.ok(scene.cells.get("a").hidden);
  assert.deepEqual(center(scene, "1:a", 500), { x: 200, y: 60 });
  predict.pointerMove(pred, 1, { x: 90, y: 170 });
  predict.apply(pred, scene, 520);
  // The grab (150, -10) is kept in y; x stays at the cell's center (a list).
  assert.deepEqual(center(scene, "1:a", 520), { x: 200, y: 160 });
});

test("no local lift over a pinned cell or after the pointer went too far", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 120 }, 1);
  assert.equal(predict.pressFired(pred, 1, scene, 500), null);
  assert.equal(scene.snapshots.size, 0);
  downAt(pred, scene, 2, { x: 50, y: 70 }, 2);
  predict.pointerMove(pred, 2, { x: 50, y: 90 });
  assert.equal(predict.pressFired(pred, 2, scene, 500), null);
  assert.equal(scene.snapshots.size, 0);
});

test("a page whose token says view lifts nothing locally: its press is the server's to refuse", () => {
  const { scene, pred } = setup();
  pred.viewOnly = true;
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  assert.equal(predict.pressFired(pred, 1, scene, 500), null);
  assert.equal(scene.snapshots.size, 0);
  assert.ok(!scene.cells.get("a").hidden);
});

test("a pong without a lift before it undoes the local lift: the snapshot settles into its cell", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  const ping = predict.pressFired(pred, 1, scene, 500);
  predict.pointerMove(pred, 1, { x: 50, y: 75 });
  predict.apply(pred, scene, 510);
  predict.onPong(pred, { t: "pong", id: ping.id, ms: 510 }, scene, 600);
  const snap = scene.snapshots.get("1:a");
  assert.ok(snap.done);
  assert.deepEqual(valueAt(snap.center, 600 + predict.UNDO_MS), { x: 200, y: 60 });
  assert.equal(valueAt(snap.scale, 600 + predict.UNDO_MS), 1);
  settle(scene, 600 + predict.UNDO_MS);
  assert.equal(scene.snapshots.size, 0);
  assert.equal(scene.cells.get("a").hidden, false);
  // Later moves no longer move anything.
  predict.pointerMove(pred, 1, { x: 50, y: 200 });
  predict.apply(pred, scene, 800);
  assert.equal(scene.snapshots.size, 0);
});

test("the server's lift confirms the local one and its grab wins, eased over 100 ms", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  predict.pressFired(pred, 1, scene, 500);
  // The server lifted with the pointer 4 px lower than the page thought.
  predict.onLift(pred, { t: "lift", p: 1, id: "a", from: { section: "s", index: 0 }, grab: { x: 150, y: -14 }, axis: "y" }, scene, 560);
  predict.apply(pred, scene, 560);
  assert.deepEqual(center(scene, "1:a", 560), { x: 200, y: 60 });  // no jump
  predict.apply(pred, scene, 560 + predict.CORRECTION_MS);
  assert.deepEqual(center(scene, "1:a", 660), { x: 200, y: 56 });
  assert.equal(predict.apply(pred, scene, 700), false);
});

/** Pointer 1 down on "a" at y 70, lifted (grab 150, -10; axis y), and the first frame: its snapshot at 200, 60. */
function liftAAt60(scene, pred) {
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  predict.onLift(pred, { t: "lift", p: 1, id: "a", from: { section: "s", index: 0 }, grab: { x: 150, y: -10 }, axis: "y" }, scene, 560);
  applyMessage(scene, { t: "frame", seq: 1, ms: 500, ack: 1, cells: [{ id: "a", frame: layout.cells[0].frame, alpha: 1, hidden: true, dur: 0, ease: "linear" }],
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, size: { w: 400, h: 56 }, moveDur: 0, scale: 1.05, rotation: 0.0873, alpha: 0.8, dur: 300, ease: "easeOut" }] }, 560);
}

test("a frame whose center for the acked seq differs by more than a pixel is eased to, not jumped to", () => {
  const { scene, pred } = setup();
  liftAAt60(scene, pred);
  predict.pointerMove(pred, 1, { x: 50, y: 100 });
  predict.sent(pred, { t: "move", p: 1, x: 50, y: 100, seq: 2 });
  predict.apply(pred, scene, 570);
  assert.deepEqual(center(scene, "1:a", 570), { x: 200, y: 90 });
  // Within a pixel: nothing to correct.
  let drawn = predict.drawnCenters(pred, scene, 600);
  const frame = (ack, y) => ({ t: "frame", seq: 2, ms: 600, ack, snapshots: [{ p: 1, id: "a", center: { x: 200, y }, moveDur: 0 }] });
  applyMessage(scene, frame(2, 90.5), 600);
  predict.onFrame(pred, frame(2, 90.5), scene, 600, drawn);
  assert.equal(predict.apply(pred, scene, 600), false);
  assert.deepEqual(center(scene, "1:a", 600), { x: 200, y: 90 });
  // Clamped 20 px higher by the server: ease from 90 to 70 over 100 ms.
  drawn = predict.drawnCenters(pred, scene, 650);
  applyMessage(scene, frame(2, 70), 650);
  predict.onFrame(pred, frame(2, 70), scene, 650, drawn);
  assert.equal(predict.apply(pred, scene, 650), true);
  assert.deepEqual(center(scene, "1:a", 650), { x: 200, y: 90 });
  predict.apply(pred, scene, 700);
  const mid = center(scene, "1:a", 700).y;
  assert.ok(mid > 70 && mid < 90, `${mid}`);
  predict.apply(pred, scene, 750);
  assert.deepEqual(center(scene, "1:a", 750), { x: 200, y: 70 });
});

test("quiet follow: unanswered moves are drawn from the prediction alone, and the next frame's center for its ack reconciles them", () => {
  const { scene, pred } = setup();
  liftAAt60(scene, pred);
  // Ten moves 4 px apart; the server (follow: "quiet") answers none of them.
  for (let k = 1; k <= 10; k++) {
    predict.pointerMove(pred, 1, { x: 50, y: 70 + 4 * k });
    predict.sent(pred, { t: "move", p: 1, x: 50, y: 70 + 4 * k, seq: 1 + k });
    predict.apply(pred, scene, 560 + 16 * k);
    assert.deepEqual(center(scene, "1:a", 560 + 16 * k), { x: 200, y: 60 + 4 * k });  // 0 px from the finger
  }
  // The eleventh passes a row: its frame carries the moved cell, the finger's center and ack 12.
  predict.pointerMove(pred, 1, { x: 50, y: 114 });
  predict.sent(pred, { t: "move", p: 1, x: 50, y: 114, seq: 12 });
  predict.apply(pred, scene, 740);
  let drawn = predict.drawnCenters(pred, scene, 760);
  const passing = { t: "frame", seq: 2, ms: 740, ack: 12, cells: [{ id: "pin", frame: { x: 0, y: 32, w: 400, h: 56 }, alpha: 1, hidden: false, dur: 250, ease: "easeInOut" }],
    snapshots: [{ p: 1, id: "a", center: { x: 200, y: 104 }, moveDur: 0 }] };
  applyMessage(scene, passing, 760);
  predict.onFrame(pred, passing, scene, 760, drawn);
  assert.equal(predict.apply(pred, scene, 760), false);  // agreed: nothing to correct
  assert.deepEqual(center(scene, "1:a", 760), { x: 200, y: 104 });
  // A frame with no center for the drag (the server's center did not change) corrects nothing.
  predict.pointerMove(pred, 1, { x: 50, y: 130 });
  predict.sent(pred, { t: "move", p: 1, x: 50, y: 130, seq: 13 });
  drawn = predict.drawnCenters(pred, scene, 780);
  const scrolled = { t: "frame", seq: 3, ms: 770, ack: 12, scroll: { x: 0, y: 0 } };
  applyMessage(scene, scrolled, 780);
  predict.onFrame(pred, scrolled, scene, 780, drawn);
  assert.equal(predict.apply(pred, scene, 780), false);
  assert.deepEqual(center(scene, "1:a", 780), { x: 200, y: 120 });
});

test("a drop hands the snapshot back to the server's frames", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  predict.pressFired(pred, 1, scene, 500);
  predict.onLift(pred, { t: "lift", p: 1, id: "a", from: { section: "s", index: 0 }, grab: { x: 150, y: -10 }, axis: "y" }, scene, 520);
  predict.pointerEnd(pred, 1, { x: 50, y: 70 }, 3);
  predict.onDrop(pred, { t: "drop", p: 1, id: "a", at: { section: "s", index: 0 }, cancelled: false });
  const drawn = predict.drawnCenters(pred, scene, 600);
  const msg = { t: "frame", seq: 3, ms: 600, ack: 3, snapshots: [{ p: 1, id: "a", center: { x: 200, y: 60 }, moveDur: 250, scale: 1, rotation: 0, alpha: 1, dur: 250, ease: "easeOut", done: true }] };
  applyMessage(scene, msg, 600);
  predict.onFrame(pred, msg, scene, 600, drawn);
  predict.apply(pred, scene, 600);
  assert.equal(pred.pointers.size, 0);
  assert.ok(scene.snapshots.get("1:a").done);
});

test("a pan before the press follows the pointer's translation at once, clamped to the content", () => {
  const { scene, pred } = setup();
  downAt(pred, scene, 1, { x: 50, y: 250 }, 1);
  predict.pointerMove(pred, 1, { x: 50, y: 150 });
  predict.apply(pred, scene, 100);
  assert.equal(valueAt(scene.scroll, 100), 100);
  // A server frame for an older seq does not pull the content back.
  applyMessage(scene, { t: "frame", seq: 1, ms: 50, ack: 1, scroll: { x: 0, y: 20 } }, 110);
  predict.onFrame(pred, { t: "frame", seq: 1, ms: 50, ack: 1, scroll: { x: 0, y: 20 } }, scene, 110, new Map());
  predict.apply(pred, scene, 110);
  assert.equal(valueAt(scene.scroll, 110), 100);
  predict.pointerMove(pred, 1, { x: 50, y: -2000 });
  predict.apply(pred, scene, 120);
  assert.equal(valueAt(scene.scroll, 120), 700);  // content 1000 - viewport 300
  // No press timer lift once panning.
  assert.equal(predict.pressFired(pred, 1, scene, 500), null);
});

test("with prediction off the page draws only what the server says", () => {
  const { scene } = setup();
  const pred = predict.createPrediction(false);
  downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
  assert.equal(predict.pressFired(pred, 1, scene, 500), null);
  assert.equal(scene.snapshots.size, 0);
});

test("the local snapshot keeps its x in a list and follows in both axes in a grid, as the layout names it", () => {
  // A grid cell as wide as the content (a narrow viewport): its shape says list, its layout grid.
  const wide = { ...layout, cells: [{ ...layout.cells[0] }] };
  for (const [kind, x] of [["list", 200], ["grid", 240]]) {
    const scene = createScene();
    applyMessage(scene, { ...wide, layout: kind }, 0);
    const pred = predict.createPrediction(true);
    pred.config = config;
    pred.viewportH = 300;
    downAt(pred, scene, 1, { x: 50, y: 70 }, 1);
    predict.pressFired(pred, 1, scene, 500);
    predict.pointerMove(pred, 1, { x: 90, y: 170 });
    predict.apply(pred, scene, 520);
    assert.deepEqual(center(scene, "1:a", 520), { x, y: 160 }, kind);
  }
});

test("the lift's tilt is capped so a wide row's ends rise or fall at most 18 px; a phone row keeps the seed's", () => {
  // The same literals as the server's LiftTiltTests (Tests/LiftboardCoreTests): the two compute the same bits.
  assert.equal(predict.liftRotation(0.0873, 390), 0.0873);
  assert.equal(predict.liftRotation(0.0873, 1200), 0.030004501823476942);
  assert.equal(predict.liftRotation(0.0873, 413), 0.08727783334472826);
  assert.equal(predict.liftRotation(-0.0873, 1200), -0.030004501823476942);
  assert.equal(predict.liftRotation(0.5, 30), 0.5);   // at most 36 px wide: never capped
  for (const w of [413, 500, 800, 1200, 1920, 4000]) {
    const r = predict.liftRotation(0.0873, w);
    assert.ok((w / 2) * Math.sin(r) <= 18 + 1e-9, `${w} px: ends move ${(w / 2) * Math.sin(r)} px`);
  }
  for (let k = 0; k <= 1000; k++) {
    const x = k / 1000;
    assert.ok(Math.abs(predict.arcsine(x) - Math.asin(x)) <= 1e-15, `arcsine(${x})`);
  }
});

test("a predicted lift of a 1,200 px row draws the server's capped tilt", () => {
  const scene = createScene();
  const wide = structuredClone(layout);
  wide.content.w = 1200;
  wide.sections[0].frame.w = 1200;
  for (const c of wide.cells) c.frame.w = 1200;
  applyMessage(scene, wide, 0);
  const pred = predict.createPrediction(true);
  pred.config = config;
  pred.viewportH = 300;
  downAt(pred, scene, 1, { x: 600, y: 70 }, 1);
  predict.pressFired(pred, 1, scene, 500);
  assert.equal(valueAt(scene.snapshots.get("1:a").rotation, 800), 0.030004501823476942);
});
