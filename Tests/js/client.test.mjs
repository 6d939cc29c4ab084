import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffMs, elementOptions, elementSocketURL, gestureEvents, helloMessage, modifiers, pageOptions, socketURL, stampMs } from "../../Public/client.js";

test("the page's URL picks the board, kiosk mode, idle reset, token and prediction", () => {
  assert.deepEqual(pageOptions(""), { board: "demo", kiosk: false, idleResetMs: 0, token: null, predict: true });
  assert.deepEqual(pageOptions("?board=b2&kiosk=1&idle=5000&token=t&predict=0"), { board: "b2", kiosk: true, idleResetMs: 5000, token: "t", predict: false });
  assert.equal(pageOptions("?kiosk=1").idleResetMs, 60000);
});

test("the socket follows the page's scheme and passes the token on", () => {
  assert.equal(socketURL({ protocol: "http:", host: "h:8080" }, null), "ws://h:8080/ws");
  assert.equal(socketURL({ protocol: "https:", host: "h" }, "a b"), "wss://h/ws?token=a%20b");
  // With a token the URL names the board: a server with --auth-keys refuses before the upgrade.
  assert.equal(socketURL({ protocol: "https:", host: "h" }, "t.u.v", "team/1"), "wss://h/ws?board=team%2F1&token=t.u.v");
  assert.equal(socketURL({ protocol: "http:", host: "h" }, null, "b"), "ws://h/ws");
});

test("hello asks for reduced motion and idle reset only when wanted", () => {
  const vp = { w: 390, h: 844, dpr: 3 };
  assert.deepEqual(helloMessage({ board: "demo", idleResetMs: 0 }, vp, false).config, { commitOrder: "none", events: "inline", commits: "inline", layouts: "named", presence: "delta" });
  assert.deepEqual(helloMessage({ board: "demo", idleResetMs: 60000 }, vp, true).config,
    { commitOrder: "none", events: "inline", commits: "inline", layouts: "named", presence: "delta", idleResetMs: 60000, reducedMotion: true });
  assert.equal(helloMessage({ board: "x", idleResetMs: 0 }, vp, false).v, 1);
  assert.equal(helloMessage({ board: "x", idleResetMs: 0 }, vp, false, 1234.5).ms, 1234.5);  // the page's clock
});

test("reconnects back off exponentially with jitter, capped at 10 s", () => {
  assert.equal(backoffMs(0, () => 0.5), 500);
  assert.equal(backoffMs(3, () => 0.5), 4000);
  assert.equal(backoffMs(20, () => 0.5), 10000);
  assert.equal(backoffMs(1, () => 0), 500);
  assert.equal(backoffMs(1, () => 1), 1500);
});

test("gesture events come from a frame's inline events or from a message of their own", () => {
  const lift = { t: "lift", p: 1, id: "a", from: { section: "s", index: 0 } };
  const moved = { t: "moved", p: 1, id: "a", from: { section: "s", index: 0 }, to: { section: "s", index: 1 } };
  assert.deepEqual(gestureEvents({ t: "frame", seq: 3, ms: 1, events: [lift, moved] }), [lift, moved]);
  assert.deepEqual(gestureEvents({ t: "frame", seq: 4, ms: 2 }), []);
  assert.deepEqual(gestureEvents(moved), [moved]);
  assert.deepEqual(gestureEvents({ t: "commit", version: 2 }), []);
});

test("an element's attributes pick the board, server, token, mode and the commits' order", () => {
  const attrs = (a) => (name) => a[name] ?? null;
  assert.deepEqual(elementOptions(attrs({})),
    { server: null, board: "demo", token: null, authEndpoint: null, mode: null, idleResetMs: 0, predict: true, commitOrder: "full" });
  assert.deepEqual(elementOptions(attrs({ board: "k", server: "wss://h/ws", token: "t", mode: "swap", "idle-reset": "5000", predict: "off", "commit-order": "none" })),
    { server: "wss://h/ws", board: "k", token: "t", authEndpoint: null, mode: "swap", idleResetMs: 5000, predict: false, commitOrder: "none" });
  assert.equal(elementOptions(attrs({ mode: "sideways" })).mode, null);
});

test("an element connects to its server attribute, else to the server that served its module", () => {
  assert.equal(elementSocketURL(null, "https://boards.example/liftboard.js", null), "wss://boards.example/ws");
  assert.equal(elementSocketURL(null, "http://127.0.0.1:8080/liftboard.js", "a b"), "ws://127.0.0.1:8080/ws?token=a%20b");
  assert.equal(elementSocketURL(null, "http://127.0.0.1:8080/liftboard.js", "t", "k"), "ws://127.0.0.1:8080/ws?board=k&token=t");
  assert.equal(elementSocketURL("wss://other/ws", "http://x/liftboard.js", "t", "k"), "wss://other/ws?board=k&token=t");
  assert.equal(elementSocketURL("wss://other/ws", "http://x/liftboard.js", null), "wss://other/ws");
  assert.equal(elementSocketURL("wss://other/ws?x=1", "http://x/liftboard.js", "t"), "wss://other/ws?x=1&token=t");
});

test("a page that predicts asks for quiet follow; one that does not asks for every frame", () => {
  const vp = { w: 390, h: 844, dpr: 3 };
  assert.deepEqual(helloMessage({ board: "demo", idleResetMs: 0, predict: true }, vp, false).config,
    { commitOrder: "none", events: "inline", follow: "quiet", commits: "inline", layouts: "named", presence: "delta" });
  assert.equal(helloMessage({ board: "demo", idleResetMs: 0, predict: false }, vp, false).config.follow, undefined);
  assert.equal(helloMessage(pageOptions("?board=demo"), vp, false).config.follow, "quiet");
  assert.equal(helloMessage(pageOptions("?board=demo&predict=0"), vp, false).config.follow, undefined);
  assert.equal(helloMessage(elementOptions(() => null), vp, false).config.follow, "quiet");
  assert.equal(helloMessage(elementOptions((n) => (n === "predict" ? "off" : null)), vp, false).config.follow, undefined);
});

test("hello carries the element's mode and order choice", () => {
  const vp = { w: 390, h: 844, dpr: 3 };
  assert.deepEqual(helloMessage({ board: "k", idleResetMs: 0, mode: "swap", commitOrder: "full" }, vp, false).config,
    { commitOrder: "full", events: "inline", commits: "inline", layouts: "named", presence: "delta", mode: "swap" });
});

test("a down or a key carries the modifier keys held, in the wire's order, and none when none is", () => {
  assert.equal(modifiers({ shiftKey: false, ctrlKey: false, metaKey: false, altKey: false }), undefined);
  assert.deepEqual(modifiers({ shiftKey: true, ctrlKey: false, metaKey: true, altKey: false }), ["shift", "meta"]);
  assert.deepEqual(modifiers({ shiftKey: true, ctrlKey: true, metaKey: true, altKey: true }), ["shift", "ctrl", "meta", "alt"]);
});

test("the debugging hooks are asked for with ?debug=1 only", async () => {
  const { debugQuery } = await import("../../Public/client.js");
  assert.equal(debugQuery("?debug=1"), true);
  assert.equal(debugQuery("?board=kanban&debug=1"), true);
  assert.equal(debugQuery(""), false);
  assert.equal(debugQuery("?debug=0"), false);
  assert.equal(debugQuery("?debug=true"), false);
});

test("a message is stamped with its event's time, never before the last one sent", () => {
  // A move coalesced to the animation frame carries when the finger was there, not when it left.
  assert.equal(stampMs(1000.25, 1016.7, 990), 1000.25);
  // No event time (a key, a ping): now.
  assert.equal(stampMs(undefined, 1016.7, 990), 1016.7);
  // Never back in time: the server would take a smaller ms as the last one anyway.
  assert.equal(stampMs(1000, 1016.7, 1005.5), 1005.5);
  // Another clock's stamp (epoch milliseconds, or a future one) is not used.
  assert.equal(stampMs(1.7e12, 1016.7, 0), 1016.7);
  assert.equal(stampMs(1020, 1016.7, 0), 1016.7);
  assert.equal(stampMs(10, 1016.7, 0), 1016.7);
  // Rounded to the microsecond.
  assert.equal(stampMs(1000.12345678, 1016.7, 0), 1000.123);
});
