// Pure helpers of the page's connection: messages it sends, where it connects, how long it waits.

/** Options from the page's own URL: board, kiosk mode, idle reset, token, prediction. */
export function pageOptions(search) {
  const q = new URLSearchParams(search);
  const kiosk = q.get("kiosk") === "1";
  const idle = Number(q.get("idle"));
  return {
    board: q.get("board") || "demo",
    kiosk,
    idleResetMs: kiosk ? (Number.isFinite(idle) && idle > 0 ? idle : 60000) : 0,
    token: q.get("token"),
    // `predict=0` draws only what the server says (benchmarks compare the two).
    predict: q.get("predict") !== "0",
  };
}

/** The WebSocket URL for a page served at `location`. With a token it names the board too
 *  (`/ws?board=B&token=T`): a server with `--auth-keys` checks both before the upgrade. */
export function socketURL(location, token, board) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return withToken(`${scheme}//${location.host}/ws`, token, board);
}

function withToken(href, token, board) {
  if (!token) return href;
  const url = new URL(href);
  for (const name of ["board", "token"]) url.searchParams.delete(name);
  const query = (board ? [["board", board]] : []).concat([["token", token]])
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url.href;
}

/** A `<liftboard-board>`'s options from its attributes (`get(name)`: the value or null). */
export function elementOptions(get) {
  const idle = Number(get("idle-reset"));
  const mode = get("mode");
  return {
    server: get("server"),
    board: get("board") || "demo",
    token: get("token"),
    // A URL of the host app that answers a POST (with the page's cookies) with `{"token"}`:
    // fetched before connecting and when the server says the token is expiring (auth-session.js).
    authEndpoint: get("auth-endpoint"),
    mode: mode === "swap" || mode === "insert" ? mode : null,
    idleResetMs: Number.isFinite(idle) && idle > 0 ? idle : 0,
    predict: get("predict") !== "off",
    // "full" (the default): every commit carries the board's order, which `order()` returns;
    // "none" keeps commits small on huge boards (the demo page's choice).
    commitOrder: get("commit-order") === "none" ? "none" : "full",
  };
}

/** Where an element connects: its `server` attribute (the board and token added), else the
 *  `/ws` of the server that served the module (`moduleURL`, its `import.meta.url`). */
export function elementSocketURL(server, moduleURL, token, board) {
  if (!server) return socketURL(new URL(moduleURL), token, board);
  return withToken(server, token, board);
}

/** The first message; `ms` is the page's clock, which the server maps onto its own. */
export function helloMessage(options, viewport, reducedMotion, ms = 0) {
  // The page draws from frames and has no use for a board's whole order: commits come as
  // their change only, a few hundred bytes on a board of any size. lift, moved and drop ride
  // inside the frame that follows them: one message per move instead of two.
  const config = { commitOrder: options.commitOrder || "none", events: "inline" };
  // A page that predicts draws a dragged snapshot under the finger itself: the server need not
  // answer a move that only moves it (docs/protocol.md, "Quiet follow").
  if (options.predict) config.follow = "quiet";
  // A commit made elsewhere inside the frame that animates it: one message, not two.
  config.commits = "inline";
  // Every `layout` names its layout (list, grid, columns): the page draws each kind as it is,
  // never guessing it from a cell's shape.
  config.layouts = "named";
  // Each presence after the first as a difference (issue 44): dispatch.js rebuilds it whole.
  config.presence = "delta";
  if (options.mode) config.mode = options.mode;
  if (options.idleResetMs > 0) config.idleResetMs = options.idleResetMs;
  if (reducedMotion) config.reducedMotion = true;
  return { t: "hello", v: 1, board: options.board, viewport, config, ms };
}

/** The lift, moved and drop a message carries, in order: a frame's inline `events`, or the
 *  message itself when the server sent it on its own. */
export function gestureEvents(msg) {
  if (msg.t === "frame") return msg.events || [];
  return msg.t === "lift" || msg.t === "moved" || msg.t === "drop" ? [msg] : [];
}

/** The modifier keys of a DOM pointer or keyboard event as a message's `mods` ("shift", "ctrl",
 *  "meta", "alt", in that order), or undefined when none is held: Ctrl/Cmd-click toggles a
 *  cell's selection, Shift-click selects a range, Shift+Space selects the focused item. */
export function modifiers(ev) {
  const mods = [];
  if (ev.shiftKey) mods.push("shift");
  if (ev.ctrlKey) mods.push("ctrl");
  if (ev.metaKey) mods.push("meta");
  if (ev.altKey) mods.push("alt");
  return mods.length ? mods : undefined;
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 10 s, each ±50 %. */
/** The `ms` a message is sent with: the time the input happened (`eventMs`, an event's
 *  `timeStamp`, on `performance.now()`'s clock) when it is one, else `now`; never before the
 *  last one sent (`lastMs`), since the server takes a smaller `ms` as the last anyway; rounded
 *  to the microsecond. A `timeStamp` more than a second old or in the future is some other
 *  clock's (old engines stamped events from the epoch) and is not used. */
export function stampMs(eventMs, now, lastMs) {
  const at = typeof eventMs === "number" && eventMs <= now && eventMs >= now - 1000 ? eventMs : now;
  return Math.max(lastMs, Math.round(at * 1000) / 1000);
}

export function backoffMs(attempt, random = Math.random) {
  const base = Math.min(10000, 500 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.5 + random()));
}

/** Keys the page forwards (and keeps from scrolling or activating the page). */
/** Whether a page's query (`location.search`) asks for the debugging and benchmark hooks
 *  (`?debug=1`: `window.__liftboard`, `state.measureDraw`, `state.trace`). */
export function debugQuery(search) {
  return new URLSearchParams(search).get("debug") === "1";
}

export const FORWARDED_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Enter", "Escape"]);
