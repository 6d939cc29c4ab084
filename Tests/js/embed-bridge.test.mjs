import { test } from "node:test";
import assert from "node:assert/strict";
import { FORWARDED_EVENTS, eventMessage, inboundCommand, resizeMessage, tokenRequestMessage } from "../../Public/embed-bridge.js";

const ORIGIN = "https://app.example";
const parent = { name: "parent" };

test("commands count only from the embed origin's parent window", () => {
  assert.deepEqual(inboundCommand({ origin: ORIGIN, source: parent, data: { type: "undo" } }, ORIGIN, parent), { type: "undo" });
  assert.deepEqual(inboundCommand({ origin: ORIGIN, source: parent, data: { type: "focus", id: "milk" } }, ORIGIN, parent),
    { type: "focus", id: "milk" });
  assert.equal(inboundCommand({ origin: "https://evil.example", source: parent, data: { type: "undo" } }, ORIGIN, parent), null);
  assert.equal(inboundCommand({ origin: "https://app.example:8443", source: parent, data: { type: "undo" } }, ORIGIN, parent), null);
  assert.equal(inboundCommand({ origin: ORIGIN, source: { name: "a sibling frame" }, data: { type: "undo" } }, ORIGIN, parent), null);
  // No embed origin configured: nothing is obeyed.
  assert.equal(inboundCommand({ origin: ORIGIN, source: parent, data: { type: "undo" } }, null, parent), null);
});

test("a token comes down from the parent as a prop: a string the server could take, nothing else", () => {
  const from = (data, origin = ORIGIN) => inboundCommand({ origin, source: parent, data }, ORIGIN, parent);
  assert.deepEqual(from({ type: "token", token: "h.p.s" }), { type: "token", token: "h.p.s" });
  assert.equal(from({ type: "token", token: "h.p.s" }, "https://evil.example"), null);
  assert.equal(from({ type: "token" }), null);
  assert.equal(from({ type: "token", token: "" }), null);
  assert.equal(from({ type: "token", token: 42 }), null);
  assert.equal(from({ type: "token", token: "x".repeat(4097) }), null);
  assert.deepEqual(from({ type: "token", token: "x".repeat(4096) }), { type: "token", token: "x".repeat(4096) });
});

test("only undo and focus with an id are commands", () => {
  const from = (data) => inboundCommand({ origin: ORIGIN, source: parent, data }, ORIGIN, parent);
  assert.equal(from({ type: "focus" }), null);
  assert.equal(from({ type: "focus", id: 3 }), null);
  assert.equal(from({ type: "drop" }), null);
  assert.equal(from("undo"), null);
  assert.equal(from(null), null);
  assert.deepEqual(from({ type: "undo", extra: 1 }), { type: "undo" });
});

test("events go up as their name and detail; heights as whole pixels", () => {
  assert.deepEqual(eventMessage("liftboard-drop", { id: "a" }), { type: "liftboard-drop", detail: { id: "a" } });
  assert.deepEqual(resizeMessage(480.2), { type: "resize", height: 481 });
  assert.deepEqual(FORWARDED_EVENTS.map((n) => n.replace("liftboard-", "")), ["lift", "move", "drop", "cancel", "commit", "connection", "error", "token-expiring"]);
  assert.deepEqual(tokenRequestMessage(), { type: "token-request" });
});
