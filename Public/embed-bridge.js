// The iframe mode's messages (`/embed?board=ID`), pure: what the embedded page posts to its
// parent, and which of the parent's messages it obeys. The parent is the one `--embed-origin`
// the server names: events go to that exact origin (never "*"), commands count only from it.
// A signed token comes down the same way (`{type: "token", token}`), as a prop: the host's
// page, which knows the user, fetches or mints it; the embedded page asks for one with
// `{type: "token-request"}` when it starts with `auth=parent`, and forwards the element's
// `liftboard-token-expiring` when the server says the one it has runs out.

/** The element's events the embedded page forwards to its parent. */
export const FORWARDED_EVENTS = ["liftboard-lift", "liftboard-move", "liftboard-drop", "liftboard-cancel",
  "liftboard-commit", "liftboard-connection", "liftboard-error", "liftboard-token-expiring"];

/** The message for one of the element's events: its name and detail. */
export function eventMessage(name, detail) {
  return { type: name, detail };
}

/** The message asking the parent for a token (`/embed?auth=parent`: nothing connects before one). */
export function tokenRequestMessage() {
  return { type: "token-request" };
}

/** The message saying the embedded content is now `height` CSS pixels tall. */
export function resizeMessage(height) {
  return { type: "resize", height: Math.ceil(height) };
}

/**
 * The command a `message` event carries, or null to ignore it: only the embed origin's
 * parent window is obeyed, and only `{type: "undo"}`, `{type: "focus", id}` and
 * `{type: "token", token}` (a non-empty string of at most 4,096 bytes, as the server takes).
 * `ev`: {origin, source, data}; `origin`: the embed origin; `parent`: window.parent.
 */
export function inboundCommand(ev, origin, parent) {
  if (!origin || ev.origin !== origin || ev.source !== parent) return null;
  const d = ev.data;
  if (d === null || typeof d !== "object") return null;
  if (d.type === "undo") return { type: "undo" };
  if (d.type === "focus" && typeof d.id === "string" && d.id.length > 0) return { type: "focus", id: d.id };
  if (d.type === "token" && typeof d.token === "string" && d.token.length > 0 && d.token.length <= 4096) {
    return { type: "token", token: d.token };
  }
  return null;
}
