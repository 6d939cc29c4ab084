import { test } from "node:test";
import assert from "node:assert/strict";
import { animation, ease, isRunning, retarget, valueAt } from "../../Public/easing.js";

test("every curve starts at 0, ends at 1 and clamps outside", () => {
  for (const name of ["linear", "easeOut", "easeInOut"]) {
    assert.equal(ease(name, 0), 0);
    assert.equal(ease(name, 1), 1);
    assert.equal(ease(name, -3), 0);
    assert.equal(ease(name, 7), 1);
  }
});

test("easeOut is ahead of linear and easeInOut is symmetric", () => {
  assert.ok(ease("easeOut", 0.3) > 0.3);
  assert.ok(Math.abs(ease("easeInOut", 0.25) + ease("easeInOut", 0.75) - 1) < 1e-12);
  assert.equal(ease("easeInOut", 0.5), 0.5);
});

test("an animation interpolates numbers and rectangles, then holds its target", () => {
  const a = animation(0, 100, 1000, 200, "linear");
  assert.equal(valueAt(a, 1000), 0);
  assert.equal(valueAt(a, 1100), 50);
  assert.equal(valueAt(a, 5000), 100);
  assert.ok(isRunning(a, 1100) && !isRunning(a, 1200));
  const r = animation({ x: 0, y: 0, w: 10, h: 10 }, { x: 100, y: 50, w: 10, h: 30 }, 0, 100, "linear");
  assert.deepEqual(valueAt(r, 50), { x: 50, y: 25, w: 10, h: 20 });
});

test("a zero duration jumps straight to the target", () => {
  assert.equal(valueAt(animation(3, 9, 0, 0), 0), 9);
});

test("retargeting starts from what is shown, not from the old target", () => {
  const a = animation(0, 100, 0, 100, "linear");
  const b = retarget(a, 0, 50, 100, "linear");
  assert.equal(b.from, 50);
  assert.equal(valueAt(b, 100), 25);
});
