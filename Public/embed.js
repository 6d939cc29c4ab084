// The iframe mode (`/embed?board=ID`): one <liftboard-board> that tells its parent page what
// happens (postMessage to the server's `--embed-origin` only) and obeys that page's undo,
// focus and token. With `auth=parent` it connects only once the parent has posted a token
// (it asks with `token-request`), and renews it in place with each one that follows.
// docs/embedding.md.
import { FORWARDED_EVENTS, eventMessage, inboundCommand, resizeMessage, tokenRequestMessage } from "./embed-bridge.js";
import { debugQuery } from "./client.js";

const q = new URLSearchParams(location.search);
const board = document.getElementById("board");
board.setAttribute("board", q.get("board") || "demo");
if (q.get("token")) board.setAttribute("token", q.get("token"));
if (q.get("mode")) board.setAttribute("mode", q.get("mode"));

// The one origin to talk to, from the server; none (no --embed-origin): talk to nobody.
const origin = await fetch(new URL("embed/config", import.meta.url)).then((r) => (r.ok ? r.json() : null)).then((c) => c?.origin ?? null, () => null);
const post = (msg) => { if (origin && window.parent !== window) window.parent.postMessage(msg, origin); };
/** What the bridge did (tests and debugging): the origin it talks to, messages obeyed and ignored. */
const bridge = { origin, obeyed: 0, ignored: 0 };
let firstToken = null;
const tokenGiven = new Promise((resolve) => { firstToken = resolve; });
window.__embed = bridge;

for (const name of FORWARDED_EVENTS) board.addEventListener(name, (ev) => post(eventMessage(name, ev.detail)));
window.addEventListener("message", (ev) => {
  const command = inboundCommand(ev, origin, window.parent);
  bridge[command ? "obeyed" : "ignored"]++;
  if (command?.type === "undo") board.undo();
  else if (command?.type === "focus") board.focusItem(command.id);
  else if (command?.type === "token") { board.setAttribute("token", command.token); firstToken(); }
});
let height = -1;
new ResizeObserver(() => {
  const h = document.documentElement.scrollHeight;
  if (h !== height) { height = h; post(resizeMessage(h)); }
}).observe(document.body);

// `auth=parent`: no connection before the parent's first token (the element would connect without one).
if (q.get("auth") === "parent") {
  post(tokenRequestMessage());
  await tokenGiven;
}
await import("./liftboard.js");
// The read-only hook for tests, benchmarks and debugging, only on a page asked for it.
if (debugQuery(location.search)) window.__liftboard = board.state;
