// The demo page: a thin host of <liftboard-board> (liftboard.js), the same element any page
// embeds. It maps its URL onto the element's attributes, shows the connection, and adds what
// only a whole page has: kiosk mode and Ctrl-Z from anywhere on the page.
import { debugQuery, pageOptions } from "./client.js";
import { renderAvatarStack } from "./presence-view.js";

const options = pageOptions(location.search);
const board = document.getElementById("board");
const statusEl = document.getElementById("status");
const notice = document.getElementById("kiosk-notice");

// The URL's options become attributes before the element is defined, so it connects once.
board.setAttribute("board", options.board);
if (options.token) board.setAttribute("token", options.token);
if (options.idleResetMs > 0) board.setAttribute("idle-reset", String(options.idleResetMs));
if (!options.predict) board.setAttribute("predict", "off");
if (options.kiosk) document.body.classList.add("kiosk");

const TEXT = { connecting: "connecting…", open: "connected", closed: "reconnecting…" };
let opened = false;
board.addEventListener("liftboard-connection", (ev) => {
  const s = ev.detail.state;
  opened ||= s === "open";
  statusEl.dataset.state = s;
  statusEl.textContent = s === "connecting" && opened ? "reconnecting…" : TEXT[s];
  notice.hidden = !(options.kiosk && s !== "open");
});
// Who else is on the board (issue 44): an avatar stack in the header.
const people = document.getElementById("people");
board.addEventListener("liftboard-presence", (ev) => renderAvatarStack(people, ev.detail, board.state.session));
board.addEventListener("liftboard-error", (ev) => console.warn("liftboard:", ev.detail.code, ev.detail.message));
await import("./liftboard.js");
// The read-only hook for tests, benchmarks and debugging, only on a page asked for it.
if (debugQuery(location.search)) window.__liftboard = board.state;

// Ctrl-Z (Cmd-Z on a Mac) anywhere on the page undoes the board's last drop (the board itself
// handles it when it has the focus).
document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented) return;
  if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === "z") {
    board.undo();
    ev.preventDefault();
  }
});
for (const type of ["gesturestart", "gesturechange", "selectstart", "dragstart"]) {
  document.addEventListener(type, (ev) => ev.preventDefault());
}

// --- Kiosk: the cursor hides after a few idle seconds.
if (options.kiosk) {
  let idleTimer = null;
  const active = () => {
    document.body.classList.remove("idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => document.body.classList.add("idle"), 3000);
  };
  for (const type of ["pointermove", "pointerdown", "keydown"]) document.addEventListener(type, active);
  active();
}
