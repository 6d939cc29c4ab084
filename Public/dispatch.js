// The client's message dispatch: what one server message does to a board's client state, and
// which DOM events it makes the element fire. Pure: no DOM, no clock, no socket; the element
// passes `now` and performs what comes back (fires the events, announces, redraws).
import { gestureEvents } from "./client.js";
import { applyMessage, createScene } from "./scene.js";
import * as predict from "./predict.js";
import { noteGesture } from "./tree-view.js";
import { assemblePresence } from "./presence-view.js";

/** A board's client state; `window.__liftboard` (the demo page) and `element.state` are one. */
export function createClientState(predictEnabled = true) {
  return {
    scene: createScene(), open: false, attempts: 0, seq: 0, sent: 0, received: 0,
    announcements: [], commits: 0, version: null, lastChange: null, drawMs: [], session: null, config: null,
    gestures: { lift: 0, moved: 0, drop: 0 },
    prediction: predict.createPrediction(predictEnabled),
    lifts: new Map(),  // pointer -> {id, from}: this element's gestures in flight
    order: null,       // {version, sections: {section: [ids]}}: the last committed order known
    trace: null,       // benchmarks set an array: every drawn frame's pointers and snapshot centers
  };
}

/** A new connection starts from nothing the old one said (the committed order stays: it is
 *  replaced by the next layout or commit). */
export function resetForConnection(state) {
  state.scene = createScene();
  state.lifts.clear();
  state.prediction.pointers.clear();
  state.session = null;
}

/** The order a layout shows: every section, its cells by index. A layout carries the cells
 *  near the viewport only, so on a long board this is the order's visible part. */
export function layoutOrder(msg) {
  const sections = {};
  for (const s of msg.sections || []) sections[s.id] = [];
  const cells = [...(msg.cells || [])].sort((a, b) => a.index - b.index);
  for (const c of cells) (sections[c.section] ??= []).push(c.id);
  return sections;
}

/** A commit's `order` ([{section, items}]) as a plain object, section id to item ids. */
export function orderObject(order) {
  const out = {};
  for (const s of order) out[s.section] = [...s.items];
  return out;
}

function knowOrder(state, version, sections) {
  if (state.order && state.order.version > version) return;
  state.order = { version, sections };
}

function gestureDetail(lift, e, to) {
  return { id: e.id, from: lift ? lift.from : e.from, to, pointer: e.p };
}

/**
 * Handles one server message. Returns `{events: [[name, detail]], announce, redraw}`: the DOM
 * events to fire in order, a screen-reader text (or null), and whether the picture changed.
 * - Complexity: O(what the message carries).
 */
export function receive(state, msg, now) {
  const out = { events: [], announce: null, redraw: false };
  const pred = state.prediction;
  state.received++;
  if (msg.t === "layout") {
    state.version = msg.version;
    knowOrder(state, msg.version, layoutOrder(msg));
  }
  // lift, moved and drop: inside the frame (events inline, as the page asks) or on their own;
  // either way before the frame's picture, as the contract orders them.
  for (const e of gestureEvents(msg)) {
    state.gestures[e.t]++;
    noteGesture(state.scene, e);  // a tree's insertion depth (places carry `depth` there only)
    if (e.t === "lift") {
      // An item a tap added to pointer p's drag (`added`) joins it: p's drag stays the first lift's.
      if (!e.added) state.lifts.set(e.p, { id: e.id, from: e.from });
      const detail = gestureDetail(null, e, e.from);
      if (e.added) detail.added = true;
      out.events.push(["liftboard-lift", detail]);
      predict.onLift(pred, e, state.scene, now);
      predict.apply(pred, state.scene, now);
      out.redraw = true;
    } else if (e.t === "moved") {
      out.events.push(["liftboard-move", gestureDetail(state.lifts.get(e.p), e, e.to)]);
    } else if (e.t === "drop") {
      const lift = state.lifts.get(e.p);
      state.lifts.delete(e.p);
      out.events.push([e.cancelled ? "liftboard-cancel" : "liftboard-drop", gestureDetail(lift, e, e.at)]);
      predict.onDrop(pred, e);
    }
  }
  if (msg.t === "frame") {
    const drawn = predict.drawnCenters(pred, state.scene, now);
    applyMessage(state.scene, msg, now);
    predict.onFrame(pred, msg, state.scene, now, drawn);
    predict.apply(pred, state.scene, now);
    out.redraw = true;
    // `commits: "inline"`: the commit this frame animates, after its changes.
    if (msg.commit) committed(state, msg.commit, out);
  } else if (applyMessage(state.scene, msg, now)) {
    predict.apply(pred, state.scene, now);
    out.redraw = true;
  } else if (msg.t === "pong") {
    predict.onPong(pred, msg, state.scene, now);
    out.redraw = true;
  } else if (msg.t === "announce") {
    state.announcements.push(msg.text);
    out.announce = msg.text;
  } else if (msg.t === "commit") {
    committed(state, msg, out);
  } else if (msg.t === "welcome") {
    state.session = msg.session;
    state.config = msg.config;
    pred.config = msg.config;
  } else if (msg.t === "presence") {
    // Who is on the board and what each holds: the chips and markers redraw with it.
    // Whole or, as the page asks (client.js), a difference from the last: rebuilt whole here,
    // so `liftboard-presence` carries the whole presence either way.
    const made = assemblePresence(state.scene.presence, state.presenceV, msg);
    if (made.missed) state.presenceMissed = (state.presenceMissed || 0) + 1;
    state.scene.presence = made.presence;
    state.presenceV = made.v;
    out.events.push(["liftboard-presence", { ...made.presence }]);
    out.redraw = true;
  } else if (msg.t === "error") {
    out.events.push(["liftboard-error", { code: msg.code, message: msg.message }]);
  }
  return out;
}

/** A commit: its own message, or a frame's `commit` (`hello.config.commits: "inline"`). */
function committed(state, msg, out) {
  state.commits++;
  state.version = msg.version;
  state.lastChange = msg.change ?? null;
  const detail = { version: msg.version, by: msg.by, own: msg.by === state.session, change: msg.change ?? null };
  // Who made it (issue 42): the token's `sub` and `name`, when the server knows them.
  if (msg.user !== undefined) detail.user = msg.user;
  if (msg.name !== undefined) detail.name = msg.name;
  if (msg.order) {
    detail.order = orderObject(msg.order);
    knowOrder(state, msg.version, orderObject(msg.order));
  }
  out.events.push(["liftboard-commit", detail]);
}
