// The element's shadow root: its style (a constructed sheet) and its nodes (the canvas, the
// screen reader's instructions and live region, the "Move to…" menu, a system-color probe).
// Built once per element; the other modules are handed the nodes.

// Light and dark follow the system (the canvas reads the same choice: theme-watch.js); a host
// page's --liftboard-* custom properties win over both (docs/embedding.md).
const STYLE = `
:host { display: block; position: relative; height: 480px; color-scheme: light dark;
  background: var(--liftboard-background, #f5f5f7); }
@media (prefers-color-scheme: dark) { :host { background: var(--liftboard-background, #000); } }
@media (forced-colors: active) { :host { background: Canvas; } }
:host([hidden]) { display: none; }
canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block; touch-action: none;
  user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; outline: none; }
canvas:focus-visible { box-shadow: inset 0 0 0 3px #1a73e8; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.menu { position: absolute; z-index: 2; min-width: 180px; padding: 4px 0; margin: 0; background: #fff; color: #1d1d1f;
  border-radius: var(--liftboard-radius, 10px); box-shadow: 0 8px 28px rgba(0,0,0,0.25);
  font: 15px var(--liftboard-font, system-ui, sans-serif); }
@media (prefers-color-scheme: dark) { .menu { background: #2c2c2e; color: #f5f5f7; } .menu hr { border-top-color: #48484a; } }
@media (forced-colors: active) { .menu { border: 1px solid CanvasText; } }
.system-colors { position: absolute; visibility: hidden; }
.menu[hidden] { display: none; }
.menu button { display: block; width: 100%; padding: 8px 16px; border: 0; background: none; color: inherit;
  font: inherit; text-align: left; cursor: pointer; }
.menu button:focus, .menu button:hover { background: #1a73e8; color: #fff; outline: none; }
.menu hr { border: 0; border-top: 1px solid #e5e5ea; margin: 4px 0; }
`;
// A constructed sheet: no <style> element, so a host page's CSP needs no 'unsafe-inline'.
let sheet = null;
function styleSheet() {
  if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(STYLE); }
  return sheet;
}

const INSTRUCTIONS = "Long-press a card and drag it to reorder. With the keyboard: Tab to the board, arrow keys move "
  + "the focus, Space lifts the focused card, arrow keys move it, Space drops it, Escape cancels. "
  + "The context menu key, Shift+F10 or a right click opens Move to… for a card.";
let instances = 0;

/** Attaches `host`'s shadow root and fills it. Returns its nodes: `{canvas, live, menu, probe}`. */
export function buildShadow(host) {
  const root = host.attachShadow({ mode: "open", delegatesFocus: true });
  root.adoptedStyleSheets = [styleSheet()];
  const n = ++instances;
  const canvas = document.createElement("canvas");
  Object.assign(canvas, { tabIndex: 0 });
  canvas.setAttribute("role", "application");
  canvas.setAttribute("aria-label", "Reorderable board");
  canvas.setAttribute("aria-describedby", `instructions-${n}`);
  const instructions = document.createElement("p");
  instructions.id = `instructions-${n}`;
  instructions.className = "visually-hidden";
  instructions.textContent = INSTRUCTIONS;
  const live = document.createElement("div");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "assertive");
  live.setAttribute("aria-atomic", "true");
  const menu = document.createElement("div");
  menu.className = "menu";
  menu.setAttribute("role", "menu");
  menu.hidden = true;
  // Resolves the system colors forced colors put in force (canvas takes no keywords of them everywhere).
  const probe = document.createElement("span");
  probe.className = "system-colors";
  probe.setAttribute("aria-hidden", "true");
  root.append(canvas, instructions, live, menu, probe);
  return { canvas, live, menu, probe };
}
